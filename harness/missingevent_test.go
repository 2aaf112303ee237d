package harness_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/harness"
	"github.com/svrnty/sotvet/harness/evidence"
)

// caseRequiring copies the slugify case with its required_events replaced.
func caseRequiring(t *testing.T, events string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "r1-string-slugify")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join(casesDir, "r1-string-slugify"))); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "case.yaml")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(string(data), "required_events:")
	j := strings.Index(string(data), "timeouts:")
	out := string(data[:i]) + "required_events: " + events + "\n" + string(data[j:])
	if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// The missing-event fixture withholds an event the case requires: a case
// that leaves plan.updated out still fails, on patch.applied.
func TestMissingEventWithholdsARequiredEvent(t *testing.T) {
	t.Parallel()
	opt := options(t, "r1-string-slugify")
	opt.CaseDir = caseRequiring(t, "[run.started, patch.applied, git.diff.checked, verification.completed, run.completed]")
	opt.Fixture = "missing-event"
	res := run(t, opt)
	if res.Report.Status != evidence.StatusFail || len(res.Report.Blockers) != 1 || res.Report.Blockers[0].Code != evidence.MissingRequiredEvent ||
		!strings.Contains(res.Report.Blockers[0].Message, "patch.applied") {
		t.Fatalf("status %s blockers %+v", res.Report.Status, res.Report.Blockers)
	}
}

// A case that requires no backend-reported event cannot be failed by a
// missing event: the fixture is refused for it.
func TestMissingEventRefusedWhereNothingCanBeMissing(t *testing.T) {
	opt := options(t, "r1-string-slugify")
	opt.CaseDir = caseRequiring(t, "[run.started, git.diff.checked, run.completed]")
	opt.Fixture = "missing-event"
	_, err := harness.Run(t.Context(), opt)
	if !errors.Is(err, harness.ErrUsage) || !strings.Contains(err.Error(), "requires none of the events a backend reports") {
		t.Fatalf("err %v", err)
	}
}
