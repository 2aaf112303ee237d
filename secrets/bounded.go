package secrets

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
	"unicode/utf8"
)

// Go's compiler spells out a counted repetition: x{n,m} is n copies of x
// and m-n nested optional ones, two instructions each. The rules' values
// are such runs ([A-Za-z0-9_-]{24,500}, [^\s"]{4,128}), and on a tree
// that wakes every rule the optional copies were ~60% of the compiled
// programs. A rule's expression is therefore compiled with the upper bound
// of each such repetition of one character dropped (x{n,}), the
// repetition in a group of its own, and a match is taken only when each
// such group took at most its bound; else the expression as written
// decides, compiled then.
//
// That is exact. Leftmost-first matching takes, at the leftmost start that
// matches, the first path in the backtracking order. The paths of the
// expression as written are those of the loosened one on which each such
// repetition takes at most its bound, in the same order (greedy takes the
// most first, lazy the fewest, bound or not). A match of the loosened
// expression whose groups took no more took a path of both, and every
// path before it, at the same start or an earlier one, failed in the
// loosened expression, so in the written one too. Each match of a FindAll
// is found from where the one before ended, so the argument holds for each.
// A repetition inside another (or under *, +, ?) may run more than once on
// a path, and its group records only the last: it is left as written.

// loosenMinSpan is the smallest m-n of a repetition x{n,m} loosened: a
// smaller one saves few instructions for the group it adds.
const loosenMinSpan = 8

// ruleRegexp is a rule's compiled expression: the loosened one, and the
// expression as written, compiled the first time a match of the loosened
// one is not taken.
type ruleRegexp struct {
	re   *regexp.Regexp
	most []int // by loosened group, in order: the bound; nil: re is as written
	// groups of re by group as written (0: the match), and those loosenBounds added
	groups, added []int
	src           string // as written
	// compile compiles src as re was (compileFolded or regexp.Compile)
	compile   func(string) (*regexp.Regexp, error)
	exactOnce sync.Once
	exact     *regexp.Regexp
}

// wrapRegexp is re as a ruleRegexp, nothing loosened (a caller's Regex).
func wrapRegexp(re *regexp.Regexp) *ruleRegexp { return &ruleRegexp{re: re} }

// compileLoosened compiles expr with compile, its long counted repetitions
// of one character loosened (see ruleRegexp).
func compileLoosened(expr string, compile func(string) (*regexp.Regexp, error)) (*ruleRegexp, error) {
	src, most := loosenBounds(expr)
	if most == nil {
		re, err := compile(expr)
		if err != nil {
			return nil, err
		}
		return &ruleRegexp{re: re, src: expr}, nil
	}
	re, err := compile(src)
	if err != nil {
		return nil, err
	}
	e := &ruleRegexp{re: re, most: most, src: expr, compile: compile}
	for i, name := range re.SubexpNames() {
		if name == boundGroupName {
			e.added = append(e.added, i)
		} else {
			e.groups = append(e.groups, i)
		}
	}
	if len(e.added) != len(most) {
		panic("secrets: loosened " + expr + ": the groups added are not found")
	}
	return e, nil
}

// boundGroupName names the groups loosenBounds adds; no rule names one so.
const boundGroupName = "sotvetLoosenedBound"

// loosenBounds returns expr with each repetition of one character
// spanning loosenMinSpan or more, under no other, loosened into a group
// named boundGroupName, and the bounds in the order of the groups; expr
// itself and nil when there is none (or it does not parse: compile
// reports that).
func loosenBounds(expr string) (string, []int) {
	if strings.Contains(expr, boundGroupName) {
		return expr, nil // a caller's expression that names our group: kept as written
	}
	if !wideBoundWritten(expr) {
		return expr, nil // nothing to loosen: no parse (compile parses it again)
	}
	return loosenParsed(expr)
}

// loosenParsed is loosenBounds past its look at the text.
func loosenParsed(expr string) (string, []int) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return expr, nil
	}
	var most []int
	var walk func(re *syntax.Regexp, inLoop bool) *syntax.Regexp
	walk = func(re *syntax.Regexp, inLoop bool) *syntax.Regexp {
		loop := inLoop
		switch re.Op {
		case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
			loop = true
		}
		for i, sub := range re.Sub {
			re.Sub[i] = walk(sub, loop)
		}
		if inLoop || re.Op != syntax.OpRepeat || re.Max < 0 || re.Max-re.Min < loosenMinSpan || !oneChar(re.Sub[0]) {
			return re
		}
		most = append(most, re.Max)
		re.Max = -1
		return &syntax.Regexp{Op: syntax.OpCapture, Name: boundGroupName, Sub: []*syntax.Regexp{re}}
	}
	re = walk(re, false)
	if most == nil {
		return expr, nil
	}
	return regexpString(re), most
}

// wideBoundWritten reports whether expr holds the text of a counted
// repetition x{n,m} with m-n >= loosenMinSpan. The parser makes every
// OpRepeat from such text with the same n and m, so an expression without
// one has nothing loosenBounds loosens; text that only looks like one (in
// a class, escaped, in \Q...\E) answers true and is parsed, as before.
func wideBoundWritten(expr string) bool {
	for i := 0; i < len(expr); i++ {
		if expr[i] != '{' {
			continue
		}
		n, j := leadingInt(expr, i+1)
		if j == i+1 || j >= len(expr) || expr[j] != ',' {
			continue
		}
		m, k := leadingInt(expr, j+1)
		if k > j+1 && k < len(expr) && expr[k] == '}' && m-n >= loosenMinSpan {
			return true
		}
	}
	return false
}

// leadingInt reads the decimal digits of s from i: their value (capped
// well above any repetition count the parser takes) and where they end.
func leadingInt(s string, i int) (int, int) {
	v := 0
	for ; i < len(s) && '0' <= s[i] && s[i] <= '9'; i++ {
		v = min(v*10+int(s[i]-'0'), 1<<20)
	}
	return v, i
}

// oneChar reports whether re matches exactly one character.
func oneChar(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return true
	case syntax.OpLiteral:
		return len(re.Rune) == 1
	}
	return false
}

// fits reports whether each loosened group of the match m of text took at
// most its bound: runes as regexp decodes them, an invalid byte one.
func (e *ruleRegexp) fits(text []byte, m []int) bool {
	for k, g := range e.added {
		a, b := m[2*g], m[2*g+1]
		if a >= 0 && b-a > e.most[k] && utf8.RuneCount(text[a:b]) > e.most[k] {
			return false
		}
	}
	return true
}

// asWritten returns the match m of the loosened expression with the
// groups of the expression as written only.
func (e *ruleRegexp) asWritten(m []int) []int {
	out := make([]int, 0, 2*len(e.groups))
	for _, g := range e.groups {
		out = append(out, m[2*g], m[2*g+1])
	}
	return out
}

func (e *ruleRegexp) written() *regexp.Regexp {
	e.exactOnce.Do(func() {
		re, err := e.compile(e.src)
		if err != nil {
			panic(err) // the loosened form compiled
		}
		e.exact = re
	})
	return e.exact
}

// FindSubmatchIndex is regexp.Regexp.FindSubmatchIndex of the expression
// as written.
func (e *ruleRegexp) FindSubmatchIndex(b []byte) []int {
	m := e.re.FindSubmatchIndex(b)
	if m == nil || e.most == nil {
		return m
	}
	if e.fits(b, m) {
		return e.asWritten(m)
	}
	return e.written().FindSubmatchIndex(b)
}

// FindAllSubmatchIndex is regexp.Regexp.FindAllSubmatchIndex of the
// expression as written.
func (e *ruleRegexp) FindAllSubmatchIndex(b []byte, n int) [][]int {
	ms := e.re.FindAllSubmatchIndex(b, n)
	if e.most == nil {
		return ms
	}
	for _, m := range ms {
		if !e.fits(b, m) {
			return e.written().FindAllSubmatchIndex(b, n)
		}
	}
	for i, m := range ms {
		ms[i] = e.asWritten(m)
	}
	return ms
}

// SubexpNames is regexp.Regexp.SubexpNames of the expression as written.
func (e *ruleRegexp) SubexpNames() []string {
	names := e.re.SubexpNames()
	if e.most == nil {
		return names
	}
	out := make([]string, len(e.groups))
	for i, g := range e.groups {
		out[i] = names[g]
	}
	return out
}

// String returns the source as written.
func (e *ruleRegexp) String() string {
	if e.src == "" {
		return e.re.String()
	}
	return e.src
}
