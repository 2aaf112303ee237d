package gfm

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	gast "github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"

	"github.com/svrnty/sotvet/internal/mddump"
	"github.com/svrnty/sotvet/internal/testcorpus"
)

// samples exercise each parser's edge cases: every delimiter-row form,
// rows wider and narrower than the header, escaped pipes in code spans,
// boxes with and without a mark, strikethrough runs of every length.
var samples = []string{
	"| a | b |\n|---|---|\n| 1 | 2 |\n",
	"a | b | c\n:-- | --: | :-:\n1 | 2 | 3\n4\n",
	"| a |\n| - |\n| 1 | 2 | 3 |\n",
	"| a | b |\n| :-: |\n",
	"| a | b |\n|:--|--:|\n|`x \\| y` | z \\| w|\n|`p\\|q\\|r`|s|\n",
	"text before\n| a | b |\n| --- | --- |\n| 1 | 2 |\ntext after\n",
	"| a | b |\n| ---- | ::- |\n",
	"| a | b |\n| - - | --- |\n",
	"| a | b |\n|\t:---\t|\f---:\r|\n",
	"|a|\n|:|\n",
	"|a|\n|::|\n",
	"   | a |\n   | - |\n",
	"    | a |\n    | - |\n",
	"| a | b |\n| -: | :- |\n| c |\n",
	"- [ ] open\n- [x] done\n- [X] Done\n- [\t] tab\n- [y] not a box\n- [x]\n- [ ]no space\n",
	"1. [x] numbered\n   - [ ] nested\n\n  [x] not in a list\n",
	"- text [x] later\n- [[x]] double\n",
	"~~struck~~ ~one~ ~~~three~~~ a~~b~~c ~~ spaced ~~ ~~unclosed\n",
	"**bold ~~and struck~~** `~~code~~` \\~~escaped~~\n",
	"| ~~a~~ | [x] |\n| --- | --- |\n| `|` | ~b~ |\n",
	"```\n| a |\n| - |\n```\n",
	"> | a |\n> | - |\n> | 1 |\n",
	"Ünïcödé | 表\n--- | ---\né | 字\n",
}

func TestSameAST(t *testing.T) {
	ours := goldmark.New(goldmark.WithExtensions(Extensions...)).Parser()
	theirs := goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.TaskList)).Parser()
	inputs := map[string][]byte{}
	for i, s := range samples {
		inputs[fmt.Sprintf("sample %d", i)] = []byte(s)
	}
	// The repository's own documents, and the corpus's when it is beside
	// the checkout: each many, so that a walk gone wrong fails.
	dirs := map[string]int{"../../../testdata": 10}
	if c := testcorpus.Optional(t); c != "" {
		dirs[c] = 50
	}
	for dir, least := range dirs {
		n := 0
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
				return err
			}
			b, err := os.ReadFile(p)
			inputs[p] = b
			n++
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if n < least {
			t.Fatalf("only %d documents in %s", n, dir)
		}
	}
	for name, src := range inputs {
		want := dump(theirs.Parse(text.NewReader(src)), src)
		got := dump(ours.Parse(text.NewReader(src)), src)
		if got != want {
			t.Errorf("%s: AST differs from goldmark's extension package\ngot:\n%s\nwant:\n%s", name, got, want)
		}
	}
}

// dump is mddump.Tree.
func dump(doc gast.Node, src []byte) string { return mddump.Tree(doc, src) }

func TestDelimAlignment(t *testing.T) {
	for _, tc := range []struct {
		col  string
		want ast.Alignment
		ok   bool
	}{
		{"---", ast.AlignNone, true},
		{" :-- ", ast.AlignLeft, true},
		{"--:\n", ast.AlignRight, true},
		{"\t:-:\r", ast.AlignCenter, true},
		{":", 0, false},
		{"::", 0, false},
		{"", 0, false},
		{"  ", 0, false},
		{"- -", 0, false},
		{":-:-", 0, false},
		{"\v-", 0, false},
	} {
		got, ok := delimAlignment([]byte(tc.col))
		if ok != tc.ok || ok && got != tc.want {
			t.Errorf("delimAlignment(%q) = %v, %v; want %v, %v", tc.col, got, ok, tc.want, tc.ok)
		}
	}
}
