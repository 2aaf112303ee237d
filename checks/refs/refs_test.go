package refs_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/checks/checktest"
	"github.com/svrnty/sotvet/checks/refs"
)

// TestCorpus runs the check over the reconstructed cto-planb workspace and
// logs what it finds.
func TestCorpus(t *testing.T) {
	dir := checktest.CorpusDir(t)
	if _, err := os.Stat(filepath.Join(dir, "WORKBOARD.yaml")); err != nil {
		t.Skip("corpus not present:", err)
	}
	checktest.LogFindings(t, checktest.Findings(t, dir, refs.Analyzer))
}

func TestClean(t *testing.T) { checktest.Run(t, "testdata/clean", refs.Analyzer) }

func TestPaths(t *testing.T)                  { checktest.Run(t, "testdata/paths", refs.Analyzer) }
func TestSource(t *testing.T)                 { checktest.Run(t, "testdata/source", refs.Analyzer) }
func TestIDs(t *testing.T)                    { checktest.Run(t, "testdata/ids", refs.Analyzer) }
func TestNoWorkboard(t *testing.T)            { checktest.Run(t, "testdata/nowb", refs.Analyzer) }
func TestBadWorkboard(t *testing.T)           { checktest.Run(t, "testdata/badwb", refs.Analyzer) }
func TestPartialWorkboard(t *testing.T)       { checktest.Run(t, "testdata/partialwb", refs.Analyzer) }
func TestDefinitions(t *testing.T)            { checktest.Run(t, "testdata/defs", refs.Analyzer) }
func TestDefinitionsNoWorkboard(t *testing.T) { checktest.Run(t, "testdata/defs-nowb", refs.Analyzer) }

func TestIDsDespiteWorkboardFinding(t *testing.T) {
	checktest.Run(t, "testdata/ids-extrakey", refs.Analyzer)
}

func TestDoc(t *testing.T) {
	if !strings.HasPrefix(refs.Analyzer.Doc, "refs: check ") {
		t.Errorf("Doc does not start with the summary: %q", refs.Analyzer.Doc)
	}
}
