package contradiction

import (
	"fmt"
	"go/token"
	"math/rand/v2"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/checks/checktest"
	"github.com/svrnty/sotvet/sotparse"
)

// TestSentenceEndsAgrees checks sentenceEnds against the expression it
// replaced, `[.!?;](?:\s|$)`, and mayJoinPair against pairPattern (a
// sentence with a pair holds a joiner), on random texts of marks, white
// space, names, code spans and joiners.
func TestSentenceEndsAgrees(t *testing.T) {
	re := regexp.MustCompile(`[.!?;](?:\s|$)`)
	pieces := []string{".", "!", "?", ";", " ", "\t", "\n", "\r", "\f", "\v", "a", "v1.2", "..", ". ", "`" + code + "`", code,
		" / ", " with model ", ", model ", " (model ", "gpt-5", "Case", "é", "\u00a0"}
	rng := rand.New(rand.NewPCG(9, 10))
	ends, pairs := 0, 0
	for range 30000 {
		var b strings.Builder
		for range rng.IntN(14) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		var want []int
		for _, m := range re.FindAllStringIndex(s, -1) {
			want = append(want, m[0]+1)
		}
		if got := sentenceEnds(s); !slices.Equal(got, want) {
			t.Fatalf("sentenceEnds(%q) = %v, want %v", s, got, want)
		}
		ends += len(want)
		if pairPattern.MatchString(s) {
			pairs++
			if !mayJoinPair(s) {
				t.Fatalf("%q holds a pair; mayJoinPair says no", s)
			}
		}
	}
	if ends < 10000 || pairs < 300 {
		t.Fatalf("%d ends, %d texts with a pair: the test saw too little", ends, pairs)
	}
}

// countedArg counts how often a related place's message is formatted.
type countedArg struct{ n *int }

func (c countedArg) String() string { *c.n++; return "x" }

// TestRelListFormatsKept: a finding's related places are formatted only
// up to what report keeps. Formatting one per compared statement made
// the roles rule quadratic in the statements about one pair (3.4 GB on
// a 1,000-document workspace where every document names it).
func TestRelListFormatsKept(t *testing.T) {
	n := 0
	var l relList
	for i := range 1000 {
		l.add(token.Pos(i+1), "%s", countedArg{&n})
	}
	if len(l) != maxRelated || n != maxRelated {
		t.Fatalf("1000 places added: %d kept, %d formatted; want %d of each", len(l), n, maxRelated)
	}
	if !l.full() {
		t.Fatal("a list of maxRelated places is not full")
	}
}

// roleWorkspace writes a workspace where one matrix gives npairs pairs
// the primary role in rows rows each and another gives them the fallback
// role in odd rows each.
func roleWorkspace(t *testing.T, npairs, rows, odd int) string {
	t.Helper()
	dir := t.TempDir()
	table := func(role string, n int) string {
		var b strings.Builder
		b.WriteString("# M\n\n| provider | model | role | note |\n| --- | --- | --- | --- |\n")
		for i := range n {
			for p := range npairs {
				fmt.Fprintf(&b, "| `prov%d` | `model-%d` | %s | row %d |\n", p, p, role, i)
			}
		}
		return b.String()
	}
	checktest.WriteFiles(t, dir, map[string]string{
		"WORKBOARD.yaml":     "items: []\n",
		".sot/A-MATRIX.md":   table("primary", rows),
		".sot/B-MATRIX.md":   table("Fallback", odd),
		".sot/C-EVIDENCE.md": "# C\n\n- `prov0` / `model-0` is the default path for this run.\n",
		".sot/D-EVIDENCE.md": "# D\n\n- ` prov0 ` / `model-0` is the fallback path here.\n",
	})
	return dir
}

// TestRoleSetHoldsPairsOnce: a document keeps each pair it gives a role
// once, and no sentence of a claim that is its own text between the
// claim's positions (read back when a finding quotes it). Each claim held
// its pair, key and sentence as strings of its own: ~300 bytes a row on
// a workspace of matrices naming a dozen pairs in thousands of rows.
func TestRoleSetHoldsPairsOnce(t *testing.T) {
	dir := roleWorkspace(t, 3, 100, 1)
	ws, err := sotparse.Load(dir, sotparse.Options{NoGit: true})
	if err != nil {
		t.Fatal(err)
	}
	d := ws.Doc(".sot/A-MATRIX.md")
	dt := readText(d, d.File.Content).detach()
	rs := dt.roles
	if len(rs.pairs) != 3 || len(rs.claims) != 300 {
		t.Fatalf("%d pairs, %d claims held; want 3 and 300", len(rs.pairs), len(rs.claims))
	}
	for _, hr := range rs.claims {
		if !hr.fromSource() || rs.sentence(&hr) != "" {
			t.Fatalf("claim at %d holds its sentence %q; it is the document's text", rs.pos(&hr), rs.sentence(&hr))
		}
		if w := rs.word(&hr); w != "primary" || hr.word < 0 {
			t.Fatalf("claim at %d holds its role word %q as a string of its own", rs.pos(&hr), w)
		}
	}
	if len(rs.said) != 0 || len(rs.words) != 0 {
		t.Fatalf("%d sentences and %d words held", len(rs.said), len(rs.words))
	}
	// A claim is its place, pair, word and sentence in 24 bytes: as two
	// positions and two strings it was 56 (12 MB on hub at 10,000
	// documents).
	if size := unsafe.Sizeof(heldRole{}); size > 24 {
		t.Errorf("a claim takes %d bytes, want at most 24", size)
	}
	if rs.index != nil {
		t.Error("the index of pairs is held after detach")
	}
	// A sentence that is not the text between its positions (code spans
	// written back without their spaces) is held.
	e := ws.Doc(".sot/D-EVIDENCE.md")
	de := readText(e, e.File.Content).detach()
	if len(de.roles.claims) != 1 || de.roles.claims[0].fromSource() || de.roles.sentence(&de.roles.claims[0]) == "" {
		t.Fatalf("D's claim: %+v, want its sentence held", de.roles.claims)
	}
}

// releasedRoles runs the roles rule on dir letting the texts go, and
// returns its findings and the texts it read back, after checking that a
// run keeping the texts finds the same and at least min findings.
func releasedRoles(t *testing.T, dir string, min int) ([]checks.Finding, int) {
	t.Helper()
	run := func(release bool) ([]checks.Finding, int) {
		res, ws, err := checks.Run(checks.Options{Root: dir, FS: os.DirFS(dir), Analyzers: []*analysis.Analyzer{Analyzer}, ReleaseText: release, NoFixes: true})
		if err != nil {
			t.Fatal(err)
		}
		return res.Findings, ws.ReadBacks()
	}
	want, _ := run(false)
	got, reads := run(true)
	if len(got) < min {
		t.Fatalf("%d findings, want the %d odd rows and more", len(got), min)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("findings with the texts let go differ:\n%v\nwant\n%v", got, want)
	}
	t.Logf("%d findings, %d texts read back", len(got), reads)
	return got, reads
}

// TestRoleRelatedOncePerPair: the related places of the roles rule's
// findings, the first maxRelated claims of the other role (the same for
// every finding about the pair), are formatted once per pair, whatever
// the number of findings: with the texts let go, each quoted sentence is
// one read back, at most maxRelated a pair (formatted for each finding,
// they were 6 reads a finding here). The findings are those of a run that
// keeps the texts.
func TestRoleRelatedOncePerPair(t *testing.T) {
	got, reads := releasedRoles(t, roleWorkspace(t, 2, 40, 30), 60)
	for _, f := range got {
		if len(f.Related) != maxRelated {
			t.Fatalf("%s:%d: %d related places, want %d", f.File, f.Line, len(f.Related), maxRelated)
		}
	}
	// At most maxRelated sentences a pair, and a read of each document
	// for what else the run reads of it (the findings' fingerprints).
	if limit := 2*maxRelated + 4; reads > limit {
		t.Errorf("%d texts read back for %d findings about 2 pairs; want at most %d", reads, len(got), limit)
	}
}

// TestRoleQuotesReadEachTextOnce: the related places of many pairs quote
// claims of the same documents; with the texts let go, each document is
// read back once for all the sentences quoted from it, and once for its
// findings' fingerprints, not once a quoted claim (12 pairs here: 72
// reads of A-MATRIX.md before).
func TestRoleQuotesReadEachTextOnce(t *testing.T) {
	got, reads := releasedRoles(t, roleWorkspace(t, 12, 8, 3), 36)
	if docs := 4; reads > 2*docs {
		t.Errorf("%d texts read back for %d findings about 12 pairs in %d documents; want at most %d", reads, len(got), docs, 2*docs)
	}
}

// TestRoleWordIndex: a claim names a usual role word by its index, and
// another (a letter that folds to one of theirs: U+017F) once a set.
func TestRoleWordIndex(t *testing.T) {
	var rs roleSet
	for _, w := range []string{"default", "ſecondary", "falls back", "ſecondary", "primary"} {
		hr := heldRole{word: rs.wordIndex(w)}
		if got := rs.word(&hr); got != w {
			t.Fatalf("word %q read back as %q", w, got)
		}
	}
	if len(rs.words) != 1 {
		t.Fatalf("words held: %q, want only the unusual one, once", rs.words)
	}
}

// TestSessionReadsKeptTextsOnce: an editor's session reads the text of a
// document it keeps once, not at every edit of another document whose
// rules compare every document's sentences. On a workspace where 40
// matrices give a pair one role and the open one the other (the roles
// rule then compares every document), each edit read the 40 texts back
// again: 4 s of CPU an edit on 10,000 such documents.
func TestSessionReadsKeptTextsOnce(t *testing.T) {
	const kept = 40
	dir := roleWorkspace(t, 2, 3, 2)
	files := map[string]string{}
	for i := range kept {
		files[fmt.Sprintf(".sot/A%02d-MATRIX.md", i)] = fmt.Sprintf("# M%d\n\n| provider | model | role |\n| --- | --- | --- |\n| `prov0` | `model-0` | primary |\n| `prov1` | `model-1` | primary |\n", i)
	}
	checktest.WriteFiles(t, dir, files)
	doc := ".sot/B-MATRIX.md"
	text, err := os.ReadFile(dir + "/" + doc)
	if err != nil {
		t.Fatal(err)
	}
	s, err := checks.NewOverlaySession(checks.Options{Root: dir, FS: os.DirFS(dir), Analyzers: []*analysis.Analyzer{Analyzer}}, map[string][]byte{doc: text})
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, f := range s.Result().Findings {
		if f.Category == "role" {
			want++
		}
	}
	if want == 0 {
		t.Fatal("the open matrix has no role finding: the rule compares nothing")
	}
	for edit := range 3 {
		res, err := s.Update(doc, append(slices.Clip(text), strings.Repeat("\n", edit+1)...))
		if err != nil {
			t.Fatal(err)
		}
		got := 0
		for _, f := range res.Findings {
			if f.Category == "role" {
				got++
			}
		}
		reads := s.Workspace().ReadBacks()
		t.Logf("edit %d: %d role findings, %d texts read back", edit, got, reads)
		if got != want {
			t.Fatalf("edit %d: %d role findings, want %d as at the load", edit, got, want)
		}
		// The related places quote at most maxRelated sentences a pair.
		if limit := 2 * maxRelated; reads > limit {
			t.Errorf("edit %d read %d texts back; want at most %d (the related places' sentences), not the %d kept documents'", edit, reads, limit, kept)
		}
	}
}
