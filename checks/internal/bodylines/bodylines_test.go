package bodylines

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestLines(t *testing.T) {
	src := "# T\r\n\ntext\n```go\ncode\n```\n> quoted\n~~~~\n~~~\nstill code\n~~~~\nafter\n"
	var got []string
	for _, l := range Lines([]byte(src), 0, len(src)) {
		q := ""
		if l.Quoted {
			q = "Q:"
		}
		got = append(got, q+l.Text)
		if !strings.HasPrefix(src[l.Off:], l.Text) {
			t.Errorf("offset %d does not start %q", l.Off, l.Text)
		}
	}
	if want := "# T||text|Q:> quoted|after"; strings.Join(got, "|") != want {
		t.Errorf("lines = %q, want %q", strings.Join(got, "|"), want)
	}
	// A start inside a line moves to the next line.
	if ls := Lines([]byte(src), 2, len(src)); ls[0].Text != "" || ls[0].Off != 5 {
		t.Errorf("first line from offset 2 = %+v", ls[0])
	}
}

func TestTextContainsFold(t *testing.T) {
	for _, c := range []struct {
		text, word string
		want       bool
	}{
		{"the record is ADMitted now", "admitted", true},
		{"admitted", "admitted", true},
		{"xAdmitted", "admitted", true},
		{"admitte", "admitted", false},
		{"a d m i t t e d", "admitted", false},
		{"", "admitted", false},
		{"MMMMmmmm admittex", "admitted", false},
		{"zzz", "", true},
	} {
		if got := TextContainsFold([]byte(c.text), c.word); got != c.want {
			t.Errorf("TextContainsFold(%q, %q) = %v, want %v", c.text, c.word, got, c.want)
		}
		if c.word != "" {
			if slow := ContainsFold(c.text, c.word); slow != c.want {
				t.Errorf("ContainsFold(%q, %q) = %v, want %v", c.text, c.word, slow, c.want)
			}
		}
	}
}

// TestTextIndex checks TextIndex against bytes.Index on random texts,
// words whose rare letter is common in the text included.
func TestTextIndex(t *testing.T) {
	pieces := []string{"v", "vet", "sotvet:ignore", "sotvet", ":ignore", "s", "o", "t", "lice", "slice", "Slice", "k ", "work item", "\n", " ", "zz", "é"}
	words := []string{"sotvet:ignore", "lice", "ssue", "k ", "vv", "z", "", "vvvvvvvv", "é", "slice"}
	rng := rand.New(rand.NewPCG(11, 12))
	found := 0
	for range 50000 {
		var b strings.Builder
		for range rng.IntN(40) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		text := []byte(b.String())
		w := words[rng.IntN(len(words))]
		got, want := TextIndex(text, w), bytes.Index(text, []byte(w))
		if got != want {
			t.Fatalf("TextIndex(%q, %q) = %d, want %d", text, w, got, want)
		}
		if got > 0 {
			found++
		}
	}
	if found < 10000 {
		t.Errorf("only %d texts hold their word", found)
	}
}

// benchProse is English-like prose without the words searched for.
var benchProse = []byte(strings.Repeat("The harness records every command it runs, with its exit status and the time it took to run.\n", 400))

// BenchmarkTextIndex measures looking for a mark absent from prose.
func BenchmarkTextIndex(b *testing.B) {
	b.SetBytes(int64(len(benchProse)))
	for b.Loop() {
		TextIndex(benchProse, "sotvet:ignore")
	}
}

// BenchmarkBytesIndex is BenchmarkTextIndex with bytes.Index, for
// comparison.
func BenchmarkBytesIndex(b *testing.B) {
	b.SetBytes(int64(len(benchProse)))
	for b.Loop() {
		bytes.Index(benchProse, []byte("sotvet:ignore"))
	}
}
