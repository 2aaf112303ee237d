package report

// The writers as they were before they were specialised for speed: the
// reference the fast ones must match byte for byte (TestWritersMatchReference).

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/svrnty/sotvet/checks"
)

// writeJUnit writes one testsuite per check, sorted by name: the checks in
// res.Checked, opt.Rules and the findings. Each finding is a testcase named
// by its position and message (made unique, as GitLab merges testcases of
// one name), with the file it is in: failing when its severity reaches
// opt.FailOn (as the exit code does); one below it is skipped, with the
// finding as its message, so a warning shows in GitLab without turning the
// report red. A check without findings has one passing testcase named after
// it. Times: the run's, in the root element; the checks run together, so a
// testcase's own time is not measured and is 0.
func refWriteJUnit(buf *bufio.Writer, res *checks.Result, opt Options) error {
	var names []string
	names = append(names, res.Checked...)
	for _, r := range opt.Rules {
		names = append(names, r.Name)
	}
	byCheck := map[string][]*checks.Finding{}
	for i := range res.Findings {
		f := &res.Findings[i]
		names = append(names, f.Check)
		byCheck[f.Check] = append(byCheck[f.Check], f)
	}
	slices.Sort(names)
	names = slices.Compact(names)

	// Counted first: the root element carries the totals.
	type suite struct {
		name                     string
		tests, failures, skipped int
	}
	suites := make([]suite, 0, len(names))
	var tests, failures, skipped int
	for _, name := range names {
		st := suite{name: name, tests: max(1, len(byCheck[name]))}
		for _, f := range byCheck[name] {
			if fails(f, opt.FailOn) {
				st.failures++
			} else {
				st.skipped++
			}
		}
		tests, failures, skipped = tests+st.tests, failures+st.failures, skipped+st.skipped
		suites = append(suites, st)
	}

	// Written as encoding/xml's Encoder, indented by two spaces, writes a
	// junitTestSuites, a testcase at a time.
	b := make([]byte, 0, 64<<10)
	flush := func() {
		if len(b) > 32<<10 {
			buf.Write(b)
			b = b[:0]
		}
	}
	b = append(b, xml.Header...)
	b = append(b, `<testsuites name="`...)
	b = refAppendXMLEscaped(b, opt.Tool)
	b = fmt.Appendf(b, `" tests="%d" failures="%d" skipped="%d" time="`, tests, failures, skipped)
	b = refAppendXMLEscaped(b, seconds(opt.Elapsed))
	b = append(b, `">`...)
	used := map[string]int{}
	for _, st := range suites {
		b = append(b, "\n  <testsuite name=\""...)
		b = refAppendXMLEscaped(b, st.name)
		b = fmt.Appendf(b, `" tests="%d" failures="%d" skipped="%d" time="0">`, st.tests, st.failures, st.skipped)
		if len(byCheck[st.name]) == 0 {
			b = append(b, "\n    <testcase classname=\""...)
			b = refAppendXMLEscaped(b, st.name)
			b = append(b, `" name="`...)
			b = refAppendXMLEscaped(b, st.name)
			b = append(b, `" time="0"></testcase>`...)
		}
		for _, f := range byCheck[st.name] {
			pos := f.File + ":" + strconv.Itoa(f.Line) + ":" + strconv.Itoa(f.Col)
			tcName := pos + ": " + strings.Join(strings.Fields(f.Message), " ")
			if used[tcName]++; used[tcName] > 1 {
				tcName = fmt.Sprintf("%s (%d)", tcName, used[tcName])
			}
			b = append(b, "\n    <testcase classname=\""...)
			b = refAppendXMLEscaped(b, st.name)
			b = append(b, `" name="`...)
			b = refAppendXMLEscaped(b, tcName)
			if f.File != "" {
				b = append(b, `" file="`...)
				b = refAppendXMLEscaped(b, f.File)
			}
			if f.Line != 0 {
				b = append(b, `" line="`...)
				b = strconv.AppendInt(b, int64(f.Line), 10)
			}
			b = append(b, `" time="0">`...)
			sev := string(severity(f))
			// pos and sev are ASCII: escaping each piece is escaping the
			// text they make together.
			if fails(f, opt.FailOn) {
				b = append(b, "\n      <failure message=\""...)
				b = refAppendXMLEscaped(b, f.Message)
				b = append(b, `" type="`...)
				b = refAppendXMLEscaped(b, sev)
				b = append(b, `">`...)
				b = refAppendXMLEscaped(b, pos)
				b = append(b, ": "...)
				b = refAppendXMLEscaped(b, f.Message)
				b = append(b, "</failure>"...)
			} else {
				b = append(b, "\n      <skipped message=\""...)
				b = append(b, sev...)
				b = append(b, ": "...)
				b = refAppendXMLEscaped(b, f.Message)
				b = append(b, `"></skipped>`...)
				b = append(b, "\n      <system-out>"...)
				b = refAppendXMLEscaped(b, pos)
				b = append(b, ": "...)
				b = append(b, sev...)
				b = append(b, ": "...)
				b = refAppendXMLEscaped(b, f.Message)
				b = append(b, "</system-out>"...)
			}
			b = append(b, "\n    </testcase>"...)
			flush()
		}
		b = append(b, "\n  </testsuite>"...)
	}
	if len(suites) > 0 {
		b = append(b, '\n')
	}
	b = append(b, "</testsuites>\n"...)
	buf.Write(b)
	return nil
}

func refAppendXMLEscaped(b []byte, s string) []byte {
	last := 0
	for i := 0; i < len(s); {
		r, width := utf8.DecodeRuneInString(s[i:])
		i += width
		var esc string
		switch r {
		case '"':
			esc = "&#34;"
		case '\'':
			esc = "&#39;"
		case '&':
			esc = "&amp;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '\t':
			esc = "&#x9;"
		case '\n':
			esc = "&#xA;"
		case '\r':
			esc = "&#xD;"
		default:
			if !inXMLRange(r) || (r == utf8.RuneError && width == 1) {
				esc = "\uFFFD"
				break
			}
			continue
		}
		b = append(b, s[last:i-width]...)
		b = append(b, esc...)
		last = i
	}
	return append(b, s[last:]...)
}

// writeSARIF writes a SARIF 2.1.0 log with one run. A check's findings
// have the rule "check/category" (one per category the check declares in
// its Rule), or "check" when they have no category; rules come from
// opt.Rules in the order given (duplicates dropped), and a finding with no
// rule gets a minimal one appended, so every result's ruleIndex is valid.
// Paths are relative URIs under %SRCROOT%, which originalUriBaseIds
// resolves to opt.SrcRoot when given; an absolute path is a file: URI.
func refWriteSARIF(buf *bufio.Writer, res *checks.Result, opt Options) error {
	driver := sarifDriver{
		Name:           opt.Tool,
		Version:        opt.Version,
		InformationURI: sarifInfoURI,
		Rules:          []sarifRule{},
	}
	index := map[string]int{}
	addRule := func(r sarifRule) {
		if _, dup := index[r.ID]; dup {
			return
		}
		index[r.ID] = len(driver.Rules)
		driver.Rules = append(driver.Rules, r)
	}
	byName := map[string]Rule{}
	found := foundRules(res.Findings)
	for _, r := range opt.Rules {
		byName[r.Name] = r
		if len(r.Categories) == 0 || !found[ruleKey{r.Name, ""}] {
			// A check that ran without a finding is one rule: the log
			// still says it ran, in a few hundred bytes, not one rule
			// per category (hundreds in all).
			addRule(sarifRuleOf(r))
			continue
		}
		for _, c := range r.Categories {
			if found[ruleKey{r.Name, c}] {
				addRule(sarifCategoryRule(r, c))
			}
		}
	}
	for i := range res.Findings {
		f := &res.Findings[i]
		r, ok := byName[f.Check]
		if !ok {
			r = Rule{Name: f.Check}
		}
		if f.Category == "" {
			addRule(sarifRuleOf(r))
		} else {
			addRule(sarifCategoryRule(r, f.Category))
		}
	}

	var baseIDs map[string]sarifArtifactLocation
	if opt.SrcRoot != "" {
		baseIDs = sarifBaseIDs
	}

	// The log is written as encoding/json would encode a sarifLog, the
	// results one at a time.
	j := newJSONWriter(buf)
	j.open('{')
	j.key("$schema")
	j.str(sarifSchema)
	j.key("version")
	j.str(sarifVersion)
	j.key("runs")
	j.open('[')
	j.elem()
	j.open('{')
	j.key("tool")
	if err := j.value(sarifTool{Driver: driver}); err != nil {
		return err
	}
	if baseIDs != nil {
		j.key("originalUriBaseIds")
		if err := j.value(baseIDs); err != nil {
			return err
		}
	}
	j.key("results")
	j.open('[')
	uris := uriCache{}
	var lastCheck, lastCategory, lastID string // findings of one rule come in runs
	for i := range res.Findings {
		f := &res.Findings[i]
		if f.Check != lastCheck || f.Category != lastCategory {
			lastCheck, lastCategory, lastID = f.Check, f.Category, ruleID(f)
		}
		id := lastID
		j.elem()
		j.open('{')
		j.key("ruleId")
		j.str(id)
		j.key("ruleIndex")
		j.int(index[id])
		j.key("level")
		j.str(string(severity(f)))
		j.key("message")
		j.open('{')
		j.key("text")
		j.str(f.Message)
		j.close('}')
		if f.File != "" {
			rg := regionOf(f)
			uri, base := uris.of(f.File), sarifSrcRoot
			if path.IsAbs(f.File) {
				uri, base = (&url.URL{Scheme: "file", Path: f.File}).String(), ""
			}
			j.key("locations")
			j.open('[')
			j.elem()
			j.open('{')
			j.key("physicalLocation")
			refWriteSARIFPhysical(j, uri, base, region{rg.startLine, rg.startCol, rg.endLine, rg.endCol})
			j.close('}')
			j.close(']')
		}
		if len(f.Related) > 0 {
			j.key("relatedLocations")
			j.open('[')
			for k, rel := range f.Related {
				j.elem()
				j.open('{')
				j.key("id")
				j.int(k + 1)
				j.key("physicalLocation")
				l, c := max(rel.Line, 1), max(rel.Col, 1)
				refWriteSARIFPhysical(j, uris.of(rel.File), sarifSrcRoot, region{l, c, l, c})
				j.key("message")
				j.open('{')
				j.key("text")
				j.str(rel.Message)
				j.close('}')
				j.close('}')
			}
			j.close(']')
		}
		if f.Fingerprint != "" {
			j.key("partialFingerprints")
			j.open('{')
			j.key(sarifFingerprint)
			j.str(f.Fingerprint)
			j.close('}')
		}
		j.close('}')
	}
	j.close(']')
	j.close('}')
	j.close(']')
	j.close('}')
	j.b = append(j.b, '\n')
	j.flush()
	return nil
}

// writeSARIFPhysical writes a physicalLocation object.
func refWriteSARIFPhysical(j *jsonWriter, uri, base string, rg region) {
	j.open('{')
	j.key("artifactLocation")
	j.open('{')
	j.key("uri")
	j.str(uri)
	if base != "" {
		j.key("uriBaseId")
		j.str(base)
	}
	j.close('}')
	j.key("region")
	j.open('{')
	j.key("startLine")
	j.int(rg.startLine)
	j.key("startColumn")
	j.int(rg.startCol)
	j.key("endLine")
	j.int(rg.endLine)
	j.key("endColumn")
	j.int(rg.endCol)
	j.close('}')
	j.close('}')
}

// writeGitHub writes GitHub Actions workflow commands: the first
// MaxAnnotations findings of each severity as ::error or ::warning
// annotations, the rest as plain lines so the log keeps them all, then a
// summary line when there are findings.
//
// Every finding takes exactly one line: messages are escaped as workflow
// command data in plain lines too, so no message can start a line of its own
// that the runner would read as a command.
var (
	dataEscaper     = strings.NewReplacer(append(controlEscapes(), "%", "%25")...)
	propertyEscaper = strings.NewReplacer(append(controlEscapes(), "%", "%25", ":", "%3A", ",", "%2C")...)
)

// controlEscapes are the control bytes but a tab, each as %XX.
func controlEscapes() []string {
	var r []string
	for c := range 0x20 {
		if c != '\t' {
			r = append(r, string(rune(c)), fmt.Sprintf("%%%02X", c))
		}
	}
	return append(r, "\x7f", "%7F")
}

func refWriteGitHub(buf *bufio.Writer, res *checks.Result, opt Options) {
	limit := opt.MaxAnnotations
	if limit <= 0 {
		limit = defaultMaxAnnotations
	}
	shown := map[checks.Severity]int{}
	hidden := 0
	for i := range res.Findings {
		f := &res.Findings[i]
		sev := severity(f)
		if shown[sev] < limit {
			shown[sev]++
			refWriteAnnotation(buf, f, sev, opt.Tool)
			continue
		}
		hidden++
		line := string(refAppendTextLine(nil, f, dataEscaper.Replace(f.Message)))
		if strings.HasPrefix(line, "::") {
			line = "./" + line // a path starting with "::" must not read as a command
		}
		buf.WriteString(line)
		buf.WriteByte('\n')
	}
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
}

// writeAnnotation writes
// "::error file=PATH,line=L,col=C,endLine=EL,endColumn=EC,title=TOOL CHECK/CATEGORY::MESSAGE",
// without col and endColumn when the finding spans lines.
// A finding without a file gets no position properties.
func refWriteAnnotation(buf *bufio.Writer, f *checks.Finding, sev checks.Severity, tool string) {
	var props []string
	if f.File != "" {
		rg := regionOf(f)
		props = append(props, "file="+propertyEscaper.Replace(f.File), "line="+strconv.Itoa(rg.startLine))
		// The runner drops col and endColumn on an annotation spanning lines.
		if rg.startLine == rg.endLine {
			props = append(props, "col="+strconv.Itoa(rg.startCol))
		}
		props = append(props, "endLine="+strconv.Itoa(rg.endLine))
		if rg.startLine == rg.endLine {
			props = append(props, "endColumn="+strconv.Itoa(rg.endCol))
		}
	}
	props = append(props, "title="+propertyEscaper.Replace(tool+" "+f.Code()))
	fmt.Fprintf(buf, "::%s %s::%s\n", sev, strings.Join(props, ","), dataEscaper.Replace(f.Message))
}

// writeJSON writes the report as encoding/json would encode a jsonReport
// (indented, keys in field order, by_check sorted), a finding at a time.
func refWriteJSON(w *bufio.Writer, res *checks.Result, opt Options) error {
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
		j.key("code")
		j.str(f.Code())
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

// writeText writes one line per finding, followed by one "note" line per
// related location, and nothing else: line breaks in a message are
// escaped, and a file name with control characters quoted.
func refWriteText(buf *bufio.Writer, res *checks.Result) {
	var line []byte
	for i := range res.Findings {
		line = refAppendTextLine(line[:0], &res.Findings[i], res.Findings[i].Message)
		line = append(line, '\n')
		buf.Write(line)
		for _, r := range res.Findings[i].Related {
			fmt.Fprintf(buf, "%s:%d:%d: note: %s\n", quotePath(r.File), r.Line, r.Col, lineBreaks.Replace(r.Message))
		}
	}
}

func refAppendTextLine(b []byte, f *checks.Finding, msg string) []byte {
	b = append(b, quotePath(f.File)...)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(f.Line), 10)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(f.Col), 10)
	b = append(b, ": "...)
	b = append(b, severity(f)...)
	b = append(b, " ["...)
	b = append(b, f.Code()...)
	b = append(b, "] "...)
	if strings.ContainsAny(msg, "\r\n") {
		msg = lineBreaks.Replace(msg)
	}
	return append(b, msg...)
}
