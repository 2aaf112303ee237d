package checks_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/checks/checktest"
	"github.com/svrnty/sotvet/checks/registry"
)

// TestSessionCrossDocumentGroups: findings that weigh what every other
// document says (a command's label, a provider pair's role) are the same
// in a session as in a full run, edit after edit: the counts, the
// majority, and the first places quoted, one a document, in path order.
// An editor's session (overlays only) takes the documents out of focus
// from their summaries and groups them once for as long as it keeps
// them; a session of every file checks the compared ones again.
func TestSessionCrossDocumentGroups(t *testing.T) {
	for _, overlays := range []bool{false, true} {
		t.Run(fmt.Sprintf("overlays=%v", overlays), func(t *testing.T) {
			t.Parallel()
			crossDocumentGroups(t, overlays)
		})
	}
}

func crossDocumentGroups(t *testing.T, overlays bool) {
	root := t.TempDir()
	files := map[string]string{"WORKBOARD.yaml": "items: []\n"}
	doc := func(i int) string { return fmt.Sprintf(".sot/03-PROTOCOLS/X-%02d-EVIDENCE.md", i) }
	for i := range 40 {
		var b strings.Builder
		fmt.Fprintf(&b, "---\nname: X %d\nstatus: validated\ncreated: 2026-06-%02d\n---\n\n# X %d Evidence\n\n", i, 2+i%20, i)
		if i%7 == 2 {
			// Later than the records below: it contradicts those that
			// still deny what it says holds.
			b.WriteString("- source admission freshness: current\n")
		}
		// Most documents call `npm test -- --runInBand` the harness's;
		// a few the target's. Two places in some documents.
		label := "Harness command"
		if i%5 == 3 {
			label = "Target validation command"
		}
		fmt.Fprintf(&b, "- %s: `npm test -- --runInBand`\n", label)
		if i%3 == 0 {
			fmt.Fprintf(&b, "- Record the %s `npm test -- --runInBand`.\n", label)
		}
		fmt.Fprintf(&b, "- Harness command: `go test ./pkg%d/...`\n", i%2)
		role := "primary"
		if i%4 == 1 {
			role = "fallback"
		}
		fmt.Fprintf(&b, "\n- Use `anthropic` / `claude-sonnet-4-6` as the %s path.\n", role)
		files[doc(i)] = b.String()
	}
	// Records whose status denies their subject, first and last in path
	// order: kept, in an editor's session, while the evidence is edited.
	for _, name := range []string{"A-SOURCE-ADMISSION-RECORD", "Z-SOURCE-ADMISSION-RECORD"} {
		title := strings.ReplaceAll(strings.TrimSuffix(name, "-RECORD"), "-", " ") + " Record"
		files[".sot/03-PROTOCOLS/"+name+".md"] = "---\nname: " + title + "\nstatus: draft\ncreated: 2026-05-30\nlast_reviewed: 2026-06-01\n---\n\n# " + title + "\n\n## Admission Status\n\nStatus: not admitted for execution.\n"
	}
	checktest.WriteFiles(t, root, files)
	opt := checks.Options{Root: root, FS: os.DirFS(root), Analyzers: registry.All}
	var s *checks.Session
	var err error
	if overlays {
		s, err = checks.NewOverlaySession(opt, nil)
	} else {
		s, err = checks.NewSession(opt)
	}
	if err != nil {
		t.Fatal(err)
	}
	loaded := withRelated(t, root, nil)
	if got := withRelated(t, root, s.Result()); !overlays && fmt.Sprint(got) != fmt.Sprint(loaded) {
		t.Fatalf("loaded session differs from a full run:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(loaded, "\n"))
	}
	for _, code := range []string{"contradiction/mislabeled-command", "contradiction/role", "contradiction/stale-record"} {
		if !strings.Contains(strings.Join(loaded, "\n"), code) {
			t.Fatalf("the workspace has no %s finding: the comparison would prove little", code)
		}
	}
	edits := []struct {
		doc  int
		name string
		edit func(string) string
	}{
		{3, "the odd label made the majority's", func(s string) string {
			return strings.ReplaceAll(s, "Target validation command", "Harness command")
		}},
		{0, "a majority document takes the odd label", func(s string) string {
			return strings.ReplaceAll(s, "Harness command: `npm", "Target validation command: `npm")
		}},
		{6, "the first places change", func(s string) string {
			return strings.ReplaceAll(s, "Harness command", "Target validation command")
		}},
		{8, "a command no other document names", func(s string) string {
			return s + "- Target validation command: `make check-all`\n- Harness command: `make check-all`\n"
		}},
		{1, "a pair's role flipped", func(s string) string { return strings.ReplaceAll(s, "fallback path", "primary path") }},
		{39, "the last document ties the labels", func(s string) string {
			return s + strings.Repeat("- Target validation command: `go test ./pkg1/...`\n", 8)
		}},
		{5, "the evidence says the subject holds", func(s string) string { return s + "\n- source admission freshness: current\n" }},
		{9, "the evidence says it, dated before the records", func(s string) string {
			return strings.Replace(s+"\n- source admission freshness: current\n", "created: 2026-06-11", "created: 2026-05-20", 1)
		}},
		{3, "back as it was", func(s string) string { return s }},
	}
	for _, e := range edits {
		p := doc(e.doc)
		content := e.edit(files[p])
		res, err := s.Update(p, []byte(content))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		want := withRelated(t, root, nil)
		if err := os.WriteFile(filepath.Join(root, p), []byte(files[p]), 0o644); err != nil {
			t.Fatal(err)
		}
		if overlays {
			// An editor's session reports on its buffer only.
			want = slices.DeleteFunc(want, func(f string) bool { return !strings.HasPrefix(f, p+":") })
		}
		// The session reports on every file, the one in focus judged on
		// its buffer, the others as the full run judges them.
		if got := withRelated(t, root, res); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s (%s): session differs from a full run:\n%s\nwant:\n%s", e.name, p, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		// Reverted in the session too (closed, in an editor): each edit
		// starts from the files.
		revert := []byte(files[p])
		if overlays {
			revert = nil
		}
		res, err = s.Update(p, revert)
		if err != nil {
			t.Fatal(err)
		}
		// A session of every file, reverted, reports what a full run of
		// the files does: the documents it compared are followed back.
		if got := withRelated(t, root, res); !overlays && fmt.Sprint(got) != fmt.Sprint(loaded) {
			t.Errorf("%s (%s), reverted: session differs from a full run:\n%s\nwant:\n%s", e.name, p, strings.Join(got, "\n"), strings.Join(loaded, "\n"))
		}
	}
}

// withRelated shows res's findings (a full run's of root when nil) with
// the places each quotes.
func withRelated(t *testing.T, root string, res *checks.Result) []string {
	t.Helper()
	if res == nil {
		var err error
		res, _, err = checks.Run(checks.Options{Root: root, FS: os.DirFS(root), Analyzers: registry.All})
		if err != nil {
			t.Fatal(err)
		}
	}
	var out []string
	for _, f := range res.Findings {
		line := show(f)
		for _, r := range f.Related {
			line += fmt.Sprintf("\n\t%s:%d %s", r.File, r.Line, r.Message)
		}
		out = append(out, line)
	}
	return out
}
