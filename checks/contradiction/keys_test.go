package contradiction

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPrerequisiteKeysImplied: every line prerequisiteWord matches passes
// mayNamePrerequisite, so the plain test spares the expression only lines
// it could not match: the lines of the paraphrase sets and of the corpus,
// and random sentences over the expression's own words.
func TestPrerequisiteKeysImplied(t *testing.T) {
	var lines []string
	files, _ := filepath.Glob("testdata/paraphrase/*.txtar")
	corpus, _ := filepath.Glob("../../../shared/corpus/cto-planb/.sot/*/*.md")
	for _, f := range append(files, corpus...) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, strings.Split(string(b), "\n")...)
	}
	words := []string{"Readiness", "prerequisite", "prerequisites", "must", "exist", "be", "done", "before", "Needed", "first", "needs",
		"need", "requires", "depends", "on", "cannot", "can't", "can", "not", "may", "start", "begin", "PROCEED", "run", "execute",
		"until", "the", "item", "CTO-WORK-001", "`x`", ".", ";", "\u017f", "K"}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		n := 1 + rng.IntN(8)
		parts := make([]string, n)
		for i := range parts {
			parts[i] = words[rng.IntN(len(words))]
		}
		lines = append(lines, strings.Join(parts, " "))
	}
	matched := 0
	for _, l := range lines {
		if prerequisiteWord.MatchString(l) {
			matched++
			if !mayNamePrerequisite(lineKeys.Mask(l)) {
				t.Errorf("prerequisiteWord matches %q; mayNamePrerequisite says no", l)
			}
		}
	}
	if matched < 100 {
		t.Fatalf("only %d lines match: the test reads too little", matched)
	}
}
