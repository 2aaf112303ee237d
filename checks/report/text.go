package report

import (
	"bufio"
	"fmt"

	"github.com/svrnty/sotvet/checks"
)

// writeText writes one line per finding, followed by one "note" line per
// related location, and nothing else: line breaks in a message are
// escaped, and a file name with control characters quoted.
func writeText(buf *bufio.Writer, res *checks.Result) {
	var line []byte
	for i := range res.Findings {
		line = appendTextLine(line[:0], &res.Findings[i], res.Findings[i].Message)
		line = append(line, '\n')
		buf.Write(line)
		for _, r := range res.Findings[i].Related {
			fmt.Fprintf(buf, "%s:%d:%d: note: %s\n", quotePath(r.File), r.Line, r.Col, lineBreaks.Replace(r.Message))
		}
	}
}
