package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/checks"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// nastyMessage holds every character some format has to escape.
const nastyMessage = "value \"50%, a:b\" is <bad> & wrong\nsecond line"

func fixture() *checks.Result {
	return &checks.Result{
		Checked: []string{"frontmatter", "links", "spelling"},
		Files:   4,
		Findings: []checks.Finding{
			{Check: "frontmatter", Category: "value", Severity: checks.SeverityError, File: "docs/a.md", Line: 2, Col: 8, EndLine: 2, EndCol: 20, Message: nastyMessage, Fingerprint: "0123456789abcdef:1"},
			{Check: "frontmatter", Category: "unknown-key", Severity: checks.SeverityWarning, File: "docs/a.md", Line: 3, Col: 1, EndLine: 3, EndCol: 6, Message: "unknown key \"tilte\"", Fingerprint: "1111111111111111:1"},
			{Check: "links", Severity: checks.SeverityError, File: "docs/b two.md", Line: 7, Col: 5, EndLine: 8, EndCol: 2, Message: "broken link to missing.md", Fingerprint: "2222222222222222:1"},
			{Check: "suppression", Category: "unused", Severity: checks.SeverityWarning, File: "docs/b two.md", Line: 9, Col: 3, Message: "unused suppression for spelling", Fingerprint: "3333333333333333:1"},
			{Check: "syntax", Severity: checks.SeverityError, File: "docs/c.md", Message: "cannot parse file", Fingerprint: "4444444444444444:1"},
		},
	}
}

func fixtureOptions() Options {
	return Options{
		Tool:    "sotvet",
		Version: "v0.1.0",
		Rules: []Rule{
			{Name: "frontmatter", Short: "Checks front matter.", Doc: "Checks front matter.\n\nKeys must be known & values valid.", URL: "https://github.com/svrnty/sotvet/blob/main/docs/frontmatter.md"},
			{Name: "links", Short: "Checks links.", Doc: "Checks links.\n\nEvery relative link must resolve."},
			{Name: "spelling", Short: "Checks spelling.", Doc: "Checks spelling."},
			{Name: "suppression", Short: "Reports unused or malformed suppressions.", Doc: "Reports unused or malformed suppressions."},
		},
	}
}

func render(t *testing.T, format string, res *checks.Result, opt Options) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, format, res, opt); err != nil {
		t.Fatalf("Write(%s): %v", format, err)
	}
	return buf.Bytes()
}

func TestGolden(t *testing.T) {
	cases := []struct {
		suffix string
		res    *checks.Result
	}{
		{"", fixture()},
		{"_empty", &checks.Result{}},
	}
	for _, format := range Formats {
		for _, c := range cases {
			name := format + c.suffix
			t.Run(name, func(t *testing.T) {
				got := render(t, format, c.res, fixtureOptions())
				path := filepath.Join("testdata", name+".golden")
				if *update {
					if err := os.MkdirAll("testdata", 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(path, got, 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (run go test -update to create it)", err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s output differs from %s (run go test -update to rewrite it)\ngot:\n%s\nwant:\n%s", format, path, got, want)
				}
			})
		}
	}
}

func TestDeterministic(t *testing.T) {
	for _, format := range Formats {
		a := render(t, format, fixture(), fixtureOptions())
		b := render(t, format, fixture(), fixtureOptions())
		if !bytes.Equal(a, b) {
			t.Errorf("%s: two renderings of the same input differ", format)
		}
	}
}

func TestUnknownFormat(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, "yaml", fixture(), Options{}); err == nil {
		t.Fatal("Write with an unknown format returned no error")
	}
	if buf.Len() != 0 {
		t.Errorf("Write with an unknown format wrote %q", buf.String())
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteError(t *testing.T) {
	for _, format := range Formats {
		if err := Write(failWriter{}, format, fixture(), Options{}); err == nil {
			t.Errorf("%s: a failing writer gave no error", format)
		}
	}
}

func TestNilResult(t *testing.T) {
	for _, format := range Formats {
		got := render(t, format, nil, Options{})
		want := render(t, format, &checks.Result{}, Options{})
		if !bytes.Equal(got, want) {
			t.Errorf("%s: nil Result renders differently from an empty one", format)
		}
	}
}

func TestTextEmpty(t *testing.T) {
	for _, format := range []string{"text", "github"} {
		if got := render(t, format, &checks.Result{Checked: []string{"links"}, Files: 3}, fixtureOptions()); len(got) != 0 {
			t.Errorf("%s: no findings printed %q", format, got)
		}
	}
}

func TestJSONShape(t *testing.T) {
	for _, c := range []struct {
		name     string
		res      *checks.Result
		findings int
	}{
		{"full", fixture(), 5},
		{"empty", &checks.Result{}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := render(t, "json", c.res, Options{})
			var v map[string]any
			if err := json.Unmarshal(out, &v); err != nil {
				t.Fatalf("output is not JSON: %v\n%s", err, out)
			}
			if _, ok := v["ok"].(bool); !ok {
				t.Errorf("ok is %T, want bool", v["ok"])
			}
			if _, ok := v["checked"].([]any); !ok {
				t.Errorf("checked is %T, want array", v["checked"])
			}
			errs, ok := v["errors"].([]any)
			if !ok {
				t.Fatalf("errors is %T, want array", v["errors"])
			}
			if len(errs) != c.findings {
				t.Errorf("errors has %d entries, want %d", len(errs), c.findings)
			}
			for i, e := range errs {
				m, ok := e.(map[string]any)
				if !ok {
					t.Fatalf("errors[%d] is %T, want object", i, e)
				}
				for _, k := range []string{"check", "severity", "file", "message", "fingerprint"} {
					if _, ok := m[k].(string); !ok {
						t.Errorf("errors[%d].%s is %T, want string", i, k, m[k])
					}
				}
				for _, k := range []string{"line", "col", "end_line", "end_col"} {
					if _, ok := m[k].(float64); !ok {
						t.Errorf("errors[%d].%s is %T, want number", i, k, m[k])
					}
				}
			}
			sum, ok := v["summary"].(map[string]any)
			if !ok {
				t.Fatalf("summary is %T, want object", v["summary"])
			}
			if _, ok := sum["by_check"].(map[string]any); !ok {
				t.Errorf("summary.by_check is %T, want object", sum["by_check"])
			}
			if c.findings == 0 {
				for _, want := range []string{`"checked": []`, `"errors": []`, `"by_check": {}`} {
					if !bytes.Contains(out, []byte(want)) {
						t.Errorf("empty output lacks %s:\n%s", want, out)
					}
				}
			}
			if !bytes.HasSuffix(out, []byte("}\n")) {
				t.Errorf("output does not end with a newline")
			}
		})
	}
}

func TestJSONFailOn(t *testing.T) {
	warnOnly := &checks.Result{Findings: []checks.Finding{{Check: "x", Severity: checks.SeverityWarning, File: "a.md", Line: 1, Col: 1}}}
	for _, c := range []struct {
		res    *checks.Result
		failOn checks.Severity
		want   bool
	}{
		{&checks.Result{}, "", true},
		{fixture(), "", false},
		{warnOnly, "", true},
		{warnOnly, checks.SeverityError, true},
		{warnOnly, checks.SeverityWarning, false},
	} {
		out := render(t, "json", c.res, Options{FailOn: c.failOn})
		var v struct{ OK bool }
		if err := json.Unmarshal(out, &v); err != nil {
			t.Fatal(err)
		}
		if v.OK != c.want {
			t.Errorf("FailOn %q with %d findings: ok = %v, want %v", c.failOn, len(c.res.Findings), v.OK, c.want)
		}
	}
}

type sarifDoc struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []struct {
		Tool struct {
			Driver struct {
				Name  string `json:"name"`
				Rules []struct {
					ID               string `json:"id"`
					ShortDescription *struct {
						Text string `json:"text"`
					} `json:"shortDescription"`
				} `json:"rules"`
			} `json:"driver"`
		} `json:"tool"`
		Results []struct {
			RuleID    *string `json:"ruleId"`
			RuleIndex *int    `json:"ruleIndex"`
			Level     *string `json:"level"`
			Message   *struct {
				Text *string `json:"text"`
			} `json:"message"`
			Locations []struct {
				PhysicalLocation struct {
					ArtifactLocation struct {
						URI       string `json:"uri"`
						URIBaseID string `json:"uriBaseId"`
					} `json:"artifactLocation"`
					Region struct {
						StartLine   int `json:"startLine"`
						StartColumn int `json:"startColumn"`
						EndLine     int `json:"endLine"`
						EndColumn   int `json:"endColumn"`
					} `json:"region"`
				} `json:"physicalLocation"`
			} `json:"locations"`
			PartialFingerprints map[string]string `json:"partialFingerprints"`
		} `json:"results"`
	} `json:"runs"`
}

func TestSARIF(t *testing.T) {
	out := render(t, "sarif", fixture(), fixtureOptions())
	var doc sarifDoc
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	if doc.Version != "2.1.0" || doc.Schema == "" {
		t.Errorf("version %q, $schema %q", doc.Version, doc.Schema)
	}
	if len(doc.Runs) != 1 {
		t.Fatalf("%d runs, want 1", len(doc.Runs))
	}
	run := doc.Runs[0]
	if run.Tool.Driver.Name != "sotvet" {
		t.Errorf("driver name %q", run.Tool.Driver.Name)
	}
	rules := run.Tool.Driver.Rules
	for i, r := range rules {
		if r.ID == "" || r.ShortDescription == nil || r.ShortDescription.Text == "" {
			t.Errorf("rule %d lacks id or shortDescription.text", i)
		}
	}
	if len(run.Results) != len(fixture().Findings) {
		t.Fatalf("%d results, want %d", len(run.Results), len(fixture().Findings))
	}
	for i, r := range run.Results {
		if r.RuleID == nil || *r.RuleID == "" {
			t.Errorf("result %d: no ruleId", i)
			continue
		}
		if r.RuleIndex == nil || *r.RuleIndex < 0 || *r.RuleIndex >= len(rules) || rules[*r.RuleIndex].ID != *r.RuleID {
			t.Errorf("result %d: ruleIndex does not point at rule %q", i, *r.RuleID)
		}
		if r.Level == nil || (*r.Level != "error" && *r.Level != "warning") {
			t.Errorf("result %d: level %v", i, r.Level)
		}
		if r.Message == nil || r.Message.Text == nil || *r.Message.Text == "" {
			t.Errorf("result %d: no message.text", i)
		}
		if len(r.Locations) == 0 {
			t.Errorf("result %d: no locations", i)
		} else {
			loc := r.Locations[0].PhysicalLocation
			rg := loc.Region
			if loc.ArtifactLocation.URI == "" || loc.ArtifactLocation.URIBaseID != "%SRCROOT%" {
				t.Errorf("result %d: artifactLocation %+v", i, loc.ArtifactLocation)
			}
			if rg.StartLine < 1 || rg.StartColumn < 1 {
				t.Errorf("result %d: region starts at %d:%d", i, rg.StartLine, rg.StartColumn)
			}
			if rg.EndLine < rg.StartLine || (rg.EndLine == rg.StartLine && rg.EndColumn < rg.StartColumn) {
				t.Errorf("result %d: region ends at %d:%d before its start %d:%d", i, rg.EndLine, rg.EndColumn, rg.StartLine, rg.StartColumn)
			}
		}
		if r.PartialFingerprints["sotvetFingerprint/v1"] == "" {
			t.Errorf("result %d: no partialFingerprints", i)
		}
	}
	if got := *run.Results[0].Message.Text; got != nastyMessage {
		t.Errorf("message.text = %q, want %q", got, nastyMessage)
	}

	empty := render(t, "sarif", &checks.Result{}, Options{})
	if !bytes.Contains(empty, []byte(`"results": []`)) {
		t.Errorf("empty SARIF lacks \"results\": []:\n%s", empty)
	}
}

func manyErrors(n int, sev checks.Severity) []checks.Finding {
	var fs []checks.Finding
	for i := range n {
		fs = append(fs, checks.Finding{Check: "links", Severity: sev, File: "a.md", Line: i + 1, Col: 1, Message: fmt.Sprintf("broken %d", i), Fingerprint: fmt.Sprint(i)})
	}
	return fs
}

func TestGitHubLimit(t *testing.T) {
	out := string(render(t, "github", &checks.Result{Findings: manyErrors(25, checks.SeverityError)}, Options{}))
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	var annotations, plain int
	for _, l := range lines[:len(lines)-1] {
		switch {
		case strings.HasPrefix(l, "::error "):
			annotations++
		case strings.HasPrefix(l, "a.md:") && strings.Contains(l, ": error [links] broken "):
			plain++
		default:
			t.Errorf("unexpected line %q", l)
		}
	}
	if annotations != 10 || plain != 15 || len(lines) != 26 {
		t.Errorf("%d annotations, %d plain lines, %d lines; want 10, 15, 26\n%s", annotations, plain, len(lines), out)
	}
	if want := "sotvet: 25 findings (25 errors, 0 warnings); 15 not shown as annotations"; lines[len(lines)-1] != want {
		t.Errorf("last line %q, want %q", lines[len(lines)-1], want)
	}
	if want := "a.md:11:1: error [links] broken 10"; lines[10] != want {
		t.Errorf("first plain line %q, want %q", lines[10], want)
	}
}

func TestGitHubLimitPerSeverity(t *testing.T) {
	fs := append(manyErrors(12, checks.SeverityError), manyErrors(12, checks.SeverityWarning)...)
	out := string(render(t, "github", &checks.Result{Findings: fs}, Options{MaxAnnotations: 5}))
	if n := strings.Count(out, "\n::error "); n != 4 { // the first line has no preceding newline
		t.Errorf("%d ::error lines after the first, want 4", n)
	}
	if n := strings.Count(out, "\n::warning "); n != 5 {
		t.Errorf("%d ::warning lines, want 5", n)
	}
	if n := strings.Count(out, ": warning [links] broken "); n != 7 {
		t.Errorf("%d plain warning lines, want 7", n)
	}
	if !strings.HasSuffix(out, "sotvet: 24 findings (12 errors, 12 warnings); 14 not shown as annotations\n") {
		t.Errorf("wrong summary:\n%s", out)
	}
	out = string(render(t, "github", &checks.Result{Findings: manyErrors(3, checks.SeverityError)}, Options{}))
	if !strings.HasSuffix(out, "\nsotvet: 3 findings (3 errors, 0 warnings)\n") {
		t.Errorf("wrong summary:\n%s", out)
	}
}

func TestGitHubEscaping(t *testing.T) {
	f := checks.Finding{Check: "c", Severity: checks.SeverityError, File: "d,1:2%.md", Line: 1, Col: 2, Message: nastyMessage}
	out := string(render(t, "github", &checks.Result{Findings: []checks.Finding{f}}, Options{}))
	want := "::error file=d%2C1%3A2%25.md,line=1,col=2,endLine=1,endColumn=2,title=sotvet c::" +
		"value \"50%25, a:b\" is <bad> & wrong%0Asecond line\n"
	if first, _, _ := strings.Cut(out, "sotvet: 1 findings"); first != want {
		t.Errorf("got  %q\nwant %q", first, want)
	}
	// Past the annotation limit a message still takes one line.
	out = string(render(t, "github", &checks.Result{Findings: []checks.Finding{f, f}}, Options{MaxAnnotations: 1}))
	if n := strings.Count(out, "\n"); n != 3 {
		t.Errorf("two findings and a summary took %d lines:\n%s", n, out)
	}
	// Control bytes of a name or a message (a terminal's escapes) are
	// shown as %XX; a tab is kept.
	f = checks.Finding{Check: "c", Severity: checks.SeverityError, File: "a\x1b[2Kb.md", Line: 1, Message: "x\x1b[31m\tred\x07\x7f"}
	out = string(render(t, "github", &checks.Result{Findings: []checks.Finding{f}}, Options{}))
	want = "::error file=a%1B[2Kb.md,line=1,col=1,endLine=1,endColumn=1,title=sotvet c::x%1B[31m\tred%07%7F\n"
	if first, _, _ := strings.Cut(out, "sotvet: 1 findings"); first != want {
		t.Errorf("got  %q\nwant %q", first, want)
	}
}

type junitDoc struct {
	XMLName  xml.Name `xml:"testsuites"`
	Name     string   `xml:"name,attr"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Suites   []struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Cases    []struct {
			ClassName string `xml:"classname,attr"`
			Name      string `xml:"name,attr"`
			Failure   *struct {
				Message string `xml:"message,attr"`
				Type    string `xml:"type,attr"`
				Text    string `xml:",chardata"`
			} `xml:"failure"`
			SystemOut string `xml:"system-out"`
			File      string `xml:"file,attr"`
			Skipped   *struct {
				Message string `xml:"message,attr"`
			} `xml:"skipped"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func TestJUnit(t *testing.T) {
	out := render(t, "junit", fixture(), fixtureOptions())
	var doc junitDoc
	if err := xml.Unmarshal(out, &doc); err != nil {
		t.Fatalf("output is not XML: %v\n%s", err, out)
	}
	// Warnings pass unless --fail-on warning: the report agrees with the
	// exit code.
	if doc.Name != "sotvet" || doc.Tests != 6 || doc.Failures != 3 {
		t.Errorf("testsuites name=%q tests=%d failures=%d, want sotvet 6 3", doc.Name, doc.Tests, doc.Failures)
	}
	var names []string
	for _, s := range doc.Suites {
		names = append(names, s.Name)
	}
	if got, want := strings.Join(names, " "), "frontmatter links spelling suppression syntax"; got != want {
		t.Errorf("testsuites %q, want %q", got, want)
	}
	fm := doc.Suites[0]
	if fm.Tests != 2 || fm.Failures != 1 || len(fm.Cases) != 2 {
		t.Fatalf("frontmatter suite: tests=%d failures=%d cases=%d", fm.Tests, fm.Failures, len(fm.Cases))
	}
	c := fm.Cases[0]
	if c.ClassName != "frontmatter" || !strings.HasPrefix(c.Name, "docs/a.md:2:8: value") || c.File != "docs/a.md" || c.Failure == nil {
		t.Fatalf("first case %+v", c)
	}
	if c.Failure.Message != nastyMessage || c.Failure.Type != "error" || c.Failure.Text != "docs/a.md:2:8: "+nastyMessage {
		t.Errorf("failure does not round-trip: %+v", c.Failure)
	}
	if w := fm.Cases[1]; w.Failure != nil || w.Skipped == nil || !strings.HasPrefix(w.Skipped.Message, "warning: ") || !strings.Contains(w.SystemOut, ": warning: ") {
		t.Errorf("second case should be a skipped warning with its message: %+v", w)
	}
	// Two findings at one position stay two testcases (GitLab merges
	// testcases of one name).
	twin := fixture()
	twin.Findings = append(twin.Findings, twin.Findings[0])
	var tw junitDoc
	if err := xml.Unmarshal(render(t, "junit", twin, fixtureOptions()), &tw); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, s := range tw.Suites {
		for _, c := range s.Cases {
			if seen[s.Name+"\x00"+c.Name] {
				t.Errorf("testcase name %q repeats in suite %s", c.Name, s.Name)
			}
			seen[s.Name+"\x00"+c.Name] = true
		}
	}
	opt := fixtureOptions()
	opt.FailOn = checks.SeverityWarning
	var strict junitDoc
	if err := xml.Unmarshal(render(t, "junit", fixture(), opt), &strict); err != nil {
		t.Fatal(err)
	}
	if strict.Failures != 5 || strict.Suites[0].Cases[1].Failure == nil || strict.Suites[0].Cases[1].Failure.Type != "warning" {
		t.Errorf("with FailOn warning: failures=%d, want 5, the warning a failure", strict.Failures)
	}
	sp := doc.Suites[2]
	if sp.Tests != 1 || sp.Failures != 0 || len(sp.Cases) != 1 || sp.Cases[0].Name != "spelling" || sp.Cases[0].Failure != nil {
		t.Errorf("spelling suite should hold one passing case: %+v", sp)
	}

	if err := xml.Unmarshal(render(t, "junit", &checks.Result{}, Options{}), &doc); err != nil {
		t.Errorf("empty output is not XML: %v", err)
	}
}

func TestGitHubPlainLineNotACommand(t *testing.T) {
	f := checks.Finding{Check: "c", Severity: checks.SeverityError, File: "::warning::x.md", Line: 1, Col: 1, Message: "m\n::error::injected"}
	out := string(render(t, "github", &checks.Result{Findings: []checks.Finding{f, f}}, Options{MaxAnnotations: 1}))
	lines := strings.Split(out, "\n")
	if want := "./::warning::x.md:1:1: error [c] m%0A::error::injected"; lines[1] != want {
		t.Errorf("plain line %q, want %q", lines[1], want)
	}
}
