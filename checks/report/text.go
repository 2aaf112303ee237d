package report

import (
	"bytes"
	"fmt"

	"github.com/svrnty/sotvet/checks"
)

// writeText writes one line per finding, followed by one "note" line per
// related location, and nothing else. Messages are written verbatim.
func writeText(buf *bytes.Buffer, res *checks.Result) {
	for i := range res.Findings {
		buf.WriteString(textLine(&res.Findings[i]))
		buf.WriteByte('\n')
		for _, r := range res.Findings[i].Related {
			fmt.Fprintf(buf, "%s:%d:%d: note: %s\n", r.File, r.Line, r.Col, r.Message)
		}
	}
}
