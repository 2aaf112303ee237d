package summary

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/harness/ledger"
	"github.com/svrnty/sotvet/harness/matrix"
	"github.com/svrnty/sotvet/harness/verify"
)

// maxEvidenceFile caps one evidence file the summary decodes.
const maxEvidenceFile = 8 << 20

// Files of the runs root the ladder contract (issues 11 and 12) names.
const (
	outcomeFile    = "outcome.json"
	comparisonFile = "comparison.json"
	approvalsDir   = "approvals"
	consumedSuffix = ".consumed.json"
)

// runReport is the part of report.json the summary reads (decoding only
// these members is a good part faster than the whole report): Harness
// Evidence Interface fields plus the ladder's, all optional.
type runReport struct {
	CaseID         string             `json:"case_id"`
	RunID          string             `json:"run_id"`
	Status         string             `json:"status"`
	Backend        string             `json:"backend"`
	Fixture        string             `json:"fixture"`
	RunStartedAt   string             `json:"run_started_at"`
	RunFinishedAt  string             `json:"run_finished_at"`
	ChangedFiles   []string           `json:"changed_files"`
	ApprovalStatus string             `json:"approval_status"`
	Blockers       []evidence.Blocker `json:"blockers"`
	Sandbox        string             `json:"sandbox"`

	Stage                   int    `json:"stage"`
	MutationMode            string `json:"mutation_mode"`
	ApprovalID              string `json:"approval_id"`
	ApprovalConsumed        bool   `json:"approval_consumed"`
	ConsumedByPassEvidence  string `json:"consumed_by_pass_evidence"`
	OperatorOutcomeRequired bool   `json:"operator_outcome_required"`
	SourceNonMutation       *struct {
		Unchanged bool `json:"unchanged"`
	} `json:"source_non_mutation"`
}

// The records of the runs root are the ledger's own types (harness/ledger),
// each verified by the ledger's own check (verify.RecordAs, verify.Dir,
// verify.Comparison) with the workspace's trusted keys before it is used:
// one that fails is listed as unreadable and left out.
type (
	outcomeRecord    = ledger.Outcome
	approvalRecord   = ledger.Approval
	consumedRecord   = ledger.Consumption
	comparisonRecord = ledger.Comparison
)

// loadedRun is one run directory.
type loadedRun struct {
	dir     string // slash path relative to the runs root
	matrix  string // the matrix directory holding it, or ""
	rep     runReport
	outcome *outcomeRecord
	// verified is verify's verdict; violations its findings;
	// authenticity what a valid verdict proves about who wrote the run,
	// in verify's words.
	verified     bool
	violations   []string
	authenticity string
	trusted      bool // signed by a trusted key
}

type pendingRun struct{ dir, matrix string }

// complete reports whether the comparison is whole (not one shard).
func (c *loadedComparison) complete() bool { return c.c.Complete }

// eligibleIn reports whether a complete comparison makes engine an
// eligible candidate default.
func eligibleIn(ev *evidenceSet, engine string) bool {
	for i := range ev.comparisons {
		c := &ev.comparisons[i]
		if c.complete() && c.c.CandidateDefault.Engine == engine && c.c.CandidateDefault.Eligible {
			return true
		}
	}
	return false
}

type loadedMatrix struct {
	dir string
	m   matrix.Matrix
}

type loadedComparison struct {
	dir string
	c   comparisonRecord
}

// evidenceSet is everything read from the runs root.
type evidenceSet struct {
	pending     []pendingRun // run directories found, loaded by loadRuns
	runs        []*loadedRun
	matrices    []loadedMatrix
	comparisons []loadedComparison
	approvals   []approvalRecord
	consumed    []consumedRecord
	// guards are the verified guard records; guardRejected counts the
	// others (guard.go).
	guards        []loadedGuard
	guardRejected int
	unreadable    []Unreadable
	now           time.Time
	cache         *VerifyCache
	trust         verify.Options
}

// loadEvidence reads the runs root: run directories (a directory with
// report.json) at the top or inside a matrix directory, matrices,
// comparisons and approvals. Everything is opened under the root: links
// that leave it are refused by os.Root. Nothing fails the summary; a file
// that cannot be used is listed as unreadable.
func loadEvidence(root string, now time.Time, cache *VerifyCache, trust verify.Options) *evidenceSet {
	ev := &evidenceSet{now: now, cache: cache, trust: trust}
	r, err := os.OpenRoot(root)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			ev.bad("runs", err)
		}
		return ev
	}
	defer r.Close()
	top, err := readDirNames(r, ".")
	if err != nil {
		ev.bad("runs", err)
		return ev
	}
	for _, name := range top {
		switch {
		case name == approvalsDir:
			ev.loadApprovals(r)
		case name == ledger.GuardsDir:
			ev.loadGuards(r)
		case isDir(r, name) && exists(r, name+"/"+comparisonFile):
			// Comparisons are known by their file, whatever the
			// directory is called.
			ev.loadComparison(root, name)
		default:
			ev.loadDir(r, root, name, "")
		}
	}
	// Oldest first: by creation time, then by directory.
	sort.SliceStable(ev.comparisons, func(i, j int) bool {
		a, b := ev.comparisons[i], ev.comparisons[j]
		if a.c.CreatedAt != b.c.CreatedAt {
			return a.c.CreatedAt < b.c.CreatedAt
		}
		return a.dir < b.dir
	})
	ev.loadRuns(r, root)
	return ev
}

// loadRuns reads and verifies the run directories found, in parallel:
// verify reads every artifact, and a runs root holds many runs.
func (ev *evidenceSet) loadRuns(r *os.Root, abs string) {
	sort.Slice(ev.pending, func(i, j int) bool { return ev.pending[i].dir < ev.pending[j].dir })
	parts := make([]*evidenceSet, len(ev.pending))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i, p := range ev.pending {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			part := &evidenceSet{now: ev.now, cache: ev.cache, trust: ev.trust}
			part.loadRun(r, abs, p.dir, p.matrix)
			parts[i] = part
		}()
	}
	wg.Wait()
	for _, part := range parts {
		ev.runs = append(ev.runs, part.runs...)
		ev.unreadable = append(ev.unreadable, part.unreadable...)
	}
	ev.pending = nil
}

// loadDir loads a run directory, or a matrix directory and its runs.
func (ev *evidenceSet) loadDir(r *os.Root, abs, dir, inMatrix string) {
	if !isDir(r, dir) {
		return
	}
	if exists(r, dir+"/"+evidence.ReportJSON) {
		ev.pending = append(ev.pending, pendingRun{dir, inMatrix})
		return
	}
	if inMatrix != "" {
		return
	}
	if exists(r, dir+"/"+matrix.FileName) {
		var m matrix.Matrix
		if ev.decode(r, dir+"/"+matrix.FileName, &m) {
			ev.matrices = append(ev.matrices, loadedMatrix{dir: dir, m: m})
		}
		names, err := readDirNames(r, dir)
		if err != nil {
			ev.bad(dir, err)
			return
		}
		for _, n := range names {
			ev.loadDir(r, abs, dir+"/"+n, dir)
		}
	}
}

func (ev *evidenceSet) loadRun(r *os.Root, abs, dir, inMatrix string) {
	lr := &loadedRun{dir: dir, matrix: inMatrix}
	if !ev.decode(r, dir+"/"+evidence.ReportJSON, &lr.rep) {
		return
	}
	if exists(r, dir+"/"+outcomeFile) {
		var o outcomeRecord
		if ev.record(r, dir+"/"+outcomeFile, &o) {
			lr.outcome = &o
		}
	}
	st := ""
	if ev.cache != nil {
		st = stamp(r, dir) + " keys " + ev.trust.Fingerprint()
	}
	if v, ok := ev.cache.get(dir, st); ok {
		lr.verified, lr.violations, lr.authenticity, lr.trusted = v.verified, v.violations, v.authenticity, v.trusted
		ev.runs = append(ev.runs, lr)
		return
	}
	// verify reads the directory by path: the run directory was reached
	// under the root without following a link, so its path stays inside.
	vs, rep, err := verify.Dir(filepath.Join(abs, filepath.FromSlash(dir)), ev.trust)
	if err != nil {
		lr.violations = []string{errText(err)}
	}
	for _, v := range vs {
		lr.violations = append(lr.violations, v.String())
	}
	lr.verified = err == nil && len(vs) == 0
	if lr.violations == nil {
		lr.violations = []string{}
	}
	if lr.verified {
		lr.authenticity = verify.Authenticity(rep, ev.trust)
		// verify accepts a signed run under trusted keys only when one of
		// them signed it.
		lr.trusted = len(ev.trust.Keys()) > 0 && rep != nil && rep.Signing != nil
	}
	ev.cache.put(dir, verdict{stamp: st, verified: lr.verified, violations: lr.violations, authenticity: lr.authenticity, trusted: lr.trusted})
	ev.runs = append(ev.runs, lr)
}

func (ev *evidenceSet) loadApprovals(r *os.Root) {
	names, err := readDirNames(r, approvalsDir)
	if err != nil {
		ev.bad(approvalsDir, err)
		return
	}
	for _, n := range names {
		p := approvalsDir + "/" + n
		switch {
		case strings.HasSuffix(n, consumedSuffix):
			var c consumedRecord
			if ev.record(r, p, &c) {
				ev.consumed = append(ev.consumed, c)
			}
		case strings.HasSuffix(n, ".json"):
			var a approvalRecord
			if ev.record(r, p, &a) {
				ev.approvals = append(ev.approvals, a)
			}
		}
	}
}

// loadComparison reads and verifies the comparison in dir: verify's
// verdict with the trusted keys, the same harness verify gives.
func (ev *evidenceSet) loadComparison(abs, dir string) {
	// The directory was reached under the root without following a link.
	vs, c, err := verify.Comparison(filepath.Join(abs, filepath.FromSlash(dir)), ev.trust)
	p := dir + "/" + comparisonFile
	switch {
	case err != nil:
		ev.bad(p, err)
	case len(vs) > 0:
		ev.bad(p, violationsErr(vs))
	case c == nil:
		ev.bad(p, errors.New("no comparison"))
	default:
		ev.comparisons = append(ev.comparisons, loadedComparison{dir: dir, c: *c})
	}
}

// record reads a ledger record under the root into rec and verifies it
// with the ledger's own check and the trusted keys; a record that fails
// is listed as unreadable and false returned.
func (ev *evidenceSet) record(r *os.Root, p string, rec ledger.Sealed) bool {
	data, err := readFile(r, p, maxEvidenceFile)
	if err != nil {
		ev.bad(p, err)
		return false
	}
	if vs := verify.RecordAs(path.Base(p), data, rec, ev.trust); len(vs) > 0 {
		ev.bad(p, violationsErr(vs))
		return false
	}
	return true
}

// violationsErr joins verify's findings into one reason.
func violationsErr(vs []verify.Violation) error {
	msgs := make([]string, len(vs))
	for i, v := range vs {
		msgs[i] = v.Message
	}
	return errors.New("verify rejects it: " + strings.Join(msgs, "; "))
}

func (ev *evidenceSet) bad(p string, err error) {
	ev.unreadable = append(ev.unreadable, Unreadable{Path: "runs/" + p, Reason: errText(err)})
}

// decode reads a JSON file under the root into v; a problem is recorded
// and false returned.
func (ev *evidenceSet) decode(r *os.Root, p string, v any) bool {
	data, err := readFile(r, p, maxEvidenceFile)
	if err != nil {
		ev.bad(p, err)
		return false
	}
	if err := json.Unmarshal(data, v); err != nil {
		ev.bad(p, fmt.Errorf("malformed JSON: %w", err))
		return false
	}
	return true
}

// readFile reads a regular file under r, at most limit bytes. A link is
// not followed, even to a file inside the root: evidence is the file
// itself.
func readFile(r *os.Root, p string, limit int64) ([]byte, error) {
	if info, err := r.Lstat(p); err != nil {
		return nil, err
	} else if info.Mode()&fs.ModeSymlink != 0 {
		return nil, errors.New("a symbolic link; not read")
	}
	f, err := r.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	if info.Size() > limit {
		return nil, fmt.Errorf("%d bytes, over the %d-byte limit", info.Size(), limit)
	}
	return io.ReadAll(io.LimitReader(f, limit+1))
}

func readDirNames(r *os.Root, dir string) ([]string, error) {
	f, err := r.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	names, err := f.Readdirnames(-1)
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	return names, nil
}

// isDir reports whether p is a directory itself, not a link to one.
func isDir(r *os.Root, p string) bool {
	info, err := r.Lstat(p)
	return err == nil && info.IsDir()
}

func exists(r *os.Root, p string) bool {
	_, err := r.Lstat(p)
	return err == nil
}

// errText drops the absolute paths os errors carry.
func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Op + " " + path.Base(pe.Path) + ": " + pe.Err.Error()
	}
	return err.Error()
}
