package report

import (
	"bufio"
	"strconv"

	"github.com/svrnty/sotvet/checks"
)

// writeText writes one line per finding, followed by one "note" line per
// related location, and nothing else: line breaks in a message are
// escaped, and a file name with control characters quoted.
func writeText(buf *bufio.Writer, res *checks.Result) {
	var b []byte
	var paths quotedPaths
	for i := range res.Findings {
		f := &res.Findings[i]
		b = appendTextLine(b, paths.of(f.File), f, f.Message)
		b = append(b, '\n')
		for _, r := range f.Related {
			b = append(b, quotePath(r.File)...)
			b = append(b, ':')
			b = strconv.AppendInt(b, int64(r.Line), 10)
			b = append(b, ':')
			b = strconv.AppendInt(b, int64(r.Col), 10)
			b = append(b, ": note: "...)
			b = appendLineBreaksEscaped(b, r.Message)
			b = append(b, '\n')
		}
		if len(b) > 32<<10 {
			buf.Write(b)
			b = b[:0]
		}
	}
	buf.Write(b)
}
