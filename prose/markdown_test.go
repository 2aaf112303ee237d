package prose

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestFrontMatterFlatAgrees holds the flat reading of front matter to the
// YAML parser's, on blocks drawn from the shapes front matter takes: plain,
// quoted, typed (numbers, dates, booleans, nulls), empty, duplicated, and
// lines the flat reader declines (comments, lists, block scalars).
func TestFrontMatterFlatAgrees(t *testing.T) {
	keys := []string{"title", "status", "name", "description", "x.y", "k-1", "_a", "1", "true", "null"}
	values := []string{
		"plain words", "validated", "12", "1.5", "0x1F", "2025-03-07", "2025-03-07T10:00:00Z", "true", "no", "~", "null",
		"", `"quoted words"`, `'single'`, `""`, `"a: b"`, "a:b", "x # y", "x#y", "-x", "- x", "[a, b]", "{a: 1}",
		"|", ">", "&anchor v", "*alias", "!!str 12", "é accent", "`tick`", "a  b", "ends ", "<<", "%x", "@at",
		"Local planning SOT only.",
	}
	seps := []string{": ", ":  ", ":"}
	r := rand.New(rand.NewPCG(1, 2))
	n := 3000
	if testing.Short() {
		n = 300
	}
	took := 0
	for range n {
		var b strings.Builder
		b.WriteString("---\n")
		for range 1 + r.IntN(5) {
			switch r.IntN(12) {
			case 0:
				b.WriteString("# a comment\n")
			case 1:
				b.WriteString("\n")
			case 2:
				b.WriteString("list:\n  - a\n  - b\n")
			default:
				b.WriteString(keys[r.IntN(len(keys))] + seps[r.IntN(len(seps))] + values[r.IntN(len(values))] + "\n")
			}
		}
		b.WriteString("---\nBody text.\n")
		src := []byte(b.String())
		blanked := blankFrontMatter(src, nil)
		first := bytes.IndexByte(src, '\n') + 1
		data := src[first:frontMatterEnd(src, blanked)]
		got := frontMatterBlocks(nil, src, blanked)
		want := frontMatterYAML(nil, src, first, data)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("front matter %q:\nflat %+v\nyaml %+v", src, got, want)
		}
		if len(got) > 0 {
			took++
		}
	}
	if took == 0 {
		t.Fatal("no front matter gave a block")
	}
}

// TestLintReuse lints the files of testdata/prose/other with one linter in
// one order, then in the reverse order, and wants each file's alerts the
// same both times: what a file is linted with (the scratch space, the
// blanked copy of its text) holds nothing of the file before it.
func TestLintReuse(t *testing.T) {
	var files []string
	filepath.WalkDir("../testdata/prose/other", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			files = append(files, p)
		}
		return nil
	})
	if len(files) < 10 {
		t.Fatalf("only %d markdown files under testdata/prose/other", len(files))
	}
	if raceEnabled || testing.Short() {
		files = files[:10]
	}
	l := storedLinter(t)
	first := map[string][]Alert{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if first[f], err = l.Lint(f, src); err != nil {
			t.Fatal(err)
		}
	}
	n := 0
	for i := len(files) - 1; i >= 0; i-- {
		f := files[i]
		src, _ := os.ReadFile(f)
		got, err := l.Lint(f, src)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, first[f]) {
			t.Fatalf("%s: %d alerts after the files before it, %d after those after it", f, len(first[f]), len(got))
		}
		n += len(got)
	}
	if n == 0 {
		t.Fatal("no alerts")
	}
}
