package prose

import (
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"
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

// TestScanPerText: a file's rules run one after the other over its texts,
// and each text is scanned once for all of them: the same text (its
// bytes, not an equal copy) gets its scan back, with the words and runes
// it had, however many other texts were scanned in between and however
// the words' shared array grew.
func TestScanPerText(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	alphabet := []string{"a", "Zb", " ", "é", "\u212a", "\xff", "日本", "\n", "x_1", "-"}
	var block []byte
	for range 4000 {
		block = append(block, alphabet[r.IntN(len(alphabet))]...)
	}
	src := string(block)
	var texts []string // blocks and sentences: slices of one text
	for range 300 {
		i := r.IntN(len(src))
		texts = append(texts, src[i:i+r.IntN(len(src)-i+1)])
	}
	st := &fileState{}
	first := map[textID]*blockScan{}
	for rule := range 3 {
		for _, s := range texts {
			sc := st.scanFor(s)
			id := textID{unsafe.StringData(s), len(s)}
			if prev, ok := first[id]; ok && prev != sc {
				t.Fatalf("rule %d: text at %p (%d bytes) scanned again", rule, id.p, id.n)
			}
			first[id] = sc
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
	// An equal text elsewhere in memory is another text: its own scan.
	copied := string([]byte(texts[0]))
	if len(copied) > 0 && st.scanFor(copied) == st.scanFor(texts[0]) {
		t.Fatal("a copy of a text shares its scan")
	}
}
