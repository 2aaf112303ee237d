package secrets

import (
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

// any reports whether text holds a stop word as one of its words.
func (s *stopSet) any(text []byte) bool {
	found := false
	valueWords(text, func(w []byte) bool {
		if len(w) > 0 && s.words[string(w)] {
			found = true
			return false
		}
		return true
	})
	return found
}

// valueWords calls yield with each word of v in lower case, until it
// returns false. Words are runs of letters and digits, split at every
// other byte and where a lower-case letter is followed by an upper-case
// one ("pushToken" is "push", "token"); an apostrophe stays in its word
// ("don't").
func valueWords(v []byte, yield func([]byte) bool) {
	var buf [64]byte
	w := buf[:0]
	flush := func() bool {
		if len(w) == 0 {
			return true
		}
		ok := yield(w)
		w = w[:0]
		return ok
	}
	for i, c := range v {
		alnum := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '\''
		if !alnum {
			if !flush() {
				return
			}
			continue
		}
		if 'A' <= c && c <= 'Z' && i > 0 && 'a' <= v[i-1] && v[i-1] <= 'z' {
			if !flush() {
				return
			}
		}
		w = append(w, lower(c))
	}
	flush()
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
