package phrases_test

import (
	"testing"

	"github.com/svrnty/sotvet/checks/checktest"
	"github.com/svrnty/sotvet/checks/phrases"
)

// TestCorpus runs the check over the real corpus (or $SOTVET_BENCH_CORPUS)
// and logs the findings.
func TestCorpus(t *testing.T) {
	checktest.LogFindings(t, checktest.Findings(t, checktest.BenchCorpusDir(t), phrases.Analyzer))
}

func BenchmarkCorpus(b *testing.B) {
	checktest.BenchRun(b, checktest.BenchCorpusDir(b), cpuTime, phrases.Analyzer)
}
