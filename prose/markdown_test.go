package prose

import (
	"bytes"
	"fmt"
	"go/token"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"

	"github.com/svrnty/sotvet/internal/testcorpus"
	"github.com/svrnty/sotvet/sotparse"
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

// TestTreeBlocksAgree holds the blocks read from sotparse's tree of a
// document to the blocks of the document parsed again, on the markdown of
// testdata/prose, the user's corpus when it is there, and generated
// documents: the two parsers differ only in linkify and footnotes, which
// reusable rules out. It also wants the tree used for most documents.
func TestTreeBlocksAgree(t *testing.T) {
	fsys := fstest.MapFS{}
	add := func(root string) {
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
				data, _ := os.ReadFile(p)
				rel, _ := filepath.Rel(root, p)
				fsys[".sot/"+filepath.ToSlash(filepath.Join(filepath.Base(root), rel))] = &fstest.MapFile{Data: data}
			}
			return nil
		})
	}
	add("../testdata/prose/other")
	add("../testdata/prose/route-style")
	if !raceEnabled && !testing.Short() {
		if dir := testcorpus.Optional(t); dir != "" {
			add(dir)
		}
	}
	r := rand.New(rand.NewPCG(7, 8))
	pieces := []string{
		"# Head &amp; more\n", "Setext\n===\n", "para *em* **strong** `code` text\n", "- item\n  - nested item\n", "1. one\n2. two\n",
		"> quote\n> more\n", "```\ncode\n```\n", "    indented\n", "| a | b |\n|---|---|\n| c | d |\n", "- [x] done\n",
		"<!-- comment -->\n", "<div>\nhtml\n</div>\n", "line with trailing  \nbreak\n", "~~strike~~ text\n", "[link](x) and ![img](y)\n",
		"[ref]: /url\n", "&copy; &#169; entity\n", "text_with_underscores and *stars*\n", "\n", "\n", "***\n", "\ttab text\n",
		"mail a@b.co\n", "see http://x.y/z\n", "note[^1]\n\n[^1]: foot\n", "www.example.com\n", "é accents ünïcode\n",
		// Where linkify is not tried, and where it is through other
		// syntax: one case a piece.
		"[link](http://x.y/z)\n", "[l2](https://a.b \"t\")\n", "![i](ftp://c.d)\n", "<https://auto.link/x>\n", "<a@b.co>\n",
		"`http://in.code`\n", "`a@b.co`\n", "x`@y.com`\n", "x`y@z.com`\n", "[http://label.x](y)\n", "[see a@b.co](z)\n",
		"*http://em.x*\n", "_www.under.com_\n", "~~https://s.x~~\n", "(www.paren.com)\n", "**a@b.co**\n",
		"<span title=\"http://raw.x\">raw</span>\n", "\\http://esc.x\n", "http\\://no.x\n", "```\nhttp://fenced.x a@b.co\n```\n",
		"    www.indented.x\n", "[ref2]: http://ref.x/y\n\nuse [ref2]\n", "| http://cell.x | b |\n|---|---|\n| c | d |\n",
		"| `www.c.x` | [a](http://d.x) |\n|---|---|\n| c | d |\n", "mail_me@x.co\n", "&amp;a@b.co\n",
		// Tables' body rows, whose plain cells sotparse's tree holds no
		// node of (sotparse.LeanRowCells): linkify in them, cells with
		// markup among plain ones, rows shorter and longer than the
		// header, in a quote and a list.
		"| a | b |\n|---|---|\n| see http://body.x | d |\n", "| a | b |\n|---|---|\n| c | mail a@b.co |\n",
		"| a | b |\n|---|---|\n| c | *www.em.x* |\n", "| a | b |\n|---|---|\n| `x@y.z` | plain |\n",
		"| a | b | c |\n|:--|--:|:-:|\n| `x \\| y` | *e* and plain | ~~s~~ |\n| short |\n| 1 | 2 | 3 | 4 |\n| &amp; | [l](u) | \\| esc |\n",
		"> | q | r |\n> |---|---|\n> | in quote | www.q.x |\n", "- | l | m |\n  |---|---|\n  | in list | x |\n  | é ü | <b>h</b> |\n",
		"Status | Owner\n--- | ---\nopen | rl\n  |  \n|\n",
	}
	for i := range 400 {
		var b strings.Builder
		if r.IntN(8) == 0 {
			b.WriteString("\ufeff") // sotparse reads the front matter after it, Vale's scoping does not
		}
		if r.IntN(3) == 0 {
			b.WriteString("---\ntitle: Doc\nstatus: draft\n---\n")
		}
		for range 1 + r.IntN(12) {
			b.WriteString(pieces[r.IntN(len(pieces))])
			if r.IntN(3) == 0 {
				b.WriteString("\n")
			}
		}
		fsys[fmt.Sprintf(".sot/gen/G%d-PRD.md", i)] = &fstest.MapFile{Data: []byte(b.String())}
	}
	// And each piece alone, where a case is not hidden by another.
	for i, p := range pieces {
		fsys[fmt.Sprintf(".sot/gen/P%d-PRD.md", i)] = &fstest.MapFile{Data: []byte("Before.\n\n" + p + "\nAfter.\n")}
	}
	var used, compared atomic.Int32
	var mu sync.Mutex
	var failures []string
	dc := &sotparse.DocCheck{Run: func(p *sotparse.DocPass) any {
		tree, base := p.Markdown()
		if tree == nil {
			return nil
		}
		compared.Add(1)
		blanked := blankFrontMatter(p.Content, nil)
		if !reusable(p.Content, blanked, base, tree) {
			return nil
		}
		used.Add(1)
		got := appendBlocks(nil, p.Content, tree, base)
		want := appendBlocks(nil, p.Content, nil, 0)
		if !reflect.DeepEqual(got, want) {
			mu.Lock()
			failures = append(failures, fmt.Sprintf("%s:\n%q\ntree  %+v\nparse %+v", p.Doc.Path, p.Content, got, want))
			mu.Unlock()
		}
		return nil
	}}
	disc, err := sotparse.Discover(fsys, sotparse.DiscoverOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sotparse.ParseStreaming(token.NewFileSet(), disc, func(p string) ([]byte, error) { return fs.ReadFile(fsys, p) }, 0, nil, &sotparse.Stream{Checks: []*sotparse.DocCheck{dc}})
	if len(failures) > 0 {
		t.Fatalf("%d documents differ; first: %s", len(failures), failures[0])
	}
	if compared.Load() < 400 || used.Load() < 100 {
		t.Fatalf("tree used for %d of %d documents", used.Load(), compared.Load())
	}
	t.Logf("tree used for %d of %d documents", used.Load(), compared.Load())
}
