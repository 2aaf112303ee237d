package report

import (
	"bytes"
	"encoding/json"

	"github.com/svrnty/sotvet/checks"
)

type jsonReport struct {
	OK      bool          `json:"ok"`
	Checked []string      `json:"checked"`
	Errors  []jsonFinding `json:"errors"` // all findings, errors and warnings
	Summary jsonSummary   `json:"summary"`
}

type jsonFinding struct {
	Check       string `json:"check"`
	Category    string `json:"category,omitempty"` // the sub-rule: what severity: in sotvet.yaml can name as check/category
	Severity    string `json:"severity"`
	File        string `json:"file"`
	Line        int    `json:"line"`
	Col         int    `json:"col"`
	EndLine     int    `json:"end_line"`
	EndCol      int    `json:"end_col"`
	Message     string `json:"message"`
	Fingerprint string `json:"fingerprint"`

	Related []checks.Related `json:"related,omitempty"`
}

type jsonSummary struct {
	Files    int            `json:"files"`
	Findings int            `json:"findings"`
	Errors   int            `json:"errors"`
	Warnings int            `json:"warnings"`
	ByCheck  map[string]int `json:"by_check"` // findings per check; encoding/json sorts the keys
}

func writeJSON(buf *bytes.Buffer, res *checks.Result, opt Options) error {
	r := jsonReport{
		OK:      ok(res, opt),
		Checked: append([]string{}, res.Checked...),
		Errors:  make([]jsonFinding, 0, len(res.Findings)),
		Summary: jsonSummary{
			Files:    res.Files,
			Findings: len(res.Findings),
			ByCheck:  map[string]int{},
		},
	}
	r.Summary.Errors, r.Summary.Warnings = counts(res)
	for i := range res.Findings {
		f := &res.Findings[i]
		r.Errors = append(r.Errors, jsonFinding{
			Check:       f.Check,
			Category:    f.Category,
			Severity:    string(severity(f)),
			File:        f.File,
			Line:        f.Line,
			Col:         f.Col,
			EndLine:     f.EndLine,
			EndCol:      f.EndCol,
			Message:     f.Message,
			Fingerprint: f.Fingerprint,
			Related:     f.Related,
		})
		r.Summary.ByCheck[f.Check]++
	}
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(r) // Encode ends with a newline
}
