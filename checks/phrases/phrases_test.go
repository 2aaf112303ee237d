package phrases_test

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/svrnty/sotvet/checks/checktest"
	"github.com/svrnty/sotvet/checks/phrases"
)

const testRules = `
- docs: .sot/03-PROTOCOLS/*-CLOSEOUT.md
  in: self
  phrases: ["completion_status: complete", "Do not activate Case as default backend."]
- item: CTO-WORK-010
  phrases: ["completion_status: complete", "completion_status: final"]
- item: CTO-WORK-010
  in: self
  phrases: ["Item text in the issue.", "Not in the issue"]
- item: CTO-WORK-011
  phrases: [anything]
- docs: .sot/03-PROTOCOLS/CTO-NOH1-RECORD.md
  in: .sot/03-PROTOCOLS/CTO-GONE-CLOSEOUT.md
  phrases: [anything]
- docs: .sot/03-PROTOCOLS/CTO-NOH1-RECORD.md
  in: .sot/03-PROTOCOLS/CTO-RULE-ISSUES.md
  phrases: ["Rule Item", "Record with an H1"]
`

func TestPhrases(t *testing.T) {
	for _, tc := range []struct {
		dir   string
		flags map[string]string
		cats  []string
	}{
		{dir: "clean"},
		{dir: "missing", cats: []string{"missing-phrase"}},
		{dir: "targets", cats: []string{"missing-phrase"}, flags: map[string]string{"targets": "CLOSEOUT"}},
		{dir: "sections", cats: []string{"missing-phrase"}, flags: map[string]string{"sections": "required phrases"}},
		{dir: "rules", cats: []string{"missing-phrase", "missing-target"}, flags: map[string]string{"rules": testRules}},
	} {
		t.Run(tc.dir, func(t *testing.T) {
			for name, v := range tc.flags {
				checktest.SetFlag(t, phrases.Analyzer, name, v)
			}
			fs := checktest.Run(t, filepath.Join("testdata", tc.dir), phrases.Analyzer)
			checktest.CheckFindings(t, fs, tc.cats...)
		})
	}
}

func TestRuleSetErrors(t *testing.T) {
	for _, tc := range []struct{ name, yaml, want string }{
		{"not a list", "docs: x", "want a list of phrase rules"},
		{"unknown key", "- {docs: a.md, phrases: [x], severity: high}", "severity"},
		{"duplicate key", "- {docs: a.md, docs: b.md, phrases: [x]}", "docs"},
		{"neither", "- {in: self, phrases: [x]}", "rule 1: want docs (a glob) or item (a work item id)"},
		{"both", "- {docs: a.md, item: CTO-WORK-001, phrases: [x]}", "rule 1: docs and item exclude each other"},
		{"bad glob", "- {docs: 'a/[b', phrases: [x]}", `rule 1: docs pattern "a/[b" is not a valid glob`},
		{"absolute glob", "- {docs: /a/*.md, phrases: [x]}", "must be relative"},
		{"dotdot glob", "- {docs: ../a/*.md, phrases: [x]}", "must not contain .."},
		{"bad item", "- {item: CTO WORK, phrases: [x]}", "is not a work item id"},
		{"bad in", "- {docs: a.md, in: ../b.md, phrases: [x]}", `in "../b.md"`},
		{"unclean in", "- {docs: a.md, in: ./b.md, phrases: [x]}", `in "./b.md"`},
		{"in not markdown", "- {docs: a.md, in: b.json, phrases: [x]}", "markdown document"},
		{"no phrases", "- {docs: a.md}", "rule 1: phrases: want a non-empty list"},
		{"empty phrase", "- {docs: a.md, phrases: [x, '**']}", "rule 1: phrase 2 is empty"},
		{"phrases not a list", "- {docs: a.md, phrases: x}", "cannot"},
		{"second rule", "- {docs: a.md, phrases: [x]}\n- {docs: b.md}", "rule 2: phrases"},
		{"yaml syntax", "- {docs: a.md", "yaml"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s phrases.RuleSet
			err := s.Set(tc.yaml)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Set(%q) = %v, want an error containing %q", tc.yaml, err, tc.want)
			}
		})
	}
}

func TestRuleSetRoundTrip(t *testing.T) {
	var s phrases.RuleSet
	if err := s.Set(testRules); err != nil {
		t.Fatal(err)
	}
	text := s.String()
	var back phrases.RuleSet
	if err := back.Set(text); err != nil {
		t.Fatalf("Set(String()) = %v\n%s", err, text)
	}
	if back.String() != text || len(back.Rules()) != 6 {
		t.Errorf("round trip changed the set:\n%s\n---\n%s", text, back.String())
	}
	if err := back.Set(""); err != nil || back.String() != "" || len(back.Rules()) != 0 {
		t.Errorf("Set(\"\") = %v, String %q", err, back.String())
	}
}

func TestClone(t *testing.T) {
	checktest.SetOnClone(t, phrases.Analyzer, "rules", testRules)
}

func TestFlagErrors(t *testing.T) {
	for _, tc := range []struct{ flag, value string }{
		{"scope", "/abs/**"},
		{"targets", "EVIDENCE,NOTES"},
		{"sections", "Required Words"},
	} {
		if err := phrases.Analyzer.Flags.Lookup(tc.flag).Value.Set(tc.value); err == nil {
			t.Errorf("-%s=%s: no error", tc.flag, tc.value)
		}
	}
}

func TestDoc(t *testing.T) {
	rest := checktest.Doc(t, phrases.Analyzer, "phrases: check that required phrases appear where they are required",
		"scope", "targets", "sections", "rules")
	for _, c := range []string{"missing-phrase", "missing-target"} {
		if !strings.Contains(rest, c) {
			t.Errorf("Doc does not name category %s", c)
		}
	}
}

// TestCorpusFindings pins the corpus findings: every required phrase list
// of the corpus is satisfied by its route's target. (The endgoal closeout's
// own Validator Summary Phrases are its summary and are not checked.)
func TestCorpusFindings(t *testing.T) {
	for _, f := range checktest.Findings(t, checktest.BenchCorpusDir(t), phrases.Analyzer) {
		t.Errorf("unexpected corpus finding %s:%d: %s", f.File, f.Line, f.Message)
	}
}

// BenchmarkRun measures the check alone, on the corpus parsed once.
func BenchmarkRun(b *testing.B) {
	checktest.BenchPass(b, checktest.BenchCorpusDir(b), cpuTime, phrases.Analyzer)
}

// cpuTime returns the user and system CPU time of the process, which a
// loaded machine disturbs less than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
