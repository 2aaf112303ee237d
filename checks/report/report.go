// Package report renders a [checks.Result] in the output formats sotvet
// offers: plain text, JSON, SARIF 2.1.0, GitHub Actions workflow commands and
// JUnit XML.
//
// The package knows nothing about how findings are produced; its output
// depends only on the Result and the Options it is given. Findings are
// written in the order the Result holds them.
package report

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/internal/quotepath"
)

// Rule describes one check for formats that carry rule metadata (SARIF, JUnit).
type Rule struct {
	Name  string // check name, e.g. "frontmatter"
	Short string // one-line description (first sentence of the Doc)
	Doc   string // full documentation text
	URL   string // optional help URL
	// Categories are the check's sub-rules: SARIF gives each its own rule,
	// "check/category".
	Categories []string
	// Warning lists the categories whose findings are warnings unless
	// configured otherwise (SARIF's defaultConfiguration).
	Warning map[string]bool
}

// Options control rendering.
type Options struct {
	FailOn         checks.Severity // findings at or above this rank make ok=false (default error)
	Rules          []Rule          // all checks that ran (plus the pseudo-check "suppression" and "syntax" if the caller passes them)
	Tool           string          // "sotvet"
	Version        string          // tool version, e.g. "v0.1.0" or "devel"
	Elapsed        time.Duration   // junit: how long the run took (the root element's time)
	SrcRoot        string          // sarif: the absolute directory finding paths are relative to (originalUriBaseIds)
	MaxAnnotations int             // github format: annotations printed before summarising (0 => 10 per severity, as GitHub shows per step)
	// MaxPerFile and MaxFindings are the caps the result was cut to
	// (checks.Result.Cap), for the note on what they left out.
	MaxPerFile, MaxFindings int
}

// Formats lists the accepted values of Write's format argument.
var Formats = []string{"text", "json", "sarif", "github", "junit"}

// Write renders res in the named format to w. An unknown format is an error;
// so is a failure to write. A nil res is treated as an empty Result.
func Write(w io.Writer, format string, res *checks.Result, opt Options) error {
	if res == nil {
		res = &checks.Result{}
	}
	if opt.Tool == "" {
		opt.Tool = "sotvet"
	}
	if !slices.Contains(Formats, format) {
		return fmt.Errorf("report: unknown format %q (want one of %s)", format, strings.Join(Formats, ", "))
	}
	// The report is streamed: a run of many findings is not held twice,
	// as findings and as its encoding.
	buf := bufio.NewWriterSize(w, 64<<10)
	var err error
	switch format {
	case "text":
		writeText(buf, res)
		if note := omittedNote(res, opt); note != "" {
			fmt.Fprintf(buf, "%s: %s\n", opt.Tool, note)
		}
	case "json":
		err = writeJSON(buf, res, opt)
	case "sarif":
		err = writeSARIF(buf, res, opt)
	case "github":
		writeGitHub(buf, res, opt)
	case "junit":
		err = writeJUnit(buf, res, opt)
	}
	if err != nil {
		return fmt.Errorf("report: %s: %w", format, err)
	}
	return buf.Flush()
}

// severity normalises a finding's severity: anything but a warning or a
// note is reported as an error.
func severity(f *checks.Finding) checks.Severity {
	if f.Severity == checks.SeverityWarning || f.Severity == checks.SeverityNote {
		return f.Severity
	}
	return checks.SeverityError
}

// ok reports whether no finding, kept or omitted, reaches opt.FailOn
// (default error).
func ok(res *checks.Result, opt Options) bool {
	for i := range res.Findings {
		if fails(&res.Findings[i], opt.FailOn) {
			return false
		}
	}
	return !omittedFail(res, opt.FailOn)
}

// omittedFail reports whether a finding beyond the caps reaches failOn.
func omittedFail(res *checks.Result, failOn checks.Severity) bool {
	for s, n := range res.Omitted.BySeverity {
		f := checks.Finding{Severity: s}
		if n > 0 && fails(&f, failOn) {
			return true
		}
	}
	return false
}

// omittedNote says how many findings the caps left out, "" when none: every
// format carries it, so a capped report is never read as complete.
func omittedNote(res *checks.Result, opt Options) string {
	o := res.Omitted
	if o.Total == 0 {
		return ""
	}
	var parts []string
	if n := o.BySeverity[checks.SeverityError]; n > 0 {
		parts = append(parts, plural(n, "error", "errors"))
	}
	if n := o.BySeverity[checks.SeverityWarning]; n > 0 {
		parts = append(parts, plural(n, "warning", "warnings"))
	}
	what := ""
	if len(parts) > 0 {
		what = " (" + strings.Join(parts, ", ") + ")"
	}
	where := ""
	if files := slices.Sorted(maps.Keys(o.ByFile)); len(files) > 0 {
		where = fmt.Sprintf(" in %s (%s", plural(len(files), "file", "files"), quotepath.Path(files[0]))
		if len(files) > 1 {
			where += ", ..."
		}
		where += ")"
	}
	caps := "the report is capped"
	if opt.MaxPerFile > 0 || opt.MaxFindings > 0 {
		caps = fmt.Sprintf("the report keeps %s", capText(opt.MaxPerFile, opt.MaxFindings))
	}
	return fmt.Sprintf("%d more %s%s not shown%s: %s; they still count for the exit code (raise --max-findings-per-file or --max-findings; 0 is no cap)",
		o.Total, map[bool]string{true: "finding", false: "findings"}[o.Total == 1], what, where, caps)
}

func capText(perFile, perRun int) string {
	var parts []string
	if perFile > 0 {
		parts = append(parts, fmt.Sprintf("the first %d findings of each file", perFile))
	}
	if perRun > 0 {
		parts = append(parts, fmt.Sprintf("%d in all", perRun))
	}
	return strings.Join(parts, " and ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// fails reports whether f reaches failOn (default error): whether it makes
// the run fail.
func fails(f *checks.Finding, failOn checks.Severity) bool {
	fail := failOn.Rank()
	if fail == 0 {
		fail = checks.SeverityError.Rank()
	}
	return severity(f).Rank() >= fail
}

// counts returns the number of error and warning findings.
func counts(res *checks.Result) (errs, warns int) {
	for i := range res.Findings {
		if severity(&res.Findings[i]) != checks.SeverityError {
			warns++
		} else {
			errs++
		}
	}
	return errs, warns
}

// appendTextLine appends the plain one-line form of a finding, without a
// newline: "path:line:col: SEVERITY [check/category] message", as ruff and
// golangci-lint show a rule's code; qfile is the finding's file as
// quotePath quotes it.
func appendTextLine(b []byte, qfile string, f *checks.Finding, msg string) []byte {
	b = append(b, qfile...)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(f.Line), 10)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(f.Col), 10)
	b = append(b, ": "...)
	b = append(b, severity(f)...)
	b = append(b, " ["...)
	b = append(b, f.Check...)
	if f.Category != "" {
		b = append(b, '/')
		b = append(b, f.Category...)
	}
	b = append(b, "] "...)
	return appendLineBreaksEscaped(b, msg)
}

// appendLineBreaksEscaped appends msg with its line breaks escaped, as
// lineBreaks replaces them.
func appendLineBreaksEscaped(b []byte, msg string) []byte {
	if strings.IndexByte(msg, '\n') < 0 && strings.IndexByte(msg, '\r') < 0 {
		return append(b, msg...)
	}
	return append(b, lineBreaks.Replace(msg)...)
}

// quotedPaths remembers the quoted form of the last file: findings come by
// file.
type quotedPaths struct{ file, quoted string }

func (q *quotedPaths) of(file string) string {
	if file != q.file || q.quoted == "" {
		q.file, q.quoted = file, quotePath(file)
	}
	return q.quoted
}

// lineBreaks keeps a message on its line: a finding is one line.
var lineBreaks = strings.NewReplacer("\n", `\n`, "\r", `\r`)

// quotePath quotes a file name that holds a control character or invalid
// UTF-8, as go vet does: a name with a newline must not forge a finding.
func quotePath(p string) string { return quotepath.Path(p) }

// region is a finding's range clamped to what SARIF and GitHub accept:
// 1-based lines and columns, the end no earlier than the start, and a zero
// end taken as the start.
type region struct {
	startLine, startCol, endLine, endCol int
}

func regionOf(f *checks.Finding) region {
	r := region{startLine: max(f.Line, 1), startCol: max(f.Col, 1)}
	r.endLine, r.endCol = f.EndLine, f.EndCol
	if r.endLine == 0 {
		r.endLine = r.startLine
	}
	if r.endCol == 0 {
		r.endCol = r.startCol
	}
	r.endCol = max(r.endCol, 1)
	if r.endLine < r.startLine {
		r.endLine, r.endCol = r.startLine, r.startCol
	}
	if r.endLine == r.startLine && r.endCol < r.startCol {
		r.endCol = r.startCol
	}
	return r
}
