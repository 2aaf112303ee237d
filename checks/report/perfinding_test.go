package report_test

import (
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/checks/hygiene"
	"github.com/svrnty/sotvet/checks/report"
	"github.com/svrnty/sotvet/internal/cputime"
)

// BenchmarkPerFinding measures the cost of one finding from the check's
// Report to the encoded output, in every format (target <= 3 µs): a run
// over 20 documents of 1,000 lines with a trailing-space finding on each
// line, less the same run over the same documents without the trailing
// spaces, divided by the 20,000 findings. The cost is CPU time (both
// cores), not wall time: the machine it runs on is shared. It covers resolving, suppressions,
// redaction, sorting, fingerprinting and encoding.
func BenchmarkPerFinding(b *testing.B) {
	const docs, lines = 20, 1000
	write := func(dir, tail string) {
		for i := range docs {
			var s strings.Builder
			fmt.Fprintf(&s, "---\nname: d%d\n---\n\n# D%d\n\n", i, i)
			for j := range lines {
				fmt.Fprintf(&s, "Line %d of a document with some ordinary text on it, as long as a line of prose.%s\n", j, tail)
			}
			p := filepath.Join(dir, ".sot", fmt.Sprintf("D%02d-PRD.md", i))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(s.String()), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	noisy, clean := b.TempDir(), b.TempDir()
	write(noisy, "   ")
	write(clean, "")
	run := func(b *testing.B, dir, format string) (time.Duration, int) {
		start := cputime.Process()
		// As `sotvet check` runs: texts released, no fixes built.
		res, _, err := checks.Run(checks.Options{Root: dir, FS: os.DirFS(dir), Analyzers: []*analysis.Analyzer{hygiene.Analyzer}, ReleaseText: true, NoFixes: true})
		if err != nil {
			b.Fatal(err)
		}
		if err := report.Write(io.Discard, format, res, report.Options{SrcRoot: dir}); err != nil {
			b.Fatal(err)
		}
		return cputime.Process() - start, len(res.Findings)
	}
	for _, format := range report.Formats {
		b.Run(format, func(b *testing.B) {
			var extra time.Duration
			n := 0
			for b.Loop() {
				tn, found := run(b, noisy, format)
				tc, _ := run(b, clean, format)
				extra += tn - tc
				n += found
			}
			if n == 0 {
				b.Fatal("no findings")
			}
			b.ReportMetric(float64(extra.Nanoseconds())/float64(n), "ns/finding")
		})
	}
}

// TestJUnitEscapesAsEncodingXML: the hand-written JUnit report parses back
// to the message it was given, with what XML cannot hold replaced as
// encoding/xml replaces it.
func TestJUnitEscapesAsEncodingXML(t *testing.T) {
	msg := "a<b>&\"'\tline\nbreak\r\x01 \uFFFD \xff end"
	res := &checks.Result{Checked: []string{"x"}, Findings: []checks.Finding{{Check: "x", Severity: checks.SeverityError, File: "a&b.md", Line: 2, Col: 3, Message: msg}}}
	var buf strings.Builder
	if err := report.Write(&buf, "junit", res, report.Options{}); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Suites []struct {
			Cases []struct {
				File    string `xml:"file,attr"`
				Failure struct {
					Message string `xml:"message,attr"`
					Text    string `xml:",chardata"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal([]byte(buf.String()), &got); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	want := "a<b>&\"'\tline\nbreak\r\uFFFD \uFFFD \uFFFD end"
	c := got.Suites[0].Cases[0]
	if c.File != "a&b.md" || c.Failure.Message != want || c.Failure.Text != "a&b.md:2:3: "+want {
		t.Errorf("got file %q message %q text %q\nwant message %q", c.File, c.Failure.Message, c.Failure.Text, want)
	}
}
