package sotparse

import (
	"bytes"
	"fmt"
	"go/token"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/internal/testcorpus"
	"github.com/svrnty/sotvet/scripts/gen-corpus/gencorpus"
	yaml "go.yaml.in/yaml/v4"
)

// sameWorkboardAsLoad checks loadWorkboardYAML against yaml.Load on data:
// it either declines, or yaml.Load accepts data and builds an equal node.
// It also reads data as a workboard both ways and compares the model and
// the findings. It reports whether the fast path took the file.
func sameWorkboardAsLoad(t testing.TB, data []byte) bool {
	t.Helper()
	var fast yaml.Node
	took := loadWorkboardYAML(data, &fast)
	if !took {
		if !fast.IsZero() {
			t.Fatalf("declined %q but wrote the node", data)
		}
	} else {
		var want yaml.Node
		if err := yaml.Load(data, &want); err != nil {
			t.Fatalf("fast path took %q, which yaml.Load rejects: %v", data, err)
		}
		if !reflect.DeepEqual(&fast, &want) {
			t.Fatalf("fast path on %.200q: %s", data, firstNodeDiff(dumpYAMLNode(&fast), dumpYAMLNode(&want)))
		}
	}
	got, gotFindings := readTestWorkboard(data, true)
	want, wantFindings := readTestWorkboard(data, false)
	if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotFindings, wantFindings) {
		t.Fatalf("workboard %q: with the fast path %+v %q, with yaml.Load %+v %q", data, got, gotFindings, want, wantFindings)
	}
	return took
}

// firstNodeDiff returns the first line where two node dumps differ.
func firstNodeDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range min(len(g), len(w)) {
		if g[i] != w[i] {
			return fmt.Sprintf("node %d:\n got %s\nwant %s", i, g[i], w[i])
		}
	}
	return fmt.Sprintf("%d nodes, want %d", len(g), len(w))
}

// readTestWorkboard reads data as WORKBOARD.yaml with or without the fast
// path, returning the workboard and its findings with their offsets.
func readTestWorkboard(data []byte, fast bool) (*Workboard, []string) {
	fset := token.NewFileSet()
	f := &File{Path: "WORKBOARD.yaml", Role: RoleWorkboard, Tok: fset.AddFile("WORKBOARD.yaml", -1, len(data)), Content: data}
	var findings []string
	wb := readWorkboard(f, func(pos, end token.Pos, msg string) {
		findings = append(findings, fmt.Sprintf("%d-%d: %s", pos, end, msg))
	}, fast)
	return wb, findings
}

// workboardCases are hostile and tricky workboards; fast says whether the
// fast path must take the file.
var workboardCases = []struct {
	yaml string
	fast bool
}{
	{"items:\n  - id: A\n    title: T\n    status: draft\n    blocked_by: []\n    source: a.md\n", true},
	{"items:\n- id: A\n  title: T\n- id: B\n  blocked_by: [A]\n", true},
	{"items:\n    - id: A\n      title: T\n", true},
	{"items:\n  - id: A\n    blocked_by: [A, B,C ,  D]\n    other: [ ]\n    x: [1, 1.5, true, null, 2025-01-01, 0x1F, _a, a/b.c]\n", true},
	{"items:\n  - id: A\n    blocked_by:\n      - B\n      - 'C'\n      - \"D\"\n    source: s\n", true},
	{"items:\n  - id: A\n    blocked_by:\n    - B\n    - C\n    source: s\n  - id: B\n", true},
	{"items:\n  - id: A\n    blocked_by:\n        - B\n    source: s\n", true},
	{"items:\n  - id: A\n    blocked_by:\n  - id: B\n", true},
	{"items:\n  - id: A\n    blocked_by:\n", true},
	{"items:\n  - id: A\n    blocked_by:\n\n\n      - B\n\n    source: x\n\n", true},
	{"items: []\n", true},
	{"items:\n  - id: A\n\n    title: B\n", true},
	{"a: [A]\nb:\n- x: 1\n  y:\n  - 2\n  - 3\n  z: [4]\nc: d\n", true},
	{"items:\n  - id: A\n    blocked_by:\n    - B\n  - id: C\n    blocked_by:\n      - D\n", true},
	{"x:\n  - a: b\n    c:\n    - d\n    -  e\n", false},
	{"items: [A]\n", true},
	{"items:\n", true},
	{"items:\nother: x\n", true},
	{"version: 1\nitems:\n  - id: A\nowner: jp\n", true},
	{"items:\n  - id: A\nmore:\n  - id: B\n", true},
	{"items:\n  - id: A\n  - id: A\n    id: B\n", true},
	{"items:\n  - id: A\nitems:\n  - id: B\n", true},
	{"items:\n  - 1: 2\n    true: false\n    null: ~\n    2025-01-01: 2025-01-01T10:00:00Z\n", true},
	{"items:\n  - id: <<\n", false},
	{"items:\n  - id: A\n    x: [<<]\n", false},
	// Comments.
	{"# head\nitems:\n  - id: A\n", true},
	{"# head\n# more\n\nitems:\n  - id: A\n", true},
	{"# head\n\n\nitems:\n  - id: A\n", true},
	{"#\n#x\n# y\nitems: []\n", true},
	{"# a\n\n# b\nitems:\n  - id: A\n", false},
	{"# a\n\r\nitems: []\n", true},
	{"# a\n\r\n\r\nitems: []\n", true},
	{"#a\nitems:\n\n  - id: A\n", true},
	{"\n# head\nitems:\n  - id: A\n", false},
	{"# head \nitems:\n  - id: A\n", false},
	{"# only\n", false},
	{"items:\n  # item\n  - id: A\n", true},
	{"# h\nitems:\n  # c1\n  # c2\n  - id: x\n    b: []\n  # c3\n  - id: y\n    b:\n      - z\n  #c4\n  - id: w\n", true},
	{"items:\n- id: x\n# c\n- id: y\n", true},
	{"items:\n  # c1\n\n  - id: x\n", false},
	{"items:\n  # c1\n\n  # c2\n  - id: x\n", false},
	{"items:\n  - id: x\n  # c1\n\n  - id: y\n", false},
	{"items:\n  - id: x\n  # c1\n", false},
	{"items:\n  - id: x\n  # c1\nother: y\n", false},
	{"items:\n  - id: x\n # c1\n  - id: y\n", false},
	{"items:\n  - id: x\n   # c1\n  - id: y\n", false},
	{"items:\n  - id: x\n  # c1 \n  - id: y\n", false},
	{"items:\n  - id: x\n  # c1\r\n  - id: y\n", false},
	{"items:\n  - id: x\n  #\n  - id: y\n", true},
	{"items:\n  - id: x\n    blocked_by:\n    - a\n  # c\n  - id: y\n", true},
	{"items:\n  - id: x\n    blocked_by:\n    # c\n    - a\n", false},
	{"items:\n  - id: A # c\n", false},
	{"items:\n  - id: A\n    # c\n", false},
	{"items:\n  - id: A\n# foot\n", false},
	{"items:\n  - id: A\n    blocked_by: [A] # c\n", false},
	{"items:\n  - id: A\n    blocked_by: [A #c]\n", false},
	{"items:\n  - id: A\n    blocked_by:\n      - B # c\n", false},
	{"items: # c\n  - id: A\n", false},
	{"# head\r\nitems:\r\n  - id: A\r\n", false},
	{"# head\nitems:\r\n  - id: A\r\n", true},
	// Flow sequences the subset leaves to yaml.Load.
	{"items:\n  - blocked_by: [A, ]\n", false},
	{"items:\n  - blocked_by: [, A]\n", false},
	{"items:\n  - blocked_by: [A B]\n", false},
	{"items:\n  - blocked_by: [A]]\n", false},
	{"items:\n  - blocked_by: [A] x\n", false},
	{"items:\n  - blocked_by: [A\n", false},
	{"items:\n  - blocked_by: [A,\n      B]\n", false},
	{"items:\n  - blocked_by: [\"A\"]\n", false},
	{"items:\n  - blocked_by: ['A']\n", false},
	{"items:\n  - blocked_by: [a: b]\n", false},
	{"items:\n  - blocked_by: [[A]]\n", false},
	{"items:\n  - blocked_by: [{a: b}]\n", false},
	{"items:\n  - blocked_by: [-1]\n", false},
	{"items:\n  - blocked_by: [é]\n", false},
	{"items:\n  - blocked_by: [A]  \n", true},
	{"items:\n  - blocked_by: {}\n", false},
	{"items:\n  - blocked_by: {a: b}\n", false},
	// Shapes outside the subset.
	{"items:\n  - id: A\n   title: T\n", false},
	{"items:\n  - id: A\n     title: T\n", false},
	{"items:\n  - id: A\n    title: T\n      continued\n", false},
	{"items:\n  - id: A\n    title: T\n  continued\n", false},
	{"items:\n  -  id: A\n", false},
	{"items:\n  -id: A\n", false},
	{"items:\n  -\n    id: A\n", false},
	{"items:\n  - - A\n", false},
	{"items:\n  - A\n", false},
	{"items:\n  - A\n  - B\n", false},
	{"items:\n  - id: A\n  - B\n", false},
	{"items:\n  - id: A\n   - id: B\n", false},
	{"items:\n  - id: A\n    - B\n", false},
	{"items:\n  - id: A\n    blocked_by: B\n      - C\n", false},
	{"items:\n  - id: A\n    blocked_by:\n      - B\n     - C\n", false},
	{"items:\n  - id: A\n    blocked_by:\n      - B\n        - C\n", false},
	{"items:\n  - id: A\n    blocked_by:\n      -  B\n", false},
	{"items:\n  - id: A\n    blocked_by:\n      -\n", false},
	{"items:\n  - id: A\n    blocked_by:\n      - a: b\n", false},
	{"items:\n  - id: A\n    blocked_by:\n      - [A]\n", false},
	{"items:\n  - id: A\n    nested:\n      key: v\n", false},
	{"items:\n  key: v\n", false},
	{"items:\n  - id: A\n  key: v\n", false},
	{"items:\n  - id: A\n    title: |\n      text\n", false},
	{"items:\n  - id: A\n    title: >\n      text\n", false},
	{"items:\n  - id: &a A\n  - id: *a\n", false},
	{"items:\n  - &x\n    id: A\n", false},
	{"items: !!seq\n  - id: A\n", false},
	{"items:\n  - id: !!str 1\n", false},
	{"items:\n  - ? id\n    : A\n", false},
	{"items:\n  - \"id\": A\n", false},
	{"items:\n  - id: \"A\\\"\"\n", false},
	{"items:\n  - id: A\n---\nitems: []\n", false},
	{"---\nitems: []\n", false},
	{"items: []\n...\n", false},
	{"- id: A\n", false},
	{"items\n", false},
	{"items:\n\t- id: A\n", false},
	{"items:\n  - id:\tA\n", false},
	{"items:\n  -\tid: A\n", false},
	{"items:\n  - id: A\n  \n  - id: B\n", false},
	{"items:\n  - id: A\r\r\n", false},
	{"items:\n  - id: A\rtitle: B\n", false},
	{"\xEF\xBB\xBFitems: []\n", false},
	{"items:\n  - id: A\xff\n", false},
	{"items:\n  - id: A\n  - id: B\r\n  - id: C", true},
	{"items:\n  - id: " + strings.Repeat("x", 5000) + "\n", true},
	{"items:\n  - " + strings.Repeat("k", maxFlatKey+1) + ": x\n", false},
	{"items:\n  - id: A\n    blocked_by: [" + strings.Repeat("B, ", 50000) + "C]\n", true},
	{"", false},
	{"\n", false},
	{"  \n", false},
}

func TestWorkboardYAMLCases(t *testing.T) {
	// The subset itself: each item read line by line or the file declined.
	itemsAlone = false
	for _, c := range workboardCases {
		if got := sameWorkboardAsLoad(t, []byte(c.yaml)); got != c.fast {
			var n yaml.Node
			err := yaml.Load([]byte(c.yaml), &n)
			t.Errorf("fast path took %q: %v, want %v (yaml.Load error: %v)", c.yaml, got, c.fast, err)
		}
	}
	itemsAlone = true
	// With an item outside it read alone, the same tree; and a file the
	// subset declines only for its items is taken.
	alone := 0
	for _, c := range workboardCases {
		if sameWorkboardAsLoad(t, []byte(c.yaml)) && !c.fast {
			alone++
		}
	}
	if alone < 20 {
		t.Errorf("%d files taken with items read alone: the cases no longer reach readItemsAlone", alone)
	}
	// The frontmatter path's blocks are workboards too, as the top-level
	// mapping of this subset.
	for _, c := range flatYAMLCases {
		sameWorkboardAsLoad(t, []byte(c.yaml))
	}
}

func isYAML(name string) bool {
	return strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml")
}

// TestWorkboardYAMLWorkspaces runs the fast path beside yaml.Load on every
// WORKBOARD.yaml (and other YAML file) of the test workspaces, as written,
// with CRLF line ends and without comment lines.
func TestWorkboardYAMLWorkspaces(t *testing.T) {
	taken := 0
	for set, files := range testWorkspaces(t, isYAML) {
		for name, b := range files {
			name = set + ":" + name
			took := sameWorkboardAsLoad(t, b)
			tookCRLF := sameWorkboardAsLoad(t, bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")))
			var plain []byte
			for _, line := range bytes.SplitAfter(b, []byte("\n")) {
				if !bytes.HasPrefix(bytes.TrimLeft(line, " "), []byte("#")) {
					plain = append(plain, line...)
				}
			}
			tookPlain := sameWorkboardAsLoad(t, plain)
			t.Logf("%s: fast path %v (CRLF %v, without comments %v)", name, took, tookCRLF, tookPlain)
			if took {
				taken++
			}
			if strings.HasPrefix(set, "gen-corpus") && filepath.Base(name) == "WORKBOARD.yaml" && !(took && tookPlain) {
				t.Errorf("%s: the fast path declined a generated workboard", name)
			}
			if set == "corpus" && filepath.Base(name) == "WORKBOARD.yaml" && !(took && tookPlain) {
				t.Errorf("corpus: the fast path declined the workboard (%v) or the workboard without its comments (%v)", took, tookPlain)
			}
		}
	}
	if taken == 0 {
		t.Error("the fast path took no workboard")
	}
}

func FuzzWorkboardFastPath(f *testing.F) {
	for _, c := range workboardCases {
		f.Add([]byte(c.yaml))
	}
	for _, c := range itemAloneCases {
		f.Add([]byte(c.yaml))
	}
	if dir := testcorpus.Optional(f); dir != "" {
		if b, err := os.ReadFile(filepath.Join(dir, "WORKBOARD.yaml")); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sameWorkboardAsLoad(t, data)
		// The same bytes as an item's value and as a key of an item, and
		// under a comment, which a random file seldom offers whole.
		sameWorkboardAsLoad(t, append([]byte("items:\n  - id: "), data...))
		sameWorkboardAsLoad(t, append(append([]byte("items:\n  - id: A\n    "), data...), ": x\n  - id: B\n"...))
		sameWorkboardAsLoad(t, append([]byte("# c\nitems:\n  - blocked_by: "), data...))
		sameWorkboardAsLoad(t, bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n")))
		// and as an item between two the subset reads (readItemsAlone)
		sameWorkboardAsLoad(t, append(append([]byte("items:\n  - id: A\n  - "), data...), "\n  - id: B\n    status: open\n"...))
	})
}

// BenchmarkWorkboardYAML reads a generated 10,000-item workboard with the
// fast path and with yaml.Load, and as parseWorkboard does.
func BenchmarkWorkboardYAML(b *testing.B) {
	dir := b.TempDir()
	if err := gencorpus.WriteShape(dir, "workboard", 10000, 1, gencorpus.Options{}); err != nil {
		b.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, "WORKBOARD.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var n yaml.Node
			if !loadWorkboardYAML(data, &n) {
				b.Fatal("declined")
			}
		}
	})
	b.Run("yaml.Load", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var n yaml.Node
			if err := yaml.Load(data, &n); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, fast := range []bool{true, false} {
		b.Run(fmt.Sprintf("parseWorkboard/fast=%v", fast), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				readTestWorkboard(data, fast)
			}
		})
	}
}

// TestWorkboardRandom reads random workboards both ways: many items, each
// read from the nodes of the one before (across the loader's slabs), with
// every kind of value an item's key takes, duplicate, missing and unknown
// keys, and top-level keys around the list.
func TestWorkboardRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	keys := []string{"id", "title", "status", "source", "blocked_by", "owner", "x-y", "id"}
	values := []string{"A", "CTO-WORK-1", "'quoted'", "\"dq\"", "", "[]", "[A, B]", "[ C ]", "2025-01-01", "null", "~", "two words", "é"}
	taken := 0
	for range sampled(300) {
		var b strings.Builder
		top := []string{"version: 1\n", "owner: jp\n", "# c\n", "more:\n  - id: Z\n"}
		if rng.IntN(3) == 0 {
			b.WriteString(top[rng.IntN(len(top))])
		}
		b.WriteString("items:\n")
		indent := []string{"", "  ", "    "}[rng.IntN(3)]
		for range rng.IntN(120) {
			for j := range 1 + rng.IntN(6) {
				lead := indent + "  "
				if j == 0 {
					lead = indent + "- "
				}
				k := keys[rng.IntN(len(keys))]
				b.WriteString(lead + k + ":")
				if k == "blocked_by" && rng.IntN(2) == 0 {
					b.WriteString("\n")
					for range rng.IntN(3) {
						b.WriteString(indent + "    - " + values[rng.IntN(4)] + "\n")
					}
					continue
				}
				if v := values[rng.IntN(len(values))]; v != "" {
					b.WriteString(" " + v)
				}
				b.WriteString("\n")
			}
		}
		if rng.IntN(3) == 0 {
			b.WriteString(top[rng.IntN(len(top))])
		}
		if sameWorkboardAsLoad(t, []byte(b.String())) {
			taken++
		}
	}
	if taken < sampled(100) {
		t.Fatalf("the fast path took only %d workboards: the test saw too little", taken)
	}
}

// itemAloneCases are items outside the subset among items inside it:
// each is read by yaml.Load (readItemsAlone) and the file taken, or,
// where a run of items read alone cannot give what yaml.Load gives in the
// whole file, the file is declined (took false).
var itemAloneCases = []struct {
	yaml string
	took bool
}{
	{"items:\n  - id: A\n    status: open  # waiting on B\n  - id: B\n", true},
	{"items:\n  - id: A\n    notes: |\n      first\n\n      third\n    status: open\n  - id: B\n", true},
	{"items:\n  - id: A\n    notes: >-\n      folded\n      text\n  - id: B\n    status: done\n", true},
	{"items:\n  - id: A\n    title: \"a title\n      over two lines\"\n  - id: B\n", true},
	{"items:\n  - id: A\n    blocked_by: [\n      B, C]\n  - id: B\n", true},
	{"items:\n  - &a\n    id: A\n  - id: B\n", true},
	{"items:\n  - id: A\n    tags: &t [x, y]\n    also: *t\n  - id: B\n", true},
	{"items:\n  - id: A\n    tags: &t [x, y]\n  - id: B\n    tags: *t\n", true},
	// the alias past the run the anchor was read in: declined
	{"items:\n  - id: A\n    tags: &t [x, y]\n" + strings.Repeat("  - id: B # a comment that sends the item to yaml.Load\n", aloneRun/50) + "  - id: C\n    tags: *t\n", false},
	// a run cut at aloneRun, the next read the same way
	{"items:\n" + strings.Repeat("  - id: B # a comment that sends the item to yaml.Load\n    notes: |\n      text\n", aloneRun/40), true},
	{"items:\n  - id: A\n    # a comment inside\n    status: open\n  - id: B\n", true},
	{"items:\n  - id: A\n    status: open # c\n# at the left margin\n  - id: B\n", false},
	{"items:\n  - id: A # c\nother: x\n", true},
	{"items:\n  - id: A # c\n  - id: B # d\n  - id: C\n", true},
	{"items:\n  - id: A # c", true},
	{"items:\n  - id: A # c\r\n  - id: B\r\n", true},
	{"items:\n  - id: A # c\r  - id: B\n", false},
	{"items:\n  - id: A\n    notes: |\n\t x\n  - id: B\n", false},
	{"items:\n  - id: A\n    status: [open # c\n  - id: B\n", false},
	{"items:\n  - id: A\n    bad: : x # c\n  - id: B\n", false},
	{"items:\n  - id: A # c\n    id: B\n", true},
	{"items:\n  - id: A\n    status: open  # c\n\n\n  - id: B\n\n", true},
	// a block scalar kept with |+ holds the empty lines after it
	{"items:\n  - id: A\n    notes: |+\n      x\n\n\n  - id: B\n", true},
	{"items:\n  - id: A\n    notes: >+\n      x\n\n  # on B\n  - id: B\n", true},
	{"items:\n  # on A\n  - id: A # c\n  - id: B\n", true},
	{"items:\n- id: A # c\n- id: B\n", true},
	{"items:\n    - id: A # c\n      status: x\n    - id: B\n", true},
}

func TestWorkboardItemsAlone(t *testing.T) {
	for _, c := range itemAloneCases {
		if got := sameWorkboardAsLoad(t, []byte(c.yaml)); got != c.took {
			var n yaml.Node
			err := yaml.Load([]byte(c.yaml), &n)
			t.Errorf("took %q: %v, want %v (yaml.Load error: %v)", c.yaml, got, c.took, err)
		}
	}
}
