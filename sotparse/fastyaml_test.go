package sotparse

import (
	"bytes"
	"fmt"
	"go/token"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/svrnty/sotvet/internal/testcorpus"
	"github.com/svrnty/sotvet/scripts/gen-corpus/gencorpus"
	yaml "go.yaml.in/yaml/v4"
)

// loadFlatYAML stores in out the document node yaml.Load(data, out) would
// store when scanFlatYAML takes data, and reports whether it did, leaving
// out alone when not: the tree the entries stand for, which the tests
// compare with yaml.Load's.
func loadFlatYAML(data []byte, out *yaml.Node) bool {
	entries, ok := scanFlatYAML(data, nil)
	if !ok {
		return false
	}
	text := string(data)
	nodes := make([]yaml.Node, 1+2*len(entries))
	ptrs := make([]*yaml.Node, 1+2*len(entries))
	first := entries[0].line
	mapping := &nodes[0]
	*mapping = yaml.Node{Kind: yaml.MappingNode, Tag: mapTag, Line: first, Column: 1, Content: ptrs[1:]}
	ptrs[0] = mapping
	for i := range entries {
		e := &entries[i]
		valTag := strTag
		switch {
		case e.null:
			valTag = nullTag
		case e.style == 0:
			if valTag = resolvePlainTag(text[e.valStart:e.valEnd]); valTag == mergeTag {
				panic(fmt.Sprintf("scanFlatYAML took the merge key in %q", data))
			}
		}
		k, v := &nodes[1+2*i], &nodes[2+2*i]
		*k = yaml.Node{Kind: yaml.ScalarNode, Tag: resolvePlainTag(text[e.keyStart:e.keyEnd]), Value: text[e.keyStart:e.keyEnd], Line: e.line, Column: 1}
		*v = yaml.Node{Kind: yaml.ScalarNode, Style: e.style, Tag: valTag, Value: text[e.valStart:e.valEnd], Line: e.line, Column: e.valCol}
		ptrs[1+2*i], ptrs[2+2*i] = k, v
	}
	*out = yaml.Node{Kind: yaml.DocumentNode, Line: first, Column: 1, Content: ptrs[:1]}
	return true
}

// sameAsLoad checks loadFlatYAML against yaml.Load on data: it either
// declines, or yaml.Load accepts data and builds an equal node. It reports
// whether the fast path took the block.
func sameAsLoad(t testing.TB, data []byte) bool {
	t.Helper()
	var fast yaml.Node
	if !loadFlatYAML(data, &fast) {
		if !fast.IsZero() {
			t.Fatalf("declined %q but wrote the node", data)
		}
		return false
	}
	var want yaml.Node
	if err := yaml.Load(data, &want); err != nil {
		t.Fatalf("fast path took %q, which yaml.Load rejects: %v", data, err)
	}
	if !reflect.DeepEqual(&fast, &want) {
		t.Fatalf("fast path on %q:\n%s\nyaml.Load:\n%s", data, dumpYAMLNode(&fast), dumpYAMLNode(&want))
	}
	return true
}

func dumpYAMLNode(n *yaml.Node) string {
	var b strings.Builder
	var rec func(n *yaml.Node, indent string)
	rec = func(n *yaml.Node, indent string) {
		fmt.Fprintf(&b, "%skind=%v style=%v tag=%q value=%q anchor=%q alias=%v %d:%d comments=%q/%q/%q stream=%v\n",
			indent, n.Kind, n.Style, n.Tag, n.Value, n.Anchor, n.Alias != nil, n.Line, n.Column,
			n.HeadComment, n.LineComment, n.FootComment, n.Stream != nil)
		for _, c := range n.Content {
			rec(c, indent+"  ")
		}
	}
	rec(n, "")
	return b.String()
}

// flatYAMLCases are hostile and tricky blocks; fast says whether the fast
// path must take the block (it must always agree with yaml.Load when it
// does).
var flatYAMLCases = []struct {
	yaml string
	fast bool
}{
	{"name: x\n", true},
	{"name: x", true},
	{"\n\nname: x\n\nstatus: draft\n\n", true},
	{"name: cto-x\ntier: local\nstatus: draft\nowner: jp\nsource: WORKBOARD.yaml next ROI after CTO-WORK-043\ncreated: 2026-06-01\nlast_reviewed: 2026-06-01\nlifecycle_classification: planning\ncore_promotion_status: not-promoted\ndescription: Child-local PRD for a Hermes-visible CTO Harness control summary surface.\n", true},
	// The resolver's words, and their near misses.
	{"a: true\nb: True\nc: TRUE\nd: tRUE\ne: false\nf: False\ng: FALSE\n", true},
	{"a: null\nb: Null\nc: NULL\nd: nULL\ne: ~\nf: ~x\n", true},
	{"a: yes\nb: no\nc: on\nd: off\ne: Yes\nf: NO\ng: y\nh: n\n", true},
	{"a: .nan\nb: .NaN\nc: .NAN\nd: .inf\ne: .Inf\nf: .INF\ng: +.inf\nh: -.Inf\ni: -.INF\nj: -0\nk: -0.0\nl: .naN\n", true},
	{"a: <<\n", false},
	{"<<: x\n", false},
	{"a: <x\nb: <\n", true},
	// Numbers.
	{"a: 0x1F\nb: 1_000\nc: +1\nd: .5\ne: 1e3\nf: 0o17\ng: 017\nh: 0b101\ni: -12\nj: 1.\nk: 1.5e-3\nl: 1e400\nm: 99999999999999999999\nn: 18446744073709551615\no: -9223372036854775809\np: +0x10\nq: 1__0\nr: _1\ns: 0x_1F\nt: 1e\nu: .\nv: +\nw: -x\nx: 1-2\ny: 12ab\nz: .e3\n", true},
	{"a: 0xZZ\nb: 1,000\nc: 1.2.3\nd: Infinity\ne: 1_000.5\nf: +.5\ng: -.5e1\nh: 0x1p-2\n", true},
	// Timestamps.
	{"a: 2025-03-07\nb: 2025-3-7\nc: 2025-02-30\nd: 2025-03-07T10:00:00Z\ne: 2025-03-07t10:00:00Z\nf: 2025-03-07 10:00:00\ng: 2025-03-07 10:00:00 +1\nh: 2025-13-01\ni: 20250-03-07\nj: 2025-03-07x\nk: 2025-03-07T10:00:00.123456789+02:00\nl: 2025-03-07T25:00:00Z\nm: 0025-01-01\nn: 2025-\n", true},
	{"2025-03-07: x\n1: y\ntrue: z\nnull: w\n1e3: v\n", true},
	// Separators, comments and indicators.
	{"key:value\n", false},
	{"key: a: b\n", false},
	{"key: a:b\n", true},
	{"key: http://x.example/a?b=c#d\n", true},
	{"key: a:\n", false},
	{"key: #x\n", false},
	{"key: a #c\n", false},
	{"key: a#c\n", true},
	{"# comment\nkey: a\n", false},
	{"key: a\n# foot\n", false},
	{"key: a   \nnext: b \n", true},
	{"key:\nnext:   \nlast:", true},
	{"key:\n- a\n- b\n", false},
	{"key:\n  - a\n", false},
	{"- a\n- b\n", false},
	{"? a\n: b\n", false},
	{": x\n", false},
	{"key: - x\n", false},
	{"key: -\n", false},
	{"key: -x\n", true},
	{"key: --- x\n", true},
	{"key: ...\n", true},
	{"---\nkey: x\n", false},
	{"key: x\n...\n", false},
	{"key: x\n---\nother: y\n", false},
	{"%YAML 1.2\n---\nkey: x\n", false},
	{"a: &x v\nb: *x\n", false},
	{"a: !!str 1\n", false},
	{"a: !x v\n", false},
	{"a: |\n  text\n", false},
	{"a: >\n  text\n", false},
	{"a: [x, y]\n", false},
	{"a: {x: y}\n", false},
	{"a: x]\nb: x}\nc: x,y\nd: a[0]\ne: f(x)\n", true},
	{"a: @x\n", false},
	{"a: `x\n", false},
	{"a: %x\n", false},
	{"a: ?x\n", false},
	{"a: x?\nb: x!\nc: x&y\nd: x*y\ne: x|y\nf: x>y\ng: x'y\nh: x\"y\n", true},
	// Quoted scalars.
	{"a: \"x\"\nb: 'y'\nc: \"\"\nd: ''\ne: \" spaced \"\nf: \"x: y #z\"\ng: 'true'\nh: \"1\"\n", true},
	{"a: \"x\"  \n", true},
	{"a: \"x\" y\n", false},
	{"a: \"x\" #c\n", false},
	{"a: \"x\\\"y\"\n", false},
	{"a: \"\\u00e9\"\n", false},
	{"a: 'it''s'\n", false},
	{"a: \"unclosed\n", false},
	{"a: \"multi\n  line\"\n", false},
	{"\"a\": x\n", false},
	{"'a': x\n", false},
	// Keys.
	{"a.b: x\na-b: y\nA_B9: z\n_: w\n9: v\n", true},
	{"a b: x\n", false},
	{"a : x\n", false},
	{"é: x\n", false},
	{" a: x\n", false},
	{"a: x\n b: y\n", false},
	{"a: x\n  continued\n", false},
	{"a: x\ncontinued\n", false},
	{"name: 1\nname: 2\n", true},
	{strings.Repeat("k", maxFlatKey) + ": x\n", true},
	{strings.Repeat("k", maxFlatKey+1) + ": x\n", false},
	{strings.Repeat("k", 1100) + ": x\n", false},
	// Whitespace and encodings.
	{"a:\tx\n", false},
	{"a: x\ty\n", false},
	{"\ta: x\n", false},
	{"a: x\r\nb: y\r\n", true},
	{"\r\n\r\nname: x\r\nempty:\r\nspaced:  \r\nq: \"x\"\r\ns: 'y' \r\nlast: 2025-03-07\r\n", true},
	{"a: x\r\nb: y", true},
	{"a: x\r\nb:\r", true},
	{"a: x\r\r\nb: y\r\n", false},
	{"a: x\n\r\nb: y\n", true},
	{"a:\r x\n", false},
	{"a\r: x\n", false},
	{"a: \"x\r\" \n", false},
	{"a: x\rb: y\n", false},
	{"\xEF\xBB\xBFa: x\n", false},
	{"a: x\xEF\xBB\xBFy\n", false},
	{"a: x\xff\n", false},
	{"a: \xc3\x28\n", false},
	{"a: x\x00\n", false},
	{"a: x\x7f\n", false},
	{"a: x\u0085y\n", false},
	{"a: x\u2028y\n", false},
	{"a: x\u2029y\n", false},
	{"a: \u00e9t\u00e9 \u2014 caf\u00e9\nb: \U0001F600 emoji\nc: \u00a0nbsp\u00a0\nd: \"\u00e9\"\ne: \ufffd\n", true},
	{"a: x\n   \nb: y\n", false},
	{"a: " + strings.Repeat("long value ", 2000) + "\n", true},
	{"", false},
	{"\n\n", false},
	{"   \n", false},
}

func TestFlatYAMLCases(t *testing.T) {
	for _, c := range flatYAMLCases {
		if got := sameAsLoad(t, []byte(c.yaml)); got != c.fast {
			var n yaml.Node
			err := yaml.Load([]byte(c.yaml), &n)
			t.Errorf("fast path took %q: %v, want %v (yaml.Load error: %v)", c.yaml, got, c.fast, err)
		}
	}
}

// TestFlatYAMLResolver compares the resolver copy with go-yaml's on words
// and numbers alone, as plain values.
func TestFlatYAMLResolver(t *testing.T) {
	words := []string{"1", "-1", "+1", "0", "00", "0.", "1_0", "0x", "0o8", "0b2", "1e+3", "1E3", "-1e-3",
		"9223372036854775807", "9223372036854775808", "-9223372036854775808", "18446744073709551616",
		"2025-01-01", "2025-1-1", "2025-01-01T00:00:00Z", "2025-01-01t00:00:00+05:30", "2025-01-01 00:00:00.5",
		"2024-02-29", "2023-02-29", "1999-12-31x", "true", "True", "TRUE", "tRue", "false", "null", "NULL", "Null",
		".inf", "-.inf", "+.INF", ".nan", "-0", "-0.0", "+0", "-.0", ".0e1", "+.", "-", "1__", "_", "0_x1"}
	for _, w := range words {
		var n yaml.Node
		if err := yaml.Load([]byte("k: "+w), &n); err != nil {
			continue // not a plain value yaml.Load reads; sameAsLoad covers it
		}
		if got, want := resolvePlainTag(w), n.Content[0].Content[1].Tag; got != want {
			t.Errorf("resolvePlainTag(%q) = %s, want %s", w, got, want)
		}
	}
}

// markdownFiles returns the Markdown files under dir by path.
func markdownFiles(t testing.TB, dir string) map[string][]byte {
	return filesUnder(t, dir, isMarkdown)
}

func isMarkdown(name string) bool { return strings.HasSuffix(name, ".md") }

// filesUnder returns the files under dir whose names keep accepts, by path.
func filesUnder(t testing.TB, dir string, keep func(name string) bool) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, de fs.DirEntry, err error) error {
		if err != nil || de.IsDir() || !keep(p) {
			return err
		}
		b, err := os.ReadFile(p)
		files[p] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// frontmatterBlock returns the YAML text of content's frontmatter block,
// or nil when it has none.
func frontmatterBlock(content []byte) []byte {
	content = bytes.TrimPrefix(content, bom)
	if s := SplitFrontmatter(content); s.State == FrontmatterOK || s.State == FrontmatterMalformed {
		return content[s.YAMLStart:s.YAMLEnd]
	}
	return nil
}

// testWorkspaces returns the files whose names keep accepts of the sample
// workspace, the scenarios' workspaces, every generated shape and the real
// corpus when it is beside the checkout, by set and then by path.
func testWorkspaces(t *testing.T, keep func(name string) bool) map[string]map[string][]byte {
	sets := map[string]map[string][]byte{
		"sample": filesUnder(t, filepath.Join("..", "testdata", "workspace"), keep),
	}
	scripts, err := filepath.Glob(filepath.Join("..", "testdata", "script", "*.txtar"))
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no scenarios found: %v", err)
	}
	sets["scenarios"] = map[string][]byte{}
	for _, p := range scripts {
		a, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range a.Files {
			if keep(f.Name) {
				sets["scenarios"][p+":"+f.Name] = f.Data
			}
		}
	}
	shapes, err := generatedShapes()
	if err != nil {
		t.Fatal(err)
	}
	for shape, files := range shapes {
		kept := map[string][]byte{}
		for p, b := range files {
			if keep(p) {
				kept[p] = b
			}
		}
		sets["gen-corpus "+shape] = kept
	}
	if dir := testcorpus.Optional(t); dir != "" {
		sets["corpus"] = filesUnder(t, dir, keep)
	}
	return sets
}

// sampled is how many of n random cases a property test draws: a fifth
// under the race detector, which the plain run's full count backs.
func sampled(n int) int {
	if raceEnabled {
		return n / 5
	}
	return n
}

// generatedShapes holds every generator shape's files by path, generated
// once per test process: four property tests read them, and writing them
// was half of each test's cost. Under the race detector each shape has a
// fifth of its documents.
var generatedShapes = sync.OnceValues(func() (map[string]map[string][]byte, error) {
	dir, err := os.MkdirTemp("", "sotparse-shapes-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	sets := map[string]map[string][]byte{}
	for _, shape := range append([]string{"default"}, gencorpus.Shapes...) {
		// 200 documents, but fewer of the shapes whose every document is
		// large (a longlines document is 770 KB): their size is the shape.
		k := 200
		switch shape {
		case "bigdoc":
			k = 1
		case "longlines":
			k = 5
		case "manyids", "nesting":
			k = 40
		}
		if raceEnabled {
			k = max(1, k/5)
		}
		sub := filepath.Join(dir, shape)
		if err := gencorpus.WriteShape(sub, shape, k, 7, gencorpus.Options{}); err != nil {
			return nil, fmt.Errorf("gen-corpus %s: %w", shape, err)
		}
		files := map[string][]byte{}
		err := filepath.WalkDir(sub, func(p string, de fs.DirEntry, err error) error {
			if err != nil || de.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			// The same path in every process's temporary directory.
			files[filepath.Join("gen-corpus", shape, strings.TrimPrefix(p, sub))] = b
			return err
		})
		if err != nil {
			return nil, err
		}
		sets[shape] = files
	}
	return sets, nil
})

// TestFlatYAMLWorkspaces runs the fast path beside yaml.Load on every
// frontmatter block of the test workspaces, as written and with CRLF line
// ends.
func TestFlatYAMLWorkspaces(t *testing.T) {
	for name, files := range testWorkspaces(t, isMarkdown) {
		blocks, taken, takenCRLF := 0, 0, 0
		for _, content := range files {
			b := frontmatterBlock(content)
			if b == nil {
				continue
			}
			blocks++
			if sameAsLoad(t, b) {
				taken++
			}
			// The same block as a Windows editor saves it.
			if sameAsLoad(t, bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n"))) {
				takenCRLF++
			}
		}
		t.Logf("%s: the fast path took %d of %d frontmatter blocks (%d with CRLF)", name, taken, blocks, takenCRLF)
		if taken == 0 && blocks > 0 {
			t.Errorf("%s: the fast path took none of %d blocks", name, blocks)
		}
		if name == "gen-corpus adoption" && (taken != blocks || takenCRLF != blocks) {
			t.Errorf("%s: the fast path took %d (%d with CRLF) of %d blocks, want all", name, taken, takenCRLF, blocks)
		}
	}
}

// TestSplitFrontmatterAsBefore compares SplitFrontmatter, and the
// Frontmatter typedFrontmatter makes of it, with the split and Frontmatter
// made before the flat path, adrg/frontmatter handing every block to
// yaml.Load, on every file of the test workspaces, as written and with CRLF
// line ends.
func TestSplitFrontmatterAsBefore(t *testing.T) {
	for name, files := range testWorkspaces(t, isMarkdown) {
		taken := 0
		for path, content := range files {
			for _, c := range [][]byte{content, bytes.ReplaceAll(content, []byte("\n"), []byte("\r\n"))} {
				if sameFrontmatter(t, name+" "+path, bytes.TrimPrefix(c, bom)) {
					taken++
				}
			}
		}
		t.Logf("%s: the flat path took %d of %d files (each as written and with CRLF)", name, taken, 2*len(files))
	}
}

func TestSplitFrontmatterCases(t *testing.T) {
	for _, c := range flatYAMLCases {
		for i, doc := range frontmatterDocs([]byte(c.yaml)) {
			got := sameFrontmatter(t, "case", doc)
			// Closed, the block goes the flat path as scanFlatYAML says;
			// unclosed, never. (A --- line in it closes it early.)
			want := c.fast && i < 3
			if got != want && !hasDelimiterLine(c.yaml) {
				t.Errorf("flat path took %q: %v, want %v", doc, got, want)
			}
		}
	}
	for _, seed := range commonSeeds() {
		sameFrontmatter(t, "seed", bytes.TrimPrefix([]byte(seed), bom))
	}
}

// TestSplitFrontmatterRandom holds the flat path to adrg/frontmatter and
// yaml.Load on random documents built of frontmatter's pieces: keys known
// and unknown, repeated, values of every kind the subset takes and many it
// does not, delimiters, blank lines and line ends of every sort.
func TestSplitFrontmatterRandom(t *testing.T) {
	keys := []string{"name", "title", "status", "source", "owner", "created", "x", "a.b", "k-1", "_", "9", "Name", "é", "a b", "<<", "- a", "? a", "#c", "\"q\""}
	values := []string{"", " ", "x", "two words", "2025-03-07", "1", "0x1F", "true", "~", "null", "<<", "<x", "\"q\"", "'s'", "\"a\" ", "'it''s'",
		"\"\\u00e9\"", "a: b", "a:b", "a #c", "a#c", "-", "-x", "- x", "[a, b]", "{a: b}", "&x v", "*x", "!t v", "|", ">", "@x", "`x",
		"été", "\u00a0", "x\ty", "x\r", "x\u2028y", "WORKBOARD.yaml next after CTO-WORK-043", "a:", "...", "--- x"}
	breaks := []string{"\n", "\n", "\n", "\r\n", "\r", "\n\n", " \n", "\t\n"}
	rng := rand.New(rand.NewPCG(3, 4))
	// Most pieces are from the front of their list, which the subset takes.
	pick := func(list []string, good int) string {
		if rng.IntN(10) != 0 {
			return list[rng.IntN(good)]
		}
		return list[rng.IntN(len(list))]
	}
	taken := 0
	for range sampled(40000) {
		var b strings.Builder
		b.WriteString([]string{"", "\n", " \n"}[rng.IntN(3)])
		b.WriteString([]string{"---", " --- ", "---\r", "--- x"}[rng.IntN(4)])
		b.WriteString(pick(breaks, 4))
		for range rng.IntN(8) {
			switch rng.IntN(30) {
			case 0:
				b.WriteString([]string{"---", " ---", "# comment", "  indented: x", "- item", ""}[rng.IntN(6)])
			default:
				b.WriteString(pick(keys, 12))
				b.WriteString(pick([]string{": ", ":  ", ":", " : "}, 2))
				b.WriteString(pick(values, 22))
			}
			b.WriteString(pick(breaks, 4))
		}
		if rng.IntN(8) != 0 {
			b.WriteString([]string{"---", "--- ", "---\r\n", "---\nbody\n"}[rng.IntN(4)])
		}
		if sameFrontmatter(t, "random", []byte(b.String())) {
			taken++
		}
	}
	if taken < sampled(2000) {
		t.Fatalf("the flat path took only %d documents: the test saw too little", taken)
	}
	t.Logf("the flat path took %d of 40000 documents", taken)
}

func hasDelimiterLine(s string) bool {
	for _, line := range strings.Split(s, "\n") {
		if strings.TrimSpace(line) == "---" {
			return true
		}
	}
	return false
}

// frontmatterDocs returns documents that hold block as their frontmatter,
// in the ways adrg/frontmatter finds one: after blank lines, with spaces
// around the delimiters, closed at the end of the file without a line
// break, and never closed.
func frontmatterDocs(block []byte) [][]byte {
	var nl []byte
	if len(block) > 0 && block[len(block)-1] != '\n' {
		nl = []byte("\n")
	}
	join := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	return [][]byte{
		join([]byte("---\n"), block, nl, []byte("---\n# Title\n\nText.\n")),
		join([]byte("\n \n  ---  \n"), block, nl, []byte(" --- \nbody")),
		join([]byte("---\r\n"), block, nl, []byte("---")),
		join([]byte("---\n"), block),
	}
}

// splitWithLoad is SplitFrontmatter with the flat path off.
func splitWithLoad(content []byte) split {
	return splitFrontmatter(content, false, nil)
}

// sameFrontmatter checks that content's frontmatter reads the same with
// the flat path as with adrg/frontmatter and yaml.Load alone: the split,
// and the Frontmatter and reports typedFrontmatter makes of it, with slabs
// and without. It reports whether the flat path took the block.
func sameFrontmatter(t testing.TB, name string, content []byte) bool {
	t.Helper()
	got, want := SplitFrontmatter(content), splitWithLoad(content)
	if got.Flat == nil {
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: SplitFrontmatter = %+v, with yaml.Load alone %+v", name, got, want)
		}
		return false
	}
	if got.Node != nil || want.Node == nil || want.State != FrontmatterOK {
		t.Fatalf("%s: flat split %+v, with yaml.Load alone %+v", name, got, want)
	}
	if g, w := got, want; g.State != w.State || g.Open != w.Open || g.YAMLStart != w.YAMLStart || g.YAMLEnd != w.YAMLEnd || g.BodyStart != w.BodyStart || g.Err != nil {
		t.Fatalf("%s: flat split %+v, with yaml.Load alone %+v", name, got, want)
	}
	f, _ := fuzzFile("doc.md", content)
	for _, slabs := range []*modelSlabs{nil, new(modelSlabs)} {
		var gotReports, wantReports []string
		reporter := func(to *[]string) func(pos, end token.Pos, msg string) {
			return func(pos, end token.Pos, msg string) { *to = append(*to, fmt.Sprintf("%d-%d %s", pos, end, msg)) }
		}
		gfm := typedFrontmatter(f, got, reporter(&gotReports), slabs)
		wfm := typedFrontmatter(f, want, reporter(&wantReports), slabs)
		if !reflect.DeepEqual(gfm, wfm) || fmShape(gfm) != fmShape(wfm) {
			t.Fatalf("%s: flat Frontmatter\n%s\nwith yaml.Load alone\n%s", name, dumpFrontmatter(gfm), dumpFrontmatter(wfm))
		}
		if !reflect.DeepEqual(gotReports, wantReports) {
			t.Fatalf("%s: flat reports %q, with yaml.Load alone %q", name, gotReports, wantReports)
		}
	}
	return true
}

// fmShape says which of fm.Fields its known keys' members and Unknown
// point at, which reflect.DeepEqual does not tell.
func fmShape(fm *Frontmatter) string {
	index := func(f *Field) int {
		for i, g := range fm.Fields {
			if g == f {
				return i
			}
		}
		return -1
	}
	var b strings.Builder
	for _, k := range KnownKeys {
		fmt.Fprintf(&b, "%s=%d ", k, index(*fm.slot(k)))
	}
	for _, u := range fm.Unknown {
		fmt.Fprintf(&b, "?%d ", index(u))
	}
	return b.String()
}

func dumpFrontmatter(fm *Frontmatter) string {
	var b strings.Builder
	fmt.Fprintf(&b, "pos %d end %d close %d shape %s\n", fm.Pos, fm.End, fm.Close, fmShape(fm))
	for _, f := range fm.Fields {
		fmt.Fprintf(&b, "  %+v\n", *f)
	}
	return b.String()
}

// yamlStyleFloat is go-yaml's expression that isYAMLStyleFloat hand-codes.
var yamlStyleFloat = regexp.MustCompile(`^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$`)

func TestIsYAMLStyleFloat(t *testing.T) {
	// Every string of up to five characters from the expression's alphabet
	// and one other.
	alphabet := "0.-+eE5x"
	var rec func(s string)
	rec = func(s string) {
		if got, want := isYAMLStyleFloat(s), yamlStyleFloat.MatchString(s); got != want {
			t.Errorf("isYAMLStyleFloat(%q) = %v, want %v", s, got, want)
		}
		if len(s) == 5 {
			return
		}
		for _, c := range alphabet {
			rec(s + string(c))
		}
	}
	rec("")
}

func FuzzFrontmatterFastPath(f *testing.F) {
	for _, c := range flatYAMLCases {
		f.Add([]byte(c.yaml))
	}
	if dir := testcorpus.Optional(f); dir != "" {
		for _, content := range markdownFiles(f, dir) {
			if b := frontmatterBlock(content); b != nil {
				f.Add(b)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sameAsLoad(t, data)
		if s := string(data); isYAMLStyleFloat(s) != yamlStyleFloat.MatchString(s) {
			t.Fatalf("isYAMLStyleFloat(%q) = %v", s, !yamlStyleFloat.MatchString(s))
		}
		// The same bytes as a value and as a key, which a random block
		// seldom offers the fast path whole.
		sameAsLoad(t, append([]byte("key: "), data...))
		sameAsLoad(t, append(append([]byte("a: b\n"), data...), ": value\n"...))
		sameAsLoad(t, bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n")))
		for _, doc := range frontmatterDocs(data) {
			sameFrontmatter(t, "fuzz", doc)
		}
		sameFrontmatter(t, "fuzz", data)
	})
}

// BenchmarkFrontmatterYAML reads the frontmatter blocks of a generated
// adoption workspace with the flat path (its entries) and with yaml.Load.
func BenchmarkFrontmatterYAML(b *testing.B) {
	dir := b.TempDir()
	if err := gencorpus.WriteShape(dir, "adoption", 1000, 1, gencorpus.Options{}); err != nil {
		b.Fatal(err)
	}
	var blocks [][]byte
	for _, content := range markdownFiles(b, dir) {
		if blk := frontmatterBlock(content); blk != nil {
			blocks = append(blocks, blk)
		}
	}
	b.Run("flat", func(b *testing.B) {
		b.ReportAllocs()
		var entries []flatEntry
		for b.Loop() {
			for _, blk := range blocks {
				var ok bool
				if entries, ok = scanFlatYAML(blk, entries[:0]); !ok {
					b.Fatalf("declined %q", blk)
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(blocks)), "ns/block")
	})
	b.Run("yaml.Load", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, blk := range blocks {
				var n yaml.Node
				if err := yaml.Load(blk, &n); err != nil {
					b.Fatal(err)
				}
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(blocks)), "ns/block")
	})
}
