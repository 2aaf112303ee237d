package report

import (
	"bufio"
	"fmt"

	"github.com/svrnty/sotvet/checks"
)

// defaultMaxAnnotations is how many annotations of each severity GitHub
// shows for one step.
const defaultMaxAnnotations = 10

// writeGitHub writes GitHub Actions workflow commands: the first
// MaxAnnotations findings of each severity as ::error or ::warning
// annotations, the rest as plain lines so the log keeps them all, then a
// summary line when there are findings.
//
// Every finding takes exactly one line: messages are escaped as workflow
// command data in plain lines too, so no message can start a line of its own
// that the runner would read as a command.
func writeGitHub(buf *bufio.Writer, res *checks.Result, opt Options) {
	limit := opt.MaxAnnotations
	if limit <= 0 {
		limit = defaultMaxAnnotations
	}
	var shownErrors, shownWarnings, hidden int
	var b []byte
	var paths quotedPaths
	for i := range res.Findings {
		f := &res.Findings[i]
		sev := severity(f)
		if sev == checks.SeverityNote {
			sev = "notice" // the runner's name for a note
		}
		shown := &shownErrors
		if sev != checks.SeverityError {
			shown = &shownWarnings
		}
		if *shown < limit {
			*shown++
			b = appendAnnotation(b, f, sev, opt.Tool)
			continue
		}
		hidden++
		start := len(b)
		b = appendTextLine(b, paths.of(f.File), f, "")
		b = appendEscaped(b, f.Message, &dataEscapes)
		if b[start] == ':' && len(b) > start+1 && b[start+1] == ':' {
			// A path starting with "::" must not read as a command.
			b = append(b[:start], append([]byte("./"), b[start:]...)...)
		}
		b = append(b, '\n')
		if len(b) > 32<<10 {
			buf.Write(b)
			b = b[:0]
		}
	}
	buf.Write(b)
	n := len(res.Findings)
	if n == 0 {
		return
	}
	errs, warns := counts(res)
	fmt.Fprintf(buf, "%s: %d findings (%d errors, %d warnings)", opt.Tool, n, errs, warns)
	if hidden > 0 {
		fmt.Fprintf(buf, "; %d not shown as annotations", hidden)
	}
	buf.WriteByte('\n')
	if note := omittedNote(res, opt); note != "" {
		level := "notice"
		if omittedFail(res, opt.FailOn) {
			level = "error"
		}
		b = appendEscaped(b[:0], note, &dataEscapes)
		fmt.Fprintf(buf, "::%s title=%s::%s\n", level, opt.Tool, b)
	}
}

// appendAnnotation appends
// "::error file=PATH,line=L,col=C,endLine=EL,endColumn=EC,title=TOOL CHECK/CATEGORY::MESSAGE\n",
// without col and endColumn when the finding spans lines.
// A finding without a file gets no position properties.
func appendAnnotation(b []byte, f *checks.Finding, sev checks.Severity, tool string) []byte {
	b = append(b, "::"...)
	b = append(b, sev...)
	b = append(b, ' ')
	if f.File != "" {
		rg := regionOf(f)
		b = append(b, "file="...)
		b = appendEscaped(b, f.File, &propertyEscapes)
		b = appendJSONInt(b, ",", "line=", rg.startLine)
		// The runner drops col and endColumn on an annotation spanning lines.
		if rg.startLine == rg.endLine {
			b = appendJSONInt(b, ",", "col=", rg.startCol)
		}
		b = appendJSONInt(b, ",", "endLine=", rg.endLine)
		if rg.startLine == rg.endLine {
			b = appendJSONInt(b, ",", "endColumn=", rg.endCol)
		}
		b = append(b, ',')
	}
	b = append(b, "title="...)
	b = appendEscaped(b, tool, &propertyEscapes)
	b = appendEscaped(b, " ", &propertyEscapes)
	b = appendEscaped(b, f.Code(), &propertyEscapes)
	b = append(b, "::"...)
	b = appendEscaped(b, f.Message, &dataEscapes)
	return append(b, '\n')
}

// escapes maps the bytes a workflow command escapes to their escapes.
type escapes [256]string

// Workflow command data escapes '%' and line breaks; a property also ':' and ','.
// The other control bytes but a tab are written as the runner writes '%'
// (which it does not decode, so they show as "%1B"): a file's name or a
// quoted line must not move the log's cursor or recolour its text.
var dataEscapes, propertyEscapes = func() (data, prop escapes) {
	for c := range 0x20 {
		data[c] = fmt.Sprintf("%%%02X", c)
	}
	data['\t'], data[0x7f] = "", "%7F"
	data['%'], data['\r'], data['\n'] = "%25", "%0D", "%0A"
	prop = data
	prop[':'], prop[','] = "%3A", "%2C"
	return data, prop
}()

// appendEscaped appends s with each byte that has an escape in e replaced
// by it.
func appendEscaped(b []byte, s string, e *escapes) []byte {
	last := 0
	for i := 0; i < len(s); i++ {
		if esc := e[s[i]]; esc != "" {
			b = append(b, s[last:i]...)
			b = append(b, esc...)
			last = i + 1
		}
	}
	return append(b, s[last:]...)
}
