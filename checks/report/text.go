package report

import (
	"bytes"

	"github.com/svrnty/sotvet/checks"
)

// writeText writes one line per finding and nothing else. Messages are
// written verbatim.
func writeText(buf *bytes.Buffer, res *checks.Result) {
	for i := range res.Findings {
		buf.WriteString(textLine(&res.Findings[i]))
		buf.WriteByte('\n')
	}
}
