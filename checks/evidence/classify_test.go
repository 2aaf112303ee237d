package evidence

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/checks/checktest"
)

// TestClassifyOncePerPath: what a cited path is (a run's report, a run
// directory, nothing of a run) is found once per path a run, whatever
// the number of citations: a workspace of evidence journals cites a few
// dozen runs from tens of thousands of places, and each citation looked
// at the file system again (5% of a run's CPU on the hub shape). The
// findings are those of every citation.
func TestClassifyOncePerPath(t *testing.T) {
	dir := t.TempDir()
	runs := t.TempDir()
	files := map[string]string{"WORKBOARD.yaml": "items: []\n"}
	const docs, cites, paths = 5, 40, 4
	for d := range docs {
		var b strings.Builder
		b.WriteString("# Evidence\n\n")
		for i := range cites {
			fmt.Fprintf(&b, "## Run %d\n\n- Harness report: `%s/harness-runs/r%d/report.json`\n- Run: `%s/harness-runs/r%d`\n\n", i, runs, (d+i)%paths, runs, (d+i)%paths)
		}
		files[fmt.Sprintf(".sot/E%d-EVIDENCE.md", d)] = b.String()
	}
	checktest.WriteFiles(t, dir, files)
	n := 0
	stat = func(p string) (os.FileInfo, error) { n++; return os.Stat(p) }
	defer func() { stat = os.Stat }()
	checktest.SetFlag(t, Analyzer, "report-missing", "true")
	fs := checktest.Findings(t, dir, Analyzer)
	if n > 3*2*paths {
		t.Errorf("%d stats for %d citations of %d paths, want at most %d", n, 2*docs*cites, 2*paths, 3*2*paths)
	}
	// Each document reports each missing run once (its first citation).
	if len(fs) != docs*paths {
		checktest.LogFindings(t, fs)
		t.Errorf("%d findings, want %d", len(fs), docs*paths)
	}
}
