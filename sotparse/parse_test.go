package sotparse

import (
	"fmt"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

const goodDoc = `---
name: x-prd
status: draft
owner: jp
created: 2026-06-01
last_reviewed: 2026-06-02
core_promotion_status: not-promoted
---

# X PRD

Local planning SOT only. Not a Core Protocol. Not active Core authority.

### CTO-WORK-009 - Stage 1 Gated Case Engine PRD

Type: AFK

Status: validated.

Blocked by: CTO-WORK-008, CTO-WORK-007

Acceptance criteria:

- [x] PRD states Stage 1 allowed mutation scope is ` + "`none`" + `.
- [ ] Local CTO validator checks the PRD.

Validator: ` + "`python3 tools/validate_cto_child.py`" + `

## Issue: CTO-WORK-078 - Stage 5 Repeatability Proof PRD

Status: blocked.

## CTO-WORK-064: Hermes WebUI JP Approval Packet PRD

## CTO-WORK-020 Decision Record Template

## Required Phrases

- ` + "`No Core promotion occurs.`" + `
- **runtime_default_activation: false**

## Result

- repeatability_count: 2
- first report: ` + "`/home/svrnty/runs/x/report.json`" + `
- commit: ` + "`05ab2ff`" + `
- see .sot/03-PROTOCOLS/Y-ISSUES.md.

> Status: blocked.
`

func load(t *testing.T, files map[string]string) *Workspace {
	t.Helper()
	m := fstest.MapFS{}
	for name, content := range files {
		m[name] = &fstest.MapFile{Data: []byte(content)}
	}
	ws, err := LoadFS(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

func TestDocModel(t *testing.T) {
	ws := load(t, map[string]string{".sot/03-PROTOCOLS/X-PRD.md": goodDoc})
	if len(ws.Problems) != 0 {
		t.Fatalf("problems: %+v", ws.Problems)
	}
	d := ws.Doc(".sot/03-PROTOCOLS/X-PRD.md")
	if d.Kind != KindPRD || d.Stem != "X" {
		t.Errorf("kind, stem = %s, %s", d.Kind, d.Stem)
	}
	fm := d.Frontmatter
	if fm == nil || fm.Status.Value != "draft" || fm.CorePromotionStatus.Value != "not-promoted" {
		t.Fatalf("frontmatter = %+v", fm)
	}
	if p := ws.Fset.Position(fm.Status.ValuePos); p.Line != 3 || p.Column != 9 {
		t.Errorf("status value at %v, want 3:9", p)
	}
	var got []string
	for _, w := range d.WorkItems {
		got = append(got, w.ID+"|"+w.Style+"|"+w.Title)
	}
	want := []string{
		"CTO-WORK-009|dash|Stage 1 Gated Case Engine PRD",
		"CTO-WORK-078|issue|Stage 5 Repeatability Proof PRD",
		"CTO-WORK-064|colon|Hermes WebUI JP Approval Packet PRD",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("work items:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	w := d.WorkItems[0]
	if w.Type == nil || w.Type.Value != "AFK" || w.Status.Word() != "validated" || w.Validator == nil {
		t.Errorf("item lines: type=%v status=%v validator=%v", w.Type, w.Status, w.Validator)
	}
	if bl := allRefs(w.Blockers); len(bl) != 2 || bl[0].Text != "CTO-WORK-008" || bl[1].Text != "CTO-WORK-007" || bl[0].Kind != RefWorkID {
		t.Errorf("blockers = %+v", bl)
	}
	if len(w.Checkboxes) != 2 || !w.Checkboxes[0].Checked || w.Checkboxes[1].Checked {
		t.Errorf("checkboxes = %+v", w.Checkboxes)
	}
	if p := ws.Fset.Position(w.Checkboxes[1].Pos); p.Line != 25 || p.Column != 1 {
		t.Errorf("second checkbox at %v, want 25:1", p)
	}
	// Status lines: two item lines; the blockquoted one is a quote, not a claim.
	if len(d.StatusLines) != 2 || d.StatusLines[1].Item.ID != "CTO-WORK-078" {
		t.Errorf("status lines = %d", len(d.StatusLines))
	}
	if len(d.PhraseLists) != 1 || len(d.PhraseLists[0].Phrases) != 2 ||
		d.PhraseLists[0].Phrases[0].Text != "No Core promotion occurs." ||
		d.PhraseLists[0].Phrases[1].Text != "runtime_default_activation: false" {
		t.Errorf("phrases = %+v", d.PhraseLists)
	}
	facts := map[string]string{}
	for _, f := range d.Facts.All() {
		facts[f.Key] = f.Value
	}
	if facts["repeatability_count"] != "2" || facts["commit"] != "`05ab2ff`" {
		t.Errorf("facts = %v", facts)
	}
	kinds := map[RefKind][]string{}
	for _, r := range d.Refs.All() {
		kinds[r.Kind] = append(kinds[r.Kind], r.Text)
	}
	if strings.Join(kinds[RefSOTPath], ",") != ".sot/03-PROTOCOLS/Y-ISSUES.md" {
		t.Errorf("sot paths = %v", kinds[RefSOTPath])
	}
	if strings.Join(kinds[RefAbsPath], ",") != "/home/svrnty/runs/x/report.json" || strings.Join(kinds[RefCommit], ",") != "05ab2ff" {
		t.Errorf("refs = %v", kinds)
	}
	if len(kinds[RefWorkID]) != 6 {
		t.Errorf("work ids = %v", kinds[RefWorkID])
	}
}

func TestHostileInput(t *testing.T) {
	bomb := "a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\ng: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]\nitems: [*g, *g, *g, *g, *g, *g, *g, *g, *g]\n"
	cases := []struct {
		name, path, content string
		check, want         string
		line                int
	}{
		{"unclosed", ".sot/A-PRD.md", "---\nname: a\nstatus: draft\n\n# A\n", "frontmatter", "never closed", 1},
		{"malformed yaml", ".sot/A-PRD.md", "---\nname: a\nstatus: [draft\n---\n# A\n", "frontmatter", "malformed frontmatter YAML", 4},
		{"duplicate key", ".sot/A-PRD.md", "---\nname: a\nname: b\n---\n# A\n", "frontmatter", `duplicate frontmatter key "name"`, 3},
		{"not a mapping", ".sot/A-PRD.md", "---\n- a\n- b\n---\n# A\n", "frontmatter", "not a YAML mapping", 2},
		{"nul", ".sot/A-PRD.md", "# A\x00\n", "syntax", "NUL byte", 1},
		{"invalid utf8", ".sot/A-PRD.md", "# A\n\xff\n", "syntax", "invalid UTF-8", 2},
		{"bom", ".sot/A-PRD.md", "\ufeff---\nname: a\n---\n# A\n", "syntax", "byte order mark", 1},
		{"duplicate json", ".sot/r.json", `{"a": 1, "a": 2}`, "syntax", "duplicate", 1},
		{"workboard alias bomb", "WORKBOARD.yaml", bomb, "workboard", "", 0},
		{"workboard syntax", "WORKBOARD.yaml", "items:\n  - id: [\n", "workboard", "malformed YAML", 2},
		{"workboard tab", "WORKBOARD.yaml", "items:\n\t- id: x\n", "workboard", "malformed YAML", 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			done := make(chan *Workspace)
			go func() { done <- load(t, map[string]string{c.path: c.content}) }()
			var ws *Workspace
			select {
			case ws = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("parse did not finish in 10s")
			}
			if c.want == "" {
				return // bounded and did not crash: enough for the bomb
			}
			ps := ws.ProblemsFor(c.check)
			if len(ps) == 0 {
				t.Fatalf("no %s problem; all: %+v", c.check, ws.Problems)
			}
			p := ps[0]
			if !strings.Contains(p.Message, c.want) {
				t.Errorf("message %q does not contain %q", p.Message, c.want)
			}
			if got := ws.Fset.Position(p.Pos).Line; got != c.line {
				t.Errorf("line = %d, want %d", got, c.line)
			}
		})
	}
}

func TestCRLF(t *testing.T) {
	crlf := strings.ReplaceAll(goodDoc, "\n", "\r\n")
	ws := load(t, map[string]string{".sot/X-PRD.md": crlf})
	if len(ws.Problems) != 0 {
		t.Fatalf("problems: %+v", ws.Problems)
	}
	d := ws.Docs[0]
	if d.Frontmatter == nil || d.Frontmatter.Status.Value != "draft" || len(d.WorkItems) != 3 {
		t.Fatalf("CRLF document not parsed: fm=%v items=%d", d.Frontmatter, len(d.WorkItems))
	}
	if d.WorkItems[0].Status.Value != "validated." {
		t.Errorf("status value %q keeps a CR", d.WorkItems[0].Status.Value)
	}
}

func TestSizeCap(t *testing.T) {
	m := fstest.MapFS{".sot/Big-PRD.md": &fstest.MapFile{Data: []byte(strings.Repeat("a", 100))}}
	ws, err := LoadFS(m, Options{MaxFileSize: 10})
	if err != nil {
		t.Fatal(err)
	}
	ps := ws.ProblemsFor("syntax")
	if len(ps) != 1 || !strings.Contains(ps[0].Message, "over the 10-byte limit") {
		t.Fatalf("problems = %+v", ws.Problems)
	}
	if len(ws.Docs) != 0 {
		t.Errorf("an oversized file was parsed")
	}
}

type failFS struct{ fstest.MapFS }

func (f failFS) Open(name string) (fs.File, error) {
	if strings.HasSuffix(name, "Locked-PRD.md") {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return f.MapFS.Open(name)
}

func (f failFS) ReadFile(name string) ([]byte, error) {
	if _, err := f.Open(name); err != nil {
		return nil, err
	}
	return f.MapFS.ReadFile(name)
}

func TestUnreadable(t *testing.T) {
	m := failFS{fstest.MapFS{".sot/Locked-PRD.md": &fstest.MapFile{Data: []byte("# x\n")}}}
	ws, err := LoadFS(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ps := ws.ProblemsFor("syntax")
	if len(ps) != 1 || !strings.Contains(ps[0].Message, "permission denied") || ps[0].Path != ".sot/Locked-PRD.md" {
		t.Fatalf("problems = %+v", ws.Problems)
	}
}

func TestSymlinks(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, ".sot"), 0o755))
	must(os.WriteFile(filepath.Join(outside, "secret.md"), []byte("# outside\n"), 0o644))
	must(os.WriteFile(filepath.Join(dir, ".sot", "In-PRD.md"), []byte("# in\n"), 0o644))
	must(os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(dir, ".sot", "Out-PRD.md")))
	must(os.Symlink("../../"+filepath.Base(outside)+"/secret.md", filepath.Join(dir, ".sot", "Rel-PRD.md")))
	must(os.Symlink("In-PRD.md", filepath.Join(dir, ".sot", "Alias-PRD.md")))
	ws, err := Load(dir, Options{NoGit: true})
	must(err)
	var msgs []string
	for _, p := range ws.ProblemsFor("syntax") {
		msgs = append(msgs, p.Path+": "+p.Message)
	}
	joined := strings.Join(msgs, "\n")
	for _, want := range []string{".sot/Out-PRD.md: symbolic link leads outside the workspace", ".sot/Rel-PRD.md: symbolic link leads outside the workspace"} {
		if !strings.Contains(joined, want) {
			t.Errorf("missing %q in\n%s", want, joined)
		}
	}
	if ws.Doc(".sot/Alias-PRD.md") == nil || ws.Doc(".sot/In-PRD.md") == nil {
		t.Errorf("in-root link or its target not read")
	}
	for _, d := range ws.Docs {
		if strings.Contains(string(d.File.Content), "outside") {
			t.Errorf("%s: content from outside the root was read", d.Path)
		}
	}
}

func TestGitIgnored(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("init", "-q")
	files := map[string]string{
		".gitignore":            ".sot/scratch/\n*.tmp.md\n",
		".sot/A-PRD.md":         "# a\n",
		".sot/scratch/B-PRD.md": "# b\n",
		".sot/C.tmp.md":         "# c\n",
		".sot/sub/D-ISSUES.md":  "# d\n",
	}
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := Load(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range ws.Docs {
		got = append(got, d.Path)
	}
	if strings.Join(got, ",") != ".sot/A-PRD.md,.sot/sub/D-ISSUES.md" {
		t.Errorf("docs = %v", got)
	}
	if ws.Exists(".sot/scratch") {
		t.Errorf("ignored directory is known")
	}
}

func TestSetLines(t *testing.T) {
	for _, s := range []string{"", "a", "\n", "\n\n", "a\nb", "a\nb\n", "\na\n\nb", "ab\r\ncd\r\n"} {
		fset := token.NewFileSet()
		want := fset.AddFile("want", -1, len(s))
		want.SetLinesForContent([]byte(s))
		got := fset.AddFile("got", -1, len(s))
		setLines(got, []byte(s))
		if fmt.Sprint(got.Lines()) != fmt.Sprint(want.Lines()) {
			t.Errorf("setLines(%q) = %v, want %v", s, got.Lines(), want.Lines())
		}
	}
}

func TestKindOf(t *testing.T) {
	for p, want := range map[string]string{
		".sot/03-PROTOCOLS/CTO-CASE-STAGE1-GATED-ENGINE-PRD.md":        "PRD CTO-CASE-STAGE1-GATED-ENGINE",
		".sot/03-PROTOCOLS/CTO-CORE-ROUTE-ADMISSION-GUARD-CLOSEOUT.md": "CLOSEOUT CTO-CORE-ROUTE-ADMISSION-GUARD",
		".sot/03-PROTOCOLS/CTO-CORE-ROUTE-ADMISSION-GUARD.md":          "GUARD CTO-CORE-ROUTE-ADMISSION",
		"CONTEXT.md": "other CONTEXT",
		"PRD.md":     "other PRD",
	} {
		k, stem := KindOf(p)
		if got := string(k) + " " + stem; got != want {
			t.Errorf("KindOf(%s) = %s, want %s", p, got, want)
		}
	}
}

// The literal scanners must find what the regular expressions they replaced
// found.
func TestScannersMatchRegexps(t *testing.T) {
	sotRe := regexp.MustCompile("(?:^|[\\s`'\"(\\[<])(\\.sot/[A-Za-z0-9._/@+-]*[A-Za-z0-9_/])")
	inputs := []string{
		"see .sot/03-PROTOCOLS/X-PRD.md. and `.sot/a/b/` or (.sot/x.json), cto/.sot/no.md",
		"at start; [.sot/y-z.md] <.sot/q@v+1.md> \".sot/quoted.md\" .sot/trail-.",
		"CTO-WORK-001, xCTO-WORK-002, CTO-WORK-003x, CTO-WORK-, CTO-WORK-0045 CTO-WORK-12_",
		goodDoc,
	}
	for _, in := range inputs {
		var want, got []string
		for _, m := range sotRe.FindAllStringSubmatchIndex(in, -1) {
			want = append(want, in[m[2]:m[3]])
		}
		for m := range sotPaths([]byte(in)) {
			got = append(got, in[m[0]:m[1]])
		}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("sotPaths(%q) = %q, want %q", in, got, want)
		}
		want, got = nil, nil
		want = append(want, workIDPattern.FindAllString(in, -1)...)
		for m := range workIDs([]byte(in)) {
			got = append(got, in[m[0]:m[1]])
		}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("workIDs(%q) = %q, want %q", in, got, want)
		}
	}
	// Unlike the old pattern, a bare ".sot/" is a reference to the directory.
	if got := slices.Collect(sotPaths([]byte("under .sot/ only"))); len(got) != 1 || got[0] != [2]int{6, 11} {
		t.Errorf("bare .sot/ = %v", got)
	}
}

func TestRelPath(t *testing.T) {
	for _, c := range []struct {
		root, name, want string
		ok               bool
	}{
		{"/w", "/w/.sot/a.md", ".sot/a.md", true},
		{"/w", "/w", ".", true},
		{"/w", "/w/x/../../etc/passwd", "", false},
		{"/w", "/other/a.md", "", false},
		{"/w", "/w2/a.md", "", false},
	} {
		got, ok := RelPath(c.root, c.name)
		if got != c.want || ok != c.ok {
			t.Errorf("RelPath(%q, %q) = %q, %v; want %q, %v", c.root, c.name, got, ok, c.want, c.ok)
		}
	}
}

// TestManyFrontmatterKeys: duplicates are found, and values kept, in a
// frontmatter of more keys than duplicates are looked for by scanning.
func TestManyFrontmatterKeys(t *testing.T) {
	var b strings.Builder
	b.WriteString("---\n")
	for i := range 40 {
		fmt.Fprintf(&b, "k%d: v%d\n", i, i)
		switch i {
		case 3, 30:
			fmt.Fprintf(&b, "k%d: again\n", i-2) // lines 6 and 34
		}
	}
	b.WriteString("name: a\nstatus: draft\n---\n# A\n")
	ws := load(t, map[string]string{".sot/A-PRD.md": b.String()})
	var lines []int
	for _, p := range ws.ProblemsFor("frontmatter") {
		if strings.Contains(p.Message, "duplicate frontmatter key") {
			lines = append(lines, ws.Fset.Position(p.Pos).Line)
		}
	}
	if !slices.Equal(lines, []int{6, 34}) {
		t.Errorf("duplicate keys reported on lines %v, want [6 34]; problems: %+v", lines, ws.Problems)
	}
	fm := ws.Docs[0].Frontmatter
	if fm == nil || len(fm.Fields) != 44 {
		t.Fatalf("frontmatter = %+v", fm)
	}
	for i, f := range fm.Fields {
		want := "v" + strings.TrimPrefix(f.Key, "k")
		if f.Duplicate {
			want = "again"
		}
		if f.Key == "name" || f.Key == "status" {
			want = map[string]string{"name": "a", "status": "draft"}[f.Key]
		}
		if f.Value != want {
			t.Errorf("field %d %s = %q, want %q", i, f.Key, f.Value, want)
		}
	}
	if fm.Name.Value != "a" || fm.Status.Value != "draft" {
		t.Errorf("name %q, status %q", fm.Name.Value, fm.Status.Value)
	}
}
