package checks_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/checks/registry"
	"github.com/svrnty/sotvet/internal/cputime"
	"github.com/svrnty/sotvet/internal/testcorpus"
	"github.com/svrnty/sotvet/scripts/gen-corpus/gencorpus"
	"github.com/svrnty/sotvet/sotparse"
)

// sessionWorkspace writes a synthetic workspace of n documents and returns
// its absolute root and the path of one ISSUES document in it.
func sessionWorkspace(t testing.TB, n int) (string, string) {
	t.Helper()
	root := t.TempDir()
	if err := gencorpus.Write(root, n, 5); err != nil {
		t.Fatal(err)
	}
	ws, err := sotparse.Load(root, sotparse.Options{NoGit: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ws.Docs {
		if d.Kind == sotparse.KindIssues && len(d.WorkItems) > 0 {
			return root, d.Path
		}
	}
	t.Fatal("no ISSUES document with work items")
	return "", ""
}

func fullRun(t *testing.T, root string) []string {
	t.Helper()
	res, _, err := checks.Run(checks.Options{Root: root, FS: os.DirFS(root), Analyzers: registry.All})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range res.Findings {
		out = append(out, show(f)+" "+f.Fingerprint)
	}
	return out
}

func sessionFindings(res *checks.Result) []string {
	var out []string
	for _, f := range res.Findings {
		out = append(out, show(f)+" "+f.Fingerprint)
	}
	return out
}

// TestSessionMatchesFullRun: after each update, a session reports what a
// full run over the workspace with the new content on disk reports, in
// every file: per-file findings of the changed document, and cross-file
// ones (a work item's status against the workboard).
func TestSessionMatchesFullRun(t *testing.T) {
	root, doc := sessionWorkspace(t, 100)
	// A record with findings of its own: an edit of a document leaves
	// them as they were (the records check reports on records in focus).
	record := `{"provider": "fake", "model": "m", "status": "admitted", "surprise": 1}` + "\n"
	if err := os.WriteFile(filepath.Join(root, ".sot/03-PROTOCOLS/SYN-MODEL-PROVIDER-ADMISSION.broken.json"), []byte(record), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := checks.NewSession(checks.Options{Root: root, FS: os.DirFS(root), Analyzers: registry.All})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := sessionFindings(s.Result()), fullRun(t, root); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("loaded session differs from a full run:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	orig, err := os.ReadFile(filepath.Join(root, doc))
	if err != nil {
		t.Fatal(err)
	}
	// A work item another document defines, to define it here too.
	ws, err := sotparse.Load(root, sotparse.Options{NoGit: true})
	if err != nil {
		t.Fatal(err)
	}
	var other string
	for _, d := range ws.Docs {
		if d.Path != doc && len(d.WorkItems) > 0 {
			other = d.WorkItems[0].ID
			break
		}
	}
	edits := []struct{ name, content string }{
		{"defines another document's work item", string(orig) + "\n## Issue: " + other + " - Copied\n\nStatus: candidate.\n"},
		{"names another document's work item", string(orig) + "\nSee " + other + ".\n"},
		{"trailing spaces and blank lines", string(orig) + "\n\n\ntrailing   \n"},
		{"status contradicts the workboard", strings.Replace(string(orig), "Status: validated.", "Status: blocked.", 1)},
		{"status contradicts the workboard (candidate)", strings.Replace(string(orig), "Status: candidate.", "Status: validated.", 1)},
		{"frontmatter broken", strings.Replace(string(orig), "---\n", "", 1)},
		{"back as it was", string(orig)},
	}
	for _, e := range edits {
		res, err := s.Update(doc, []byte(e.content))
		if err != nil {
			t.Fatal(err)
		}
		// The overlay is not on disk: write it for the full run, then put
		// the original back.
		if err := os.WriteFile(filepath.Join(root, doc), []byte(e.content), 0o644); err != nil {
			t.Fatal(err)
		}
		want := fullRun(t, root)
		if err := os.WriteFile(filepath.Join(root, doc), orig, 0o644); err != nil {
			t.Fatal(err)
		}
		if got := sessionFindings(res); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: session differs from a full run:\n%s\nwant:\n%s", e.name, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

// TestSessionOverlayNewFile: an unsaved buffer for a file not on disk is
// checked as part of the workspace; dropping the overlay forgets it.
func TestSessionOverlayNewFile(t *testing.T) {
	root, _ := sessionWorkspace(t, 20)
	s, err := checks.NewSession(checks.Options{Root: root, FS: os.DirFS(root), Analyzers: registry.All})
	if err != nil {
		t.Fatal(err)
	}
	before := len(s.Result().Findings)
	p := gencorpus.Dir + "/NEW-PRD.md"
	res, err := s.Update(p, []byte("---\nname: new\n---\n\n# New\n\ntext   \n"))
	if err != nil {
		t.Fatal(err)
	}
	var inNew int
	for _, f := range res.Findings {
		if f.File == p {
			inNew++
		}
	}
	if inNew == 0 {
		t.Fatalf("no finding in the unsaved new file %s", p)
	}
	res, err = s.Update(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != before {
		t.Errorf("after dropping the overlay: %d findings, want %d", len(res.Findings), before)
	}
}

// BenchmarkSessionUpdate is the one-file latency target: a warm session of
// a 100-document workspace re-checks one changed document, cross-file
// rules included (target <= 20 ms).
func BenchmarkSessionUpdate(b *testing.B) {
	root, doc := sessionWorkspace(b, 100)
	s, err := checks.NewSession(checks.Options{Root: root, FS: os.DirFS(root), Analyzers: registry.All})
	if err != nil {
		b.Fatal(err)
	}
	orig, err := os.ReadFile(filepath.Join(root, doc))
	if err != nil {
		b.Fatal(err)
	}
	i := 0
	cpu := cputime.Process()
	for b.Loop() {
		i++
		if _, err := s.Update(doc, append(orig, fmt.Sprintf("\nEdit %d.\n", i)...)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64((cputime.Process()-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

// TestSessionWorkboardAndReload: the workboard can be an overlay too, and
// Reload picks up changes on disk the session was not told of.
func TestSessionWorkboardAndReload(t *testing.T) {
	root, _ := sessionWorkspace(t, 30)
	s, err := checks.NewSession(checks.Options{Root: root, FS: os.DirFS(root), Analyzers: registry.All})
	if err != nil {
		t.Fatal(err)
	}
	wb, err := os.ReadFile(filepath.Join(root, "WORKBOARD.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(wb), "status: validated", "status: nonsense", 1)
	res, err := s.Update("WORKBOARD.yaml", []byte(broken))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "WORKBOARD.yaml"), []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, want := sessionFindings(res), fullRun(t, root); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("workboard overlay differs from a full run:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// On disk now, and the overlay dropped: the same findings.
	if res, err = s.Update("WORKBOARD.yaml", nil); err != nil {
		t.Fatal(err)
	}
	if got, want := sessionFindings(res), fullRun(t, root); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("after dropping the overlay:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Restored behind the session's back: Reload sees it.
	if err := os.WriteFile(filepath.Join(root, "WORKBOARD.yaml"), wb, 0o644); err != nil {
		t.Fatal(err)
	}
	if res, err = s.Reload(); err != nil {
		t.Fatal(err)
	}
	if got, want := sessionFindings(res), fullRun(t, root); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("after Reload:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestSessionCrossDocumentContradiction edits a document of the real
// corpus that shares no work id, route or finding with the others so that
// a provider/model pair gets more "primary" sentences than "fallback" ones:
// the contradiction check's role rule then reports the fallback sentences
// of three other documents and no longer the primary one it reported. The
// session must report what a full run reports, as the contradiction
// appears and when it disappears.
func TestSessionCrossDocumentContradiction(t *testing.T) {
	src := testcorpus.Require(t)
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	s, err := checks.NewSession(checks.Options{Root: root, FS: os.DirFS(root), Analyzers: registry.All})
	if err != nil {
		t.Fatal(err)
	}
	const rel = ".sot/00-INTENT/CTO-WORKSPACE-INTENT.md"
	orig, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	edited := string(orig) + "\n## Provider\n\n`openai-codex` / `gpt-5.5` is the primary path.\n\n" +
		"The primary path is `openai-codex` / `gpt-5.5` for every stage.\n\n" +
		"We keep `openai-codex` / `gpt-5.5` as the primary path.\n"
	for _, step := range []struct {
		name, content string
		elsewhere     bool // a contradiction in another file points into rel
	}{
		{"contradiction appears", edited, true},
		{"contradiction disappears", string(orig), false},
	} {
		res, err := s.Update(rel, []byte(step.content))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, rel), []byte(step.content), 0o644); err != nil {
			t.Fatal(err)
		}
		want := fullRun(t, root)
		elsewhere := false
		full, _, err := checks.Run(checks.Options{Root: root, FS: os.DirFS(root), Analyzers: registry.All})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range full.Findings {
			for _, r := range f.Related {
				elsewhere = elsewhere || f.Check == "contradiction" && f.File != rel && r.File == rel
			}
		}
		if elsewhere != step.elsewhere {
			t.Fatalf("%s: a contradiction elsewhere pointing into %s: %v, want %v (the corpus changed?)", step.name, rel, elsewhere, step.elsewhere)
		}
		if got := sessionFindings(res); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: session differs from a full run:\n%s", step.name, lineDiff(want, got))
		}
	}
}

// lineDiff lists the lines only one of want and got has.
func lineDiff(want, got []string) string {
	count := map[string]int{}
	for _, l := range want {
		count[l]++
	}
	for _, l := range got {
		count[l]--
	}
	var b strings.Builder
	for l, n := range count {
		switch {
		case n > 0:
			fmt.Fprintf(&b, "missing: %s\n", l)
		case n < 0:
			fmt.Fprintf(&b, "extra:   %s\n", l)
		}
	}
	if b.Len() == 0 {
		return "(same findings, in another order)"
	}
	return b.String()
}

// TestOverlaySessionSchemaDrift: an open document whose frontmatter leaves
// its kind's majority schema is reported on, the majority counted over the
// documents the session keeps from their summaries, as a full run with the
// buffer on disk reports it; and no longer once the buffer is put back.
func TestOverlaySessionSchemaDrift(t *testing.T) {
	root, doc := sessionWorkspace(t, 60)
	orig, err := os.ReadFile(filepath.Join(root, doc))
	if err != nil {
		t.Fatal(err)
	}
	drift := strings.Replace(string(orig), "\nname: ", "\ntitle: ", 1)
	if drift == string(orig) {
		t.Fatalf("%s has no name: key", doc)
	}
	s, err := checks.NewOverlaySession(checks.Options{Root: root, FS: os.DirFS(root), Analyzers: registry.All}, map[string][]byte{doc: orig})
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{drift, string(orig), drift} {
		res, err := s.Update(doc, []byte(text))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, doc), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, f := range fullRun(t, root) {
			if strings.HasPrefix(f, doc+":") {
				want = append(want, f)
			}
		}
		if err := os.WriteFile(filepath.Join(root, doc), orig, 0o644); err != nil {
			t.Fatal(err)
		}
		got := sessionFindings(res)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("session differs from a full run:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if reported := strings.Contains(fmt.Sprint(got), "schema-drift"); reported != (text == drift) {
			t.Fatalf("schema-drift reported: %v, want %v:\n%s", reported, text == drift, strings.Join(got, "\n"))
		}
	}
}

// TestOverlaySessionProvenance: the approval source an open document gives
// is compared with what a document out of focus (kept from its summary)
// says the proof artifact they both cite records: its text is read back
// for the comparison, as a full run reads it.
func TestOverlaySessionProvenance(t *testing.T) {
	root := t.TempDir()
	proof := "`/runs/r1-slugify/stage5-owned-repo-proof.json`"
	files := map[string]string{
		"WORKBOARD.yaml":                       "items: []\n",
		".sot/03-PROTOCOLS/CASE-A-EVIDENCE.md": "---\nname: case-a-evidence\nstatus: validated\n---\n# Case A evidence\n\n## Result\n\n- proof: " + proof + "\n- approval_source: JP chat instruction on 2026-06-02 to execute the proof\n",
		".sot/03-PROTOCOLS/CASE-B-EVIDENCE.md": "---\nname: case-b-evidence\nstatus: validated\n---\n# Case B evidence\n\n- repeat proof: " + proof + "\n\nThe proof artifacts record approval_source as `JP chat approval on 2026-06-01`.\n",
	}
	for p, text := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	doc := ".sot/03-PROTOCOLS/CASE-A-EVIDENCE.md"
	var want []string
	for _, f := range fullRun(t, root) {
		if strings.HasPrefix(f, doc+":") {
			want = append(want, f)
		}
	}
	if !strings.Contains(fmt.Sprint(want), "contradiction/provenance") {
		t.Fatalf("a full run finds no provenance contradiction in %s: the test shows nothing\n%s", doc, strings.Join(want, "\n"))
	}
	s, err := checks.NewOverlaySession(checks.Options{Root: root, FS: os.DirFS(root), Analyzers: registry.All}, map[string][]byte{doc: []byte(files[doc])})
	if err != nil {
		t.Fatal(err)
	}
	// The load, then an edit that keeps the text.
	for _, res := range []*checks.Result{s.Result(), must(s.Update(doc, []byte(files[doc])))} {
		if got := sessionFindings(res); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("session differs from a full run:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

func must(res *checks.Result, err error) *checks.Result {
	if err != nil {
		panic(err)
	}
	return res
}

// countingStore is a summary store that counts what it is asked.
type countingStore struct {
	m          map[string][]byte
	asked, put int
}

func (c *countingStore) Summary(path, id string) []byte {
	c.asked++
	return c.m[path+"\x00"+id]
}

func (c *countingStore) PutSummary(path, id string, summary []byte) {
	c.put++
	c.m[path+"\x00"+id] = summary
}

// TestSessionLetsGoOfStore: the store of earlier processes is read by a
// session's first load only; the session does not hold it afterwards.
func TestSessionLetsGoOfStore(t *testing.T) {
	root, _ := sessionWorkspace(t, 10)
	store := &countingStore{m: map[string][]byte{}}
	id := func(path string) (string, bool) {
		b, err := os.ReadFile(filepath.Join(root, path))
		return fmt.Sprintf("%x", len(b)) + string(b[:min(len(b), 64)]), err == nil
	}
	s, err := checks.NewSession(checks.Options{Root: root, FS: os.DirFS(root), Analyzers: registry.All, Reuse: &sotparse.Reuse{ID: id, Store: store}})
	if err != nil {
		t.Fatal(err)
	}
	if store.put == 0 {
		t.Fatal("the first load put no summary in the store")
	}
	asked, put := store.asked, store.put
	if _, err := s.Reload(); err != nil {
		t.Fatal(err)
	}
	if store.asked != asked || store.put != put {
		t.Fatalf("Reload used the store of earlier processes: asked %d -> %d, put %d -> %d", asked, store.asked, put, store.put)
	}
}
