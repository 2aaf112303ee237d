package hygiene

import (
	"bytes"
	"flag"
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks/internal/bodylines"
	"github.com/svrnty/sotvet/checks/internal/docutil"
	"github.com/svrnty/sotvet/sotparse"
)

// Analyzer reports markdown whitespace defects.
var Analyzer = &analysis.Analyzer{
	Name:     "hygiene",
	Doc:      docutil.MustExtract(doc, "hygiene"),
	URL:      "https://github.com/svrnty/sotvet/blob/main/docs/checks.md#hygiene",
	Requires: []*analysis.Analyzer{sotparse.Analyzer},
	Run:      run,
}

// Rule is one hygiene rule and the markdownlint rule it follows.
type Rule struct {
	Name, MD, Alias string
}

// Rules are the rules the check knows, in the order the doc gives them.
var Rules = []Rule{
	{"blank-lines", "MD012", "no-multiple-blanks"},
	{"final-newline", "MD047", "single-trailing-newline"},
	{"trailing-spaces", "MD009", "no-trailing-spaces"},
}

// ruleSet is the -rules flag: the names of the enabled rules.
type ruleSet map[string]bool

func (s *ruleSet) String() string {
	var on []string
	for _, r := range Rules {
		if (*s)[r.Name] {
			on = append(on, r.Name)
		}
	}
	return strings.Join(on, ",")
}

// Set replaces the set; a name that is no rule is an error.
func (s *ruleSet) Set(v string) error {
	out := ruleSet{}
	for _, w := range strings.Split(v, ",") {
		w = strings.TrimSpace(w)
		if w == "" {
			continue
		}
		found := false
		for _, r := range Rules {
			if strings.EqualFold(w, r.Name) || strings.EqualFold(w, r.MD) || strings.EqualFold(w, r.Alias) {
				out[r.Name], found = true, true
			}
		}
		if !found {
			return fmt.Errorf("unknown hygiene rule %q (want blank-lines|MD012, final-newline|MD047, trailing-spaces|MD009)", w)
		}
	}
	*s = out
	return nil
}

// Clone returns a copy, so that the configuration can validate a value.
func (s *ruleSet) Clone() flag.Value {
	c := ruleSet{}
	for k, v := range *s {
		c[k] = v
	}
	return &c
}

var enabled = ruleSet{"blank-lines": true, "final-newline": true, "trailing-spaces": true}

func init() {
	Analyzer.Flags.Var(&enabled, "rules", "comma-separated rules to report: blank-lines (MD012), final-newline (MD047), trailing-spaces (MD009)")
}

// DocCheck is the whole check: every rule reads one document's text.
var DocCheck = &sotparse.DocCheck{Run: checkDoc}

func run(pass *analysis.Pass) (any, error) {
	DocCheck.Each(pass, pass.ResultOf[sotparse.Analyzer].(*sotparse.Workspace))
	return nil, nil
}

func checkDoc(p *sotparse.DocPass) any {
	if !p.Focused() {
		return nil
	}
	found := findings{report: p.Report, noFixes: !p.Fixes()}
	if enabled["blank-lines"] || enabled["trailing-spaces"] {
		lines(&found, p.Doc.File, p.Content)
	}
	if enabled["final-newline"] {
		finalNewline(&found, p.Doc.File, p.Content)
	}
	return nil
}

// messages holds a rule's message for the small counts, made once: a
// legacy workspace has tens of thousands of findings that say the same,
// and they share one string.
type messages struct {
	small  [16]string
	format func(n int) string
}

func newMessages(format func(n int) string) *messages {
	m := &messages{format: format}
	for n := range m.small {
		m.small[n] = format(n)
	}
	return m
}

var (
	blankLinesMsg = newMessages(func(n int) string { return fmt.Sprintf("%d consecutive blank lines; one is enough (MD012)", n) })
	trailingMsg   = newMessages(func(n int) string { return fmt.Sprintf("line ends in %d trailing space%s (MD009)", n, plural(n)) })
)

// get returns the message for n.
func (m *messages) get(n int) string {
	if n >= 0 && n < len(m.small) {
		return m.small[n]
	}
	return m.format(n)
}

// findings are one document's diagnostics.
// findings take a document's diagnostics; noFixes leaves out their fixes.
type findings struct {
	report  func(analysis.Diagnostic)
	noFixes bool
}

// report reports content[start:end] with a fix that replaces
// content[editStart:editEnd] by newText.
func report(out *findings, f *sotparse.File, start, end int, category, msg, fix string, editStart, editEnd int, newText string) {
	d := analysis.Diagnostic{Pos: f.Pos(start), End: f.Pos(end), Category: category, Message: msg}
	if !out.noFixes {
		d.SuggestedFixes = []analysis.SuggestedFix{{Message: fix, TextEdits: []analysis.TextEdit{{Pos: f.Pos(editStart), End: f.Pos(editEnd), NewText: []byte(newText)}}}}
	}
	out.report(d)
}

// lines reports blank-line runs and trailing spaces outside fenced code.
// A run at the end of the file is final-newline's.
func lines(out *findings, f *sotparse.File, content []byte) {
	lastText := len(bytes.TrimRight(content, " \t\r\n"))
	// The current run of consecutive blank lines: from its second line
	// (where it is reported) to after its last one.
	runStart, runEnd, runLen := -1, 0, 0
	flush := func() {
		if runStart >= 0 {
			report(out, f, runStart, runStart, "blank-lines",
				blankLinesMsg.get(runLen), "delete the extra blank lines", runStart, runEnd, "")
		}
		runStart = -1
	}
	prevBlank, prevNext := false, -1
	// Read once, not per line: a flag's map.
	trailing, blankRuns := enabled["trailing-spaces"], enabled["blank-lines"]
	bodylines.EachIn(content, bodylines.Starts(f.Tok, content, f.Content), 0, len(content), func(ln bodylines.Line) {
		if trailing && endsInSpace(ln.Text) {
			t := strings.TrimRight(ln.Text, " \t")
			if n := len(ln.Text) - len(t); n > 0 && !(t != "" && ln.Text[len(t):] == "  ") {
				s := ln.Off + len(t)
				report(out, f, s, ln.Off+len(ln.Text), "trailing-spaces",
					trailingMsg.get(n), "delete the trailing spaces", s, ln.Off+len(ln.Text), "")
			}
		}
		isBlank, nextOff := blank(ln.Text), next(content, ln)
		switch {
		case !blankRuns || ln.Off >= lastText:
			// A run at the end of the file is final-newline's.
		case isBlank && prevBlank && prevNext == ln.Off:
			if runStart < 0 {
				runStart, runLen = ln.Off, 1
			}
			runLen++
			runEnd = nextOff
		default:
			flush()
		}
		prevBlank, prevNext = isBlank, nextOff
	})
	flush()
}

// finalNewline reports a file that does not end with exactly one newline.
func finalNewline(out *findings, f *sotparse.File, content []byte) {
	if len(content) == 0 {
		return
	}
	text := len(bytes.TrimRight(content, " \t\r\n"))
	if text == 0 {
		return
	}
	// The end of the last line of text, its spaces kept (trailing-spaces
	// reports those).
	eol := text
	for eol < len(content) && content[eol] != '\n' && content[eol] != '\r' {
		eol++
	}
	rest := string(content[eol:])
	if rest == "" {
		report(out, f, eol, eol, "final-newline", "file does not end with a newline (MD047)", "add a newline", eol, eol, "\n")
		return
	}
	// The line breaks after the last text: "\n", "\r\n", or a lone "\r"
	// (a file of classic Mac OS line endings ends with one).
	nl := rest[:1]
	if strings.HasPrefix(rest, "\r\n") {
		nl = "\r\n"
	}
	n := lineBreaks(rest) - 1
	if n == 0 {
		return
	}
	line := eol + len(nl)
	report(out, f, line, len(content), "final-newline",
		fmt.Sprintf("file ends with %d blank line%s; end it with a single newline (MD047)", n, plural(n)),
		"delete the blank lines at the end", line, len(content), "")
}

// lineBreaks counts the line breaks of s, "\r\n" as one.
func lineBreaks(s string) int {
	return strings.Count(s, "\n") + strings.Count(s, "\r") - strings.Count(s, "\r\n")
}

// blank reports whether s is all white space. Most lines start with
// something else, which the first byte tells.
func blank(s string) bool {
	if s != "" && s[0] < utf8.RuneSelf && !asciiSpace[s[0]] {
		return false
	}
	return strings.TrimSpace(s) == ""
}

// asciiSpace holds the ASCII bytes strings.TrimSpace trims.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// endsInSpace reports whether s ends in a space or a tab.
func endsInSpace(s string) bool {
	return s != "" && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t')
}

// next returns the offset after ln's line break ("\n" or "\r\n"): where
// the line after it starts. Its text ends at its line break, or at the
// "\r" before it.
func next(content []byte, ln bodylines.Line) int {
	end := ln.Off + len(ln.Text)
	if end < len(content) && content[end] == '\r' {
		end++
	}
	if end < len(content) && content[end] == '\n' {
		return end + 1
	}
	return len(content)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
