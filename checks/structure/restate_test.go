package structure

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/checks/internal/bodylines"
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

// TestRestatesLastWord checks that the last-word test nearDuplicates runs
// first turns away no pair of items the keys would report: on random pairs
// of items made of few words, framing words among them, the report is the
// same with the test as with the keys alone.
func TestRestatesLastWord(t *testing.T) {
	words := []string{"no", "No", "require", "Require", "must", "path", "PATH", "exposure.", "é", "x.", "..", "is"}
	frame := newFraming(DefaultFramingWords)
	rng := rand.New(rand.NewPCG(13, 14))
	item := func() string {
		var b strings.Builder
		for range 1 + rng.IntN(4) {
			b.WriteString(words[rng.IntN(len(words))])
			b.WriteByte(" ,"[rng.IntN(2)])
		}
		return b.String()
	}
	reported := 0
	for range 50000 {
		a, b := item(), item()
		key, n := restateKey(a, frame)
		if n < 2 {
			key = 0
		}
		prevKey, prevN := restateKey(b, frame)
		if prevN < 2 {
			prevKey = 0
		}
		want := prevKey != 0 && key == prevKey && !sameWords(a, b)
		last := lastWord(a, frame)
		got := last != "" && equalASCIIFold(last, lastWord(b, frame)) && restates(a, b, frame)
		if got != want {
			t.Fatalf("items %q after %q: reported %v, want %v", a, b, got, want)
		}
		if want {
			reported++
		}
	}
	if reported < 100 {
		t.Errorf("only %d pairs restate each other", reported)
	}
}

// BenchmarkNearDuplicates measures the rule on a document of list items,
// none restating the one before.
func BenchmarkNearDuplicates(b *testing.B) {
	var doc strings.Builder
	for i := range 300 {
		fmt.Fprintf(&doc, "- Keep the `sotvet check` output stable across run %d (see docs/checks.md).\n", i)
		doc.WriteString("- Require no Target Repository path exposure in the harness logs.\n")
		doc.WriteString("Some prose between the lists, which is not a list item at all.\n")
	}
	content := []byte(doc.String())
	frame := newFraming(DefaultFramingWords)
	b.SetBytes(int64(len(content)))
	for b.Loop() {
		prevIsItem := false
		var prevItem, prevLast string
		bodylines.Each(content, 0, len(content), func(l bodylines.Line) {
			item, ok := listItemText(l.Text)
			if !ok || l.Quoted {
				prevIsItem = false
				return
			}
			last := lastWord(item, frame)
			if prevIsItem && last != "" && equalASCIIFold(last, prevLast) {
				restates(item, prevItem, frame)
			}
			prevIsItem, prevItem, prevLast = true, item, last
		})
	}
}

// TestLowerWord: lowerWord is strings.ToLower, for ASCII words lowered in
// the buffer, words longer than it and words with other letters.
func TestLowerWord(t *testing.T) {
	var buf [64]byte
	for _, w := range []string{"", "a", "The", "NOT", "already-lower", "Mixed.Case/Path_9", strings.Repeat("Ab", 40), "Ünïcode", "İstanbul", "caf\u00c9"} {
		if got, want := lowerWord(w, &buf), strings.ToLower(w); got != want {
			t.Errorf("lowerWord(%q) = %q, want %q", w, got, want)
		}
	}
}

// factOfRef is factOf as first written, with maps of words and a string
// lowered per word: the reference the allocation-free one must agree with.
func factOfRef(s string, frame *framing) itemFact {
	negation := map[string]bool{"no": true, "not": true, "none": true, "never": true, "without": true, "nothing": true, "cannot": true}
	function := map[string]bool{"the": true, "a": true, "an": true, "do": true, "does": true, "did": true,
		"any": true, "been": true, "will": true, "to": true, "of": true}
	stemRef := func(w string) string {
		for _, suf := range []string{"ations", "ation", "ions", "ion", "ures", "ure", "ments", "ment", "ing", "ed", "es", "s", "e"} {
			if len(w) >= len(suf)+3 && strings.HasSuffix(w, suf) {
				return w[:len(w)-len(suf)]
			}
		}
		return w
	}
	var key uint64
	var n int
	var neg bool
	for i := 0; i < len(s); {
		if !wordByte[s[i]] {
			i++
			continue
		}
		start := i
		for i < len(s) && wordByte[s[i]] {
			i++
		}
		w := strings.ToLower(strings.Trim(s[start:i], "."))
		if strings.HasSuffix(w, "n") && strings.HasPrefix(s[i:], "'t") && (i+2 == len(s) || !wordByte[s[i+2]]) {
			w, i = w+"'t", i+2
		}
		switch {
		case w == "":
			continue
		case negation[w] || strings.HasSuffix(w, "n't") || strings.HasSuffix(w, "n\u2019t"):
			neg = true
			continue
		case function[w], frame != nil && frame.has(w):
			continue
		}
		w = stemRef(w)
		h := uint64(14695981039346656037)
		for j := 0; j < len(w); j++ {
			h = (h ^ uint64(w[j])) * 1099511628211
		}
		key += mix64(h)
		n++
	}
	return itemFact{key, n, neg}
}

// TestFactOfRef: factOf agrees with factOfRef on random items of words in
// any case, negations, contractions, framing words and suffixed words.
func TestFactOfRef(t *testing.T) {
	frame := newFraming(DefaultFramingWords)
	words := []string{"The", "the", "NOT", "Never", "doesn't", "isn\u2019t", "Cannot", "require", "Requires", "exposure", "Expose",
		"promotions", "PROMOTED", "Running", "ing", "ures", "es", "s", "e", "a", "An", "Of", "cafÉ", "Ünïcode", "...", "done.",
		"path/to/file.md", strings.Repeat("Long", 20), "x-y_z", "Statements", "needs", "ok"}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 5000 {
		var b strings.Builder
		for range 1 + rng.IntN(8) {
			b.WriteString(words[rng.IntN(len(words))])
			b.WriteString([]string{" ", ", ", " ", ": "}[rng.IntN(4)])
		}
		item := b.String()
		if got, want := factOf(item, frame), factOfRef(item, frame); got != want {
			t.Fatalf("factOf(%q) = %+v, want %+v", item, got, want)
		}
	}
}

// TestStemCutsFirstSuffix: stem cuts the first of stemSuffixes, in their
// order, that the word ends in and leaves three letters of, on random
// words built of the suffixes' letters.
func TestStemCutsFirstSuffix(t *testing.T) {
	ref := func(w string) string {
		for _, suf := range stemSuffixes {
			if len(w) >= len(suf)+3 && strings.HasSuffix(w, suf) {
				return w[:len(w)-len(suf)]
			}
		}
		return w
	}
	letters := "ationsuremgdx"
	rng := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		b := make([]byte, rng.IntN(10))
		for i := range b {
			b[i] = letters[rng.IntN(len(letters))]
		}
		if w := string(b); stem(w) != ref(w) {
			t.Fatalf("stem(%q) = %q, want %q", w, stem(w), ref(w))
		}
	}
}
