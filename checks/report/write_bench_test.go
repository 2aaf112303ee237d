package report

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/internal/cputime"
)

// adoptShaped is a Result shaped like a first adoption on a large legacy
// workspace: many files, a few findings each, most of them warnings of one
// category, one error per file.
func adoptShaped(files, perFile int) (*checks.Result, Options) {
	res := &checks.Result{Checked: []string{"hygiene", "structure"}, Files: files}
	for i := range files {
		file := fmt.Sprintf(".sot/legacy/%03d/LEGACY-%05d-ISSUES.md", i/100, i)
		res.Findings = append(res.Findings, checks.Finding{Check: "structure", Category: "item-acceptance", Severity: checks.SeverityError, File: file, Line: 18, Col: 1, EndLine: 18, EndCol: 41,
			Message: fmt.Sprintf("CTO-WORK-%05d has no acceptance criteria: no task boxes and no \"Acceptance:\" list", i), Fingerprint: fmt.Sprintf("%016x:1", i)})
		for k := range perFile - 1 {
			res.Findings = append(res.Findings, checks.Finding{Check: "hygiene", Category: "blank-lines", Severity: checks.SeverityWarning, File: file, Line: 45 + 3*k, Col: 1, EndLine: 45 + 3*k, EndCol: 1,
				Message: "2 consecutive blank lines; one is enough (MD012)", Fingerprint: fmt.Sprintf("a5edac1c980658be:%d", k+1)})
		}
	}
	doc := strings.Repeat("A check's documentation, a few paragraphs long. ", 40)
	opt := Options{Tool: "sotvet", Version: "devel", SrcRoot: "/tmp/adopt", Rules: []Rule{
		{Name: "hygiene", Short: "Reports untidy Markdown.", Doc: doc, Categories: []string{"blank-lines", "trailing-space", "tabs"}, Warning: map[string]bool{"blank-lines": true, "trailing-space": true}},
		{Name: "structure", Short: "Checks the structure of issues.", Doc: doc, Categories: []string{"item-acceptance", "heading"}},
	}}
	return res, opt
}

// BenchmarkWrite measures the writers alone on 70,000 findings.
func BenchmarkWrite(b *testing.B) {
	res, opt := adoptShaped(10000, 7)
	for _, format := range Formats {
		b.Run(format, func(b *testing.B) {
			b.ReportAllocs()
			start := cputime.Process()
			for b.Loop() {
				if err := Write(io.Discard, format, res, opt); err != nil {
					b.Fatal(err)
				}
			}
			// CPU time, not wall time: the machine it runs on is shared.
			b.ReportMetric(float64((cputime.Process()-start).Nanoseconds())/float64(b.N*len(res.Findings)), "cpu-ns/finding")
		})
	}
}
