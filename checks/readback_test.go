package checks_test

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
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

// TestReleaseReadsTextsOnce: a run that lets the texts go reads back no
// text for suppressions (found while the parse holds the text, with the
// text a finding on one flags), for redaction (the secrets check keeps
// the secrets its messages must not quote) or for missing paths (flagged
// at parse time), and a text other cross-file findings flag at most once,
// whatever their number.
func TestReleaseReadsTextsOnce(t *testing.T) {
	dir := t.TempDir()
	// An access key ID's 16 characters are base32 (A-Z, 2-7).
	const base32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	key := []byte("AKIA")
	for range 16 {
		key = append(key, base32[rand.IntN(len(base32))])
	}
	var gone, issues strings.Builder
	for i := range 30 {
		fmt.Fprintf(&gone, "- See `.sot/GONE-%02d.md` for row %d.\n", i, i)
		fmt.Fprintf(&issues, "### CTO-WORK-%03d - Slice %d\n\nType: AFK\n\nStatus: validated.\n\nAcceptance criteria:\n\n- [ ] Row %d is proven.\n\n", i, i, i)
	}
	checktest.WriteFiles(t, dir, map[string]string{
		"WORKBOARD.yaml":   "items: []\n",
		".sot/A-PRD.md":    "# A\n\n" + gone.String(),
		".sot/C-ISSUES.md": "# C\n\n" + issues.String(),
		".sot/B-PRD.md": "# B\n\n<!-- sotvet:ignore refs -- moved in the next wave -->\n- See `.sot/GONE-B.md`.\n\n" +
			"<!-- sotvet:ignore status -->\n\naws_access_key_id = " + string(key) + "\n\n<!-- sotvet:ignore refs -- nothing here -->\n",
	})
	run := func(release bool) ([]string, map[string]int) {
		t.Helper()
		fsys := &countingFS{FS: os.DirFS(dir), opens: map[string]int{}}
		res, _, err := checks.Run(checks.Options{Root: dir, FS: fsys, Analyzers: registry.All, ReleaseText: release, NoFixes: release, ForgetModel: release})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, f := range res.Findings {
			out = append(out, show(f)+fmt.Sprint(f.Related)+f.Fingerprint)
		}
		return out, fsys.opens
	}
	want, _ := run(false)
	got, reads := run(true)
	if d := diffLines(want, got); d != "" {
		t.Errorf("a run letting the texts go differs:\n%s", d)
	}
	for _, code := range []string{"refs/missing-path", "status/unchecked-acceptance", "suppression/no-reason", "suppression/unused", "secrets/"} {
		if !strings.Contains(strings.Join(got, "\n"), code) {
			t.Errorf("no %s finding:\n%s", code, strings.Join(got, "\n"))
		}
	}
	if strings.Contains(strings.Join(got, "\n"), string(key)) {
		t.Errorf("a finding quotes the key:\n%s", strings.Join(got, "\n"))
	}
	t.Logf("opens: %v", reads)
	if n := reads[".sot/A-PRD.md"]; n != 1 {
		t.Errorf("A-PRD.md, 30 missing paths, read %d times; want once (the parse: refs flags them as it reads them)", n)
	}
	if n := reads[".sot/C-ISSUES.md"]; n > 2 {
		t.Errorf("C-ISSUES.md, 30 findings the parse kept no text for, read %d times; want at most 2 (the parse, and once for their fingerprints)", n)
	}
	if n := reads[".sot/B-PRD.md"]; n != 1 {
		t.Errorf("B-PRD.md, suppressions and a secret, read %d times; want once (the parse)", n)
	}
}
