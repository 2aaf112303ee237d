package report

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"slices"

	"github.com/svrnty/sotvet/checks"
)

type junitTestSuites struct {
	XMLName  xml.Name         `xml:"testsuites"`
	Name     string           `xml:"name,attr"`
	Tests    int              `xml:"tests,attr"`
	Failures int              `xml:"failures,attr"`
	Suites   []junitTestSuite `xml:"testsuite"`
}

type junitTestSuite struct {
	Name     string          `xml:"name,attr"`
	Tests    int             `xml:"tests,attr"`
	Failures int             `xml:"failures,attr"`
	Cases    []junitTestCase `xml:"testcase"`
}

type junitTestCase struct {
	ClassName string        `xml:"classname,attr"`
	Name      string        `xml:"name,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// writeJUnit writes one testsuite per check, sorted by name: the checks in
// res.Checked, opt.Rules and the findings. Each finding is a testcase,
// failing when its severity reaches opt.FailOn (as the exit code does); one
// below it passes, with the finding as its output, so that a warning does
// not turn a CI test report red. A check without findings has one passing
// testcase named after it.
func writeJUnit(buf *bytes.Buffer, res *checks.Result, opt Options) error {
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

	out := junitTestSuites{Name: opt.Tool, Suites: []junitTestSuite{}}
	for _, name := range names {
		s := junitTestSuite{Name: name}
		for _, f := range byCheck[name] {
			pos := fmt.Sprintf("%s:%d:%d", f.File, f.Line, f.Col)
			tc := junitTestCase{ClassName: name, Name: pos}
			if fails(f, opt.FailOn) {
				tc.Failure = &junitFailure{Message: f.Message, Type: string(severity(f)), Text: pos + ": " + f.Message}
				s.Failures++
			} else {
				tc.SystemOut = fmt.Sprintf("%s: %s: %s", pos, severity(f), f.Message)
			}
			s.Cases = append(s.Cases, tc)
		}
		if len(s.Cases) == 0 {
			s.Cases = []junitTestCase{{ClassName: name, Name: name}}
		}
		s.Tests = len(s.Cases)
		out.Tests += s.Tests
		out.Failures += s.Failures
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
