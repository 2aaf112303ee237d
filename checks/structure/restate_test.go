package structure

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// restateKeyRef is restateKey as first written, byte by byte with a
// string trim and a fold per framing word: the reference the table-driven
// one must agree with.
func restateKeyRef(s string, words []string) (key uint64, n int) {
	const offset, prime = 14695981039346656037, 1099511628211
	key = offset
	start := -1
	for i := 0; i <= len(s); i++ {
		if i < len(s) && (wordByteRef(s[i])) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start < 0 {
			continue
		}
		w := strings.Trim(s[start:i], ".")
		start = -1
		if w == "" || framingRef(w, words) {
			continue
		}
		for j := 0; j < len(w); j++ {
			c := w[j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			key = (key ^ uint64(c)) * prime
		}
		key = (key ^ ' ') * prime
		n++
	}
	return key, n
}

func wordByteRef(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '.' || c == '/' || c == '-' || c >= 0x80
}

func framingRef(w string, words []string) bool {
	for _, x := range words {
		x = strings.ToLower(x)
		if len(x) < 16 && len(x) == len(w) && strings.EqualFold(w, x) {
			return true
		}
	}
	return false
}

// TestRestateKey checks restateKey against the reference on random items
// made of words, framing words in any case, dots, marks and runes that
// fold to ASCII letters ("ſ" to "s", the Kelvin sign to "k").
func TestRestateKey(t *testing.T) {
	pieces := []string{"no", "No", "REQUIRE", "require", "must", "Is", "be", "x", "path", ".", "..", " ", "  ", "\t", ",", "-", "/",
		"ſ", "K", "é", "É", "sſ", "ſs", "ſtate", "STATE", "keeps", "a.b", "v1.2", "_", "`", "(", ")", "ß", "ǅ"}
	frames := [][]string{nil, DefaultFramingWords, {"ſs", "é"}, {"K", "state", "ß"}, {"REQUIRE", "", "averyveryverylongword"}}
	rng := rand.New(rand.NewPCG(7, 8))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(14) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
			if rng.IntN(3) == 0 {
				b.WriteByte(' ')
			}
		}
		s := b.String()
		words := frames[rng.IntN(len(frames))]
		var frame *framing
		if words != nil {
			frame = newFraming(words)
		}
		k, n := restateKey(s, frame)
		wk, wn := restateKeyRef(s, words)
		if k != wk || n != wn {
			t.Fatalf("restateKey(%q, %q) = %x, %d; want %x, %d", s, words, k, n, wk, wn)
		}
	}
}

// BenchmarkRestateKey measures the key of typical list items with the
// default framing words.
func BenchmarkRestateKey(b *testing.B) {
	frame := newFraming(DefaultFramingWords)
	items := []string{
		"Require no Target Repository path exposure.",
		"Keep the `sotvet check` output stable across runs (see docs/checks.md).",
		"[ ] Record the decision in ADR-0042 and link it from the PRD.",
		"The harness must record every command it runs, with its exit status.",
		"Ensure v1.2.3 ships with the migration notes for operators.",
	}
	n := 0
	for _, it := range items {
		n += len(it)
	}
	b.SetBytes(int64(n))
	for b.Loop() {
		for _, it := range items {
			restateKey(it, frame)
		}
	}
}
