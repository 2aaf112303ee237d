package contradiction_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/checks/checktest"
	"github.com/svrnty/sotvet/checks/contradiction"
)

// TestSessionParaphrases: an editor's session, with one document (or the
// workboard) open and every other kept from its summary, reports in that
// document what a full run reports there, on every workspace of the
// paraphrase sets (each rule's findings and near-misses in other words),
// at the load and at an edit after it (which takes the kept documents'
// texts as the load read them). A rule that looks at the documents in
// focus only, or keeps what it read of the others, must not lose or
// invent a finding by it.
func TestSessionParaphrases(t *testing.T) {
	t.Parallel()
	for _, rule := range rules {
		for _, v := range checktest.ParaphraseVariants(t, "testdata/paraphrase/"+rule+".txtar") {
			t.Run(rule+"/"+v.Name, func(t *testing.T) {
				t.Parallel()
				if compared := sessionMatchesFullRun(t, v); strings.HasPrefix(v.Name, "pos/") && compared == 0 {
					t.Errorf("a full run finds nothing in the variant's documents: the test compares nothing")
				}
			})
		}
	}
}

// TestSessionRoleOrder: the roles rule's choices that depend on the
// order of the documents hold when the documents before and after the open
// one are kept from their summaries: on a tie the first statement's role
// is established (here a kept document's), and the related places are the
// other role's first statements in path order (kept ones before and after
// the open document).
func TestSessionRoleOrder(t *testing.T) {
	t.Parallel()
	claim := func(role string) string {
		return "# M\n\n| provider | model | role |\n| --- | --- | --- |\n| `prov0` | `model-0` | " + role + " |\n"
	}
	for name, files := range map[string]map[string]string{
		"tie, first kept": {".sot/A-MATRIX.md": claim("fallback"), ".sot/B-MATRIX.md": claim("primary")},
		"tie, first open": {".sot/B-MATRIX.md": claim("fallback"), ".sot/C-MATRIX.md": claim("primary")},
		"related around": {
			".sot/A-MATRIX.md": claim("primary"), ".sot/B-MATRIX.md": claim("primary"), ".sot/C-MATRIX.md": claim("fallback"),
			".sot/D-MATRIX.md": claim("primary"), ".sot/E-MATRIX.md": claim("primary"), ".sot/F-MATRIX.md": claim("primary"),
			".sot/G-MATRIX.md": claim("primary"), ".sot/H-MATRIX.md": claim("primary"), ".sot/I-MATRIX.md": claim("primary"),
		},
	} {
		t.Run(name, func(t *testing.T) {
			files["WORKBOARD.yaml"] = "items: []\n"
			if sessionMatchesFullRun(t, checktest.Variant{Name: name, Files: files}) == 0 {
				t.Fatal("a full run reports no role: the test compares nothing")
			}
		})
	}
}

// sessionMatchesFullRun opens each document of v (and its workboard) in a
// session of its own, and fails where the session's findings in it, at
// the load or at an edit that keeps its text, differ from a full run's.
// It returns how many findings of the full run it compared.
func sessionMatchesFullRun(t *testing.T, v checktest.Variant) (compared int) {
	t.Helper()
	as := []*analysis.Analyzer{contradiction.Analyzer}
	dir := v.Write(t)
	full := checktest.Findings(t, dir, as...)
	var docs []string
	for p := range v.Files {
		if strings.HasPrefix(p, ".sot/") && strings.HasSuffix(p, ".md") || p == "WORKBOARD.yaml" {
			docs = append(docs, p)
		}
	}
	slices.Sort(docs)
	in := func(fs []checks.Finding, doc string) []string {
		var out []string
		for _, f := range fs {
			if f.File == doc {
				out = append(out, findingLine(f))
			}
		}
		return out
	}
	for _, doc := range docs {
		want := in(full, doc)
		compared += len(want)
		text := []byte(v.Files[doc])
		s, err := checks.NewOverlaySession(checks.Options{Root: dir, FS: os.DirFS(dir), Analyzers: as}, map[string][]byte{doc: text})
		if err != nil {
			t.Fatal(err)
		}
		res := s.Result()
		for step := range 2 {
			if step == 1 {
				if res, err = s.Update(doc, text); err != nil {
					t.Fatal(err)
				}
			}
			if got := in(res.Findings, doc); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s open (%s): session reports\n%s\nwant (a full run)\n%s", doc, []string{"load", "edit"}[step], strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		}
	}
	return compared
}

func findingLine(f checks.Finding) string {
	var rel []string
	for _, r := range f.Related {
		rel = append(rel, fmt.Sprintf("%s:%d %s", filepath.ToSlash(r.File), r.Line, r.Message))
	}
	return fmt.Sprintf("%s:%d:%d [%s] %s %v", f.File, f.Line, f.Col, f.Category, f.Message, rel)
}

// TestSessionFollowsRoleMajority: a session that reports on every file
// (checks.NewSession) checks again the documents whose findings an edit
// changes when the edit takes every role claim out of the edited
// document: the majority moves, and documents no finding related to the
// edited one become the odd ones. (Reading the others only when a
// document in focus makes a claim, the session kept the old findings.)
func TestSessionFollowsRoleMajority(t *testing.T) {
	t.Parallel()
	row := "| `prov0` | `model-0` | %s |\n"
	table := func(role string, n int) string {
		return "# M\n\n| provider | model | role |\n| --- | --- | --- |\n" + strings.Repeat(fmt.Sprintf(row, role), n)
	}
	files := map[string]string{"WORKBOARD.yaml": "items: []\n", ".sot/A8-MATRIX.md": table("primary", 2)}
	for i := 1; i <= 7; i++ {
		files[fmt.Sprintf(".sot/A%d-MATRIX.md", i)] = table("primary", 1)
	}
	for i := 1; i <= 8; i++ {
		files[fmt.Sprintf(".sot/F%d-MATRIX.md", i)] = table("fallback", 1)
	}
	dir := checktest.Variant{Files: files}.Write(t)
	as := []*analysis.Analyzer{contradiction.Analyzer}
	s, err := checks.NewSession(checks.Options{Root: dir, FS: os.DirFS(dir), Analyzers: as})
	if err != nil {
		t.Fatal(err)
	}
	lines := func(fs []checks.Finding) []string {
		var out []string
		for _, f := range fs {
			out = append(out, findingLine(f))
		}
		slices.Sort(out)
		return out
	}
	if got, want := lines(s.Result().Findings), lines(checktest.Findings(t, dir, as...)); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("the load differs from a full run:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	edited := "# M\n\nNo role here any more.\n"
	res, err := s.Update(".sot/A8-MATRIX.md", []byte(edited))
	if err != nil {
		t.Fatal(err)
	}
	checktest.WriteFiles(t, dir, map[string]string{".sot/A8-MATRIX.md": edited})
	want := lines(checktest.Findings(t, dir, as...))
	if !strings.Contains(fmt.Sprint(want), "A1-MATRIX.md") {
		t.Fatalf("after the edit a full run finds no odd primary claim: the test shows nothing\n%s", strings.Join(want, "\n"))
	}
	if got := lines(res.Findings); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("after the edit the session reports\n%s\nwant (a full run)\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
