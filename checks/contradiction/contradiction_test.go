package contradiction_test

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/checks/checktest"
	"github.com/svrnty/sotvet/checks/contradiction"
)

// A shape is one rule's situation, written twice from the same template:
// with the contradiction, and consistent (the same documents, the same
// sentence forms, nothing disagreeing). The consistent set is the rule's
// negative set: any finding there is a false alarm.
type shape struct {
	category string
	files    func(defect bool) map[string]string
}

func doc(status, body string) string {
	return "---\nname: Test Document\nstatus: " + status + "\nowner: jp\ncreated: 2026-06-01\nlast_reviewed: 2026-06-01\n---\n\n# Test Document\n\n" + body
}

func pick(defect bool, bad, good string) string {
	if defect {
		return bad
	}
	return good
}

const dir = ".sot/03-PROTOCOLS/"

var shapes = []shape{
	{"role", func(defect bool) map[string]string {
		return map[string]string{
			dir + "CTO-R-RECORD.md": doc("validated", `## Decision

`+"`local_provider_required` means JP approved `qwen-local` with model `qwen-x` as primary, and `codex` with model `gpt-y` as fallback."+`

- JP selected `+"`qwen-local` / `qwen-x`"+` on Spark as the default provider path.
- `+"`codex` / `gpt-y`"+` may be recorded as the primary provider only when JP approves it.
- `+"`qwen-local` / `qwen-x`"+` is not the fallback.
`),
			dir + "CTO-R-ISSUES.md": doc("validated", "## Scope\n\n"+
				pick(defect, "Record the admission for the approved `codex` / `gpt-y` primary provider path.\n",
					"Record the admission for the approved `codex` / `gpt-y` fallback provider path.\n")+
				"\n```text\n`qwen-local` / `qwen-x` as fallback\n```\n\n> `qwen-local` / `qwen-x` as fallback\n"),
		}
	}},
	{"copied-results", func(defect bool) map[string]string {
		evidence := func(sha, focused, aggregate string) string {
			return doc("validated", "## Implementation Evidence\n\n- Plugin commit: `"+sha+" Add a surface`\n\n## Validation Evidence\n\n- Focused result: `"+focused+"`\n- Aggregate result before commit: `"+aggregate+"`\n")
		}
		return map[string]string{
			dir + "CTO-A-EVIDENCE.md": evidence("a109448", "5 passed", "103 passed, 4 skipped"),
			dir + "CTO-B-EVIDENCE.md": evidence("154d835", "5 passed", pick(defect, "103 passed, 4 skipped", "104 passed, 4 skipped")),
			// The same results for the same commit are one run cited twice.
			dir + "CTO-C-EVIDENCE.md": evidence("a109448", "5 passed", "103 passed, 4 skipped"),
		}
	}},
	{"approval-timeline", func(defect bool) map[string]string {
		return map[string]string{
			dir + "CTO-REQ-RECORD.md":   doc("validated", "## Request State\n\n- approval_granted: "+pick(defect, "false", "true")+"\n- JP approval is still required before execution.\n\n## Evidence\n\n- Target: `/work/target-repo`\n- Stage 5 report: `/runs/r1/report.json`\n"),
			dir + "CTO-RUN-CLOSEOUT.md": doc("validated", "## Harness Evidence\n\n- Target: `/work/target-repo`\n- Harness report: `/runs/r1/report.json`\n- allowed paths passed: true\n"),
			// A record that cites only the repository all runs share.
			dir + "CTO-OTHER-RECORD.md": doc("validated", "## State\n\n- approval_granted: false\n- Target: `/work/target-repo`\n"),
		}
	}},
	{"superseded", func(defect bool) map[string]string {
		return map[string]string{
			"WORKBOARD.yaml":         "items:\n  - id: CTO-WORK-001\n    title: First\n    status: validated\n    blocked_by: []\n    source: .sot/03-PROTOCOLS/CTO-S-EVIDENCE.md\n  - id: CTO-WORK-002\n    title: Second\n    status: blocked\n    blocked_by: []\n    source: .sot/03-PROTOCOLS/CTO-S-EVIDENCE.md\n",
			dir + "CTO-S-ATTEMPT.md": doc("blocked", "## Decision\n\nDo not mark `CTO-WORK-001` validated.\n\nDo not mark `CTO-WORK-002` validated.\n"),
			dir + "CTO-S-EVIDENCE.md": doc("validated", "## Result\n\n`CTO-WORK-001` is validated as the first run.\n\nDo not mark `CTO-WORK-002` validated yet.\n"+
				pick(defect, "", "\nThis supersedes the blocked attempt `.sot/03-PROTOCOLS/CTO-S-ATTEMPT.md`.\n")),
		}
	}},
	// The same, the later document naming the attempt by its file name
	// alone.
	{"superseded", func(defect bool) map[string]string {
		return map[string]string{
			"WORKBOARD.yaml":         "items:\n  - id: CTO-WORK-001\n    title: First\n    status: validated\n    blocked_by: []\n    source: .sot/03-PROTOCOLS/CTO-S-EVIDENCE.md\n",
			dir + "CTO-S-ATTEMPT.md": doc("blocked", "## Decision\n\nDo not mark `CTO-WORK-001` validated.\n"),
			dir + "CTO-S-EVIDENCE.md": doc("validated", "## Result\n\n`CTO-WORK-001` is validated as the first run.\n"+
				pick(defect, "", "\nThis replaces the blocked attempt in `CTO-S-ATTEMPT.md`.\n")),
		}
	}},
	{"missing-id", func(defect bool) map[string]string {
		var b strings.Builder
		b.WriteString("items:\n")
		last := pick(defect, "006", "004")
		for _, n := range []string{"001", "002", "003", last} {
			fmt.Fprintf(&b, "  - id: CTO-WORK-%s\n    title: Item %s\n    status: candidate\n    blocked_by: []\n    source: .sot/03-PROTOCOLS/CTO-M-ISSUES.md\n", n, n)
		}
		return map[string]string{
			"WORKBOARD.yaml":        b.String(),
			dir + "CTO-M-ISSUES.md": doc("candidate", "## Items\n\nThe items are `CTO-WORK-001` to `CTO-WORK-003` and `CTO-WORK-"+last+"`; `CTO-WORK-005` is mentioned only.\n"),
		}
	}},
}

func init() {
	shapes = append(shapes,
		shape{"closeout-workboard", func(defect bool) map[string]string {
			return map[string]string{
				dir + "CTO-K-ISSUES.md":   doc("validated", "## CTO-WORK-001 - First\n\nStatus: validated.\n\n## CTO-WORK-002 - Second\n\nStatus: validated.\n\n## Required Phrases\n\n- CTO-WORK-001\n- CTO-WORK-002\n- CTO-WORK-009\n"),
				dir + "CTO-K-CLOSEOUT.md": doc("validated", "## Workboard\n\n"+pick(defect, "", "- `CTO-WORK-001`\n")+"- `CTO-WORK-002`\n\n## Result\n\n- CTO-WORK-001\n- CTO-WORK-002\n- CTO-WORK-009\n"),
			}
		}},
		shape{"circular-readiness", func(defect bool) map[string]string {
			return map[string]string{
				"WORKBOARD.yaml":        "items:\n  - id: CTO-WORK-001\n    title: First\n    status: validated\n    blocked_by: []\n    source: .sot/03-PROTOCOLS/CTO-C-ISSUES.md\n  - id: CTO-WORK-002\n    title: Second\n    status: validated\n    blocked_by: [" + pick(defect, "CTO-WORK-001", "") + "]\n    source: .sot/03-PROTOCOLS/CTO-C-ISSUES.md\n",
				dir + "CTO-C-ISSUES.md": doc("validated", "## CTO-WORK-001 - First\n\nStatus: validated.\n\nReadiness packet:\n\n- `CTO-WORK-002` defines the approval packet.\n\nNotes:\n\n- `CTO-WORK-003` follows this item.\n\n## CTO-WORK-002 - Second\n\nStatus: validated.\n\nBlocked by: "+pick(defect, "CTO-WORK-001", "none")+"\n\n## CTO-WORK-003 - Third\n\nStatus: validated.\n\nBlocked by: CTO-WORK-001\n"),
			}
		}},
		shape{"misplaced-guard", func(defect bool) map[string]string {
			guard := "- This closeout does not authorize another Case run.\n"
			return map[string]string{
				// Route G has no closeout: its evidence may not speak as one.
				dir + "CTO-G-PRD.md":      doc("validated", "## Non-goals\n\n- Do not authorize another Case run.\n"),
				dir + "CTO-G-EVIDENCE.md": doc("validated", "## Result\n\n- State: "+pick(defect, "This closeout", "This evidence")+" does not authorize another Case run.\n"),
				// Route K has one: its PRD may require the closeout's guard.
				dir + "CTO-K-PRD.md":      doc("validated", "## Required Phrases\n\n"+guard),
				dir + "CTO-K-CLOSEOUT.md": doc("validated", "## Scope Guard\n\n"+guard),
				// A stem that names the kind, a guard inside a sentence, and
				// a sentence that is not a guard.
				dir + "CTO-H-PACKET-ISSUES.md":   doc("validated", "## Scope\n\nThis packet does not approve execution.\n\nRecord says `CTO-WORK-024` remains blocked because this record does not select a branch.\n"),
				dir + "CTO-H-PACKET-CLOSEOUT.md": doc("validated", "## Scope\n\nThis template belongs to the route; it is not an approval.\n"),
			}
		}},
		shape{"stale-record", func(defect bool) map[string]string {
			record := func(title, reviewed, status string) string {
				return "---\nname: " + title + "\nstatus: draft\nowner: jp\ncreated: 2026-05-30\nlast_reviewed: " + reviewed + "\n---\n\n# " + title + "\n\n## Admission Status\n\nStatus: " + status + "\n"
			}
			evidence := func(created, facts string) string {
				return "---\nname: Evidence\nstatus: validated\nowner: jp\ncreated: " + created + "\nlast_reviewed: " + created + "\n---\n\n# Evidence\n\n## Validation Facts\n\n" + facts
			}
			return map[string]string{
				dir + "CTO-S-SOURCE-ADMISSION-RECORD.md": record("CTO S Source Admission Record", "2026-05-31",
					pick(defect, "not admitted for execution.", "admitted for execution.")),
				// Later evidence: by the title's phrase, and by path.
				dir + "CTO-S-EVIDENCE.md": evidence("2026-06-02", "- source admission freshness: current\n- approval provenance: pass\n"),
				dir + "CTO-T-EVIDENCE.md": evidence("2026-06-03", "- Record: .sot/03-PROTOCOLS/CTO-S-SOURCE-ADMISSION-RECORD.md\n- admission status: `current`\n"),
				// Evidence written before the record's last review is not later.
				dir + "CTO-U-EVIDENCE.md": evidence("2026-05-31", "- source admission freshness: current\n"),
				// A record whose status denies something other than its subject.
				dir + "CTO-P-PROVIDER-DECISION-RECORD.md": record("CTO P Provider Decision Record", "2026-05-31", "not admitted for execution."),
				dir + "CTO-P-EVIDENCE.md":                 evidence("2026-06-02", "- provider decision: current\n- source admission status: `not_admitted`\n"),
			}
		}},
		shape{"mislabeled-command", func(defect bool) map[string]string {
			label := pick(defect, "Harness command", "Tests command")
			return map[string]string{
				dir + "CTO-L-RECORD.md":   doc("validated", "## Harness Command\n\n- "+label+": `python3 -m pytest -q`\n- Harness command: `harness/evals/health.sh --json`\n"),
				dir + "CTO-L-EVIDENCE.md": doc("validated", "## Evidence\n\n- Tests command: `python3 -m pytest -q`.\n- validation command: `python3 -m pytest -q`\n- New command: `python3 -m pytest -q`\n"),
				// An even split has no majority: not judged.
				dir + "CTO-M-EVIDENCE.md": doc("validated", "## Evidence\n\n- Harness command: `make check`\n- target command: `make check`\n"),
			}
		}},
	)
}

// errorCategories are the categories that are errors by default.
var errorCategories = map[string]bool{"stale-record": true, "role": true, "approval-timeline": true, "closeout-workboard": true, "circular-readiness": true}

func TestShapes(t *testing.T) {
	for _, s := range shapes {
		t.Run(s.category, func(t *testing.T) {
			for _, defect := range []bool{true, false} {
				dir := t.TempDir()
				checktest.WriteFiles(t, dir, s.files(defect))
				fs := checktest.Findings(t, dir, contradiction.Analyzer)
				if !defect {
					for _, f := range fs {
						t.Errorf("consistent set: false alarm %s:%d: [%s] %s", f.File, f.Line, f.Category, f.Message)
					}
					continue
				}
				if len(fs) == 0 {
					t.Errorf("no %s finding in the defect set", s.category)
				}
				for _, f := range fs {
					if f.Category != s.category {
						t.Errorf("%s:%d: category %s, want %s: %s", f.File, f.Line, f.Category, s.category, f.Message)
					}
					want := checks.SeverityWarning
					if errorCategories[f.Category] {
						want = checks.SeverityError
					}
					if f.Severity != want {
						t.Errorf("%s:%d: %s severity %s, want %s", f.File, f.Line, f.Category, f.Severity, want)
					}
					if len(f.Related) == 0 {
						t.Errorf("%s:%d: no related location", f.File, f.Line)
					}
					t.Logf("%s:%d: %s", f.File, f.Line, f.Message)
					for _, r := range f.Related {
						t.Logf("  %s:%d: %s", r.File, r.Line, r.Message)
					}
				}
			}
		})
	}
}

func TestDoc(t *testing.T) {
	checktest.Doc(t, contradiction.Analyzer, "contradiction: report records that disagree across documents about approvals, roles, test results, closeouts, readiness and ids")
}

// BenchmarkRun measures the check alone, on the corpus parsed once
// (SOTVET_BENCH_CORPUS names another workspace, a synthetic one say).
func BenchmarkRun(b *testing.B) {
	checktest.BenchPass(b, checktest.BenchCorpusDir(b), cpuTime, contradiction.Analyzer)
}

// cpuTime is the process's user and system CPU time, which a loaded
// machine disturbs less than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestMissingIDMentions checks that a gap lists the mentions of its own ids
// only, spelled as the report spells them, from every document in path
// order, and that two gaps of one prefix each list theirs: the mentions
// are read once the gaps are known, not indexed beforehand.
func TestMissingIDMentions(t *testing.T) {
	var wb strings.Builder
	wb.WriteString("items:\n")
	for _, n := range []string{"001", "004", "005", "008"} {
		fmt.Fprintf(&wb, "  - id: CTO-WORK-%s\n    title: Item %s\n    status: candidate\n    blocked_by: []\n    source: .sot/03-PROTOCOLS/CTO-M-ISSUES.md\n", n, n)
	}
	dir := t.TempDir()
	checktest.WriteFiles(t, dir, map[string]string{
		"WORKBOARD.yaml": wb.String(),
		".sot/03-PROTOCOLS/CTO-M-ISSUES.md": "---\nname: m\nstatus: candidate\n---\n\n# M\n\n" +
			"`CTO-WORK-003` and `CTO-WORK-007` are planned; `CTO-WORK-2` is not how the ids are written; `CTO-WORK-009` is after the last.\n",
		".sot/03-PROTOCOLS/CTO-A-NOTES.md": "---\nname: a\nstatus: candidate\n---\n\n# A\n\n`CTO-WORK-006` and `CTO-WORK-003` come next.\n",
	})
	got := missingIDLines(t, dir)
	want := []string{
		"the id sequence skips CTO-WORK-002 to CTO-WORK-003 before CTO-WORK-004: nothing defines them (mentions are listed); define the missing items, or record that the ids were skipped on purpose",
		"  WORKBOARD.yaml:2: CTO-WORK-001, the id before the gap, is defined here",
		"  .sot/03-PROTOCOLS/CTO-A-NOTES.md:8: CTO-WORK-003 is mentioned here, but defined nowhere",
		"  .sot/03-PROTOCOLS/CTO-M-ISSUES.md:8: CTO-WORK-003 is mentioned here, but defined nowhere",
		"the id sequence skips CTO-WORK-006 to CTO-WORK-007 before CTO-WORK-008: nothing defines them (mentions are listed); define the missing items, or record that the ids were skipped on purpose",
		"  WORKBOARD.yaml:12: CTO-WORK-005, the id before the gap, is defined here",
		"  .sot/03-PROTOCOLS/CTO-A-NOTES.md:8: CTO-WORK-006 is mentioned here, but defined nowhere",
		"  .sot/03-PROTOCOLS/CTO-M-ISSUES.md:8: CTO-WORK-007 is mentioned here, but defined nowhere",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("missing-id findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// missingIDLines are the missing-id findings of a run on dir, each message
// followed by its related places.
func missingIDLines(t *testing.T, dir string) []string {
	t.Helper()
	var got []string
	for _, f := range checktest.Findings(t, dir, contradiction.Analyzer) {
		if f.Category != "missing-id" {
			continue
		}
		got = append(got, f.Message)
		for _, r := range f.Related {
			got = append(got, fmt.Sprintf("  %s:%d: %s", r.File, r.Line, r.Message))
		}
	}
	return got
}

func workboardOf(ids ...string) string {
	var wb strings.Builder
	wb.WriteString("items:\n")
	for _, id := range ids {
		fmt.Fprintf(&wb, "  - id: %s\n    title: Item\n    status: candidate\n    blocked_by: []\n    source: .sot/03-PROTOCOLS/CTO-M-ISSUES.md\n", id)
	}
	return wb.String()
}

// TestMissingIDMixedWidths checks that a gap between ids of two widths is
// spelled in the width of the id after it, and lists the mentions spelled
// so only: CTO-WORK-2 is not CTO-WORK-0002.
func TestMissingIDMixedWidths(t *testing.T) {
	dir := t.TempDir()
	checktest.WriteFiles(t, dir, map[string]string{
		"WORKBOARD.yaml": workboardOf("CTO-WORK-1", "CTO-WORK-7"),
		".sot/03-PROTOCOLS/CTO-M-ISSUES.md": "---\nname: m\nstatus: candidate\n---\n\n# M\n\n" +
			"`CTO-WORK-0002` and `CTO-WORK-2` are planned; `CTO-WORK-6` and `CTO-WORK-05` too.\n\n## CTO-WORK-0004 - Later\n\nStatus: candidate.\n",
		".sot/03-PROTOCOLS/CTO-A-NOTES.md": "---\nname: a\nstatus: candidate\n---\n\n# A\n\n`CTO-WORK-5`, `CTO-WORK-00003` and `CTO-WORK-0003` come next.\n",
	})
	want := []string{
		"the id sequence skips CTO-WORK-0002 to CTO-WORK-0003 before CTO-WORK-0004: nothing defines them (mentions are listed); define the missing items, or record that the ids were skipped on purpose",
		"  WORKBOARD.yaml:2: CTO-WORK-0001, the id before the gap, is defined here",
		"  .sot/03-PROTOCOLS/CTO-M-ISSUES.md:8: CTO-WORK-0002 is mentioned here, but defined nowhere",
		"  .sot/03-PROTOCOLS/CTO-A-NOTES.md:8: CTO-WORK-0003 is mentioned here, but defined nowhere",
		"the id sequence skips CTO-WORK-5 to CTO-WORK-6 before CTO-WORK-7: nothing defines them (mentions are listed); define the missing items, or record that the ids were skipped on purpose",
		"  .sot/03-PROTOCOLS/CTO-M-ISSUES.md:10: CTO-WORK-4, the id before the gap, is defined here",
		"  .sot/03-PROTOCOLS/CTO-A-NOTES.md:8: CTO-WORK-5 is mentioned here, but defined nowhere",
		"  .sot/03-PROTOCOLS/CTO-M-ISSUES.md:8: CTO-WORK-6 is mentioned here, but defined nowhere",
	}
	wantMissingIDLines(t, dir, want)
}

// TestMissingIDHugeGap checks that a gap of billions of ids is reported
// from the mentions made, not by walking its numbers (which never ended).
func TestMissingIDHugeGap(t *testing.T) {
	dir := t.TempDir()
	checktest.WriteFiles(t, dir, map[string]string{
		"WORKBOARD.yaml": workboardOf("CTO-WORK-1", "CTO-WORK-9223372036854775807"),
		".sot/03-PROTOCOLS/CTO-M-ISSUES.md": "---\nname: m\nstatus: candidate\n---\n\n# M\n\n" +
			"`CTO-WORK-9223372036854775806`, `CTO-WORK-0000000000000000005`, `CTO-WORK-5` and `CTO-WORK-99999999999999999999` are planned.\n",
	})
	want := []string{
		"the id sequence skips CTO-WORK-0000000000000000002 to CTO-WORK-9223372036854775806 before CTO-WORK-9223372036854775807: nothing defines them (mentions are listed); define the missing items, or record that the ids were skipped on purpose",
		"  WORKBOARD.yaml:2: CTO-WORK-0000000000000000001, the id before the gap, is defined here",
		"  .sot/03-PROTOCOLS/CTO-M-ISSUES.md:8: CTO-WORK-0000000000000000005 is mentioned here, but defined nowhere",
		"  .sot/03-PROTOCOLS/CTO-M-ISSUES.md:8: CTO-WORK-9223372036854775806 is mentioned here, but defined nowhere",
	}
	wantMissingIDLines(t, dir, want)
}

// wantMissingIDLines checks a workspace's missing-id findings, their
// related lines included, against want.
func wantMissingIDLines(t *testing.T, dir string, want []string) {
	t.Helper()
	if got := missingIDLines(t, dir); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("missing-id findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestCopiedResultsPositions pins where a copied-results finding and its
// related places point: the finding spans the copying document's counts,
// from the statement of the first to the end of the last (the counts are
// kept as one summary per document, not a statement each); the related
// places are the first document's first count and each document's commit.
func TestCopiedResultsPositions(t *testing.T) {
	evidence := func(sha, intro string) string {
		return doc("validated", intro+"## Implementation Evidence\n\n- Plugin commit: `"+sha+" Add a surface`\n\n## Validation Evidence\n\n"+
			"- Focused result: `5 passed in 0.41s`\n- Notes: nothing ran twice.\n- Aggregate result before commit: `103 passed, 4 skipped`\n")
	}
	dir := t.TempDir()
	checktest.WriteFiles(t, dir, map[string]string{
		".sot/03-PROTOCOLS/CTO-A-EVIDENCE.md": evidence("a109448", ""),
		".sot/03-PROTOCOLS/CTO-B-EVIDENCE.md": evidence("154d835", "A rerun of A.\n\n"),
	})
	var got []string
	for _, f := range checktest.Findings(t, dir, contradiction.Analyzer) {
		if f.Category != "copied-results" {
			continue
		}
		got = append(got, fmt.Sprintf("%s:%d:%d-%d:%d", f.File, f.Line, f.Col, f.EndLine, f.EndCol))
		for _, r := range f.Related {
			got = append(got, fmt.Sprintf("  %s:%d:%d %s", r.File, r.Line, r.Col, r.Message))
		}
	}
	want := []string{
		".sot/03-PROTOCOLS/CTO-B-EVIDENCE.md:19:3-21:57",
		"  .sot/03-PROTOCOLS/CTO-A-EVIDENCE.md:17:3 .sot/03-PROTOCOLS/CTO-A-EVIDENCE.md reports the same 2 results from here on, for commit a109448",
		"  .sot/03-PROTOCOLS/CTO-A-EVIDENCE.md:13:3 .sot/03-PROTOCOLS/CTO-A-EVIDENCE.md: \"Plugin commit: `a109448 Add a surface`\"",
		"  .sot/03-PROTOCOLS/CTO-B-EVIDENCE.md:15:3 this document's commit: \"Plugin commit: `154d835 Add a surface`\"",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("copied-results places:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestProvenanceFirstRecord: a fact whose approval source differs from
// that of several JSON records the document links is reported against
// the first of them by path, in every run (a map's order chose one at
// random).
func TestProvenanceFirstRecord(t *testing.T) {
	files := map[string]string{}
	var links strings.Builder
	for _, n := range []string{"7", "3", "9", "1", "5", "8", "2", "6", "4"} {
		name := dir + "CTO-CASE-MODEL-PROVIDER-ADMISSION.m" + n + ".json"
		files[name] = `{"status": "admitted", "provider": "p", "model": "m` + n + `", "approval_source": "JP chat approval on 2026-05-0` + n + `"}` + "\n"
		links.WriteString("- record: `" + name + "`\n")
	}
	files[dir+"CTO-P-EVIDENCE.md"] = doc("validated", "## Evidence\n\n"+links.String()+"- approval_source: JP chat instruction on 2026-06-02\n")
	d := t.TempDir()
	checktest.WriteFiles(t, d, files)
	want := dir + "CTO-CASE-MODEL-PROVIDER-ADMISSION.m1.json, which this document cites"
	for range 8 {
		n := 0
		for _, f := range checktest.Findings(t, d, contradiction.Analyzer) {
			if f.Category != "provenance" {
				continue
			}
			n++
			if !strings.Contains(f.Message, want) {
				t.Fatalf("provenance finding %q: want it against the first record by path (%s)", f.Message, want)
			}
		}
		if n != 1 {
			t.Fatalf("%d provenance findings, want 1", n)
		}
	}
}
