package prose

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// wordSeq is an expression that matches whole words separated by runs of
// white space (or another class of non-word bytes):
// `\b(?:am|is|was)\b\s*(?:\w+ed|born)\b`, `\b([A-Z]{3,5})\b`,
// `\b(?:Jan|Feb)\b\s*`. Each part is bounded by \b, or by a separator
// that takes at least one byte, on both sides, so it matches a whole
// maximal run of ASCII word bytes (a token) or nothing: a block is cut
// into tokens once, for every such expression, and a part is a set lookup
// or a class test on one token instead of the regexp engine's walk
// through every alternative at every byte. Each match is then the only
// one that starts at its token, so leftmost-first priority cannot pick
// another. Blocks with a rune that folds to an ASCII letter (the Kelvin
// sign, the long s: not word bytes, yet `(?i)k` matches one) still take
// the expression.
type wordSeq struct {
	parts []*seqPart
	seps  []seqSep // seps[i] is between parts[i] and parts[i+1]
	tail  *seqSep  // after the last part, or nil
	width int      // 2 × (groups + 1)
	spans []seqSpan
}

// seqSpan is a capture around several parts and the space between them.
type seqSpan struct{ group, first, last int }

// Markers for a capture that holds more than one part, in the flattened
// expression.
const (
	opOpen syntax.Op = 250 + iota
	opClose
)

// seqPart is the words one part matches.
type seqPart struct {
	set   map[string]struct{} // whole words, lower-cased when fold
	fold  bool
	other []*seqBranch // branches with too many or endless words
	group int          // the capture that is exactly this part, or 0

	// What a word of the set starts with and how long it is, tested
	// before the lookup.
	setFirst       byteSet
	minSet, maxSet int
}

// seqBranch is one alternative of a part that is not a small finite set,
// tested on a token: as a run of one class when it is one, else by its
// expression anchored at both ends, after cheap length and first-byte
// tests.
type seqBranch struct {
	minLen, maxLen int // maxLen < 0: no bound
	first          byteSet
	run            *byteSet // every byte of the word is in this class
	re             *regexp.Regexp
}

// seqSep is a run of bytes of one class of ASCII non-word bytes.
type seqSep struct {
	class    byteSet
	min, max int // max < 0: no bound
}

// maxSeqWords bounds the words a part is expanded into.
const maxSeqWords = 4096

// wordSeqOf returns the word-sequence form of the parsed, simplified re,
// or nil when re is not one.
func wordSeqOf(re *syntax.Regexp) *wordSeq {
	var items []*syntax.Regexp
	var flatten func(r *syntax.Regexp)
	flatten = func(r *syntax.Regexp) {
		if r.Op == syntax.OpCapture && !wordOnly(r.Sub[0]) {
			items = append(items, &syntax.Regexp{Op: opOpen, Cap: r.Cap})
			flatten(r.Sub[0])
			items = append(items, &syntax.Regexp{Op: opClose, Cap: r.Cap})
			return
		}
		if r.Op == syntax.OpConcat {
			for _, s := range r.Sub {
				flatten(s)
			}
			return
		}
		items = append(items, r)
	}
	flatten(re)
	w := &wordSeq{width: 2 * (re.MaxCap() + 1)}
	const (
		start = iota
		afterBound
		inPart
		afterPart
		inSep
	)
	state := start
	var (
		partNodes []*syntax.Regexp
		sep       *seqSep
		boundNear bool  // a \b next to the separator being read
		opening   []int // captures that open at the next part
	)
	endPart := func() bool {
		p := newSeqPart(partNodes)
		if p == nil {
			return false
		}
		w.parts = append(w.parts, p)
		partNodes = nil
		return true
	}
	for _, it := range items {
		switch {
		case it.Op == opOpen:
			if state == inPart || state == afterPart {
				return nil
			}
			opening = append(opening, it.Cap)
		case it.Op == opClose:
			if len(opening) > 0 {
				return nil
			}
			if state == inPart {
				if !endPart() {
					return nil
				}
				state, boundNear = afterPart, false
			}
			if state != afterPart {
				return nil
			}
			found := false
			for k := range w.spans {
				if sp := &w.spans[k]; sp.group == it.Cap && sp.last < 0 {
					sp.last, found = len(w.parts)-1, true
				}
			}
			if !found {
				return nil
			}
		case it.Op == syntax.OpWordBoundary:
			switch state {
			case start:
				state = afterBound
			case inPart:
				if !endPart() {
					return nil
				}
				state, boundNear = afterPart, true
			case afterPart:
				boundNear = true
			case afterBound:
			case inSep:
				boundNear = true
				state = afterBound
			}
		case it.Op == syntax.OpEmptyMatch:
		case isSepItem(it):
			s, ok := sepOf(it)
			if !ok {
				return nil
			}
			switch state {
			case inPart:
				if !endPart() {
					return nil
				}
				boundNear = false
				sep = &s
			case afterPart:
				sep = &s
			case inSep:
				if sep.class != s.class {
					return nil
				}
				sep.min += s.min
				if sep.max < 0 || s.max < 0 {
					sep.max = -1
				} else {
					sep.max += s.max
				}
			default:
				return nil
			}
			state = inSep
		default:
			switch state {
			case afterBound:
				// A part after \b: the first, or one after a separator.
				if len(w.parts) > 0 {
					if sep == nil {
						return nil
					}
					w.seps = append(w.seps, *sep)
					sep = nil
				}
			case inSep:
				// Between two parts a separator that may be empty needs a
				// \b beside it, or the two parts could meet inside a word.
				if sep.min < 1 && !boundNear {
					return nil
				}
				w.seps = append(w.seps, *sep)
				sep = nil
			case inPart:
			default:
				return nil
			}
			if state != inPart {
				for _, g := range opening {
					w.spans = append(w.spans, seqSpan{group: g, first: len(w.parts), last: -1})
				}
				opening = opening[:0]
			} else if len(opening) > 0 {
				return nil
			}
			partNodes = append(partNodes, it)
			state = inPart
		}
	}
	switch state {
	case inSep:
		// A trailing separator: the last part ends a word if a \b or the
		// separator's first byte says so.
		if !boundNear && sep.min < 1 || len(w.seps) != len(w.parts)-1 {
			return nil
		}
		w.tail = sep
	case afterPart:
	default:
		return nil
	}
	if len(w.parts) == 0 || len(w.seps) != len(w.parts)-1 || len(opening) > 0 {
		return nil
	}
	for _, sp := range w.spans {
		if sp.last < 0 {
			return nil
		}
	}
	return w
}

func isSepItem(it *syntax.Regexp) bool {
	switch it.Op {
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		return it.Sub[0].Op != syntax.OpCapture && nonWordOnly(it.Sub[0])
	}
	return nonWordOnly(it)
}

// nonWordOnly reports whether re is one class or literal of ASCII bytes
// that are not word bytes.
func nonWordOnly(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if r >= utf8.RuneSelf || isWordByte(byte(r)) {
				return false
			}
		}
		return len(re.Rune) > 0
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i+1] >= utf8.RuneSelf {
				return false
			}
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				if isWordByte(byte(r)) {
					return false
				}
			}
		}
		return len(re.Rune) > 0
	}
	return false
}

// sepOf reads a separator item: a class or a literal of one byte
// repeated, itself optional or repeated.
func sepOf(it *syntax.Regexp) (seqSep, bool) {
	min, max := 1, 1
	body := it
	switch it.Op {
	case syntax.OpStar:
		min, max, body = 0, -1, it.Sub[0]
	case syntax.OpPlus:
		min, max, body = 1, -1, it.Sub[0]
	case syntax.OpQuest:
		min, max, body = 0, 1, it.Sub[0]
	case syntax.OpRepeat:
		min, max, body = it.Min, it.Max, it.Sub[0]
	}
	var s seqSep
	switch body.Op {
	case syntax.OpLiteral:
		for _, r := range body.Rune[1:] {
			if r != body.Rune[0] {
				return s, false
			}
		}
		if len(body.Rune) > 1 && body != it {
			return s, false
		}
		s.class.add(byte(body.Rune[0]))
		min, max = min*len(body.Rune), max*len(body.Rune)
	case syntax.OpCharClass:
		for i := 0; i+1 < len(body.Rune); i += 2 {
			s.class.addRange(int(body.Rune[i]), int(body.Rune[i+1]))
		}
	default:
		return s, false
	}
	s.min, s.max = min, max
	return s, true
}

// newSeqPart reads a part: words of ASCII word bytes, as one capture or
// none.
func newSeqPart(nodes []*syntax.Regexp) *seqPart {
	p := &seqPart{}
	var body *syntax.Regexp
	if len(nodes) == 1 {
		body = nodes[0]
		if body.Op == syntax.OpCapture {
			p.group, body = body.Cap, body.Sub[0]
		}
	} else {
		body = &syntax.Regexp{Op: syntax.OpConcat, Sub: nodes}
	}
	if !wordOnly(body) {
		return nil
	}
	branches := []*syntax.Regexp{body}
	if body.Op == syntax.OpAlternate {
		branches = body.Sub
	}
	var lowerWords, exactWords []string
	for _, b := range branches {
		if minLen(b) < 1 {
			return nil
		}
		if words, ok := wordsOf(b, true); ok && len(lowerWords)+len(words) <= maxSeqWords {
			lowerWords = append(lowerWords, words...)
			continue
		}
		if words, ok := wordsOf(b, false); ok && len(exactWords)+len(words) <= maxSeqWords {
			exactWords = append(exactWords, words...)
			continue
		}
		br, ok := newSeqBranch(b)
		if !ok {
			return nil
		}
		p.other = append(p.other, br)
	}
	// One set holds words of one kind; words of the other are tested as
	// a branch.
	set, fold, rest := exactWords, false, lowerWords
	if len(lowerWords) >= len(exactWords) {
		set, fold, rest = lowerWords, true, exactWords
	}
	if len(rest) > 0 {
		alt := make([]string, len(rest))
		for i, w := range rest {
			alt[i] = regexp.QuoteMeta(w)
		}
		flag := "" // rest holds the words of the other kind
		if !fold {
			flag = "(?i)"
		}
		re, err := regexp.Compile(`^(?:` + flag + `(?:` + strings.Join(alt, "|") + `))$`)
		if err != nil {
			return nil
		}
		p.other = append(p.other, &seqBranch{minLen: 1, maxLen: -1, first: allBytes(), re: re})
	}
	if len(set) > 0 {
		p.set, p.fold = make(map[string]struct{}, len(set)), fold
		p.minSet, p.maxSet = len(set[0]), 0
		for _, w := range set {
			p.set[w] = struct{}{}
			p.setFirst.add(w[0])
			if fold && w[0] >= 'a' && w[0] <= 'z' {
				p.setFirst.add(w[0] - 'a' + 'A')
			}
			p.minSet, p.maxSet = min(p.minSet, len(w)), max(p.maxSet, len(w))
		}
	}
	return p
}

func allBytes() byteSet {
	var s byteSet
	s.addRange(0, 255)
	return s
}

// wordOnly reports whether every match of re is made of ASCII word bytes
// (the Kelvin sign and the long s aside, which a block that has them
// never reaches this matcher with), and re has no capture or assertion
// inside.
func wordOnly(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if !wordRune(r) {
				return false
			}
		}
		return true
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				if !wordRune(r) {
					return false
				}
			}
		}
		return true
	case syntax.OpConcat, syntax.OpAlternate, syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		for _, s := range re.Sub {
			if !wordOnly(s) {
				return false
			}
		}
		return true
	case syntax.OpEmptyMatch:
		return true
	}
	return false
}

func wordRune(r rune) bool {
	return r < utf8.RuneSelf && isWordByte(byte(r)) || r == '\u212A' || r == '\u017F'
}

// wordsOf expands re into the words it matches: lower-cased ones when
// lowered (every letter matched in both cases), or exact ones; false when
// it cannot, or there would be too many.
func wordsOf(re *syntax.Regexp, lowered bool) ([]string, bool) {
	switch re.Op {
	case syntax.OpEmptyMatch:
		return []string{""}, true
	case syntax.OpLiteral:
		fold := re.Flags&syntax.FoldCase != 0
		var b strings.Builder
		for _, r := range re.Rune {
			if r >= utf8.RuneSelf {
				return nil, false
			}
			c := byte(r)
			letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
			if letter && fold != lowered {
				return nil, false
			}
			if lowered && c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			b.WriteByte(c)
		}
		return []string{b.String()}, true
	case syntax.OpCharClass:
		var in [128]bool
		n := 0
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				if r < utf8.RuneSelf {
					in[r] = true
				}
				if n++; n > 128 {
					return nil, false
				}
			}
		}
		var out []string
		for c := range 128 {
			if !in[c] {
				continue
			}
			if lowered {
				if c >= 'A' && c <= 'Z' {
					if !in[c+'a'-'A'] {
						return nil, false
					}
					continue
				}
				if c >= 'a' && c <= 'z' && !in[c-'a'+'A'] {
					return nil, false
				}
			}
			out = append(out, string(rune(c)))
		}
		return out, len(out) > 0
	case syntax.OpAlternate:
		var out []string
		for _, s := range re.Sub {
			w, ok := wordsOf(s, lowered)
			if !ok || len(out)+len(w) > maxSeqWords {
				return nil, false
			}
			out = append(out, w...)
		}
		return out, true
	case syntax.OpQuest:
		w, ok := wordsOf(re.Sub[0], lowered)
		return append([]string{""}, w...), ok
	case syntax.OpConcat:
		out := []string{""}
		for _, s := range re.Sub {
			w, ok := wordsOf(s, lowered)
			if !ok || len(out)*len(w) > maxSeqWords {
				return nil, false
			}
			out = cross(out, w)
		}
		return out, true
	}
	return nil, false
}

// minLen and maxLen bound the bytes of a match of a word-only re; maxLen
// is -1 when there is no bound.
func minLen(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpLiteral:
		return len(re.Rune)
	case syntax.OpCharClass:
		return 1
	case syntax.OpConcat:
		n := 0
		for _, s := range re.Sub {
			n += minLen(s)
		}
		return n
	case syntax.OpAlternate:
		n := -1
		for _, s := range re.Sub {
			if m := minLen(s); n < 0 || m < n {
				n = m
			}
		}
		return max(n, 0)
	case syntax.OpPlus:
		return minLen(re.Sub[0])
	case syntax.OpRepeat:
		return re.Min * minLen(re.Sub[0])
	}
	return 0
}

func maxLen(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpLiteral:
		return len(re.Rune)
	case syntax.OpCharClass:
		return 1
	case syntax.OpEmptyMatch:
		return 0
	case syntax.OpConcat:
		n := 0
		for _, s := range re.Sub {
			m := maxLen(s)
			if m < 0 {
				return -1
			}
			n += m
		}
		return n
	case syntax.OpAlternate:
		n := 0
		for _, s := range re.Sub {
			m := maxLen(s)
			if m < 0 {
				return -1
			}
			n = max(n, m)
		}
		return n
	case syntax.OpQuest:
		return maxLen(re.Sub[0])
	case syntax.OpRepeat:
		m := maxLen(re.Sub[0])
		if re.Max < 0 || m < 0 {
			return -1
		}
		return re.Max * m
	}
	return -1
}

func newSeqBranch(b *syntax.Regexp) (*seqBranch, bool) {
	br := &seqBranch{minLen: minLen(b), maxLen: maxLen(b)}
	var d deriver
	first, ok := d.edge(b, true)
	if !ok {
		first = allBytes()
	}
	br.first = first
	// A run of one class: `[A-Z]{3,5}`, `\d+` (Simplify writes a bounded
	// repeat as copies of its class).
	if cls, ok := oneClass(b); ok {
		br.run = &cls
		return br, true
	}
	re, err := regexp.Compile(`^(?:` + b.String() + `)$`)
	if err != nil {
		return nil, false
	}
	br.re = re
	return br, true
}

// oneClass returns the class every byte of every match of re is in, when
// re is only copies of one class, repeated or optional.
func oneClass(re *syntax.Regexp) (byteSet, bool) {
	var cls *syntax.Regexp
	var walk func(r *syntax.Regexp) bool
	walk = func(r *syntax.Regexp) bool {
		switch r.Op {
		case syntax.OpCharClass, syntax.OpLiteral:
			if r.Op == syntax.OpLiteral && (len(r.Rune) != 1 || r.Flags&syntax.FoldCase != 0) {
				return false
			}
			if cls == nil {
				cls = r
				return true
			}
			return r.Equal(cls)
		case syntax.OpConcat, syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
			for _, s := range r.Sub {
				if !walk(s) {
					return false
				}
			}
			return true
		}
		return false
	}
	var s byteSet
	if !walk(re) || cls == nil {
		return s, false
	}
	if cls.Op == syntax.OpLiteral {
		s.add(byte(cls.Rune[0]))
		return s, true
	}
	for i := 0; i+1 < len(cls.Rune); i += 2 {
		if lo := cls.Rune[i]; lo < utf8.RuneSelf {
			s.addRange(int(lo), int(min(cls.Rune[i+1], utf8.RuneSelf-1)))
		}
	}
	return s, true
}

func (b *seqBranch) matches(w string) bool {
	if len(w) < b.minLen || b.maxLen >= 0 && len(w) > b.maxLen || !b.first.has(w[0]) {
		return false
	}
	if b.run != nil {
		for i := 0; i < len(w); i++ {
			if !b.run.has(w[i]) {
				return false
			}
		}
		return true
	}
	return b.re.MatchString(w)
}

// matches reports whether the word w is one of the part's; lw is w with
// its ASCII letters lowered.
func (p *seqPart) matches(w, lw string) bool {
	if p.set != nil && len(w) >= p.minSet && len(w) <= p.maxSet && p.setFirst.has(w[0]) {
		key := w
		if p.fold {
			key = lw
		}
		if _, ok := p.set[key]; ok {
			return true
		}
	}
	for _, b := range p.other {
		if b.matches(w) {
			return true
		}
	}
	return false
}

// sepEnd returns where a separator that starts at i of s ends, reading at
// most to end; ok when it takes between min and max bytes.
func (sp *seqSep) take(s string, i, end int) (int, bool) {
	j := i
	for j < end && (sp.max < 0 || j-i < sp.max) && sp.class.has(s[j]) {
		j++
	}
	return j, j-i >= sp.min
}

// tokens returns the spans of the maximal runs of ASCII word bytes of s,
// flat: start, end, start, end…
func tokens(s string, out []int32) []int32 {
	start := -1
	for i := 0; i < len(s); i++ {
		if isWordByte(s[i]) {
			if start < 0 {
				start = i
			}
		} else if start >= 0 {
			out = append(out, int32(start), int32(i))
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, int32(start), int32(len(s)))
	}
	return out
}

// findAll returns the matches as FindAllStringSubmatchIndex would, given
// s's tokens and s with its ASCII letters lowered.
func (w *wordSeq) findAll(s, lowered string, toks []int32) [][]int {
	var out [][]int
	n := len(toks) / 2
	for t := 0; t+len(w.parts) <= n; t++ {
		if !w.parts[0].matches(s[toks[2*t]:toks[2*t+1]], lowered[toks[2*t]:toks[2*t+1]]) {
			continue
		}
		ok := true
		for k := 1; k < len(w.parts) && ok; k++ {
			prevEnd, next := int(toks[2*(t+k)-1]), int(toks[2*(t+k)])
			end, took := w.seps[k-1].take(s, prevEnd, next)
			wend := toks[2*(t+k)+1]
			ok = took && end == next && w.parts[k].matches(s[next:wend], lowered[next:wend])
		}
		if !ok {
			continue
		}
		last := t + len(w.parts) - 1
		end := int(toks[2*last+1])
		if w.tail != nil {
			var took bool
			if end, took = w.tail.take(s, end, len(s)); !took {
				continue
			}
		}
		loc := make([]int, w.width)
		for i := range loc {
			loc[i] = -1
		}
		loc[0], loc[1] = int(toks[2*t]), end
		for k, p := range w.parts {
			if p.group > 0 {
				loc[2*p.group], loc[2*p.group+1] = int(toks[2*(t+k)]), int(toks[2*(t+k)+1])
			}
		}
		for _, sp := range w.spans {
			loc[2*sp.group], loc[2*sp.group+1] = int(toks[2*(t+sp.first)]), int(toks[2*(t+sp.last)+1])
		}
		out = append(out, loc)
		// The next match starts at a token after this one's end.
		for t+1 < n && int(toks[2*(t+1)]) < end {
			t++
		}
	}
	return out
}
