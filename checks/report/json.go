package report

import (
	"bufio"
	"slices"

	"github.com/svrnty/sotvet/checks"
)

// The JSON report is {"ok", "checked", "errors", "summary"}: writeJSON
// writes it member by member (see DESIGN.md, "Contracts users depend on").

// writeJSON writes the report as encoding/json would encode a jsonReport
// (indented, keys in field order, by_check sorted), a finding at a time.
func writeJSON(w *bufio.Writer, res *checks.Result, opt Options) error {
	errs, warns := counts(res)
	byCheck := map[string]int{}
	for i := range res.Findings {
		byCheck[res.Findings[i].Check]++
	}
	j := newJSONWriter(w)
	j.open('{')
	j.key("ok")
	j.bool(ok(res, opt))
	j.key("checked")
	j.open('[')
	for _, c := range res.Checked {
		j.elem()
		j.str(c)
	}
	j.close(']')
	j.key("errors")
	j.open('[')
	for i := range res.Findings {
		f := &res.Findings[i]
		j.elem()
		j.open('{')
		j.key("check")
		j.str(f.Check)
		if f.Category != "" {
			j.key("category")
			j.str(f.Category)
		}
		j.key("severity")
		j.str(string(severity(f)))
		j.key("file")
		j.str(f.File)
		j.key("line")
		j.int(f.Line)
		j.key("col")
		j.int(f.Col)
		j.key("end_line")
		j.int(f.EndLine)
		j.key("end_col")
		j.int(f.EndCol)
		j.key("message")
		j.str(f.Message)
		j.key("fingerprint")
		j.str(f.Fingerprint)
		if len(f.Related) > 0 {
			j.key("related")
			j.open('[')
			for _, r := range f.Related {
				j.elem()
				j.open('{')
				j.key("file")
				j.str(r.File)
				j.key("line")
				j.int(r.Line)
				j.key("col")
				j.int(r.Col)
				j.key("message")
				j.str(r.Message)
				j.close('}')
			}
			j.close(']')
		}
		j.close('}')
	}
	j.close(']')
	j.key("summary")
	j.open('{')
	j.key("files")
	j.int(res.Files)
	j.key("findings")
	j.int(len(res.Findings))
	j.key("errors")
	j.int(errs)
	j.key("warnings")
	j.int(warns)
	j.key("by_check")
	j.open('{')
	names := make([]string, 0, len(byCheck))
	for c := range byCheck {
		names = append(names, c)
	}
	slices.Sort(names)
	for _, c := range names {
		j.key(c)
		j.int(byCheck[c])
	}
	j.close('}')
	j.close('}')
	j.close('}')
	j.b = append(j.b, '\n')
	j.flush()
	return nil
}
