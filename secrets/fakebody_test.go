package secrets

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// fakeBodyByMap is fakeBody as it was written first: at each word, the
// longest of standInWords found by walking the whole map.
func fakeBodyByMap(l []byte) bool {
	if len(l) < 12 {
		return false
	}
	body := l
	if i := bytes.LastIndexAny(l[:min(len(l), 16)], "_-"); i >= 0 {
		body = l[i+1:]
	}
	if len(body) < 12 {
		return false
	}
	words, marked := 0, false
	for i := 0; i < len(body); {
		n := 0
		for w := range standInWords {
			if len(w) > n && bytes.HasPrefix(body[i:], []byte(w)) {
				n = len(w)
			}
		}
		if n == 0 {
			return false
		}
		marked = marked || testMarks[string(body[i:i+n])]
		words++
		i += n
	}
	return marked && words >= 3
}

// TestFakeBodyIndexed checks fakeBody, which looks the words up by their
// first byte, against the walk of the map, on bodies run together from
// the words (whole, cut, with prefixes and stray bytes): both must agree
// on every one.
func TestFakeBodyIndexed(t *testing.T) {
	words := slices.Sorted(func(yield func(string) bool) {
		for w := range standInWords {
			if !yield(w) {
				return
			}
		}
	})
	rng := rand.New(rand.NewPCG(33, 6))
	fired := 0
	for range 20000 {
		var b strings.Builder
		if rng.IntN(2) == 0 {
			b.WriteString([]string{"sk_live_", "npm_", "xoxb-", "k-"}[rng.IntN(4)])
		}
		for range 2 + rng.IntN(6) {
			w := words[rng.IntN(len(words))]
			switch rng.IntN(8) {
			case 0:
				w = w[:rng.IntN(len(w)+1)] // cut
			case 1:
				w += string(rune('a' + rng.IntN(26))) // a stray letter
			}
			b.WriteString(w)
		}
		l := []byte(b.String())
		got, want := fakeBody(l), fakeBodyByMap(l)
		if got != want {
			t.Fatalf("fakeBody(%q) = %v, the walk of the map says %v", l, got, want)
		}
		if got {
			fired++
		}
	}
	if fired == 0 {
		t.Fatal("no generated body was fake: the test checks nothing")
	}
}
