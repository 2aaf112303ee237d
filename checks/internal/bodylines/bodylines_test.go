package bodylines

import (
	"bytes"
	"go/token"
	"math/rand/v2"
	"slices"
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

// TestContainsFoldAgrees checks ContainsFold against a comparison at every
// offset, on random texts of a word's pieces in both cases, and of the
// bytes next to a letter that folding must not confuse ('@' and '[' around
// 'A'..'Z', '`' and '{' around 'a'..'z').
func TestContainsFoldAgrees(t *testing.T) {
	words := []string{"commit", "not ", "approv", "z", "zz", "a-b", "required", " passed"}
	pieces := []string{"comm", "COMMIT", "iT", "no", "NOT", "t ", " ", "appro", "V", "z", "Z", "zZ", "a", "-", "B", "@", "[", "`", "{", "é", "requir", "ED", "pass", "\n"}
	rng := rand.New(rand.NewPCG(7, 8))
	slow := func(s, word string) bool {
		for i := 0; i+len(word) <= len(s); i++ {
			if strings.ToLower(s[i:i+len(word)]) == word && strings.EqualFold(s[i:i+len(word)], word) {
				return true
			}
		}
		return false
	}
	found := 0
	for range 40000 {
		var b strings.Builder
		for range rng.IntN(16) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		for _, w := range words {
			got, want := ContainsFold(s, w), slow(s, w)
			if got != want {
				t.Fatalf("ContainsFold(%q, %q) = %v, want %v", s, w, got, want)
			}
			if got {
				found++
			}
		}
	}
	if found < 20000 {
		t.Errorf("only %d texts hold a word", found)
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

// eachRef is Each as it was first written: a search for every line's end,
// and every line trimmed and compared with the fences and quote marks.
func eachRef(content []byte, start, end int, fn func(Line)) {
	fence := ""
	off, end := bounds(content, start, end)
	for off < end {
		e := end
		if i := bytes.IndexByte(content[off:end], '\n'); i >= 0 {
			e = off + i
		}
		text := strings.TrimSuffix(string(content[off:e]), "\r")
		trimmed := strings.TrimLeft(text, " ")
		indent := len(text) - len(trimmed)
		switch {
		case fence != "":
			if indent < 4 && strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]+" \t") == "" {
				fence = ""
			}
		case indent < 4 && (strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")):
			n := 0
			for n < len(trimmed) && trimmed[n] == trimmed[0] {
				n++
			}
			fence = trimmed[:n]
		default:
			fn(Line{Off: off, Text: text, Quoted: indent < 4 && strings.HasPrefix(trimmed, ">")})
		}
		off = e + 1
	}
}

// TestEachIn checks that Each, and EachIn with a text's line table, see
// the lines eachRef finds, on random texts of lines, fences, quotes and
// line breaks, between random offsets.
func TestEachIn(t *testing.T) {
	pieces := []string{"text", " ", "    ", "\t", "```", "~~~", "````", "> q", "\n", "\r\n", "\n\n", "- item", "\r", "é"}
	rng := rand.New(rand.NewPCG(3, 4))
	lines := 0
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(30) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		content := []byte(b.String())
		fset := token.NewFileSet()
		tf := fset.AddFile("doc.md", -1, len(content))
		tf.SetLinesForContent(content)
		starts := Starts(tf, content, content)
		if len(content) > 0 && starts == nil {
			t.Fatalf("no line table for %q", content)
		}
		start, end := rng.IntN(len(content)+2), rng.IntN(len(content)+2)
		if rng.IntN(3) == 0 {
			start, end = 0, len(content)
		}
		var want, got, gotEach []Line
		eachRef(content, start, end, func(l Line) { want = append(want, l) })
		Each(content, start, end, func(l Line) { gotEach = append(gotEach, l) })
		EachIn(content, starts, start, end, func(l Line) { got = append(got, l) })
		if !slices.Equal(got, want) || !slices.Equal(gotEach, want) {
			t.Fatalf("EachIn(%q, %d, %d) = %+v, Each %+v, want %+v", content, start, end, got, gotEach, want)
		}
		lines += len(got)
	}
	if lines < 20000 {
		t.Errorf("only %d lines seen", lines)
	}
	// A text other than the parsed one has no table.
	content := []byte("a\nb\n")
	tf := token.NewFileSet().AddFile("doc.md", -1, len(content))
	tf.SetLinesForContent(content)
	if Starts(tf, bytes.Clone(content), content) != nil {
		t.Error("Starts gave the table of another text")
	}
}

// BenchmarkAnchor measures looking for an anchor absent from prose.
func BenchmarkAnchor(b *testing.B) {
	a := NewAnchor("zqx", false)
	b.SetBytes(int64(len(benchProse)))
	for b.Loop() {
		a.Index(benchProse)
	}
}

// BenchmarkIndexByte is the cost of one search for a byte absent from
// prose, for comparison.
func BenchmarkIndexByte(b *testing.B) {
	b.SetBytes(int64(len(benchProse)))
	for b.Loop() {
		bytes.IndexByte(benchProse, 'z')
	}
}

// TestAnchorWord checks Anchor.Index against a byte-by-byte search, and
// Word.In against ContainsFold, on random texts of the words, their
// pieces in random case, and the bytes folding confuses ("\r" or-ed with
// 0x20 is "-").
func TestAnchorWord(t *testing.T) {
	pieces := []string{"acceptance", "ACCEPTANCE", "Acceptance", "acc", "cce", "CcE", "ptance", "admitted", "dmi", "rk ", "rk", "k ",
		"ssu", "lic", "\r", "\n", "-", " ", "*", "\x0d\x0d", "é", "x", "c", "e"}
	anchors := []*Anchor{NewAnchor("cce", true), NewAnchor("cce", false), NewAnchor("rk ", false), NewAnchor("k-", true), NewAnchor("ss", false)}
	words := []*Word{NewWord("acceptance"), NewWord("admitted"), NewWord("Work item")}
	rng := rand.New(rand.NewPCG(5, 6))
	found := 0
	for range 50000 {
		var b strings.Builder
		for range rng.IntN(20) {
			p := pieces[rng.IntN(len(pieces))]
			if rng.IntN(4) == 0 {
				p = strings.ToUpper(p)
			}
			b.WriteString(p)
		}
		text := []byte(b.String())
		for _, a := range anchors {
			want := -1
			for i := range text {
				if i+len(a.s) <= len(text) && (a.fold && ContainsFold(string(text[i:i+len(a.s)]), a.s) || !a.fold && string(text[i:i+len(a.s)]) == a.s) {
					want = i
					break
				}
			}
			if got := a.Index(text); got != want {
				t.Fatalf("Anchor(%q, fold %v).Index(%q) = %d, want %d", a.s, a.fold, text, got, want)
			}
		}
		for _, w := range words {
			got, want := w.In(text), ContainsFold(string(text), w.word)
			if got != want {
				t.Fatalf("Word(%q).In(%q) = %v, want %v", w.word, text, got, want)
			}
			if got {
				found++
			}
		}
	}
	if found < 10000 {
		t.Errorf("only %d texts hold a word", found)
	}
}
