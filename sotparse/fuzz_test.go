package sotparse

import (
	"bytes"
	"fmt"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/adrg/frontmatter"
	"github.com/svrnty/sotvet/internal/testcorpus"
	yaml "go.yaml.in/yaml/v4"
)

// Fuzz targets for the parts of sotparse that read untrusted bytes. Run one
// with, for example:
//
//	go test ./sotparse -run='^$' -fuzz=FuzzParseDoc -fuzztime=3m
//
// Each target is seeded with the files of the real corpus (when present) and
// with small hand-written inputs for the awkward cases.

// sampleAndCorpus returns the sample workspace and, when it is beside the
// checkout, the real corpus; in a plain clone the test says it ran on the
// sample only.
func sampleAndCorpus(t testing.TB) []string {
	t.Helper()
	dirs := []string{filepath.Join("..", "testdata", "workspace")}
	if c := testcorpus.Optional(t); c != "" {
		dirs = append(dirs, c)
	}
	return dirs
}

// sampleAndCorpusDocs returns the documents of sampleAndCorpus's
// workspaces.
func sampleAndCorpusDocs(t testing.TB) []*Doc {
	t.Helper()
	var docs []*Doc
	for _, dir := range sampleAndCorpus(t) {
		ws, err := Load(dir, Options{NoGit: true})
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, ws.Docs...)
	}
	return docs
}

// addCorpusSeeds adds every real corpus file whose name ends in one of exts.
func addCorpusSeeds(f *testing.F, exts ...string) {
	dir := testcorpus.Optional(f)
	if dir == "" {
		return // a plain clone: the fuzz seeds are the package's own
	}
	_ = filepath.WalkDir(dir, func(p string, de fs.DirEntry, err error) error {
		if err != nil || de.IsDir() {
			return nil
		}
		for _, ext := range exts {
			if strings.HasSuffix(p, ext) {
				if b, err := os.ReadFile(p); err == nil && len(b) <= 1<<20 {
					f.Add(b)
				}
			}
		}
		return nil
	})
}

// aliasBomb is the billion-laughs shape: each level doubles the one before.
func aliasBomb(levels int) string {
	var b strings.Builder
	b.WriteString("a0: &a0 [x, x]\n")
	for i := 1; i < levels; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [*a%d, *a%d]\n", i, i, i-1, i-1)
	}
	return b.String()
}

// commonSeeds are the hand-written inputs every target starts from.
func commonSeeds() []string {
	return []string{
		"",
		"\xEF\xBB\xBF---\nname: x\n---\n# T\n",
		"---\r\nname: x\r\nstatus: validated\r\n---\r\n\r\n# T\r\n\r\nStatus: validated.\r\n",
		"---\nname: x\nstatus: draft\n",
		"---",
		"---\n",
		"\n\n  ---  \nname: x\n  ---\nbody\n",
		"---\nname: x\nname: y\nstatus: a\nstatus: b\n---\n",
		"---\n" + aliasBomb(12) + "---\n",
		"---\nname: \x00\n---\nbody \x00\n",
		"---\nname: \xff\xfe\n---\n\xc3\x28 body\n",
		"---\n" + strings.Repeat("[", 200) + strings.Repeat("]", 200) + "\n---\n",
		"---\na:\n" + deepYAML(60) + "---\n",
		"---\n- a\n- b\n---\n",
		"---\nname: [a, b]\nsource: {x: y}\n---\n",
		"---\nname: 'it''s'\nsource: \"\\u00e9\"\n---\n",
		"---\n: x\n? [a]\n: b\n---\n",
		"---\n\t- bad\n---\n",
		"---\nname: x\n---",
		"---\n---\n",
		"---\n\n---\n",
		"{\"a\": 1}",
		"{\"a\": 1, \"a\": 2}",
		"{\"provider\": \"p\", \"model\": \"m\", \"status\": \"admitted\", \"extra\": true}",
		"{\"admission_status\": \"admitted\", \"allowed_paths\": \"not-a-list\"}",
		"{\"admission_status\": \"admitted\", \"operator_outcome_required\": null}",
		"{} {}",
		"[1, 2]",
		"{\"a\": " + strings.Repeat("[", 100) + strings.Repeat("]", 100) + "}",
		"{\"a\": \"\\ud800\"}",
		"{\"\xff\": 1}",
		"\xEF\xBB\xBF{\"a\": 1}",
		"{\n  \"a\": 1,\n  \"b\": [\n    \"x\"\n  ]\n",
	}
}

func deepYAML(depth int) string {
	var b strings.Builder
	for i := 1; i <= depth; i++ {
		b.WriteString(strings.Repeat("  ", i) + "k:\n")
	}
	b.WriteString(strings.Repeat("  ", depth+1) + "v\n")
	return b.String()
}

// docSeeds are markdown bodies that exercise the work-item extractor.
func docSeeds() []string {
	fm := "---\nname: x\ntier: local\nstatus: validated\nowner: jp\nsource: .sot/03-PROTOCOLS/X-PRD.md\n---\n\n"
	return []string{
		fm + "# T\n\nLocal planning SOT only. Not a Core Protocol. Not active Core authority.\n\n## Issue Sequence\n\n### CTO-WORK-009 - Title\n\nType: AFK\n\nStatus: validated.\n\nBlocked by: CTO-WORK-007, `CTO-WORK-008`.\n\nAcceptance criteria:\n\n- [x] one\n- [ ] two\n\nValidator: `python3 tools/validate_cto_child.py`\n",
		fm + "## Issue: CTO-WORK-078 - Title\n\nStatus: validated.\n\n- key: value\n- `code key`: `a109448`\n- path: `/home/x/report.json`\n",
		fm + "## CTO-WORK-064: Title\n\nStatus: candidate.\n\n## Required Phrases\n\n- phrase **one**\n- `two`\n\n## Required Evidence\n\n- three\n",
		"## Issue: CTO-WORK-1: Title\n\nCTO-WORK-2 - Setext\n---\n\nStatus: x\n",
		"CTO-WORK-3 -\nmulti line\n===\n\n> Status: quoted\n> - key: value\n",
		"- [x] outside\n\n### CTO-WORK-4 - T\n\n1. [x] ordered\n   - [ ] nested\n     - key: v\n\n```\nStatus: fenced\n```\n",
		"\tStatus: indented\n\n    - key: v\n\n* [X] star\n+ [ ] plus\n",
		strings.Repeat("> ", 100) + "deep quote\n",
		strings.Repeat("- ", 100) + "deep list\n",
		"### CTO-WORK-5 - T\n\nStatus: validated.   \n\nBlocked by:\n\nStatus:\n\nType:\t\n",
		"`.sot/03-PROTOCOLS/A.md` (.sot/x/) \".sot/y.\" [.sot/z](.sot/z)\n",
		"` /a b ` ``ab12cd3`` `~/x`\n\n<!-- CTO-WORK-6 -->\n",
		"# CTO-WORK-7 - \u00e9\u00e9\u00e9 \U0001F600\n\nStatus: \u00e9t\u00e9\n",
		"---\nname: &n x\nsource: *n\n---\n",
		"---\nname: x\nsource: \"a\\Lb\\x41\"\n---\n",
		"---\nname: x\nsource: |\n  .sot/a.md\n---\n",
		// Blocks: an unclosed fence at the end, a fence closed in a
		// quote, empty headings and cells, a table after a paragraph.
		"~~~\n",
		"> ```\n> x\n> ```\n\n#\n\n| a |  |\n|---|--|\n|  | b |\n",
		"text\n| a |\n|---|\n\n- # h\n  - ``\n\n<!-- x\n-->\n\n[r]: /u\n",
	}
}

// posChecker collects the positions of one file and fails the test when one
// falls outside the file.
type posChecker struct {
	t    *testing.T
	f    *File
	fset *token.FileSet
}

func (c posChecker) in(what string, p token.Pos) {
	c.t.Helper()
	base := token.Pos(c.f.Tok.Base())
	if p < base || p > base+token.Pos(c.f.Tok.Size()) {
		c.t.Fatalf("%s: position %d outside the file [%d, %d]", what, p, base, base+token.Pos(c.f.Tok.Size()))
	}
	_ = c.fset.Position(p) // must not panic
}

func (c posChecker) span(what string, pos, end token.Pos) {
	c.t.Helper()
	c.in(what+" pos", pos)
	c.in(what+" end", end)
	if pos > end {
		c.t.Fatalf("%s: pos %d after end %d", what, pos, end)
	}
}

// fuzzFile adds content to a FileSet between two other files, so that a
// position that escapes the file lands in a neighbour and is caught.
func fuzzFile(path string, content []byte) (*File, *token.FileSet) {
	fset := token.NewFileSet()
	before := fset.AddFile("before", -1, 17)
	before.SetLinesForContent(make([]byte, 17))
	tf := fset.AddFile(path, -1, len(content))
	tf.SetLinesForContent(content)
	fset.AddFile("after", -1, 23)
	return &File{Path: path, Tok: tf, Content: content}, fset
}

func FuzzSplitFrontmatter(f *testing.F) {
	addCorpusSeeds(f, ".md")
	for _, s := range commonSeeds() {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, content []byte) {
		// Callers strip a leading byte order mark.
		content = bytes.TrimPrefix(content, bom)
		s := SplitFrontmatter(content)
		if s.State == FrontmatterAbsent {
			if s.Open != -1 {
				t.Fatalf("absent frontmatter with Open = %d", s.Open)
			}
			return
		}
		if s.State == FrontmatterUnclosed {
			// By design the body of an unclosed block starts after the
			// opening line (so the extractor still reads the text) and the
			// YAML runs to the end: BodyStart == YAMLStart <= YAMLEnd == len.
			if !(0 <= s.Open && s.Open <= s.YAMLStart && s.YAMLStart == s.BodyStart && s.YAMLEnd == len(content) && s.YAMLStart <= len(content)) {
				t.Fatalf("unclosed: bad offsets: Open %d, YAMLStart %d, YAMLEnd %d, BodyStart %d, len %d",
					s.Open, s.YAMLStart, s.YAMLEnd, s.BodyStart, len(content))
			}
		} else if !(0 <= s.Open && s.Open <= s.YAMLStart && s.YAMLStart <= s.YAMLEnd && s.YAMLEnd <= s.BodyStart && s.BodyStart <= len(content)) {
			t.Fatalf("state %d: offsets out of order: Open %d, YAMLStart %d, YAMLEnd %d, BodyStart %d, len %d",
				s.State, s.Open, s.YAMLStart, s.YAMLEnd, s.BodyStart, len(content))
		}
		if got := string(bytes.TrimSpace(content[s.Open:s.YAMLStart])); got != "---" {
			t.Fatalf("state %d: opening line is %q, want ---", s.State, got)
		}
		switch s.State {
		case FrontmatterOK:
			if s.Node == nil && s.Flat == nil {
				t.Fatal("FrontmatterOK without a node or entries")
			}
			if got := string(bytes.TrimSpace(content[s.YAMLEnd:s.BodyStart])); got != "---" {
				t.Fatalf("closing line is %q, want ---", got)
			}
		case FrontmatterMalformed:
			if s.Err == nil {
				t.Fatal("FrontmatterMalformed without an error")
			}
		case FrontmatterUnclosed:
		default:
			t.Fatalf("unknown state %d", s.State)
		}
	})
}

func FuzzParseDoc(f *testing.F) {
	addCorpusSeeds(f, ".md")
	for _, s := range commonSeeds() {
		f.Add([]byte(s))
	}
	for _, s := range docSeeds() {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, content []byte) {
		file, fset := fuzzFile(".sot/03-PROTOCOLS/FUZZ-ISSUES.md", content)
		c := posChecker{t: t, f: file, fset: fset}
		var reports []string
		report := func(check string, pos, end token.Pos, msg string) {
			c.in("report "+check+" "+msg, pos)
			c.in("report "+check+" "+msg+" end", end)
			reports = append(reports, msg)
		}
		d := parseDoc(file, report, new(modelSlabs))
		c.in("BodyStart", d.BodyStart)
		if fm := d.Frontmatter; fm != nil {
			c.span("frontmatter", fm.Pos, fm.End)
			c.in("frontmatter close", fm.Close)
			for _, fl := range fm.Fields {
				c.in("field "+fl.Key+" key", fl.KeyPos)
				c.span("field "+fl.Key+" value", fl.ValuePos, fl.ValueEnd)
			}
		}
		for _, h := range d.Headings {
			c.span("heading "+h.Text, h.Pos, h.End)
		}
		line := func(what string, l *Line) {
			if l == nil {
				return
			}
			c.span(what+" line", l.Pos, l.End)
			c.in(what+" line value", l.ValuePos)
		}
		for _, l := range d.StatusLines {
			line("status", l)
		}
		for _, it := range d.WorkItems {
			c.span("work item "+it.ID, it.Pos, it.End)
			line(it.ID+" Type", it.Type)
			line(it.ID+" Status", it.Status)
			line(it.ID+" Blocked by", it.BlockedBy)
			line(it.ID+" Validator", it.Validator)
			for _, r := range it.Blockers.All() {
				c.span(it.ID+" blocker "+r.Text, r.Pos, r.End)
			}
			for i, cb := range it.Checkboxes {
				c.span(fmt.Sprintf("%s checkbox %d", it.ID, i), cb.Pos, cb.End)
			}
		}
		for _, fa := range append(slices.Collect(func(yield func(*Fact) bool) {
			for _, f := range d.Facts.All() {
				if !yield(f) {
					return
				}
			}
		}), d.KeyValues...) {
			c.span("fact "+fa.Key, fa.Pos, fa.End)
			c.in("fact "+fa.Key+" value", fa.ValuePos)
		}
		for _, pl := range d.PhraseLists {
			c.in("phrase list "+pl.Section, pl.Pos)
			for _, ph := range pl.Phrases {
				c.span("phrase "+ph.Raw, ph.Pos, ph.End)
			}
		}
		for _, r := range d.Refs.All() {
			c.span(r.Kind.String()+" ref "+r.Text, r.Pos, r.End)
		}
		for i, b := range d.Blocks() {
			what := fmt.Sprintf("block %d (%s)", i, b.Kind)
			c.span(what, b.Pos, b.End)
			if b.Depth < 0 || b.Section < -1 || b.Section >= len(d.Headings) {
				t.Fatalf("%s: depth %d, section %d of %d headings", what, b.Depth, b.Section, len(d.Headings))
			}
			if b.Section >= 0 && b.Pos < d.Headings[b.Section].Pos {
				t.Fatalf("%s: at %d, before its section's heading at %d", what, b.Pos, d.Headings[b.Section].Pos)
			}
			if b.Kind == BlockHeading && b.Section >= 0 && (d.Headings[b.Section].Pos != b.Pos || d.Headings[b.Section].Level != b.Level) {
				t.Fatalf("%s: not its Doc.Headings entry %d", what, b.Section)
			}
			text := b.Text
			if !b.Kind.Prose() && text != "" {
				t.Fatalf("%s: text %q", what, text)
			}
			// Every byte of the text maps into the block, and so does
			// every span of it.
			// Every byte of the text maps into the block: to itself, but
			// for the bytes of a code placeholder and the space of a line
			// break.
			code := make([]bool, len(text))
			for k := 0; ; {
				i := strings.Index(text[k:], CodePlaceholder)
				if i < 0 {
					break
				}
				for j := k + i; j < k+i+len(CodePlaceholder); j++ {
					code[j] = true
				}
				k += i + len(CodePlaceholder)
			}
			for j := 0; j < len(text); j++ {
				p := b.TextPos(j)
				if p < b.Pos || p >= b.End {
					t.Fatalf("%s: Text[%d] of %q at %d, outside [%d, %d)", what, j, text, p, b.Pos, b.End)
				}
				got := content[file.Tok.Offset(p)]
				if got != text[j] && !code[j] && !(text[j] == ' ' && strings.IndexByte(" \t\r\n\\", got) >= 0) {
					t.Fatalf("%s: Text[%d] of %q is %q, maps to %q", what, j, text, text[j], got)
				}
			}
			if n := len(text); n > 0 {
				pos, end := b.Span(0, n)
				if pos < b.Pos || end > b.End || pos > end {
					t.Fatalf("%s: Span of %q is [%d, %d), outside [%d, %d]", what, text, pos, end, b.Pos, b.End)
				}
			}
		}
		// The glossary reader runs on CONTEXT.md's document; exercise it on
		// every input.
		g := parseGlossary(d)
		for _, term := range g.Terms {
			c.span("term "+term.Name, term.Pos, term.End)
		}
	})
}

func FuzzDecodeRecord(f *testing.F) {
	addCorpusSeeds(f, ".json")
	for _, s := range commonSeeds() {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, content []byte) {
		file, fset := fuzzFile(".sot/03-PROTOCOLS/FUZZ.json", content)
		c := posChecker{t: t, f: file, fset: fset}
		r := DecodeRecord(file, func(pos, end token.Pos, msg string) {
			c.in("report "+msg, pos)
			c.in("report "+msg+" end", end)
		})
		if r == nil {
			t.Fatal("nil record")
		}
		for _, m := range r.Members {
			c.span("member "+m.Name, m.Pos, m.End)
			c.in("member "+m.Name+" value", m.ValuePos)
		}
		switch r.Kind {
		case RecordModelAdmission, RecordTargetAdmission, RecordUnknown:
		default:
			t.Fatalf("unknown record kind %q", r.Kind)
		}
	})
}

// splitReference is SplitFrontmatter as it was, handing adrg/frontmatter the
// whole content: the split must not depend on how much of it adrg sees.
func splitReference(content []byte) (state FrontmatterState, yamlEnd, bodyStart int) {
	var yamlText []byte
	format := frontmatter.NewFormat("---", "---", func(data []byte, v any) error {
		yamlText = data
		if blankYAML(data) {
			return nil
		}
		return yaml.Load(data, v.(*yaml.Node))
	})
	var node yaml.Node
	rest, err := frontmatter.Parse(bytes.NewReader(content), &node, format)
	switch {
	case err != nil:
		return FrontmatterMalformed, -1, -1
	case yamlText == nil:
		return FrontmatterUnclosed, -1, -1
	}
	return FrontmatterOK, len(yamlText), len(content) - len(rest)
}

func checkSplitAgainstReference(t *testing.T, content []byte) {
	s := SplitFrontmatter(content)
	if s.State == FrontmatterAbsent {
		return
	}
	state, yamlLen, body := splitReference(content)
	if state != s.State && !(s.State == FrontmatterUnclosed && state == FrontmatterUnclosed) {
		t.Fatalf("state %d, reference %d", s.State, state)
	}
	if state == FrontmatterOK && (s.YAMLEnd-s.YAMLStart != yamlLen || s.BodyStart != body) {
		t.Fatalf("YAML %d bytes, body at %d; reference %d, %d", s.YAMLEnd-s.YAMLStart, s.BodyStart, yamlLen, body)
	}
}

func FuzzSplitMatchesReference(f *testing.F) {
	addCorpusSeeds(f, ".md")
	for _, s := range commonSeeds() {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, content []byte) {
		checkSplitAgainstReference(t, bytes.TrimPrefix(content, bom))
	})
}
