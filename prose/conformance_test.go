package prose

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/svrnty/sotvet/internal/testcorpus"
)

// key is what conformance compares: where an alert is and which rule.
type key struct {
	File      string
	Line, Col int // Col counts runes, 1-based, as Vale's spans do
	Rule      string
}

func (k key) String() string { return fmt.Sprintf("%s:%d:%d\t%s", k.File, k.Line, k.Col, k.Rule) }

// lintTree runs the linter on every markdown file under root (every
// eighth under the race detector, the others left out of the comparison).
func lintTree(t testing.TB, l *Linter, root string) map[key]int {
	t.Helper()
	out := map[key]int{}
	n := 0
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && p != root && d.Name() != ".sot" {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".md") {
			return nil
		}
		n++
		if raceEnabled && n%8 != 0 {
			rel, _ := filepath.Rel(root, p)
			out[key{File: filepath.ToSlash(rel), Rule: "-skipped-"}] = 1
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		alerts, err := l.Lint(filepath.ToSlash(rel), src)
		if err != nil {
			return err
		}
		for _, a := range alerts {
			line, col := lineCol(src, a.Start)
			out[key{filepath.ToSlash(rel), line, col, a.Rule}]++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func lineCol(src []byte, off int) (int, int) {
	line := bytes.Count(src[:off], []byte("\n")) + 1
	start := bytes.LastIndexByte(src[:off], '\n') + 1
	return line, utf8.RuneCount(src[start:off]) + 1
}

// readExpected reads stored expectations: one key per line, as key.String
// writes them.
func readExpected(t testing.TB, name string) map[key]int {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	out := map[key]int{}
	sc := bufio.NewScanner(zr)
	for sc.Scan() {
		var k key
		parts := strings.Split(sc.Text(), "\t")
		if len(parts) != 2 {
			continue
		}
		loc := strings.Split(parts[0], ":")
		if len(loc) < 3 {
			continue
		}
		fmt.Sscan(loc[len(loc)-2], &k.Line)
		fmt.Sscan(loc[len(loc)-1], &k.Col)
		k.File = strings.Join(loc[:len(loc)-2], ":")
		k.Rule = parts[1]
		out[k]++
	}
	return out
}

// valeJSON reads `vale --output=JSON` into keys.
func valeJSON(t testing.TB, data []byte) map[key]int {
	t.Helper()
	var raw map[string][]struct {
		Check string
		Line  int
		Span  []int
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	out := map[key]int{}
	for file, alerts := range raw {
		for _, a := range alerts {
			out[key{filepath.ToSlash(strings.TrimPrefix(file, "./")), a.Line, a.Span[0], a.Check}]++
		}
	}
	return out
}

// agreement returns how many of want got has, and how many of got want has.
func agreement(want, got map[key]int) (inGot, inWant, nWant, nGot int) {
	for k, n := range want {
		nWant += n
		inGot += min(n, got[k])
	}
	for k, n := range got {
		nGot += n
		inWant += min(n, want[k])
	}
	return
}

func writeKeys(name string, m map[key]int) error {
	var lines []string
	for k, n := range m {
		for range n {
			lines = append(lines, k.String())
		}
	}
	sort.Strings(lines)
	return os.WriteFile(name, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
}

// TestValeLive compares the linter with a real Vale on a tree, when both
// are given: PROSE_VALE_TREE names a directory holding a .vale.ini.
func TestValeLive(t *testing.T) {
	root := os.Getenv("PROSE_VALE_TREE")
	if root == "" {
		t.Skip("PROSE_VALE_TREE not set: the live comparison with Vale runs from scripts/prose-conformance.sh")
	}
	if _, err := exec.LookPath("vale"); err != nil {
		t.Skip("vale is not installed")
	}
	cmd := exec.Command("vale", "--output=JSON", "--no-exit", ".")
	cmd.Dir = root
	data, err := cmd.Output()
	if err != nil {
		t.Fatalf("vale: %v", err)
	}
	want := valeJSON(t, data)
	cfgPath := filepath.Join(root, ".vale.ini")
	ini, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := ParseConfig(cfgPath, ini)
	if err != nil {
		t.Fatal(err)
	}
	got := lintTree(t, NewLinter(cfg), root)
	report(t, want, got)
	if out := os.Getenv("PROSE_VALE_STORE"); out != "" {
		if err := writeKeys(out, want); err != nil {
			t.Fatal(err)
		}
	}
}

func report(t *testing.T, want, got map[key]int) (recall, precision float64) {
	inGot, inWant, nWant, nGot := agreement(want, got)
	recall = float64(inGot) / float64(max(nWant, 1))
	precision = float64(inWant) / float64(max(nGot, 1))
	t.Logf("Vale alerts %d, found at the same place and rule %d (%.3f); prose alerts %d, Vale's %d (%.3f)",
		nWant, inGot, recall, nGot, inWant, precision)
	missed := map[string]int{}
	extra := map[string]int{}
	var missedKeys, extraKeys []string
	for k, n := range want {
		if d := n - got[k]; d > 0 {
			missed[k.Rule] += d
			missedKeys = append(missedKeys, k.String())
		}
	}
	for k, n := range got {
		if d := n - want[k]; d > 0 {
			extra[k.Rule] += d
			extraKeys = append(extraKeys, k.String())
		}
	}
	t.Logf("missed by rule: %v", missed)
	t.Logf("extra by rule: %v", extra)
	if os.Getenv("PROSE_VERBOSE") != "" {
		sort.Strings(missedKeys)
		sort.Strings(extraKeys)
		t.Logf("missed:\n%s", strings.Join(missedKeys, "\n"))
		t.Logf("extra:\n%s", strings.Join(extraKeys, "\n"))
	}
	return recall, precision
}

// storedStyles is a configuration with the four packages, for a tree.
func storedLinter(t *testing.T) *Linter {
	t.Helper()
	styles, err := filepath.Abs("../testdata/prose/styles")
	if err != nil {
		t.Fatal(err)
	}
	ini := "StylesPath = " + styles + "\nMinAlertLevel = suggestion\n\n[*.md]\nBasedOnStyles = Google, Microsoft, write-good, proselint\n"
	cfg, err := ParseConfig("stored.ini", []byte(ini))
	if err != nil {
		t.Fatal(err)
	}
	return NewLinter(cfg)
}

// TestValeStored holds the engine to where Vale v3.26.0 put its alerts:
// at least 95% of Vale's alerts at the same line, column and rule, and at
// least 95% of the engine's alerts Vale's, on the user's corpus and on
// Vale's own markdown fixtures.
func TestValeStored(t *testing.T) {
	for _, tc := range []struct{ name, tree string }{
		{"other", "../testdata/prose/other"},
		{"corpus", ""}, // the user's corpus, beside the checkout or SOTVET_CORPUS
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.tree == "" {
				tc.tree = testcorpus.Require(t) // skips, saying where it looked
			}
			want := readExpected(t, "../testdata/prose/vale/"+tc.name+".keys.gz")
			got := lintTree(t, storedLinter(t), tc.tree)
			// Files the run left out are left out of Vale's side too.
			for k := range got {
				if k.Rule == "-skipped-" {
					delete(got, k)
					for w := range want {
						if w.File == k.File {
							delete(want, w)
						}
					}
				}
			}
			recall, precision := report(t, want, got)
			if recall < 0.95 || precision < 0.95 {
				t.Errorf("%s: %.3f of Vale's alerts found, %.3f of the engine's are Vale's; want both >= 0.95", tc.name, recall, precision)
			}
		})
	}
}
