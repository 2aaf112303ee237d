package prose

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestRunesOfBlock: a block's runes and offsets are its text's, invalid
// UTF-8 included, and a file's scan decodes each new block anew.
func TestRunesOfBlock(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "Z", " ", "é", "\u212a", "\xff", "\xe2\x82", "日本", "\n"}
	st := &fileState{}
	for range 500 {
		var b []byte
		for range r.IntN(40) {
			b = append(b, alphabet[r.IntN(len(alphabet))]...)
		}
		s := string(b)
		runes, offs := st.scanFor(s).runesOf(s)
		if want := []rune(s); !slices.Equal(runes, want) {
			t.Fatalf("%q: runes %q, want %q", s, runes, want)
		}
		var want []int
		for i := range s {
			want = append(want, i)
		}
		if want = append(want, len(s)); !slices.Equal(offs, want) {
			t.Fatalf("%q: offsets %v, want %v", s, offs, want)
		}
	}
}

// TestScanPerText: a file's rules run one after the other over its texts
// (blocks, sentences), and each text is scanned once for all of them: the
// engine's text gets its scan back, with the words and runes it had,
// however many other texts were scanned in between and however the words'
// shared array grew; a text that is not the engine's (an equal copy) has
// a scan of its own.
func TestScanPerText(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	alphabet := []string{"a", "Zb", " ", "é", "\u212a", "\xff", "日本", "\n", "x_1", "-"}
	var block []byte
	for range 4000 {
		block = append(block, alphabet[r.IntN(len(alphabet))]...)
	}
	src := string(block)
	st := &fileState{}
	var texts []string // blocks and sentences: slices of one text
	for range 300 {
		i := r.IntN(len(src))
		texts = append(texts, src[i:i+r.IntN(len(src)-i+1)])
		st.texts = append(st.texts, nil)
	}
	first := make([]*blockScan, len(texts))
	for rule := range 3 {
		for k, s := range texts {
			st.cur, st.curText = k+1, s
			sc := st.scanFor(s)
			if first[k] == nil {
				first[k] = sc
			}
			if sc != first[k] || sc != st.texts[k] {
				t.Fatalf("rule %d: text %d: not its scan", rule, k)
			}
			if rule > 0 && !sc.tokened {
				t.Fatalf("rule %d: %q: words worked out again", rule, s)
			}
			if got, want := sc.tokens(s), tokens(s, nil); !slices.Equal(got, want) {
				t.Fatalf("rule %d: %q: words %v, want %v", rule, s, got, want)
			}
			if runes, _ := sc.runesOf(s); !slices.Equal(runes, []rune(s)) {
				t.Fatalf("rule %d: %q: runes %q", rule, s, runes)
			}
		}
	}
	// A wrong number (text 2 told it is text 1) costs a scan, and never
	// hands text 2 text 1's words.
	for k := 1; k < len(texts); k++ {
		if sameText(texts[k], texts[0]) {
			continue
		}
		st.cur, st.curText = 1, texts[k]
		sc := st.scanFor(texts[k])
		if sc == st.texts[0] {
			t.Fatalf("text %d is handed text 0's scan", k)
		}
		if got, want := sc.tokens(texts[k]), tokens(texts[k], nil); !slices.Equal(got, want) {
			t.Fatalf("text %d under a wrong number: words %v, want %v", k, got, want)
		}
		break
	}
	st.cur, st.curText = 1, texts[0]
	copied := string([]byte(texts[0]))
	if len(copied) > 0 && st.scanFor(copied) == st.texts[0] {
		t.Fatal("a copy of the engine's text shares its scan")
	}
	if got, want := st.scanFor(copied).tokens(copied), tokens(copied, nil); !slices.Equal(got, want) {
		t.Fatalf("a copy's words %v, want %v", got, want)
	}
}
