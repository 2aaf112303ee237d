package compare

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/svrnty/sotvet/harness"
	"github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/harness/ledger"
)

// Merge combines the slices of one sharded comparison, each a directory
// directly under root, into a new comparison directory under root named
// id (default: the slices' common id with -merged). Every slice must be
// sealed, of the same case, contract, k, lanes and fixtures, and each
// index 1..n must appear exactly once.
func Merge(root string, dirs []string, id string, key ed25519.PrivateKey, trusted ed25519.PublicKey) (*ledger.Comparison, string, error) {
	if len(dirs) == 0 {
		return nil, "", fmt.Errorf("%w: compare --merge needs the shard directories", harness.ErrUsage)
	}
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, "", err
	}
	var base *ledger.Comparison
	seen := map[string]bool{}
	var runs []ledger.RunResult
	var from []string
	for _, d := range dirs {
		abs, err := filepath.Abs(d)
		if err != nil {
			return nil, "", err
		}
		if filepath.Dir(abs) != root {
			return nil, "", fmt.Errorf("%w: shard %s is not directly under the runs root %s (--out)", harness.ErrUsage, d, root)
		}
		data, err := ledger.ReadFile(filepath.Join(abs, ledger.ComparisonFile))
		if err != nil {
			return nil, "", err
		}
		var c ledger.Comparison
		if errs := ledger.Unmarshal(data, &c, trusted); len(errs) > 0 {
			return nil, "", fmt.Errorf("shard %s: %w", d, errors.Join(errs...))
		}
		if c.Shard == "" || c.Shards < 1 {
			return nil, "", fmt.Errorf("%w: %s is not a shard", harness.ErrUsage, d)
		}
		if seen[c.Shard] {
			return nil, "", fmt.Errorf("%w: shard %s given twice", harness.ErrUsage, c.Shard)
		}
		seen[c.Shard] = true
		if base == nil {
			b := c
			base = &b
		} else if c.CaseID != base.CaseID || c.ContractSHA256 != base.ContractSHA256 || c.K != base.K || c.Shards != base.Shards ||
			!slices.Equal(c.Engines, base.Engines) || !slices.Equal(c.Fixtures, base.Fixtures) || c.Candidate != base.Candidate {
			return nil, "", fmt.Errorf("%w: shard %s is not a slice of the same comparison as %s", harness.ErrUsage, d, dirs[0])
		}
		runs = append(runs, c.Runs...)
		from = append(from, c.ComparisonID)
	}
	slices.Sort(from)
	var missing []string
	for i := 1; i <= base.Shards; i++ {
		if s := fmt.Sprintf("%d/%d", i, base.Shards); !seen[s] {
			missing = append(missing, s)
		}
	}
	if len(missing) > 0 {
		return nil, "", fmt.Errorf("%w: shards %s are missing", harness.ErrUsage, strings.Join(missing, ", "))
	}
	if id == "" {
		id, _, _ = strings.Cut(base.ComparisonID, "-shard-")
		id += "-merged"
	}
	if !idRE.MatchString(id) {
		return nil, "", fmt.Errorf("%w: comparison id %q", harness.ErrUsage, id)
	}
	c := &ledger.Comparison{
		SchemaVersion: ledger.SchemaVersion, ComparisonID: id, CaseID: base.CaseID, ContractSHA256: base.ContractSHA256,
		K: base.K, Engines: base.Engines, Fixtures: base.Fixtures, Candidate: base.Candidate, Shards: base.Shards,
		MergedFrom: from, Complete: true, CreatedAt: evidence.FormatTime(time.Now()), Runs: runs,
	}
	finish(c)
	dir := filepath.Join(root, id)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, "", fmt.Errorf("comparison directory: %w", err)
	}
	return c, dir, write(dir, c, key)
}
