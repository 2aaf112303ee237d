package contradiction

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks/checktest"
)

// TestProvenanceReadsCitesOncePerDoc: the provenance rule reads what a
// document cites and the records it links once per document, not once per
// fact giving an approval source: an evidence journal gives one in each of
// its dozens of sections and cites a report and a proof in each, and each
// fact collected and sorted every citation again (5% of a run's CPU on the
// hub shape). The findings are still one per fact that differs.
func TestProvenanceReadsCitesOncePerDoc(t *testing.T) {
	dir := t.TempDir()
	var ev strings.Builder
	ev.WriteString("# Evidence\n\n- Record: `.sot/REC.json`\n\n")
	const sections = 30
	for i := range sections {
		fmt.Fprintf(&ev, "## Run %d\n\n- Harness report: `/runs/harness-runs/r%d/report.json`\n- Stage 5 proof: `/runs/harness-runs/r%d/stage5-owned-repo-proof.json`\n- approval_source: JP chat approval on 2026-06-%02d\n\n", i, i%4, i%4, 1+i%9)
	}
	checktest.WriteFiles(t, dir, map[string]string{
		"WORKBOARD.yaml":     "items: []\n",
		".sot/A-EVIDENCE.md": ev.String(),
		".sot/REC.json":      "{\"approval_source\": \"JP chat approval on 2026-06-01\", \"status\": \"admitted\"}\n",
	})
	before := provenanceReads.Load()
	res, _ := checktest.Result(t, dir, []*analysis.Analyzer{Analyzer}...)
	if n := provenanceReads.Load() - before; n != 1 {
		t.Errorf("the citations of 1 document read %d times for its %d facts, want once", n, sections)
	}
	n := 0
	for _, f := range res.Findings {
		if f.Category == "provenance" {
			n++
		}
	}
	// Every fact dated other than the record's 2026-06-01.
	if want := sections - (sections+8)/9; n != want {
		t.Errorf("%d provenance findings, want %d", n, want)
	}
}
