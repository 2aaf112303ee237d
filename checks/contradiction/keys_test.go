package contradiction

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/checks/internal/keywords"
)

// TestPrerequisiteKeysImplied: every line prerequisiteWord matches passes
// mayNamePrerequisite, and every line roleWord matches holds roleKeys, so
// the plain tests spare the expressions only lines they could not match:
// the lines of the paraphrase sets and of the corpus, and random sentences
// over the expressions' own words.
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
		"until", "the", "item", "Primary", "default", "fallback", "fall", "falls", "falling", "fell", "back", "BACKUP", "secondary", "CTO-WORK-001", "`x`", ".", ";", "\u017f", "K"}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		n := 1 + rng.IntN(8)
		parts := make([]string, n)
		for i := range parts {
			parts[i] = words[rng.IntN(len(words))]
		}
		lines = append(lines, strings.Join(parts, " "))
	}
	matched, roles := 0, 0
	for _, l := range lines {
		if roleWord.MatchString(l) {
			roles++
			if lineKeys.Mask(l)&(roleKeys|keywords.NonASCII) == 0 {
				t.Errorf("roleWord matches %q; roleKeys say no", l)
			}
		}
		if prerequisiteWord.MatchString(l) {
			matched++
			if !mayNamePrerequisite(lineKeys.Mask(l)) {
				t.Errorf("prerequisiteWord matches %q; mayNamePrerequisite says no", l)
			}
		}
	}
	if matched < 100 || roles < 100 {
		t.Fatalf("only %d and %d lines match: the test reads too little", matched, roles)
	}
}
