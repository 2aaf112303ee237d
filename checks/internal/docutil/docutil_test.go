package docutil

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"testing"
)

// parsed is the package comment's text as go/parser and go/ast give it.
func parsed(t *testing.T, content string) string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", content, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	return f.Doc.Text()
}

// TestLineCommentDoc: the fast path reads every check's doc.go, and
// comments of each shape, as go/ast does.
func TestLineCommentDoc(t *testing.T) {
	docs, err := filepath.Glob("../../*/doc.go")
	if err != nil || len(docs) < 10 {
		t.Fatalf("check doc.go files: %v, %v", docs, err)
	}
	cases := map[string]string{
		"shapes": "//\n//   \n// Package x does.\n//\n//\n//\tindented\t \n//no space\n//go:generate foo\n//line x.go:1\n// trailing  \n//\n// # Analyzer x\n//\n// Body.\n//\npackage x\n",
		"one":    "// Package x.\npackage x\n",
	}
	for _, d := range docs {
		b, err := os.ReadFile(d)
		if err != nil {
			t.Fatal(err)
		}
		cases[d] = string(b)
	}
	for name, content := range cases {
		got, ok := lineCommentDoc(content)
		if !ok {
			t.Errorf("%s: not read by the fast path", name)
			continue
		}
		if want := parsed(t, content); got != want {
			t.Errorf("%s: text\n%q\nwant\n%q", name, got, want)
		}
	}
	for _, content := range []string{
		"/* Package x. */\npackage x\n",
		"// Package x.\n\npackage x\n",
		"// Package x.\r\npackage x\n",
		"package x\n",
	} {
		if _, ok := lineCommentDoc(content); ok {
			t.Errorf("%q: read by the fast path", content)
		}
	}
}

func TestMustExtract(t *testing.T) {
	for _, content := range []string{
		"// Package x.\n//\n// # Analyzer x\n//\n// Does x.\n//\n// # Other\n//\n// More.\npackage x\n",
		"/*\nPackage x.\n\n# Analyzer x\n\nDoes x.\n\n# Other\n\nMore.\n*/\npackage x\n",
	} {
		if got := MustExtract(content, "x"); got != "Does x." {
			t.Errorf("MustExtract = %q", got)
		}
	}
}
