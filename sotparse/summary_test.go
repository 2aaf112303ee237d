package sotparse

import (
	"fmt"
	"go/token"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/svrnty/sotvet/internal/testcorpus"
	"github.com/svrnty/sotvet/scripts/gen-corpus/gencorpus"
)

// summaryWorkspaces are the workspaces whose every document must survive a
// summary round trip: the built-in sample, a small synthetic one and the real
// corpus when present.
func summaryWorkspaces(t *testing.T) map[string]*Workspace {
	t.Helper()
	out := map[string]*Workspace{}
	dirs := map[string]string{"sample": filepath.Join("..", "testdata", "workspace")}
	syn := t.TempDir()
	if err := gencorpus.Write(syn, 300, 7); err != nil {
		t.Fatal(err)
	}
	dirs["synthetic"] = syn
	if c := testcorpus.Optional(t); c != "" {
		dirs["corpus"] = c
	}
	for name, dir := range dirs {
		ws, err := Load(dir, Options{NoGit: true})
		if err != nil {
			t.Fatal(err)
		}
		out[name] = ws
	}
	return out
}

func TestSummaryRoundTrip(t *testing.T) {
	for name, ws := range summaryWorkspaces(t) {
		t.Run(name, func(t *testing.T) {
			for _, d := range ws.Docs {
				data := d.AppendSummary(nil)
				got := decodeInto(t, d.Path, data)
				if got == nil {
					continue
				}
				if !got.summary || got.File.Content != nil {
					t.Errorf("%s: decoded document is not marked as a summary", d.Path)
				}
				for _, r := range d.Refs.All() {
					if r.Kind == RefWorkID && !got.MayMention(r.Text) {
						t.Errorf("%s: the summary says %s is not mentioned", d.Path, r.Text)
					}
				}
				if diff := compareDocs(d, got); diff != "" {
					t.Errorf("%s: summary round trip differs: %s", d.Path, diff)
				}
				if again := got.AppendSummary(nil); string(again) != string(data) {
					t.Errorf("%s: re-encoding the decoded summary gives different bytes", d.Path)
				}
			}
			wb := ws.Workboard
			if wb == nil {
				return
			}
			data := wb.AppendSummary(nil)
			size, err := SummarySize(data)
			if err != nil {
				t.Fatal(err)
			}
			fset := token.NewFileSet()
			f := &File{Path: wb.File.Path, Role: RoleWorkboard, Tok: fset.AddFile(wb.File.Path, -1, size)}
			got, err := decodeWorkboardSummary(f, data)
			if err != nil {
				t.Fatal(err)
			}
			c := docComparer{ta: wb.File.Tok, tb: f.Tok}
			c.value("Workboard", reflect.ValueOf(wb).Elem(), reflect.ValueOf(got).Elem())
			if c.diff != "" {
				t.Errorf("workboard summary round trip differs: %s", c.diff)
			}
			for _, it := range wb.Items {
				if it.ID != nil && got.Item(it.ID.Value) == nil {
					t.Errorf("decoded workboard has no index entry for %s", it.ID.Value)
				}
			}
		})
	}
}

func TestFoldedWorkIDs(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"CTO-WORK-012 is validated; cto-work-3 and Cto-Work-0012.", []string{"CTO-WORK-0012", "CTO-WORK-012", "CTO-WORK-3"}},
		{"`CTO-WORK-5`, (cto-work-5) x-CTO-WORK-6", []string{"CTO-WORK-5", "CTO-WORK-6"}},
		{"CTO-WORK-7a aCTO-WORK-8 CTO-WORK- CTO-WORK-_9 CTO-WORK-10_", nil},
		{"ends CTO-WORK-11", []string{"CTO-WORK-11"}},
		{"CTO-WORK-", nil},
	} {
		if got := foldedWorkIDs([]byte(tc.in)); fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("foldedWorkIDs(%q) = %v, want %v", tc.in, got, tc.want)
		}
		// The same words the status check's pattern finds.
		re := regexp.MustCompile(`(?i)\bCTO-WORK-\d+\b`)
		var want []string
		for _, m := range re.FindAllString(tc.in, -1) {
			want = append(want, strings.ToUpper(m))
		}
		slices.Sort(want)
		if fmt.Sprint(slices.Compact(want)) != fmt.Sprint(foldedWorkIDs([]byte(tc.in))) {
			t.Errorf("%q: the pattern finds %v", tc.in, want)
		}
	}
}

func decodeInto(t *testing.T, path string, data []byte) *Doc {
	t.Helper()
	size, err := SummarySize(data)
	if err != nil {
		t.Errorf("%s: SummarySize: %v", path, err)
		return nil
	}
	fset := token.NewFileSet()
	f := &File{Path: path, Role: RoleDoc, Tok: fset.AddFile(path, -1, size)}
	doc, err := decodeSummary(f, data, nil)
	if err != nil {
		t.Errorf("%s: decodeSummary: %v", path, err)
		return nil
	}
	return doc
}

// TestSummaryCoversModel fails when a field is added to the document model
// without deciding whether summaries carry it: a field they silently drop
// would make checks see a different document out of focus.
func TestSummaryCoversModel(t *testing.T) {
	// Doc's File, blockEnc and summary are left out on purpose: the
	// content and blocks are what Full parses back; File is rebuilt.
	want := map[string][]string{
		"Doc": {"Path", "File", "Kind", "Stem", "FrontmatterState", "Frontmatter", "BodyStart", "BOM", "Headings", "WorkItems", "StatusLines", "Facts", "KeyValues", "PhraseLists", "Refs", "blockEnc", "summary", "mentions",
			"visits", "ran", "released", "digest", "memo", "tree", "treeBase"}, // run state: never summarized
		"Frontmatter": {"Pos", "End", "Close", "Name", "Title", "Tier", "Status", "Owner", "Source", "Created", "LastReviewed", "LifecycleClassification", "CorePromotionStatus", "Description", "Route", "Fields", "Unknown"},
		"Field":       {"Key", "Value", "Scalar", "Duplicate", "KeyPos", "ValuePos", "ValueEnd"},
		"Heading":     {"Level", "Text", "Pos", "End"},
		"WorkItem":    {"ID", "Title", "Style", "Level", "Pos", "End", "Type", "Status", "BlockedBy", "Blockers", "Validator", "Checkboxes"},
		"Line":        {"Key", "Value", "Pos", "End", "ValuePos", "Item"},
		"Checkbox":    {"Checked", "Pos", "End"},
		"Fact":        {"Key", "Value", "Pos", "End", "ValuePos", "Form", "Subject"},
		"PhraseList":  {"Section", "Pos", "Phrases"},
		"Phrase":      {"Raw", "Text", "Pos", "End"},
		"Ref":         {"Kind", "Text", "Pos", "End"},
		// The workboard's summary: File and byID are rebuilt.
		"Workboard":     {"File", "Items", "Complete", "byID", "memo"}, // memo: run state
		"WorkboardItem": {"Pos", "End", "ID", "Title", "Status", "Source", "BlockedBy", "Unknown", "Missing"},
	}
	types := map[string]reflect.Type{
		"Doc": reflect.TypeFor[Doc](), "Frontmatter": reflect.TypeFor[Frontmatter](), "Field": reflect.TypeFor[Field](),
		"Heading": reflect.TypeFor[Heading](), "WorkItem": reflect.TypeFor[WorkItem](), "Line": reflect.TypeFor[Line](),
		"Checkbox": reflect.TypeFor[Checkbox](), "Fact": reflect.TypeFor[Fact](), "PhraseList": reflect.TypeFor[PhraseList](),
		"Phrase": reflect.TypeFor[Phrase](), "Ref": reflect.TypeFor[Ref](),
		"Workboard": reflect.TypeFor[Workboard](), "WorkboardItem": reflect.TypeFor[WorkboardItem](),
	}
	for name, typ := range types {
		var got []string
		for i := range typ.NumField() {
			got = append(got, typ.Field(i).Name)
		}
		if fmt.Sprint(got) != fmt.Sprint(want[name]) {
			t.Errorf("%s fields are %v; the summary encoding (summary.go) knows %v: update both", name, got, want[name])
		}
	}
}

// compareDocs compares two documents field by field, positions by file
// offset (each document has its own token file), and returns the first
// difference.
func compareDocs(a, b *Doc) string {
	c := docComparer{ta: a.File.Tok, tb: b.File.Tok}
	if a.Path != b.Path || a.Kind != b.Kind || a.Stem != b.Stem {
		return "path, kind or stem"
	}
	if a.File.Tok.Size() != b.File.Tok.Size() || fmt.Sprint(a.File.Tok.Lines()) != fmt.Sprint(b.File.Tok.Lines()) {
		return "size or line table"
	}
	c.value("Doc", reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem())
	return c.diff
}

type docComparer struct {
	ta, tb *token.File
	diff   string
}

var posType = reflect.TypeFor[token.Pos]()

func (c *docComparer) value(path string, a, b reflect.Value) {
	if c.diff != "" {
		return
	}
	switch {
	case a.Type() == posType:
		pa, pb := token.Pos(a.Int()), token.Pos(b.Int())
		if pa.IsValid() != pb.IsValid() || (pa.IsValid() && c.ta.Offset(pa) != c.tb.Offset(pb)) {
			c.diff = fmt.Sprintf("%s: position %v vs %v", path, pa, pb)
		}
		return
	case a.Type() == reflect.TypeFor[Refs]():
		// Packed: positions are deltas and texts ids in a table of the
		// run's, compared as the references they unpack to.
		unpack := func(rs Refs) []Ref {
			return slices.Collect(func(yield func(Ref) bool) {
				for _, r := range rs.All() {
					if !yield(r) {
						return
					}
				}
			})
		}
		c.value(path, reflect.ValueOf(unpack(a.Interface().(Refs))), reflect.ValueOf(unpack(b.Interface().(Refs))))
		return
	case a.Type() == reflect.TypeFor[Facts]():
		// Packed as Refs are.
		c.value(path, reflect.ValueOf(allFacts(a.Interface().(Facts))), reflect.ValueOf(allFacts(b.Interface().(Facts))))
		return
	}
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() != b.IsNil() {
			c.diff = path + ": nil vs non-nil"
			return
		}
		if a.IsNil() {
			return
		}
		c.value(path, a.Elem(), b.Elem())
	case reflect.Slice:
		if a.Len() != b.Len() || a.IsNil() != b.IsNil() {
			c.diff = fmt.Sprintf("%s: length %d (nil %v) vs %d (nil %v)", path, a.Len(), a.IsNil(), b.Len(), b.IsNil())
			return
		}
		for i := range a.Len() {
			c.value(fmt.Sprintf("%s[%d]", path, i), a.Index(i), b.Index(i))
		}
	case reflect.Struct:
		for i := range a.NumField() {
			f := a.Type().Field(i)
			switch {
			case a.Type() == reflect.TypeFor[Doc]() && (f.Name == "File" || f.Name == "blockEnc" || f.Name == "summary" || f.Name == "mentions" || f.Name == "visits" || f.Name == "ran" || f.Name == "released" || f.Name == "digest" || f.Name == "memo" || f.Name == "tree" || f.Name == "treeBase"),
				a.Type() == reflect.TypeFor[Workboard]() && (f.Name == "File" || f.Name == "byID" || f.Name == "memo"):
				continue
			case a.Type() == reflect.TypeFor[Line]() && f.Name == "Item":
				// The item a line belongs to: compared by identity of
				// heading position, not recursively (items hold lines).
				ia, ib := a.Field(i).Interface().(*WorkItem), b.Field(i).Interface().(*WorkItem)
				if (ia == nil) != (ib == nil) || (ia != nil && c.ta.Offset(ia.Pos) != c.tb.Offset(ib.Pos)) {
					c.diff = path + ".Item differs"
				}
				continue
			}
			c.value(path+"."+f.Name, a.Field(i), b.Field(i))
		}
	default:
		if !reflect.DeepEqual(a.Interface(), b.Interface()) {
			c.diff = fmt.Sprintf("%s: %v vs %v", path, a.Interface(), b.Interface())
		}
	}
}

// TestSummaryDamaged checks that every truncation and every single-byte
// change of a real summary either decodes or is an error, never a panic.
func TestSummaryDamaged(t *testing.T) {
	ws := load(t, map[string]string{"X-PRD.md": goodDoc, "WORKBOARD.yaml": goodWorkboard})
	for _, data := range [][]byte{ws.Docs[0].AppendSummary(nil), ws.Workboard.AppendSummary(nil)} {
		damage(data)
	}
}

const goodWorkboard = `items:
  - id: CTO-WORK-001
    title: One
    status: validated
    source: .sot/X-PRD.md
    blocked_by: [CTO-WORK-002]
    extra: x
  - id: CTO-WORK-002
    title: Two
`

func damage(data []byte) {
	for n := range len(data) {
		decodeDamaged(data[:n])
	}
	for i := range data {
		for _, v := range []byte{0, 1, 0x7f, 0x80, 0xff, data[i] + 1} {
			b := append([]byte(nil), data...)
			b[i] = v
			decodeDamaged(b)
		}
	}
}

func decodeDamaged(data []byte) {
	size, err := SummarySize(data)
	if err != nil || size > 1<<20 {
		return
	}
	fset := token.NewFileSet()
	f := &File{Path: "X-PRD.md", Role: RoleDoc, Tok: fset.AddFile("X-PRD.md", -1, size)}
	decodeSummary(f, data, nil)
	wf := &File{Path: "WORKBOARD.yaml", Role: RoleWorkboard, Tok: fset.AddFile("WORKBOARD.yaml", -1, size)}
	decodeWorkboardSummary(wf, data)
}

func FuzzDecodeSummary(f *testing.F) {
	for _, s := range []string{goodDoc, "# T\n", ""} {
		ws, err := LoadFS(fstest.MapFS{"X-ISSUES.md": {Data: []byte(s)}, "WORKBOARD.yaml": {Data: []byte(goodWorkboard)}}, Options{})
		if err == nil && len(ws.Docs) > 0 {
			f.Add(ws.Docs[0].AppendSummary(nil))
			f.Add(ws.Workboard.AppendSummary(nil))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		decodeDamaged(data)
	})
}

// FuzzFoldedWorkIDs checks the scanner against the pattern the status check
// reads ids with: a summary's mention set must never miss one.
func FuzzFoldedWorkIDs(f *testing.F) {
	for _, s := range []string{"CTO-WORK-012 is validated; cto-work-3", "x-CTO-WORK-6_", "cTO-wORK-99."} {
		f.Add(s)
	}
	re := regexp.MustCompile(`(?i)\bCTO-WORK-\d+\b`)
	f.Fuzz(func(t *testing.T, s string) {
		var want []string
		for _, m := range re.FindAllString(s, -1) {
			want = append(want, strings.ToUpper(m))
		}
		slices.Sort(want)
		want = slices.Compact(want)
		got := foldedWorkIDs([]byte(s))
		for _, w := range want {
			if _, ok := slices.BinarySearch(got, w); !ok && strings.ToValidUTF8(w, "") == w && isASCII(w) {
				t.Errorf("%q: pattern finds %s, scanner %v", s, w, got)
			}
		}
	})
}

func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// TestSummaryHoldsStringsOnce: a string a document says in several places
// (a run's path in a fact, a key-value line and a reference) is written
// once in its summary and read back in every place; a summary damaged
// where it names a string written before is an error, not a wrong string.
func TestSummaryHoldsStringsOnce(t *testing.T) {
	const run = "/home/u/harness-runs/20260601T105222Z-r1-slugify/report.json"
	doc := "# Evidence\n\n- report: `" + run + "`\n- proof: `" + run + "`\n\nThe run " + run + " passed.\n"
	ws := load(t, map[string]string{".sot/X-EVIDENCE.md": doc})
	d := ws.Docs[0]
	data := d.AppendSummary(nil)
	// The model's strings naming the run: places, and distinct ones.
	places, distinct := 0, map[string]bool{}
	name := func(s string) {
		if strings.Contains(s, run) {
			places++
			distinct[s] = true
		}
	}
	for _, r := range d.Refs.All() {
		name(r.Text)
	}
	for _, f := range d.Facts.All() {
		name(f.Value)
	}
	for _, f := range d.KeyValues {
		name(f.Value)
	}
	if n := strings.Count(string(data), run); n != len(distinct) || places <= n {
		t.Errorf("the summary holds the run's path %d times; the model names it in %d strings, %d distinct: want each distinct one once", n, places, len(distinct))
	}
	fset := token.NewFileSet()
	f := &File{Path: d.Path, Role: RoleDoc, Tok: fset.AddFile(d.Path, -1, d.File.Tok.Size())}
	back, err := decodeSummary(f, data, nil)
	if err != nil {
		t.Fatal(err)
	}
	var refs, facts int
	for _, r := range back.Refs.All() {
		if r.Text == run {
			refs++
		}
	}
	for _, fact := range back.Facts.All() {
		if strings.Contains(fact.Value, run) {
			facts++
		}
	}
	var wantRefs int
	for _, r := range d.Refs.All() {
		if r.Text == run {
			wantRefs++
		}
	}
	if refs != wantRefs || refs < 2 || facts < 2 {
		t.Errorf("read back %d references and %d facts naming the run (the document has %d references); want every place", refs, facts, wantRefs)
	}
	damage(data)
}
