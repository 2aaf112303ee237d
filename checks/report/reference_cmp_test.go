package report

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/checks"
)

// refWrite renders res as the reference writers do.
func refWrite(t testing.TB, format string, res *checks.Result, opt Options) []byte {
	t.Helper()
	if opt.Tool == "" {
		opt.Tool = "sotvet"
	}
	var out bytes.Buffer
	buf := bufio.NewWriter(&out)
	var err error
	switch format {
	case "text":
		refWriteText(buf, res)
	case "json":
		err = refWriteJSON(buf, res, opt)
	case "sarif":
		err = refWriteSARIF(buf, res, opt)
	case "github":
		refWriteGitHub(buf, res, opt)
	case "junit":
		err = refWriteJUnit(buf, res, opt)
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := buf.Flush(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// Pieces random findings are made of: every character some format escapes
// or normalises, Unicode spaces, invalid UTF-8, characters XML cannot hold.
var (
	randChecks     = []string{"hygiene", "structure", "secrets", "unknown", "a&b", "x\"y", "", "x", "x/y"}
	randCategories = []string{"", "", "blank-lines", "item-acceptance", "odd cat", "<c>", "y", "y/z"}
	randSeverities = []checks.Severity{checks.SeverityError, checks.SeverityWarning, "", "info"}
	randFiles      = []string{"", "a.md", ".sot/x/LEGACY-1.md", "b two.md", "p%20q#r?s.md", "a:b,c.md", "/abs/path.md", "::warning::x.md",
		"line\nbreak.md", "tab\t.md", "\xff.md", "é/ü.md", "a&<>\"'.md", "f:1:2", "f", "\u2028.md", "%SRCROOT%"}
	randPieces = []string{"word", " ", "  ", "\t", "\n", "\r", "\r\n", "\u00a0", "\u0085", "\u2028", "\u2029", "\u3000", "\x01", "\x00", "\x1f",
		"\x7f", "\xff", "\xc3", "\uFFFE", "\uFFFD", "\U0001F600", "é", "\"", "'", "&", "<", ">", "%", ":", ",", "\\", "::error::", "f:1:2: ", "(2)", "\ud7ff", "\ue000"}
)

func randString(r *rand.Rand, n int) string {
	var s strings.Builder
	for range r.IntN(n + 1) {
		s.WriteString(randPieces[r.IntN(len(randPieces))])
	}
	return s.String()
}

func randResult(r *rand.Rand) (*checks.Result, Options) {
	res := &checks.Result{Files: r.IntN(5), Checked: []string{"hygiene", "structure"}}
	pick := func(ss []string) string { return ss[r.IntN(len(ss))] }
	n := r.IntN(40)
	for range n {
		if len(res.Findings) > 0 && r.IntN(4) == 0 {
			res.Findings = append(res.Findings, res.Findings[r.IntN(len(res.Findings))]) // a twin
			continue
		}
		f := checks.Finding{
			Check: pick(randChecks), Category: pick(randCategories), Severity: randSeverities[r.IntN(len(randSeverities))],
			File: pick(randFiles), Line: r.IntN(5) - 1, Col: r.IntN(5) - 1, EndLine: r.IntN(6) - 1, EndCol: r.IntN(6) - 1,
			Message: randString(r, 8),
		}
		if r.IntN(2) == 0 {
			f.Fingerprint = fmt.Sprintf("%016x:%d", r.Uint64(), r.IntN(3))
		}
		for range r.IntN(3) / 2 * r.IntN(3) {
			f.Related = append(f.Related, checks.Related{File: pick(randFiles), Line: r.IntN(4) - 1, Col: r.IntN(4) - 1, Message: randString(r, 4)})
		}
		res.Findings = append(res.Findings, f)
	}
	opt := Options{Version: pick([]string{"", "devel", "v1.0.0"}), MaxAnnotations: r.IntN(4), FailOn: randSeverities[r.IntN(len(randSeverities))]}
	if r.IntN(2) == 0 {
		opt.SrcRoot = pick([]string{"/tmp/ws", "/tmp/ws/", "/tmp/a b%"})
	}
	if r.IntN(2) == 0 {
		opt.Tool = pick([]string{"sotvet", "t,o:o%l"})
	}
	if r.IntN(3) > 0 {
		opt.Rules = []Rule{
			{Name: "hygiene", Short: "Reports untidy Markdown." + randString(r, 3), Doc: "Doc <&>\n\nmore." + randString(r, 6), Categories: []string{"blank-lines", "odd cat"}, Warning: map[string]bool{"blank-lines": true}},
			{Name: "structure", Doc: "Structure.", URL: "https://example.com/s"},
			{Name: "secrets", Short: "Secrets.", Categories: []string{"item-acceptance"}},
			{Name: "hygiene", Short: "dup"},
		}
	}
	return res, opt
}

// TestWritersMatchReference: every writer writes what the reference writer
// writes, on random findings full of what the formats escape, and on the
// shapes the golden files and a large adoption have.
func TestWritersMatchReference(t *testing.T) {
	check := func(t *testing.T, name string, res *checks.Result, opt Options) {
		t.Helper()
		for _, format := range Formats {
			want := refWrite(t, format, res, opt)
			var got bytes.Buffer
			if err := Write(&got, format, res, opt); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Fatalf("%s, %s: output differs from the reference\ngot:\n%s\nwant:\n%s", name, format, got.Bytes(), want)
			}
		}
	}
	check(t, "fixture", fixture(), fixtureOptions())
	check(t, "related", relatedFixture(), fixtureOptions())
	res, opt := adoptShaped(300, 7)
	check(t, "adopt-shaped", res, opt)
	// A seeded sample by default (the race detector makes each result
	// ten times dearer); the whole sweep with SOTVET_SLOW=1.
	random, colliding := 500, 100
	if os.Getenv("SOTVET_SLOW") != "" {
		random, colliding = 3000, 300
	}
	r := rand.New(rand.NewPCG(20, 6))
	for i := range random {
		res, opt := randResult(r)
		check(t, fmt.Sprintf("random %d", i), res, opt)
	}
	// Testcase names whose hashes collide are still told apart.
	testcaseHash = func(name []byte) uint64 { return uint64(len(name) % 3) }
	defer func() { testcaseHash = nil }()
	for i := range colliding {
		res, opt := randResult(r)
		check(t, fmt.Sprintf("colliding %d", i), res, opt)
	}
}
