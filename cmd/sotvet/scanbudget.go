package main

import (
	"slices"
	"sync"

	"github.com/svrnty/sotvet/secrets"
)

// runBudget lets scanAll drop, as it goes, the findings of files that the
// run's cap (--max-findings) will omit in any case, keeping of each only
// what the report still reads: its count by rule (an omitted finding is
// counted) and its fingerprint key (the fingerprint's ":N" numbers the
// findings of a (rule, secret) in file order, omitted ones included).
//
// The report keeps the first perRun findings in the order of the files'
// names (checks.Result.Cap, after checks.SortFindings), at most perFile
// of each. So once the files already scanned whose names sort before a
// file's name are known to keep perRun findings between them, every
// finding of that file is omitted. Counting only the scanned files and
// only their findings that are not allowed makes the sum a lower bound of
// what Cap keeps before the file, whatever the order the workers finish
// in: the report is the same, and a tree dense with findings (a finding
// every 160 bytes of 17 MB: 110,000 of them) holds ~16 bytes for each
// finding past the cap instead of the finding (~250 bytes) and, at the
// end, its checks.Finding.
type runBudget struct {
	perRun, perFile int
	// first[i] is the position of file i's name among the names sorted,
	// the first of the files that share it.
	first []int
	mu    sync.Mutex
	tree  []int // Fenwick tree of kept counts over sorted positions
	// group[p] counts the findings recorded of the files whose name is
	// at sorted position p (Cap counts a name's findings together
	// against perFile).
	group []int
}

// useRunBudget is false only in the test that compares reports made
// with and without a budget.
var useRunBudget = true

// newRunBudget returns the budget of a run over files, or nil when there
// is no run cap (perRun <= 0).
func newRunBudget(files []scanFile, perRun, perFile int) *runBudget {
	if perRun <= 0 || len(files) == 0 {
		return nil
	}
	idx := make([]int, len(files))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case files[a].name < files[b].name:
			return -1
		case files[a].name > files[b].name:
			return 1
		}
		return 0
	})
	b := &runBudget{perRun: perRun, perFile: perFile, first: make([]int, len(files)), tree: make([]int, len(files)+1), group: make([]int, len(files))}
	for k, i := range idx {
		if k > 0 && files[idx[k-1]].name == files[i].name {
			b.first[i] = b.first[idx[k-1]]
		} else {
			b.first[i] = k
		}
	}
	return b
}

// before returns the kept counts recorded at sorted positions below pos.
func (b *runBudget) before(pos int) int {
	n := 0
	for ; pos > 0; pos -= pos & -pos {
		n += b.tree[pos]
	}
	return n
}

// kept is how many of a name's n findings Cap keeps at most.
func (b *runBudget) kept(n int) int {
	if b.perFile > 0 {
		return min(n, b.perFile)
	}
	return n
}

// record counts file i's findings that Cap may keep, and reports whether
// the files recorded so far whose names sort before file i's keep the
// run's cap between them: then all of file i's findings are omitted.
// Either answer is exact for Cap: a file recorded later only adds.
func (b *runBudget) record(i int, found []secrets.Finding) (omitted bool) {
	n := 0
	for _, f := range found {
		if !f.Allowed {
			n++
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	g := b.first[i]
	was := b.kept(b.group[g])
	b.group[g] += n
	for p, d := g+1, b.kept(b.group[g])-was; d != 0 && p < len(b.tree); p += p & -p {
		b.tree[p] += d
	}
	return b.before(b.first[i]) >= b.perRun
}

// omittedFile is what the report reads of a file whose findings the run's
// cap omits: the fingerprint key of each finding not allowed, in the
// file's order, and their count by rule.
type omittedFile struct {
	keys   [][16]byte
	byRule map[string]int
}

// omit reduces found, a file's findings, to an omittedFile.
func omit(found []secrets.Finding) *omittedFile {
	o := &omittedFile{byRule: map[string]int{}}
	for _, f := range found {
		if f.Allowed {
			continue
		}
		o.keys = append(o.keys, fingerprintKey(f.Fingerprint))
		o.byRule[f.RuleID]++
	}
	return o
}

// reportedKeys returns, counted 0, the fingerprint keys of the findings
// the report may show: those of files the run's cap did not omit. The
// findings of an omitted file are counted towards a fingerprint's ":N"
// only under these keys: a (rule, secret) that no reported finding has
// numbers nothing. Counting every omitted key held a map entry for each
// finding past the cap: on 178 MB dense with findings (1.1 million of
// them) the run peaked at 193 MB.
func reportedKeys(found [][]secrets.Finding, omitted []*omittedFile) map[[16]byte]int {
	keys := map[[16]byte]int{}
	for i, fs := range found {
		if omitted[i] != nil {
			continue
		}
		for _, f := range fs {
			if !f.Allowed {
				keys[fingerprintKey(f.Fingerprint)] = 0
			}
		}
	}
	return keys
}

// fingerprintKey is the part of a fingerprint scan numbers findings by:
// (rule, secret), not the place (a baseline survives moves).
func fingerprintKey(fp string) (k [16]byte) {
	copy(k[:], fp[:16])
	return k
}
