package secrets

import (
	"math"
	"strings"
)

// stopSet answers whether a value holds one of a list of stop words as a
// whole word, ignoring ASCII case. gitleaks looks for its stop words as
// substrings of the value, which drops random tokens that happen to hold
// "good", "salt" or "vpn"; sotvet splits the value into words first (see
// valueWords), so that only a value made of words ("my_salt_value",
// "pushToken") is a stop-word value.
type stopSet struct {
	words map[string]bool // lower case, without a trailing separator
}

func newStopSet(list []string) *stopSet {
	s := &stopSet{words: map[string]bool{}}
	for _, w := range list {
		// gitleaks writes some stop words with the separator that
		// follows them ("act-", "add_"): the word is what precedes it.
		w = strings.TrimRight(lowerASCII(w), "-_.")
		if w != "" {
			s.words[w] = true
		}
	}
	return s
}

// any reports whether text holds a stop word as one of its words, and
// is made of words: a value with a random run in it is a token whose
// prefix or cut happens to read as a word ("salad_cloud_org_zYLY…",
// "sk-service-account-…", "…Gw9AeANtXr…", whose "ANt" is "ant"). A stop
// word that is itself such a run (gitleaks lists known public values
// among them) still holds; the run is looked for beside the word.
func (s *stopSet) any(text []byte) bool {
	var buf [64]byte
	for i := 0; ; {
		w, next := nextValueWord(text, i, buf[:0])
		if next < 0 {
			return false
		}
		if s.words[string(w)] && (len(w) >= 16 || amongWords(text, next-len(w), next)) {
			return true
		}
		i = next
	}
}

// amongWords reports whether the word text[start:next] stands among
// words, with no random run beside it or around it: in a token's
// "…IKppYiFOoBZ4P…" the case-run "FOo" is a chance cut of the token,
// not the word "foo".
func amongWords(text []byte, start, next int) bool {
	return !holdsRandomRun(text[:start]) && !holdsRandomRun(text[next:]) && !randomAroundWord(text, start, next)
}

// anyWordAmongWords is anyValueWordIn for a word that stands among words
// (amongWords): a value's own words, where a line's words would count a
// random token beside them.
func anyWordAmongWords(v []byte, words map[string]bool, shape *valueWordShape) bool {
	return valueWordIn(v, words, shape, true)
}

// holdsRandomRun reports whether v has a run of 16 or more letters and
// digits that reads as drawn at random (randomRun). A run goes on across
// the symbols a generated password draws (drawnSymbol): in
// "FYqx16{EtrwXVV12fpE(99ezMVcFfVsJ" the brackets cut no word, and a run
// cut at them fell under 16 and let a case-run ("MVc") read as a stop
// word, one drawn password in a hundred and fifty.
func holdsRandomRun(v []byte) bool {
	var buf [128]byte
	for i := 0; i < len(v); {
		j := i
		for j < len(v) && runByte(v[j]) {
			j++
		}
		if j-i >= 16 {
			if run := alnumOf(buf[:0], v[i:j]); len(run) >= 16 && randomRun(run) {
				return true
			}
		}
		i = j + 1
	}
	return false
}

// randomAroundWord reports whether the run (holdsRandomRun's) that holds
// text[start:next] is random once that word is taken out of it: a
// three-letter stop word ("mod", "vpn") read in the middle of a 32-byte
// token ("…L9gybMOdH9cd…") leaves two random runs of 14 and 15 bytes,
// each under holdsRandomRun's 16, and dropped about one random key in
// three hundred. A value of words ("exampleKey1234") leaves too little.
func randomAroundWord(text []byte, start, next int) bool {
	from, to := start, next
	for from > 0 && runByte(text[from-1]) {
		from--
	}
	for to < len(text) && runByte(text[to]) {
		to++
	}
	if (start-from)+(to-next) < 16 {
		return false
	}
	var buf [128]byte
	rest := alnumOf(alnumOf(buf[:0], text[from:start]), text[next:to])
	return len(rest) >= 16 && randomRun(rest)
}

// runByte: a byte of a random run, a letter, a digit or a drawnSymbol.
func runByte(c byte) bool { return isAlnum(c) || drawnSymbol(c) }

// drawnSymbol: a symbol password generators draw and that no name uses
// to join its words ("-", "_", ".", "/", ":" and blanks do).
func drawnSymbol(c byte) bool {
	return c < 0x80 && strings.IndexByte("!#$%&*+=?@^~(){}[]<>|", c) >= 0
}

// alnumOf appends the letters and digits of v to dst.
func alnumOf(dst, v []byte) []byte {
	for _, c := range v {
		if isAlnum(c) {
			dst = append(dst, c)
		}
	}
	return dst
}

// anyValueWord reports whether one of v's words (nextValueWord), in lower
// case, is in words.
func anyValueWord(v []byte, words map[string]bool) bool {
	return anyValueWordIn(v, words, nil)
}

// valueWordShape is what all keys of a word set have in common: their
// lengths' range and their first bytes. A word of another shape is not
// looked up (base64 splits into many short words, a PEM block into
// hundreds).
type valueWordShape struct {
	minLen, maxLen int
	first          [256]bool
}

func shapeOf(words map[string]bool) *valueWordShape {
	s := &valueWordShape{minLen: math.MaxInt}
	for w := range words {
		s.minLen, s.maxLen = min(s.minLen, len(w)), max(s.maxLen, len(w))
		if w != "" {
			s.first[w[0]] = true
		}
	}
	return s
}

// anyValueWordIn is anyValueWord for words of the given shape (none: any).
func anyValueWordIn(v []byte, words map[string]bool, shape *valueWordShape) bool {
	return valueWordIn(v, words, shape, false)
}

// valueWordIn is anyValueWordIn, and with among anyWordAmongWords.
func valueWordIn(v []byte, words map[string]bool, shape *valueWordShape, among bool) bool {
	var buf [64]byte
	for i := 0; ; {
		w, next := nextValueWord(v, i, buf[:0])
		if next < 0 {
			return false
		}
		if (shape == nil || shape.minLen <= len(w) && len(w) <= shape.maxLen && shape.first[w[0]]) && words[string(w)] && (!among || amongWords(v, next-len(w), next)) {
			return true
		}
		i = next
	}
}

// nextValueWord returns the first word of v at or after i, lowered into
// buf, and the offset after it; next is -1 when there is none. Words are
// runs of letters and digits, split at every other byte and where a
// lower-case letter is followed by an upper-case one ("pushToken" is
// "push", "token"); an apostrophe stays in its word ("don't"). Callers
// loop over it with a buffer of their own on the stack: a buffer handed
// to a callback escapes, an allocation per candidate on a line dense with
// them.
func nextValueWord(v []byte, i int, buf []byte) (w []byte, next int) {
	for i < len(v) && !isValueWordByte(v[i]) {
		i++
	}
	if i == len(v) {
		return nil, -1
	}
	w = append(buf, lower(v[i]))
	for i++; i < len(v) && isValueWordByte(v[i]); i++ {
		if c := v[i]; 'A' <= c && c <= 'Z' && 'a' <= v[i-1] && v[i-1] <= 'z' {
			break // camelCase: a new word
		}
		w = append(w, lower(v[i]))
	}
	return w, i
}

func isValueWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '\''
}

// lowerASCII lowers the ASCII letters of w, as the keyword matching does.
func lowerASCII(w string) string {
	return strings.Map(func(r rune) rune {
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, w)
}
