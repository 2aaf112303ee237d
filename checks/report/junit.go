package report

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/svrnty/sotvet/checks"
)

type junitTestSuites struct {
	XMLName  xml.Name         `xml:"testsuites"`
	Name     string           `xml:"name,attr"`
	Tests    int              `xml:"tests,attr"`
	Failures int              `xml:"failures,attr"`
	Skipped  int              `xml:"skipped,attr"`
	Time     string           `xml:"time,attr"`
	Suites   []junitTestSuite `xml:"testsuite"`
}

type junitTestSuite struct {
	Name     string          `xml:"name,attr"`
	Tests    int             `xml:"tests,attr"`
	Failures int             `xml:"failures,attr"`
	Skipped  int             `xml:"skipped,attr"`
	Time     string          `xml:"time,attr"`
	Cases    []junitTestCase `xml:"testcase"`
}

type junitTestCase struct {
	ClassName string        `xml:"classname,attr"`
	Name      string        `xml:"name,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Line      int           `xml:"line,attr,omitempty"`
	Time      string        `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

// junitSkipped marks a finding below --fail-on: GitLab lists skipped
// testcases with their message, where a passing one would hide it.
type junitSkipped struct {
	Message string `xml:"message,attr"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

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

	out := junitTestSuites{Name: opt.Tool, Suites: []junitTestSuite{}, Time: seconds(opt.Elapsed)}
	used := map[string]int{}
	for _, name := range names {
		s := junitTestSuite{Name: name, Time: "0"}
		for _, f := range byCheck[name] {
			pos := fmt.Sprintf("%s:%d:%d", f.File, f.Line, f.Col)
			tcName := pos + ": " + strings.Join(strings.Fields(f.Message), " ")
			if used[tcName]++; used[tcName] > 1 {
				tcName = fmt.Sprintf("%s (%d)", tcName, used[tcName])
			}
			tc := junitTestCase{ClassName: name, Name: tcName, File: f.File, Line: f.Line, Time: "0"}
			if fails(f, opt.FailOn) {
				tc.Failure = &junitFailure{Message: f.Message, Type: string(severity(f)), Text: pos + ": " + f.Message}
				s.Failures++
			} else {
				tc.Skipped = &junitSkipped{Message: fmt.Sprintf("%s: %s", severity(f), f.Message)}
				tc.SystemOut = fmt.Sprintf("%s: %s: %s", pos, severity(f), f.Message)
				s.Skipped++
			}
			s.Cases = append(s.Cases, tc)
		}
		if len(s.Cases) == 0 {
			s.Cases = []junitTestCase{{ClassName: name, Name: name, Time: "0"}}
		}
		s.Tests = len(s.Cases)
		out.Tests += s.Tests
		out.Failures += s.Failures
		out.Skipped += s.Skipped
		out.Suites = append(out.Suites, s)
	}

	buf.WriteString(xml.Header)
	enc := xml.NewEncoder(buf)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	if err := enc.Close(); err != nil {
		return err
	}
	buf.WriteByte('\n')
	return nil
}

// seconds formats a duration as JUnit's time attribute.
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', 3, 64)
}
