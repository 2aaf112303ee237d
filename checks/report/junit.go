package report

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
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
func writeJUnit(buf *bufio.Writer, res *checks.Result, opt Options) error {
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
	b = appendXMLEscaped(b, opt.Tool)
	b = fmt.Appendf(b, `" tests="%d" failures="%d" skipped="%d" time="`, tests, failures, skipped)
	b = appendXMLEscaped(b, seconds(opt.Elapsed))
	b = append(b, `">`...)
	used := map[string]int{}
	for _, st := range suites {
		b = append(b, "\n  <testsuite name=\""...)
		b = appendXMLEscaped(b, st.name)
		b = fmt.Appendf(b, `" tests="%d" failures="%d" skipped="%d" time="0">`, st.tests, st.failures, st.skipped)
		if len(byCheck[st.name]) == 0 {
			b = append(b, "\n    <testcase classname=\""...)
			b = appendXMLEscaped(b, st.name)
			b = append(b, `" name="`...)
			b = appendXMLEscaped(b, st.name)
			b = append(b, `" time="0"></testcase>`...)
		}
		for _, f := range byCheck[st.name] {
			pos := f.File + ":" + strconv.Itoa(f.Line) + ":" + strconv.Itoa(f.Col)
			tcName := pos + ": " + strings.Join(strings.Fields(f.Message), " ")
			if used[tcName]++; used[tcName] > 1 {
				tcName = fmt.Sprintf("%s (%d)", tcName, used[tcName])
			}
			b = append(b, "\n    <testcase classname=\""...)
			b = appendXMLEscaped(b, st.name)
			b = append(b, `" name="`...)
			b = appendXMLEscaped(b, tcName)
			if f.File != "" {
				b = append(b, `" file="`...)
				b = appendXMLEscaped(b, f.File)
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
				b = appendXMLEscaped(b, f.Message)
				b = append(b, `" type="`...)
				b = appendXMLEscaped(b, sev)
				b = append(b, `">`...)
				b = appendXMLEscaped(b, pos)
				b = append(b, ": "...)
				b = appendXMLEscaped(b, f.Message)
				b = append(b, "</failure>"...)
			} else {
				b = append(b, "\n      <skipped message=\""...)
				b = append(b, sev...)
				b = append(b, ": "...)
				b = appendXMLEscaped(b, f.Message)
				b = append(b, `"></skipped>`...)
				b = append(b, "\n      <system-out>"...)
				b = appendXMLEscaped(b, pos)
				b = append(b, ": "...)
				b = append(b, sev...)
				b = append(b, ": "...)
				b = appendXMLEscaped(b, f.Message)
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

// appendXMLEscaped appends s escaped as encoding/xml escapes attribute
// values and character data: quotes, '&', '<', '>', tabs and line breaks
// as references, anything outside XML's character range (and invalid
// UTF-8) as U+FFFD.
func appendXMLEscaped(b []byte, s string) []byte {
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

func inXMLRange(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D ||
		r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD ||
		r >= 0x10000 && r <= 0x10FFFF
}

// seconds formats a duration as JUnit's time attribute.
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', 3, 64)
}
