package cases_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/checks/cases"
	"github.com/svrnty/sotvet/checks/checktest"
)

func TestCases(t *testing.T) {
	for _, dir := range []string{"valid", "broken"} {
		t.Run(dir, func(t *testing.T) {
			for _, f := range checktest.Run(t, filepath.Join("testdata", dir), cases.Analyzer) {
				if f.Category != cases.Category || f.Severity != checks.SeverityError {
					t.Errorf("%s:%d: category %q severity %q", f.File, f.Line, f.Category, f.Severity)
				}
			}
		})
	}
}

// TestColumns: findings carry the contract's byte columns.
func TestColumns(t *testing.T) {
	got := map[string]bool{}
	for _, f := range checktest.Findings(t, filepath.Join("testdata", "broken"), cases.Analyzer) {
		got[fmt.Sprintf("%s:%d:%d", f.File, f.Line, f.Col)] = true
	}
	for _, want := range []string{
		"empty/case.yaml:1:1",
		"keys/case.yaml:1:5",   // the id's value
		"keys/case.yaml:4:16",  // the mode's value
		"keys/case.yaml:14:32", // the second event
		"keys/case.yaml:16:12",
		"no-repo/case.yaml:1:1",
		"no-repo/case.yaml:10:13", // fake.solution's value
		"unicode/case.yaml:8:8",   // «k»
		"unicode/case.yaml:8:28",  // ../ünï: 26th code point, 28th byte
		"yaml/case.yaml:2:1",
	} {
		if !got[want] {
			t.Errorf("no finding at %s", want)
		}
	}
}

// TestShippedCases: the harness's own cases are clean.
func TestShippedCases(t *testing.T) {
	res, ws := checktest.Result(t, filepath.Join("..", "..", "testdata", "cases"), cases.Analyzer)
	n := 0
	for _, f := range ws.Files {
		if strings.HasSuffix(f.Path, "/case.yaml") {
			n++
		}
	}
	if n != 3 {
		t.Errorf("%d case.yaml files in the model, want 3", n)
	}
	for _, f := range res.Findings {
		t.Errorf("%s:%d:%d: %s", f.File, f.Line, f.Col, f.Message)
	}
}

func TestDoc(t *testing.T) {
	a := cases.Analyzer
	checktest.Doc(t, a, "cases: validate harness case contracts (case.yaml)")
	if a.URL != "https://github.com/svrnty/sotvet/blob/main/docs/checks.md#cases" {
		t.Errorf("URL %s", a.URL)
	}
}
