package report

import (
	"bytes"

	"github.com/svrnty/sotvet/checks"
)

// writeText writes one line per finding and nothing else: line breaks in
// a message are escaped, and a file name with control characters quoted.
func writeText(buf *bytes.Buffer, res *checks.Result) {
	for i := range res.Findings {
		buf.WriteString(textLine(&res.Findings[i]))
		buf.WriteByte('\n')
	}
}
