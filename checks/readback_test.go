package checks_test

import (
	"fmt"
	"io/fs"
	"os"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/checks/checktest"
	"github.com/svrnty/sotvet/checks/registry"
	"github.com/svrnty/sotvet/internal/testcorpus"
	"github.com/svrnty/sotvet/scripts/gen-corpus/gencorpus"
	"github.com/svrnty/sotvet/sotparse"
)

// countingFS counts the opens of each file.
type countingFS struct {
	fs.FS
	mu    sync.Mutex
	opens map[string]int
}

func (c *countingFS) Open(name string) (fs.File, error) {
	c.mu.Lock()
	c.opens[name]++
	c.mu.Unlock()
	return c.FS.Open(name)
}

// streamed are the checks that read each document's text in a DocCheck,
// as the parse reads it.
var streamed = []string{"authority", "consistency", "contradiction", "frontmatter", "glossary", "hygiene", "refs", "secrets", "status", "structure"}

// TestReleasedTextsNotReadBack: when the run lets each document's text go
// after the parse (ReleaseText), the checks that read texts in a DocCheck
// find the same, and open no file more often than a run that keeps the
// texts: they read no text back. The exception is a file where a
// contradiction, status or consistency finding lands (or points): those
// rules judge across documents from the typed model as much as from the
// text, and the driver reads the text back for their fingerprints rather
// than keep the text of every fact and statement of every document.
func TestReleasedTextsNotReadBack(t *testing.T) {
	var analyzers []*analysis.Analyzer
	for _, name := range streamed {
		analyzers = append(analyzers, checks.Lookup(name))
	}
	gen := t.TempDir()
	if err := gencorpus.Write(gen, 60, 7); err != nil {
		t.Fatal(err)
	}
	// Findings the checks' Run reports from what their DocCheck found.
	claims := t.TempDir()
	doc := "---\nname: x\nowner: jp\nstatus: draft\ncreated: 2026-06-01\nlast_reviewed: 2026-06-01\nlifecycle_classification: planning\ncore_promotion_status: not-promoted\n---\n\n# X\n\n"
	checktest.WriteFiles(t, claims, map[string]string{
		"WORKBOARD.yaml":   "items: []\n",
		"CONTEXT.md":       "# Context\n\n**Fake lane**: the lane that runs no agent.\n",
		".sot/X-PRD.md":    doc + "This document is now an active Core authority.\n\nCONTEXT.md defines Harness Evidence Interface.\n",
		".sot/Y-ISSUES.md": doc + "Local planning SOT only. Not a Core Protocol. Not active Core authority.\n\nThe workspace becomes a Core Protocol.\n",
		// Frontmatter findings: keys missing, none at all, no block.
		".sot/Z-PRD.md": "---\nname: z\nstatus: Draft\ncreated: 2026-13-01\n---\n\n# Z\n",
		".sot/V-PRD.md": "---\n---\n\n# V\n",
		".sot/U-PRD.md": "# U\n\nNo frontmatter.\n",
	})
	roots := map[string]string{"generated": gen, "claims": claims}
	if dir := testcorpus.Optional(t); dir != "" {
		roots["corpus"] = dir
	}
	for name, root := range roots {
		t.Run(name, func(t *testing.T) {
			run := func(release bool) (*checks.Result, []string, map[string]int) {
				fsys := &countingFS{FS: os.DirFS(root), opens: map[string]int{}}
				res, _, err := checks.Run(checks.Options{Root: root, FS: fsys, Analyzers: analyzers, ReleaseText: release})
				if err != nil {
					t.Fatal(err)
				}
				var out []string
				for _, f := range res.Findings {
					out = append(out, show(f))
				}
				return res, out, fsys.opens
			}
			res, kept, keptOpens := run(false)
			_, released, releasedOpens := run(true)
			if fmt.Sprint(released) != fmt.Sprint(kept) {
				t.Errorf("findings with the texts released:\n%s\nwith the texts kept:\n%s", strings.Join(released, "\n"), strings.Join(kept, "\n"))
			}
			contradicted := map[string]bool{}
			byCheck := map[string]int{}
			for _, f := range res.Findings {
				byCheck[f.Check]++
				if f.Check == "contradiction" || f.Check == "status" || f.Check == "consistency" {
					contradicted[f.File] = true
					for _, r := range f.Related {
						contradicted[r.File] = true
					}
				}
			}
			for path, n := range releasedOpens {
				if n > keptOpens[path] && !contradicted[path] {
					t.Errorf("%s opened %d times with the texts released, %d with them kept: a check read it back", path, n, keptOpens[path])
				}
			}
			t.Logf("findings by check: %v", byCheck)
		})
	}
}

// TestFocusedRunReadsWhatRulesNeed: a run focused on one document, the
// others taken from summaries, reads no other document's text unless a
// rule compares the document in focus with the others by what they say
// (a provider/model pair given a role), and then finds what a full run
// finds in the document in focus.
func TestFocusedRunReadsWhatRulesNeed(t *testing.T) {
	doc := "---\nname: x\nowner: jp\nstatus: draft\ncreated: 2026-06-01\nlast_reviewed: 2026-06-01\nlifecycle_classification: planning\ncore_promotion_status: not-promoted\n---\n\n# X\n\n"
	for _, tc := range []struct {
		name, focus string
		read        []string // TextRead of the focused run
	}{
		{"no role claim", "A-PRD.md", nil},
		{"role claim", "C-PRD.md", []string{"A-PRD.md", "B-PRD.md"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{
				"WORKBOARD.yaml": "items: []\n",
				"A-PRD.md":       doc + "Nothing about models.\n",
				"B-PRD.md":       doc + "Use `openai` / `gpt-5` as the primary path.\n",
				"C-PRD.md":       doc + "Keep `openai` / `gpt-5` as the fallback path.\n",
			}
			checktest.WriteFiles(t, dir, files)
			id := func(p string) (string, bool) {
				c, ok := files[p]
				return sotparse.BlobID([]byte(c)), ok
			}
			run := func(reuse *sotparse.Reuse) ([]string, *sotparse.Workspace) {
				res, ws, err := checks.Run(checks.Options{Root: dir, FS: os.DirFS(dir), Analyzers: registry.All, Reuse: reuse})
				if err != nil {
					t.Fatal(err)
				}
				var out []string
				for _, f := range res.Findings {
					if f.File == tc.focus {
						out = append(out, show(f))
					}
				}
				return out, ws
			}
			want, _ := run(nil)
			store := &memStore{m: map[[2]string][]byte{}}
			run(&sotparse.Reuse{Focus: func(string) bool { return false }, ID: id, Store: store})
			got, ws := run(&sotparse.Reuse{Focus: func(p string) bool { return p == tc.focus }, ID: id, Store: store})
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("focused run finds:\n%s\nthe full run:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			if fmt.Sprint(ws.TextRead()) != fmt.Sprint(tc.read) {
				t.Errorf("focused run read the texts of %q, want %q", ws.TextRead(), tc.read)
			}
			if tc.read != nil && !strings.Contains(fmt.Sprint(want), "contradiction/role") {
				t.Errorf("no role finding in %s: %v", tc.focus, want)
			}
		})
	}
}
