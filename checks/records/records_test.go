package records_test

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/checks/checktest"
	"github.com/svrnty/sotvet/checks/records"
	"github.com/svrnty/sotvet/checks/syntax"
)

// fakeKey builds a credential-shaped value from a prefix and n pseudo-random
// base62 characters, so that no committed file holds such a literal.
func fakeKey(prefix string, n int) string {
	const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789"
	b := []byte(prefix)
	x := uint32(88172645)
	for i := 0; i < n; i++ {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b = append(b, alphabet[x%uint32(len(alphabet))])
	}
	return string(b)
}

var fakeValues = map[string]string{
	"@OPENAI_KEY@":   fakeKey("sk-"+"proj-", 40),
	"@GITHUB_TOKEN@": fakeKey("gh"+"p_", 36),
	"@URL_PASSWORD@": fakeKey("Pw", 14),
	"@API_KEY@":      fakeKey("q8", 14),
	"@BEARER@":       fakeKey("tok", 30),
	"@AUTH_TOKEN@":   fakeKey("a1", 10),
}

// testDir returns the testdata workspace dir, with its @NAME@ placeholders
// replaced by fake keys in a temporary copy when it has any.
func testDir(t *testing.T, dir string) string {
	t.Helper()
	src := filepath.Join("testdata", dir)
	if dir != "credential" {
		return src
	}
	dst := t.TempDir()
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		s := string(b)
		for k, v := range fakeValues {
			s = strings.ReplaceAll(s, k, v)
		}
		rel, _ := filepath.Rel(src, p)
		out := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		return os.WriteFile(out, []byte(s), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func TestRecords(t *testing.T) {
	for _, dir := range []string{"clean", "model", "target", "credential", "fallback", "syntax"} {
		t.Run(dir, func(t *testing.T) {
			for _, f := range checktest.Run(t, testDir(t, dir), records.Analyzer) {
				if f.Severity != checks.SeverityError {
					t.Errorf("%s:%d: severity %q, want error", f.File, f.Line, f.Severity)
				}
			}
		})
	}
}

// TestCategories checks the category of each kind of finding.
func TestCategories(t *testing.T) {
	want := map[string][]string{
		"model": {"missing-member", "unknown-status", "empty-value", "empty-value", "empty-value", "empty-value",
			"wrong-type", "timestamp", "unknown-status", "timestamp", "timestamp"},
		"target": {"target-path", "empty-value", "risk-classification", "path-overlap", "allowed-path", "allowed-path",
			"allowed-path", "allowed-path", "path-overlap", "path-overlap", "path-overlap", "path-overlap", "duplicate-entry",
			"allowed-path", "forbidden-path", "forbidden-path", "forbidden-path", "forbidden-actions", "duplicate-entry",
			"operator-outcome", "empty-value", "timestamp", "empty-value", "empty-value", "empty-value", "unknown-status"},
		"credential": {"credential", "credential", "credential", "credential", "credential", "credential"},
		"fallback":   {"missing-member", "unknown-member", "missing-member", "missing-member", "unknown-member"},
		"syntax":     {"wrong-type", "wrong-type", "wrong-type"},
	}
	for _, dir := range slices.Sorted(maps.Keys(want)) {
		fs := checktest.Run(t, testDir(t, dir), records.Analyzer)
		var got []string
		for _, f := range fs {
			got = append(got, f.Category)
		}
		slices.Sort(got)
		exp := slices.Sorted(slices.Values(want[dir]))
		if !slices.Equal(got, exp) {
			t.Errorf("%s: categories %q, want %q", dir, got, exp)
		}
	}
}

// TestNoSecretInMessages checks that no message repeats a credential value.
func TestNoSecretInMessages(t *testing.T) {
	var secrets []string
	for _, v := range fakeValues {
		secrets = append(secrets, v)
	}
	for _, f := range checktest.Run(t, testDir(t, "credential"), records.Analyzer) {
		for _, s := range secrets {
			if strings.Contains(f.Message, s) {
				t.Errorf("%s:%d: message repeats a secret: %s", f.File, f.Line, f.Message)
			}
		}
	}
}

// TestNotDoubleReported checks that records and syntax never both report
// the same line: what sotparse reports (syntax, duplicates, unknown members,
// the first type error) is left to the syntax check. A credential is a
// finding of its own, even in a member the syntax check reports as unknown.
func TestNotDoubleReported(t *testing.T) {
	for _, dir := range []string{"syntax", "credential", "fallback", "model", "target"} {
		fs := checktest.Findings(t, testDir(t, dir), records.Analyzer, syntax.Analyzer)
		by := map[string][]string{}
		var keys []string
		for _, f := range fs {
			if f.Category == "credential" {
				continue
			}
			k := fmt.Sprintf("%s:%d", f.File, f.Line)
			if !slices.Contains(by[k], f.Check) {
				by[k] = append(by[k], f.Check)
			}
			keys = append(keys, k)
		}
		for _, k := range keys {
			if len(by[k]) > 1 {
				t.Errorf("%s: %s reported by %q", dir, k, by[k])
			}
		}
		if dir == "syntax" {
			n := 0
			for _, f := range fs {
				if f.Check == "syntax" {
					n++
				}
			}
			if n < 3 {
				t.Errorf("syntax: %d syntax findings, want the duplicate member, the malformed record and the first type error", n)
			}
		}
	}
}

func TestDoc(t *testing.T) {
	a := records.Analyzer
	checktest.Doc(t, a, "records: check model-provider and target-repository admission records")
	if a.URL != "https://github.com/svrnty/sotvet/blob/main/docs/checks.md#records" {
		t.Errorf("URL = %q", a.URL)
	}
}

// TestCorpus runs the check over the real corpus and logs the findings.
func TestCorpus(t *testing.T) {
	checktest.LogFindings(t, checktest.Findings(t, checktest.CorpusDir(t), records.Analyzer))
}

// BenchmarkCorpus measures the check (the parse included) on the real corpus.
func BenchmarkCorpus(b *testing.B) {
	checktest.BenchRun(b, checktest.CorpusDir(b), nil, records.Analyzer)
}
