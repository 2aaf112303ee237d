package secrets

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// An attempt at a start (searchAtStarts) runs the rule's expression
// anchored, as written. Go's regexp runs its backtracker only on programs
// of at most 500 instructions; above that every attempt goes through the
// NFA, whose first step adds a thread for each branch of the expression's
// alternations: prose-password-intl (3,282 instructions, 162 nouns in a
// dozen scripts) paid ~14 µs an attempt on a line of "Hasło do VPN:
// Xq7!mPa9z ", 166,000 attempts on 4 MB. Most branches cannot match in
// the few bytes an attempt reads: a branch that must read a literal rune
// cannot match in a text holding none of its bytes. An attempt's
// expression is therefore narrowed to the branches whose literal runes'
// bytes are all in its text (byteNarrowing): the others are replaced by
// a branch that never matches (holding their groups, so that the groups
// keep their numbers). In a leftmost-first alternation a branch that
// cannot match changes neither which branch matches nor its groups, so
// the narrowed expression finds what the whole one does; it is small
// enough, on a text of a few scripts, for the backtracker.

// narrowMinInsts is the size of program above which an attempt's
// expression is narrowed: at most 500 instructions Go already runs its
// backtracker. (A scanner's tuning; TestNarrowScanSame sets its own.)
const narrowMinInsts = 500

// narrowAfter is how many attempts a rule makes before its attempts are
// narrowed: a tree of small files, whose rules attempt a few times each,
// compiles no variant. (A scanner's tuning; TestNarrowScanSame sets its
// own.)
const narrowAfter int64 = 1024

// narrowVariants bounds the narrowed expressions a rule compiles, and
// narrowSets the byte sets it remembers the variant of; past them an
// attempt runs the whole expression, as before.
const (
	narrowVariants = 32
	narrowSets     = 4096
)

// byteSet is a set of bytes.
type byteSet [4]uint64

func (s *byteSet) add(c byte)            { s[c>>6] |= 1 << (c & 63) }
func (s *byteSet) meets(o *byteSet) bool { return s[0]&o[0]|s[1]&o[1]|s[2]&o[2]|s[3]&o[3] != 0 }

// narrowBranch is one branch of an alternation of the expression.
type narrowBranch struct {
	alt  *syntax.Regexp // the alternation
	i    int            // its index there
	sub  *syntax.Regexp // the branch
	need []byteSet      // a text it matches in holds a byte of each
	dead *syntax.Regexp // what stands for it when it cannot match
}

// byteNarrowing narrows one expression by the bytes of a text.
type byteNarrowing struct {
	whole *regexp.Regexp
	tree  *syntax.Regexp
	max   int // the most bytes a match consumes, -1 when unbounded
	// sparse: with max unbounded, the most bytes outside runs a match
	// consumes, -1 when unbounded too (see runBytes)
	sparse   int
	runs     byteSet
	branches []narrowBranch
	mu       sync.Mutex
	bySet    map[byteSet]*regexp.Regexp
	byLive   map[string]*regexp.Regexp
}

// newByteNarrowing returns the narrowing of expr (whose compiled form is
// whole), nil when its program is small or no branch needs a byte.
func newByteNarrowing(expr string, whole *regexp.Regexp) *byteNarrowing {
	return newByteNarrowingMin(expr, whole, narrowMinInsts)
}

// newByteNarrowingMin is newByteNarrowing for programs of more than
// minInsts instructions.
func newByteNarrowingMin(expr string, whole *regexp.Regexp, minInsts int) *byteNarrowing {
	tree, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	if prog, err := syntax.Compile(tree.Simplify()); err != nil || len(prog.Inst) <= minInsts {
		return nil
	}
	n := &byteNarrowing{whole: whole, tree: tree, max: maxMatchBytes(tree), bySet: map[byteSet]*regexp.Regexp{}, byLive: map[string]*regexp.Regexp{}}
	any := false
	var walk func(re *syntax.Regexp)
	walk = func(re *syntax.Regexp) {
		if re.Op == syntax.OpAlternate {
			for i, sub := range re.Sub {
				b := narrowBranch{alt: re, i: i, sub: sub, need: bytesNeeded(sub, nil), dead: deadBranch(sub)}
				any = any || len(b.need) > 0
				n.branches = append(n.branches, b)
			}
		}
		for _, sub := range re.Sub {
			walk(sub)
		}
	}
	walk(tree)
	if !any {
		return nil
	}
	return n
}

// bytesNeeded appends, for each rune re must read (a literal rune not
// under an optional or alternative part), the set of the bytes its UTF-8
// forms (and its case folds') all hold at one offset.
func bytesNeeded(re *syntax.Regexp, need []byteSet) []byteSet {
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			orbit := []rune{r}
			if re.Flags&syntax.FoldCase != 0 {
				for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
					orbit = append(orbit, f)
				}
			}
			need = runeBytesNeeded(orbit, need)
		}
	case syntax.OpCharClass:
		// a class of a single rune and its folds (compileFolded's form
		// of a folded literal) reads one of them
		var orbit []rune
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i+1]-re.Rune[i] > 3 || len(orbit) > 4 {
				return need
			}
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				if r != unfoldMarker {
					orbit = append(orbit, r)
				}
			}
		}
		if len(orbit) > 0 {
			need = runeBytesNeeded(orbit, need)
		}
	case syntax.OpCapture, syntax.OpPlus:
		need = bytesNeeded(re.Sub[0], need)
	case syntax.OpRepeat:
		if re.Min >= 1 {
			need = bytesNeeded(re.Sub[0], need)
		}
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			need = bytesNeeded(sub, need)
		}
	}
	return need
}

// runeBytesNeeded appends, for each offset every rune of orbit's UTF-8
// form has, the set of the bytes they hold there: a text in which one of
// them occurs holds a byte of each set. U+FFFD stands for any invalid
// byte in Go's regexp, so it needs nothing.
func runeBytesNeeded(orbit []rune, need []byteSet) []byteSet {
	short := utf8.UTFMax
	for _, r := range orbit {
		if r == utf8.RuneError || r < 0 || r > unicode.MaxRune {
			return need
		}
		short = min(short, utf8.RuneLen(r))
	}
	var buf [utf8.UTFMax]byte
	for k := 0; k < short; k++ {
		var s byteSet
		for _, r := range orbit {
			utf8.EncodeRune(buf[:], r)
			s.add(buf[k])
		}
		need = append(need, s)
	}
	return need
}

// deadBranch returns a branch that never matches and holds the groups of
// sub, in their order, so that the groups after it keep their numbers.
func deadBranch(sub *syntax.Regexp) *syntax.Regexp {
	d := &syntax.Regexp{Op: syntax.OpConcat, Sub: []*syntax.Regexp{{Op: syntax.OpNoMatch}}}
	var caps func(re *syntax.Regexp)
	caps = func(re *syntax.Regexp) {
		if re.Op == syntax.OpCapture {
			d.Sub = append(d.Sub, &syntax.Regexp{Op: syntax.OpCapture, Cap: re.Cap, Name: re.Name, Sub: []*syntax.Regexp{{Op: syntax.OpEmptyMatch}}})
		}
		for _, s := range re.Sub {
			caps(s)
		}
	}
	caps(sub)
	return d
}

// textBytes returns the set of the bytes of text.
func textBytes(text []byte) byteSet {
	var s byteSet
	for _, c := range text {
		s.add(c)
	}
	return s
}

// narrowLongest is the longest text an attempt is narrowed for: an
// attempt at a start that is not far, of an expression with no bound on
// its matches, reads on to its line's end, and on a text of a kilobyte
// reading its bytes and Go's backtracker clearing its visited bits
// (program times text) cost more than the NFA (prose-pin's 96-byte
// question gap bounds it at 1,077 bytes: 1.6 s to 2.3 s on a line of
// "PIN 48213, ").
const narrowLongest = 512

// forText returns the expression to run on text and the text to run it
// on: the whole expression, or the one narrowed to the branches that may
// match in the bytes a match may read; and text, or its first max+1
// bytes, which hold every match and the byte after it (maxMatchBytes).
// On those, it finds the matches and groups the whole expression does on
// text.
func (n *byteNarrowing) forText(text []byte) (*regexp.Regexp, []byte) {
	if n.max >= 0 {
		text = text[:min(len(text), n.max+1)]
	}
	if len(text) > narrowLongest {
		return n.whole, text
	}
	set := textBytes(text)
	n.mu.Lock()
	defer n.mu.Unlock()
	if re, ok := n.bySet[set]; ok {
		return re, text
	}
	if len(n.bySet) >= narrowSets {
		return n.whole, text
	}
	re := n.variant(&set)
	n.bySet[set] = re
	return re, text
}

// variant returns the expression narrowed to the branches whose needed
// bytes set holds (n.mu held).
func (n *byteNarrowing) variant(set *byteSet) *regexp.Regexp {
	live := make([]byte, (len(n.branches)+7)/8)
	all := true
	for i := range n.branches {
		if n.branches[i].mayMatchIn(set) {
			live[i/8] |= 1 << (i % 8)
		} else {
			all = false
		}
	}
	if all {
		return n.whole
	}
	key := string(live)
	if re, ok := n.byLive[key]; ok {
		return re
	}
	if len(n.byLive) >= narrowVariants {
		return n.whole
	}
	// Swap the dead branches in, print, and swap them back: the tree is
	// this narrowing's own and n.mu is held.
	for i := range n.branches {
		if b := &n.branches[i]; live[i/8]&(1<<(i%8)) == 0 {
			b.alt.Sub[b.i] = b.dead
		}
	}
	var sb strings.Builder
	writeRegexp(&sb, n.tree)
	for i := range n.branches {
		b := &n.branches[i]
		b.alt.Sub[b.i] = b.sub
	}
	re, err := compileFolded(sb.String())
	if err != nil || re.NumSubexp() != n.whole.NumSubexp() {
		re = n.whole
	}
	n.byLive[key] = re
	return re
}

// mayMatchIn reports whether the branch may match in a text of the bytes
// of set.
func (b *narrowBranch) mayMatchIn(set *byteSet) bool {
	for i := range b.need {
		if !b.need[i].meets(set) {
			return false
		}
	}
	return true
}
