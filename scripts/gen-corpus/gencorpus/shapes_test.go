package gencorpus

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestShapes writes every shape small and checks what it promises: the
// files it should hold, the same bytes for the same seed, a refusal of an
// unknown shape.
func TestShapes(t *testing.T) {
	sizes := map[string]int{"adoption": 20, "findings": 5, "bigdoc": 1, "workboard": 250, "tiny": 30, "deeprefs": 12,
		"remains": 10, "items": 10, "manyids": 3, "longlines": 1, "nesting": 2, "mesh": 20, "chains": 1500, "distinct": 3, "fanin": 1500, "annotated": 250, "linkrefs": 40, "inlines": 30, "stairs": 100}
	want := map[string]func(files map[string]string) string{
		"adoption": func(files map[string]string) string {
			if n := countMD(files); n != 20 {
				return "want 20 documents"
			}
			if strings.Count(files["WORKBOARD.yaml"], "- id: ") != 20 {
				return "want a 20-item workboard"
			}
			for p, body := range files {
				if strings.HasSuffix(p, ".md") && !strings.Contains(body, "\n\n\n") {
					return p + ": no paragraphs separated by two blank lines"
				}
			}
			return ""
		},
		"findings": func(files map[string]string) string {
			if countMD(files) != 5 {
				return "want 5 documents"
			}
			return ""
		},
		"bigdoc": func(files map[string]string) string {
			if len(files[".sot/big/BIG-ISSUES.md"]) < 1<<20 {
				return "the big document is under 1 MB"
			}
			if !strings.HasPrefix(files["sotvet.yaml"], "max-file-size: ") {
				return "no sotvet.yaml raising max-file-size"
			}
			return ""
		},
		"workboard": func(files map[string]string) string {
			if strings.Count(files["WORKBOARD.yaml"], "- id: ") != 250 {
				return "want a 250-item workboard"
			}
			if !strings.HasPrefix(files["sotvet.yaml"], "max-file-size: ") {
				return "no sotvet.yaml raising max-file-size: a large workboard would go unread"
			}
			if countMD(files) != 3 {
				return "want one ISSUES document per 100 items"
			}
			return ""
		},
		"annotated": func(files map[string]string) string {
			wb := files["WORKBOARD.yaml"]
			if strings.Count(wb, "- id: ") != 250 || countMD(files) != 3 {
				return "want a 250-item workboard and one ISSUES document per 100 items"
			}
			if strings.Count(wb, "  # as of the last review\n") != 84 || strings.Count(wb, "    notes: |\n") != 50 {
				return "want a comment after every third item's status and notes in every fifth"
			}
			return ""
		},
		"tiny": func(files map[string]string) string {
			if countMD(files) != 30 {
				return "want 30 documents"
			}
			return ""
		},
		"deeprefs": func(files map[string]string) string {
			if countMD(files) != 12 || !strings.Contains(files[".sot/chain/CHAIN-00011-ISSUES.md"], "Blocked by: CHN-WORK-00010") {
				return "want a chain of 12 documents, each blocked by the one before"
			}
			return ""
		},
		"remains": func(files map[string]string) string {
			if strings.Count(files[".sot/one/REMAINS-ISSUES.md"], "remains blocked") != 10 {
				return "want 10 remains-blocked sentences"
			}
			return ""
		},
		"items": func(files map[string]string) string {
			if strings.Count(files["WORKBOARD.yaml"], "- id: ") != 10 || countMD(files) != 1 {
				return "want one document of 10 items and a 10-item workboard"
			}
			return ""
		},
		"manyids": func(files map[string]string) string { return wantMD(files, 3) },
		"stairs": func(files map[string]string) string {
			doc := files[".sot/stairs/STAIRS-PRD.md"]
			if countMD(files) != 1 || !strings.Contains(doc, strings.Repeat("  ", 62)+"- CTO-WORK-00062") || strings.Contains(doc, strings.Repeat("  ", 63)+"- ") {
				return "want one document of a list nested 63 deep"
			}
			return ""
		},
		"inlines": func(files map[string]string) string {
			if countMD(files) != 1 || !strings.Contains(files[".sot/inlines/INLINES-PRD.md"], strings.Repeat("*a_ ", 30)) {
				return "want one document of 30-unit paragraphs"
			}
			return ""
		},
		"linkrefs": func(files map[string]string) string {
			body := files[".sot/linkrefs/LINKREFS-PRD.md"]
			if countMD(files) != 1 || strings.Count(body, "\n[ref-") != 40 || strings.Count(body, "][ref-") != 40 {
				return "want one document of 40 definitions and 40 lines citing them"
			}
			return ""
		},
		"longlines": func(files map[string]string) string { return wantMD(files, 1) },
		"nesting":   func(files map[string]string) string { return wantMD(files, 2) },
		"mesh": func(files map[string]string) string {
			if msg := wantMD(files, 20); msg != "" {
				return msg
			}
			if strings.Count(files[".sot/mesh/MESH-00000-PRD.md"], "Depends on") != 10 {
				return "want ten links per document"
			}
			return ""
		},
		"fanin": func(files map[string]string) string {
			if msg := wantMD(files, 2); msg != "" {
				return msg
			}
			wb := files["WORKBOARD.yaml"]
			if strings.Count(wb, "- id: ") != 1501 || !strings.Contains(wb, "blocked_by: [FAN-WORK-000000, FAN-WORK-000001, ") {
				return "want 1,500 items and a roll-up blocked by all of them on one line"
			}
			return ""
		},
		"distinct": func(files map[string]string) string {
			if msg := wantMD(files, 3); msg != "" {
				return msg
			}
			seen := map[string]bool{}
			for p, body := range files {
				for _, id := range distinctIDs.FindAllString(body, -1) {
					if seen[id] {
						return p + " names " + id + ", which another line names"
					}
					seen[id] = true
				}
			}
			if len(seen) != 3*(1+200+20) {
				return fmt.Sprintf("want 663 distinct ids and paths, got %d", len(seen))
			}
			return ""
		},
		"chains": func(files map[string]string) string {
			if strings.Count(files["WORKBOARD.yaml"], "- id: ") != 1500 || countMD(files) != 2 {
				return "want a 1500-item workboard and two documents"
			}
			return ""
		},
	}
	for _, shape := range Shapes {
		t.Run(shape, func(t *testing.T) {
			a, b := t.TempDir(), t.TempDir()
			for _, dir := range []string{a, b} {
				if err := WriteShape(dir, shape, sizes[shape], 3, Options{}); err != nil {
					t.Fatal(err)
				}
			}
			fa, fb := readTree(t, a), readTree(t, b)
			if len(fa) != len(fb) {
				t.Fatalf("two runs wrote %d and %d files", len(fa), len(fb))
			}
			for p, body := range fa {
				if fb[p] != body {
					t.Fatalf("%s differs between two runs with one seed", p)
				}
			}
			if msg := want[shape](fa); msg != "" {
				t.Error(msg)
			}
		})
	}
	if err := WriteShape(t.TempDir(), "nonsense", 1, 1, Options{}); err == nil {
		t.Error("an unknown shape was accepted")
	}
}

func wantMD(files map[string]string, n int) string {
	if countMD(files) != n {
		return fmt.Sprintf("want %d documents, got %d", n, countMD(files))
	}
	return ""
}

func countMD(files map[string]string) int {
	n := 0
	for p := range files {
		if strings.HasSuffix(p, ".md") {
			n++
		}
	}
	return n
}

func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// distinctIDs are the ids the distinct shape must not repeat.
var distinctIDs = regexp.MustCompile(`CTO-WORK-[0-9]+|OLD-[0-9]+`)

// TestSweepHasEveryShape: scripts/sweep.sh has sizes for every shape and
// sweeps it by default (docs name "scripts/sweep.sh SHAPE" for the new
// ones; a shape without sizes there exits "unknown shape").
func TestSweepHasEveryShape(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "sweep.sh"))
	if err != nil {
		t.Fatal(err)
	}
	sweep := string(b)
	defaults := regexp.MustCompile(`\|\| shapes=\(([^)]*)\)`).FindStringSubmatch(sweep)
	if defaults == nil {
		t.Fatal("sweep.sh: no default shapes=(...) line")
	}
	for _, shape := range append([]string{"default"}, Shapes...) {
		if !regexp.MustCompile(`\[` + shape + `\]="[0-9 ]+"`).MatchString(sweep) {
			t.Errorf("sweep.sh has no sizes for %s", shape)
		}
		if !slices.Contains(strings.Fields(defaults[1]), shape) {
			t.Errorf("sweep.sh does not sweep %s by default", shape)
		}
	}
}
