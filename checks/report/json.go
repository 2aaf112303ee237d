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
	fw := newFindingJSON(len(j.count))
	for i := range res.Findings {
		j.elem()
		j.b = fw.append(j.b, &res.Findings[i])
		if len(j.b) > 32<<10 {
			j.flush()
		}
	}
	j.count[len(j.count)-1] = len(res.Findings)
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
	if res.Omitted.Total > 0 {
		// Beyond the caps: counted, not listed.
		j.key("omitted")
		if err := j.value(res.Omitted); err != nil {
			return err
		}
		j.key("omitted_note")
		j.str(omittedNote(res, opt))
	}
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

// findingJSON writes a finding of the report's "errors" as jsonWriter
// would, member by member, but with the keys and indentation appended as
// they are: a report has tens of thousands of findings.
type findingJSON struct {
	in1, in2, in3, in4 string // a newline and the indentation 1, 2, 3, 4 levels below the finding
	sep1, sep3         string // "," before in1, in3
	close0             string // the newline and indentation before the finding's '}'
}

// newFindingJSON prepares to write findings as the elements of an array
// at depth d (the number of objects and arrays open).
func newFindingJSON(d int) findingJSON {
	return findingJSON{
		in1: indent(d + 1), in2: indent(d + 2), in3: indent(d + 3), in4: indent(d + 4),
		sep1: "," + indent(d+1), sep3: "," + indent(d+3),
		close0: indent(d),
	}
}

func (w *findingJSON) append(b []byte, f *checks.Finding) []byte {
	b = append(b, '{')
	b = append(b, w.in1...)
	b = append(b, `"check": `...)
	b = appendJSONString(b, f.Check)
	if f.Category != "" {
		b = append(b, w.sep1...)
		b = append(b, `"category": `...)
		b = appendJSONString(b, f.Category)
	}
	b = append(b, w.sep1...)
	b = append(b, `"code": `...)
	b = appendJSONString(b, f.Code())
	b = append(b, w.sep1...)
	if sev := severity(f); sev != checks.SeverityError {
		b = append(b, `"severity": "`...)
		b = append(b, sev...)
		b = append(b, '"')
	} else {
		b = append(b, `"severity": "error"`...)
	}
	b = append(b, w.sep1...)
	b = append(b, `"file": `...)
	b = appendJSONString(b, f.File)
	b = appendJSONInt(b, w.sep1, `"line": `, f.Line)
	b = appendJSONInt(b, w.sep1, `"col": `, f.Col)
	b = appendJSONInt(b, w.sep1, `"end_line": `, f.EndLine)
	b = appendJSONInt(b, w.sep1, `"end_col": `, f.EndCol)
	b = append(b, w.sep1...)
	b = append(b, `"message": `...)
	b = appendJSONString(b, f.Message)
	b = append(b, w.sep1...)
	b = append(b, `"fingerprint": `...)
	b = appendJSONString(b, f.Fingerprint)
	if len(f.Related) > 0 {
		b = append(b, w.sep1...)
		b = append(b, `"related": [`...)
		for k, r := range f.Related {
			if k > 0 {
				b = append(b, ',')
			}
			b = append(b, w.in2...)
			b = append(b, '{')
			b = append(b, w.in3...)
			b = append(b, `"file": `...)
			b = appendJSONString(b, r.File)
			b = appendJSONInt(b, w.sep3, `"line": `, r.Line)
			b = appendJSONInt(b, w.sep3, `"col": `, r.Col)
			b = append(b, w.sep3...)
			b = append(b, `"message": `...)
			b = appendJSONString(b, r.Message)
			b = append(b, w.in2...)
			b = append(b, '}')
		}
		b = append(b, w.in1...)
		b = append(b, ']')
	}
	b = append(b, w.close0...)
	return append(b, '}')
}
