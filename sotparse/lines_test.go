package sotparse

import (
	"go/token"
	"slices"
	"strings"
	"testing"
)

func TestPackedLinesRoundTrip(t *testing.T) {
	for name, content := range map[string]string{
		"empty":         "",
		"one line":      "no newline at the end",
		"newline ended": "a\nb\n",
		"blank lines":   "\n\n\nx\n\n",
		"long lines":    strings.Repeat("x", 200) + "\n" + strings.Repeat("y", 70000) + "\nz",
	} {
		fset := token.NewFileSet()
		f := &File{Path: name, Tok: fset.AddFile(name, -1, len(content)), Content: []byte(content)}
		setLines(f.Tok, f.Content)
		want := slices.Clone(f.Tok.Lines())
		f.packLines()
		if len(want) > 0 && f.Tok.LineCount() != 0 {
			t.Errorf("%s: Tok keeps %d lines once packed", name, f.Tok.LineCount())
		}
		if got := f.Lines().Lines(); !slices.Equal(got, want) {
			t.Errorf("%s: unpacked %v, want %v", name, got, want)
		}
		if f.packed != nil {
			t.Errorf("%s: still packed after Lines", name)
		}
		if got := f.Lines().Lines(); !slices.Equal(got, want) {
			t.Errorf("%s: second Lines gave %v, want %v", name, got, want)
		}
	}
}

func TestUnpackLinesGivesEveryFileItsTable(t *testing.T) {
	fset := token.NewFileSet()
	ws := &Workspace{}
	var want [][]int
	for i, content := range []string{"a\nbb\nccc\n", "x\n", ""} {
		name := string(rune('a' + i))
		f := &File{Path: name, Tok: fset.AddFile(name, -1, len(content)), Content: []byte(content)}
		setLines(f.Tok, f.Content)
		want = append(want, slices.Clone(f.Tok.Lines()))
		f.packLines()
		ws.Files = append(ws.Files, f)
	}
	ws.UnpackLines()
	for i, f := range ws.Files {
		if got := f.Tok.Lines(); !slices.Equal(got, want[i]) {
			t.Errorf("%s: %v, want %v", f.Path, got, want[i])
		}
	}
}
