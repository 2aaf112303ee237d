package secrets

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/internal/testcorpus"
)

func defaultScanner(t testing.TB) *Scanner {
	t.Helper()
	s, err := NewScanner(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestPrecisionRecall scans the labelled corpus: every true-positive sample
// must yield exactly its one finding (rule and byte span), every
// false-positive sample none.
func TestPrecisionRecall(t *testing.T) {
	s := defaultScanner(t)
	type counts struct{ tp, fp, fn, tpSamples, fpSamples int }
	per := map[string]*counts{}
	get := func(id string) *counts {
		if per[id] == nil {
			per[id] = &counts{}
		}
		return per[id]
	}
	// The built-in rules; the imported ones are measured by family in
	// TestFamilies and against gitleaks' own samples in TestHeldOut.
	for _, r := range s.Rules() {
		if r.Source == "" {
			get(r.ID)
		}
	}
	var tpN, fpN, fnN int
	for _, sm := range corpusSamples() {
		if sm.rule == "" && sm.fpFor == "" {
			continue
		}
		path := "sample.md"
		if sm.path != "" {
			path = sm.path
		}
		fs := s.Scan(path, []byte(sm.text))
		if sm.rule != "" {
			c := get(sm.rule)
			c.tpSamples++
			want := strings.Index(sm.text, sm.secret)
			if want < 0 {
				t.Fatalf("%s: sample does not contain its secret", sm.name)
			}
			found := false
			for _, f := range fs {
				if f.RuleID == sm.rule && f.Start == want && f.End == want+len(sm.secret) {
					found = true
					continue
				}
				fpN++
				get(f.RuleID).fp++
				t.Errorf("%s: unexpected finding %v", sm.name, f)
			}
			if found {
				tpN++
				c.tp++
			} else {
				fnN++
				c.fn++
				t.Errorf("%s: missed %s secret %s at %d", sm.name, sm.rule, Mask(sm.secret), want)
			}
			continue
		}
		get(sm.fpFor).fpSamples++
		for _, f := range fs {
			fpN++
			get(f.RuleID).fp++
			t.Errorf("%s (false-positive sample for %s): unexpected finding %v", sm.name, sm.fpFor, f)
		}
	}

	// The workspace prose file: every paragraph is a false-positive sample.
	prose, err := os.ReadFile(filepath.Join("testdata", "workspace-prose.md"))
	if err != nil {
		t.Fatal(err)
	}
	paras := strings.Split(string(prose), "\n\n")
	for _, f := range s.Scan("testdata/workspace-prose.md", prose) {
		fpN++
		get(f.RuleID).fp++
		t.Errorf("workspace prose: unexpected finding %v", f)
	}

	precision := float64(tpN) / float64(tpN+fpN)
	recall := float64(tpN) / float64(tpN+fnN)
	t.Logf("precision %.3f (%d/%d), recall %.3f (%d/%d); %d workspace-prose paragraphs",
		precision, tpN, tpN+fpN, recall, tpN, tpN+fnN, len(paras))
	ids := make([]string, 0, len(per))
	for id := range per {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		c := per[id]
		t.Logf("  %-26s TP samples %2d  FP samples %2d  | found %2d  missed %d  false %d", id, c.tpSamples, c.fpSamples, c.tp, c.fn, c.fp)
		if c.tpSamples == 0 || c.fpSamples == 0 {
			t.Errorf("rule %s needs at least one true-positive and one false-positive sample", id)
		}
	}
	if precision != 1 || recall != 1 {
		t.Errorf("precision %.3f recall %.3f, want 1 and 1", precision, recall)
	}
}

// TestNoSecretInOutput: for every rule, the Finding printed in every way and
// the Redact output hold no secret.
func TestNoSecretInOutput(t *testing.T) {
	s := defaultScanner(t)
	rules := map[string]bool{}
	for _, sm := range corpusSamples() {
		if sm.rule == "" {
			continue
		}
		rules[sm.rule] = true
		path := "dir/" + sm.name + ".md"
		if sm.path != "" {
			path = "dir/" + sm.path
		}
		fs := s.Scan(path, []byte(sm.text))
		if len(fs) == 0 {
			t.Errorf("%s: no finding", sm.name)
		}
		for _, f := range fs {
			for _, out := range []string{
				fmt.Sprintf("%v", f), fmt.Sprintf("%+v", f), fmt.Sprintf("%#v", f),
				fmt.Sprintf("%s", f), fmt.Sprint(fs), fmt.Sprintf("%#v", fs),
			} {
				if strings.Contains(out, sm.secret) {
					t.Errorf("%s: formatted finding holds the secret: %s", sm.name, strings.ReplaceAll(out, sm.secret, "<SECRET>"))
				}
			}
			if want := ruleOf(s, sm.rule).Mask(sm.secret); f.Redacted != want {
				t.Errorf("%s: Redacted = %q, want %q", sm.name, f.Redacted, want)
			}
			if f.Fingerprint != Fingerprint(sm.rule, sm.secret) {
				t.Errorf("%s: wrong fingerprint", sm.name)
			}
		}
		red := s.Redact([]byte(sm.text))
		if strings.Contains(string(red), sm.secret) {
			t.Errorf("%s: Redact output holds the secret", sm.name)
		}
		if want := ruleOf(s, sm.rule).Mask(sm.secret); !strings.Contains(string(red), want) {
			t.Errorf("%s: Redact output lacks the mask %q: %q", sm.name, want, red)
		}
		if got := s.RedactString(sm.text); got != string(red) {
			t.Errorf("%s: RedactString differs from Redact", sm.name)
		}
		// Redacting twice changes nothing more: masks are not secrets.
		if again := s.Redact(red); string(again) != string(red) {
			t.Errorf("%s: Redact is not idempotent: %q -> %q", sm.name, red, again)
		}
	}
	for _, r := range s.Rules() {
		if r.Source == "" && !rules[r.ID] {
			t.Errorf("rule %s has no true-positive sample", r.ID)
		}
	}
}

// TestAWSPair: an access key ID and its secret access key in one file are
// two findings.
func TestAWSPair(t *testing.T) {
	s := defaultScanner(t)
	for _, sm := range corpusSamples() {
		if sm.name != "aws pair ini" {
			continue
		}
		fs := s.Scan("credentials", []byte(sm.text))
		var got []string
		for _, f := range fs {
			got = append(got, fmt.Sprintf("%s@%d:%d", f.RuleID, f.Line, f.Col))
		}
		want := []string{RuleAWSAccessKeyID + "@2:21", RuleAWSSecretAccessKey + "@3:25"}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("got %v, want %v", got, want)
		}
		return
	}
	t.Fatal("aws pair sample missing")
}

// TestRealCorpus: the user's workspace has no secret and no endpoint value.
func TestRealCorpus(t *testing.T) {
	root := testcorpus.Require(t)
	s := defaultScanner(t)
	files, bytesN := 0, 0
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files++
		bytesN += len(data)
		rel, _ := filepath.Rel(root, p)
		for _, f := range s.Scan(filepath.ToSlash(rel), data) {
			if !f.Allowed {
				t.Errorf("%v", f)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("scanned %d files, %d bytes", files, bytesN)
	if files == 0 {
		t.Errorf("no files in %s", root)
	}
}
