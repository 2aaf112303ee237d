package prose

import (
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dlclark/regexp2"
)

// pattern is a rule's expression. Most compile as RE2 and run in linear
// time; those that need what RE2 lacks (lookarounds, back-references, as
// Vale's regexp2 takes them) run on a backtracking engine with a deadline
// per block, so a hostile style cannot hang a run.
type pattern struct {
	std  *regexp.Regexp
	back *regexp2.Regexp
	src  string
	lit  *literal // the same search, done without an expression
}

// literal is a token that is plain words: found with a string search and
// the \b checks its expression would make, which for a word list is many
// times cheaper than running its expression over every block.
type literal struct {
	words  []string // lower-cased when fold
	fold   bool
	bounds bool // \b around the whole
	group  bool // the match is also group 1
}

// plainWords returns the words of a token that is only letters, digits,
// apostrophes, hyphens and single spaces.
func plainWords(tok string) []string {
	if tok == "" || strings.HasPrefix(tok, " ") || strings.HasSuffix(tok, " ") || strings.Contains(tok, "  ") {
		return nil
	}
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '\'' || c == '-' || c == ' ') {
			return nil
		}
	}
	return strings.Split(tok, " ")
}

// literalPattern compiles a token as template would, with the literal
// search beside it.
func literalPattern(expr string, words []string, fold, bounds, group bool) (*pattern, error) {
	p, err := compilePattern(expr)
	if err != nil || words == nil {
		return p, err
	}
	if fold {
		lw := make([]string, len(words))
		for i, w := range words {
			lw[i] = strings.ToLower(w)
		}
		words = lw
	}
	p.lit = &literal{words: words, fold: fold, bounds: bounds, group: group}
	return p, nil
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// boundary reports whether \b holds at i of s.
func boundary(s string, i int) bool {
	before := i > 0 && isWordByte(s[i-1])
	after := i < len(s) && isWordByte(s[i])
	return before != after
}

func (l *literal) findAll(s string) [][]int {
	text := s
	if l.fold {
		text = asciiLower(s)
	}
	var out [][]int
	first := l.words[0]
	for i := 0; i <= len(text)-len(first); {
		j := strings.Index(text[i:], first)
		if j < 0 {
			break
		}
		start := i + j
		end, ok := l.matchAt(text, start)
		if ok && (!l.bounds || boundary(text, start) && boundary(text, end)) {
			if l.group {
				out = append(out, []int{start, end, start, end})
			} else {
				out = append(out, []int{start, end})
			}
			i = end
			if end == start {
				i++
			}
			continue
		}
		i = start + 1
	}
	return out
}

// matchAt matches the words from start, with a run of white space between
// each two, and returns the end.
func (l *literal) matchAt(text string, start int) (int, bool) {
	at := start + len(l.words[0])
	for _, w := range l.words[1:] {
		k := at
		for k < len(text) && (text[k] == ' ' || text[k] == '\t' || text[k] == '\n' || text[k] == '\r' || text[k] == '\f' || text[k] == '\v') {
			k++
		}
		if k == at || !strings.HasPrefix(text[k:], w) {
			return 0, false
		}
		at = k + len(w)
	}
	return at, true
}

// asciiLower lowers ASCII letters only, so that offsets stay those of s.
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for k := i; k < len(b); k++ {
				if c := b[k]; c >= 'A' && c <= 'Z' {
					b[k] = c + 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// backtrackTimeout bounds one search of a backtracking pattern.
const backtrackTimeout = 200 * time.Millisecond

func compilePattern(expr string) (*pattern, error) {
	if re, err := regexp.Compile(expr); err == nil {
		return &pattern{std: re, src: expr}, nil
	}
	re, err := regexp2.Compile(expr, regexp2.RE2)
	if err != nil {
		return nil, err
	}
	re.MatchTimeout = backtrackTimeout
	return &pattern{back: re, src: expr}, nil
}

// backtracking reports whether the pattern needs the backtracking engine.
func (p *pattern) backtracking() bool { return p.back != nil }

// findAll returns the byte spans of every match and of its groups, as
// regexp's FindAllStringSubmatchIndex does.
func (p *pattern) findAll(s string) [][]int {
	if p.lit != nil && (!p.lit.fold || isASCII(s)) {
		return p.lit.findAll(s)
	}
	if p.std != nil {
		return p.std.FindAllStringSubmatchIndex(s, -1)
	}
	var out [][]int
	m, err := p.back.FindStringMatch(s)
	var runeToByte []int
	for err == nil && m != nil {
		if runeToByte == nil {
			runeToByte = runeOffsets(s)
		}
		groups := m.Groups()
		loc := make([]int, 2*len(groups))
		for i, g := range groups {
			if len(g.Captures) == 0 {
				loc[2*i], loc[2*i+1] = -1, -1
				continue
			}
			loc[2*i], loc[2*i+1] = runeToByte[g.Index], runeToByte[g.Index+g.Length]
		}
		out = append(out, loc)
		m, err = p.back.FindNextMatch(m)
	}
	return out
}

// matches reports whether s has a match.
func (p *pattern) matches(s string) bool {
	if p.std != nil {
		return p.std.MatchString(s)
	}
	ok, err := p.back.MatchString(s)
	return err == nil && ok
}

// runeOffsets maps a rune index of s to its byte offset (one past the end
// included).
func runeOffsets(s string) []int {
	out := make([]int, 0, len(s)+1)
	for i := range s {
		out = append(out, i)
	}
	return append(out, len(s))
}

// fullMatch reports whether p matches all of s.
func fullMatch(p *pattern, s string) bool {
	for _, loc := range p.findAll(s) {
		if loc[0] == 0 && loc[1] == len(s) {
			return true
		}
	}
	return false
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func runeLen(s string) int { return utf8.RuneCountInString(s) }
