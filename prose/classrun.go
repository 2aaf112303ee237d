package prose

import (
	"regexp/syntax"
	"unicode/utf8"
)

// classRun is an expression that matches the runs of one character class
// (`[^\s]+`, `(\w+)`, `\b(\w+)\b`): what repetition and occurrence rules
// count, one match per word of a block. Leftmost-first, a greedy run of
// one class is the whole run, so the matches are the maximal runs, found
// in one pass with one allocation instead of the regexp engine's one per
// match.
type classRun struct {
	ascii   [128]bool
	ranges  []rune // the class above ASCII, as syntax gives it: lo, hi pairs
	capture bool   // the run is also group 1
}

// classRunOf returns the run form of the parsed, simplified re, or nil.
func classRunOf(re *syntax.Regexp) *classRun {
	subs := []*syntax.Regexp{re}
	if re.Op == syntax.OpConcat {
		subs = re.Sub
	}
	bounds := 0
	for len(subs) > 0 && subs[0].Op == syntax.OpWordBoundary {
		subs, bounds = subs[1:], bounds+1
	}
	for len(subs) > 0 && subs[len(subs)-1].Op == syntax.OpWordBoundary {
		subs, bounds = subs[:len(subs)-1], bounds+1
	}
	if len(subs) != 1 {
		return nil
	}
	c := &classRun{}
	body := subs[0]
	if body.Op == syntax.OpCapture {
		c.capture, body = true, body.Sub[0]
	}
	if body.Op != syntax.OpPlus {
		return nil
	}
	class := body.Sub[0]
	switch class.Op {
	case syntax.OpCharClass:
		c.set(class.Rune)
	case syntax.OpAnyCharNotNL:
		c.set([]rune{0, '\n' - 1, '\n' + 1, utf8.MaxRune})
	case syntax.OpAnyChar:
		c.set([]rune{0, utf8.MaxRune})
	default:
		return nil
	}
	// \b is ASCII: around a run of exactly the ASCII word bytes it always
	// holds, so the runs are the matches; around another class it may not.
	if bounds > 0 && !c.isASCIIWord() {
		return nil
	}
	return c
}

func (c *classRun) set(ranges []rune) {
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		for r := lo; r <= hi && r < utf8.RuneSelf; r++ {
			c.ascii[r] = true
		}
		if hi >= utf8.RuneSelf {
			c.ranges = append(c.ranges, max(lo, utf8.RuneSelf), hi)
		}
	}
}

func (c *classRun) isASCIIWord() bool {
	if len(c.ranges) > 0 {
		return false
	}
	for b := range 128 {
		if c.ascii[b] != isWordByte(byte(b)) {
			return false
		}
	}
	return true
}

func (c *classRun) has(r rune) bool {
	if r < utf8.RuneSelf {
		return c.ascii[r]
	}
	for i := 0; i+1 < len(c.ranges); i += 2 {
		if r < c.ranges[i] {
			return false
		}
		if r <= c.ranges[i+1] {
			return true
		}
	}
	return false
}

// each calls f with each run, in order. An invalid byte reads as U+FFFD
// of width one, as the regexp engine reads it.
func (c *classRun) each(s string, f func(start, end int)) {
	start := -1
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		if c.has(r) {
			if start < 0 {
				start = i
			}
		} else if start >= 0 {
			f(start, i)
			start = -1
		}
		i += size
	}
	if start >= 0 {
		f(start, len(s))
	}
}

// findAll returns the runs as FindAllStringSubmatchIndex would: one array
// holds them all.
func (c *classRun) findAll(s string) [][]int {
	width := 2
	if c.capture {
		width = 4
	}
	var flat []int
	c.each(s, func(start, end int) {
		flat = append(flat, start, end)
		if c.capture {
			flat = append(flat, start, end)
		}
	})
	if flat == nil {
		return nil
	}
	out := make([][]int, len(flat)/width)
	for k := range out {
		out[k] = flat[k*width : (k+1)*width : (k+1)*width]
	}
	return out
}
