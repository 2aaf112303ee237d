// Package compare runs a lane comparison: k runs per lane on the same
// frozen case and contract, plus the failure fixtures where a lane can act
// them out, then reads every run back from its verified evidence into a
// sealed comparison report. Runs may go in parallel (Jobs), one slice of
// them per machine (Shard), and slices merge into one report (Merge).
package compare

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/svrnty/sotvet/harness"
	"github.com/svrnty/sotvet/harness/contract"
	"github.com/svrnty/sotvet/harness/engine/fake"
	"github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/harness/ledger"
	"github.com/svrnty/sotvet/harness/verify"
	"github.com/svrnty/sotvet/internal/lazyre"
)

// Options configure a comparison.
type Options struct {
	Base      harness.Options // runs root, fake command, sandbox, environment...
	CaseDir   string
	Engines   []string // lanes; "fake:flaky" is the fake lane acting out a fake behavior
	K         int
	Fixtures  []string // failure fixtures for lanes that can act them out
	Jobs      int
	Shard     int // 1-based slice index; 0: all
	Shards    int
	Candidate string // default: the first lane that is not fake, else the first
	ID        string // comparison id; made up when empty
	SignKey   ed25519.PrivateKey
}

// job is one run of the comparison.
type job struct {
	n       int
	engine  string // as named
	lane    string // registry name
	beh     string // fake behavior
	kind    string
	index   int
	fixture string
}

// idRE is compiled on first use: its bounded repetition costs ~0.3 ms
// to compile, at the start of every sotvet process otherwise.
var idRE = lazyre.New(`^[A-Za-z0-9][A-Za-z0-9._-]{0,100}$`)

func splitLane(e string) (lane, beh string, err error) {
	lane, beh, _ = strings.Cut(e, ":")
	if beh != "" && (lane != fake.Name || !slices.Contains(fake.LadderBehaviors, beh)) {
		return "", "", fmt.Errorf("%w: lane %q: only the fake lane takes a behavior (%s)", harness.ErrUsage, e, strings.Join(fake.LadderBehaviors, ", "))
	}
	return lane, beh, nil
}

func jobs(o Options) ([]job, error) {
	var out []job
	for _, e := range o.Engines {
		lane, beh, err := splitLane(e)
		if err != nil {
			return nil, err
		}
		for i := 1; i <= o.K; i++ {
			out = append(out, job{engine: e, lane: lane, beh: beh, kind: ledger.KindRepeat, index: i})
		}
		if lane == fake.Name {
			for _, f := range o.Fixtures {
				out = append(out, job{engine: e, lane: lane, kind: ledger.KindFixture, fixture: f})
			}
		}
	}
	for i := range out {
		out[i].n = i
	}
	return out, nil
}

func safe(e string) string { return strings.ReplaceAll(e, ":", "-") }

func (j job) runID() string {
	if j.kind == ledger.KindFixture {
		return safe(j.engine) + "-fx-" + j.fixture
	}
	return fmt.Sprintf("%s-%d", safe(j.engine), j.index)
}

func (o *Options) check() error {
	if len(o.Engines) == 0 || o.K < 1 || o.Jobs < 1 {
		return fmt.Errorf("%w: compare needs at least one engine, k >= 1 and jobs >= 1", harness.ErrUsage)
	}
	seen := map[string]bool{}
	for _, e := range o.Engines {
		if seen[e] {
			return fmt.Errorf("%w: lane %s named twice", harness.ErrUsage, e)
		}
		seen[e] = true
	}
	for _, f := range o.Fixtures {
		if _, ok := harness.FixtureByName(f); !ok {
			return fmt.Errorf("%w: unknown fixture %q (want %s)", harness.ErrUsage, f, strings.Join(harness.FixtureNames(), ", "))
		}
	}
	if o.Shards < 0 || o.Shard < 0 || (o.Shards > 0 && (o.Shard < 1 || o.Shard > o.Shards)) {
		return fmt.Errorf("%w: --shard i/n needs 1 <= i <= n", harness.ErrUsage)
	}
	if o.ID != "" && !idRE.MatchString(o.ID) {
		return fmt.Errorf("%w: comparison id %q: letters, digits, dot, dash and underscore only", harness.ErrUsage, o.ID)
	}
	if o.Candidate == "" {
		o.Candidate = o.Engines[0]
		for _, e := range o.Engines {
			if lane, _, _ := strings.Cut(e, ":"); lane != fake.Name {
				o.Candidate = e
				break
			}
		}
	}
	return nil
}

// Run runs the comparison (or its slice) and writes comparison.json in
// its own directory under the runs root. It returns the report and that
// directory.
func Run(ctx context.Context, o Options) (*ledger.Comparison, string, error) {
	if err := o.check(); err != nil {
		return nil, "", err
	}
	c, err := contract.Load(o.CaseDir)
	if err != nil {
		return nil, "", err
	}
	all, err := jobs(o)
	if err != nil {
		return nil, "", err
	}
	now := time.Now()
	id := o.ID
	if id == "" {
		var b [3]byte
		if _, err := rand.Read(b[:]); err != nil {
			return nil, "", err
		}
		id = "compare-" + now.UTC().Format("20060102T150405Z") + "-" + hex.EncodeToString(b[:])
	}
	shard := ""
	if o.Shards > 0 {
		shard = fmt.Sprintf("%d/%d", o.Shard, o.Shards)
		id += fmt.Sprintf("-shard-%d-of-%d", o.Shard, o.Shards)
	}
	root, err := filepath.Abs(o.Base.RunsRoot)
	if err != nil {
		return nil, "", err
	}
	dir := filepath.Join(root, id)
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, "", err
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, "", fmt.Errorf("comparison directory: %w", err)
	}
	if err := os.Mkdir(filepath.Join(dir, "runs"), 0o755); err != nil {
		return nil, "", err
	}
	var mine []job
	for _, j := range all {
		if o.Shards == 0 || j.n%o.Shards == o.Shard-1 {
			mine = append(mine, j)
		}
	}
	// The runs share the build outputs of the harness's own build of the
	// pristine case, and nothing any run wrote.
	share := &harness.GoCacheShare{Root: dir}
	defer share.Close()
	for _, j := range mine {
		opt := o.Base
		opt.Engine = j.lane
		if harness.EngineGateOpen(opt) {
			share.Plan(o.CaseDir) // a lane behind a closed gate verifies nothing
		}
	}
	results := make([]ledger.RunResult, len(mine))
	errs := make([]error, len(mine))
	sem := make(chan struct{}, o.Jobs)
	var wg sync.WaitGroup
	for i, j := range mine {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			results[i], errs[i] = runJob(ctx, o, share, j, root, filepath.Join(dir, "runs", j.runID()))
		}()
	}
	wg.Wait()
	if err := share.Close(); err != nil {
		errs = append(errs, fmt.Errorf("shared build cache: %w", err))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, "", err
	}
	cmp := &ledger.Comparison{
		SchemaVersion: ledger.SchemaVersion, ComparisonID: id, CaseID: c.ID, ContractSHA256: c.Digest,
		K: o.K, Engines: o.Engines, Fixtures: nonNil(o.Fixtures), Candidate: o.Candidate,
		Shard: shard, Shards: o.Shards, MergedFrom: []string{}, Complete: o.Shards == 0,
		CreatedAt: evidence.FormatTime(now), Runs: results,
	}
	finish(cmp)
	return cmp, dir, write(dir, cmp, o.SignKey)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// finish sorts the runs, checks the frozen base and computes the lanes.
func finish(c *ledger.Comparison) {
	slices.SortFunc(c.Runs, func(a, b ledger.RunResult) int { return a.Job - b.Job })
	ledger.Compute(c)
}

func write(dir string, c *ledger.Comparison, key ed25519.PrivateKey) error {
	data, err := ledger.Marshal(c, key)
	if err != nil {
		return err
	}
	return ledger.WriteNew(filepath.Join(dir, ledger.ComparisonFile), data)
}

func runJob(ctx context.Context, o Options, share *harness.GoCacheShare, j job, root, runDir string) (ledger.RunResult, error) {
	opt := o.Base
	opt.CaseDir, opt.Engine, opt.RunDir, opt.FakeBehavior, opt.Fixture = o.CaseDir, j.lane, runDir, j.beh, j.fixture
	opt = share.For(ctx, opt)
	if j.kind == ledger.KindFixture {
		opt.FakeBehavior = ""
	}
	res, err := harness.Run(ctx, opt)
	if err != nil {
		return ledger.RunResult{}, fmt.Errorf("lane %s run %s: %w", j.engine, j.runID(), err)
	}
	r, err := verify.RunResult(root, res.RunDir, verify.Options{})
	if err != nil {
		return ledger.RunResult{}, err
	}
	r.Engine, r.Kind, r.Index, r.Fixture, r.Job = j.engine, j.kind, j.index, j.fixture, j.n
	if j.kind == ledger.KindFixture {
		fx, _ := harness.FixtureByName(j.fixture)
		r.ExpectedStatus, r.ExpectedBlocker = fx.Status, fx.Blocker
	}
	return r, nil
}
