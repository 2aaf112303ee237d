package verify

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/svrnty/sotvet/harness/contract"
	"github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/harness/ledger"
)

// RunResult reads one run of a comparison back from its evidence: what
// verify says of it and the report's facts. dir must lie under root; the
// result names it relative to root.
func RunResult(root, dir string, opt Options) (ledger.RunResult, error) {
	vs, rep, err := Dir(dir, opt)
	if err != nil {
		return ledger.RunResult{}, err
	}
	rel, err := filepath.Rel(root, dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return ledger.RunResult{}, fmt.Errorf("run %s is not under the runs root %s", dir, root)
	}
	r := ledger.RunResult{Dir: filepath.ToSlash(rel), Blockers: []string{}, Verified: len(vs) == 0, ReportShapeOK: true, EventsOK: true, Tokens: ledger.Unknown, Cost: ledger.Unknown}
	for _, v := range vs {
		switch v.Artifact {
		case evidence.ReportJSON:
			r.ReportShapeOK = false
		case evidence.EventsFile:
			r.EventsOK = false
		}
	}
	if rep == nil {
		r.ReportShapeOK = false
		return r, nil
	}
	r.RunID, r.Status, r.BackendStarted = rep.RunID, rep.Status, rep.BackendProcessStarted
	for _, b := range rep.Blockers {
		r.Blockers = append(r.Blockers, b.Code)
	}
	r.PathsOK = rep.AllowedWritesPassed && rep.ForbiddenPathsPassed && len(rep.PathViolations) == 0
	if s, err1 := evidence.ParseTime(rep.RunStartedAt); err1 == nil {
		if f, err2 := evidence.ParseTime(rep.RunFinishedAt); err2 == nil {
			r.WallMS = f.Sub(s).Milliseconds()
		}
	}
	r.BaseTreeSHA256 = rep.Baseline.TreeDigest
	data, err := ledger.ReadFile(filepath.Join(dir, evidence.ReportJSON))
	if err != nil {
		return r, err
	}
	r.ReportSHA256 = evidence.Digest(data)
	r.Tokens, r.Cost = usage(data)
	return r, nil
}

// usage reads tokens and cost where a lane's report carries them
// ("tokens" or usage.total_tokens; "cost_usd" or usage.cost_usd); what is
// absent is unknown, never 0.
func usage(report []byte) (tokens, cost any) {
	var m map[string]any
	tokens, cost = ledger.Unknown, ledger.Unknown
	if json.Unmarshal(report, &m) != nil {
		return
	}
	u, _ := m["usage"].(map[string]any)
	for _, v := range []any{m["tokens"], u["total_tokens"]} {
		if f, ok := v.(float64); ok {
			tokens = f
			break
		}
	}
	for _, v := range []any{m["cost_usd"], u["cost_usd"]} {
		if f, ok := v.(float64); ok {
			cost = f
			break
		}
	}
	return
}

// IsComparison says whether dir holds a comparison report.
func IsComparison(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, ledger.ComparisonFile))
	return err == nil
}

// Comparison verifies a comparison directory: the report's seal, that it
// names this directory, that every run it lists still verifies and says
// what the report recorded of it, and that the lanes and the candidate
// verdict are what those runs give.
func Comparison(dir string, opt Options) ([]Violation, *ledger.Comparison, error) {
	const C = ledger.ComparisonFile
	data, err := ledger.ReadFile(filepath.Join(dir, C))
	if err != nil {
		return nil, nil, err
	}
	var out []Violation
	bad := func(format string, args ...any) {
		out = append(out, Violation{Artifact: C, Message: fmt.Sprintf(format, args...)})
	}
	var c ledger.Comparison
	errs := ledger.Unmarshal(data, &c, opt.trusted()...)
	for _, e := range errs {
		bad("%v", e)
	}
	if len(errs) > 0 && c.SchemaVersion == 0 {
		return out, nil, nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, nil, err
	}
	root := filepath.Dir(abs)
	if c.SchemaVersion != ledger.SchemaVersion {
		bad("schema_version %d, want %d", c.SchemaVersion, ledger.SchemaVersion)
	}
	if c.ComparisonID != filepath.Base(abs) {
		bad("comparison_id %q does not name this directory", c.ComparisonID)
	}
	if c.RuntimeDefaultActivation {
		bad("runtime_default_activation must be false")
	}
	for i, r := range c.Runs {
		if err := contract.CheckRelPath(r.Dir); err != nil {
			bad("runs[%d].dir: %v", i, err)
			continue
		}
		got, err := RunResult(root, filepath.Join(root, filepath.FromSlash(r.Dir)), opt)
		if err != nil {
			bad("run %s (%s): %v", r.RunID, r.Dir, err)
			continue
		}
		got.Engine, got.Kind, got.Index, got.Fixture, got.Job = r.Engine, r.Kind, r.Index, r.Fixture, r.Job
		got.ExpectedStatus, got.ExpectedBlocker = r.ExpectedStatus, r.ExpectedBlocker
		a, _ := evidence.Marshal(got)
		b, _ := evidence.Marshal(r)
		if !bytes.Equal(a, b) {
			bad("run %s (%s): its evidence no longer says what the comparison recorded", r.RunID, r.Dir)
		}
	}
	again := c
	again.Runs = append([]ledger.RunResult{}, c.Runs...)
	ledger.Compute(&again)
	a, _ := evidence.Marshal(struct {
		L  []ledger.Lane
		C  ledger.Candidate
		B  string
		BC bool
	}{again.Lanes, again.CandidateDefault, again.BaseTreeSHA256, again.BaseConsistent})
	b, _ := evidence.Marshal(struct {
		L  []ledger.Lane
		C  ledger.Candidate
		B  string
		BC bool
	}{c.Lanes, c.CandidateDefault, c.BaseTreeSHA256, c.BaseConsistent})
	if !bytes.Equal(a, b) {
		bad("the lanes or the candidate verdict differ from what the recorded runs give")
	}
	return out, &c, nil
}
