package main

import (
	"container/heap"
	"fmt"
	"sync"

	"github.com/svrnty/sotvet/secrets"
)

// runBudget lets a scan drop, as it goes, the findings of files that the
// run's cap (--max-findings) will omit in any case, keeping of each only
// what the report still reads: its count by rule (an omitted finding is
// counted) and its fingerprint key (the fingerprint's ":N" numbers the
// findings of a (rule, secret) in walk order, omitted ones included).
//
// The report keeps the first perRun findings in the order of the files'
// names (checks.Result.Cap, after checks.SortFindings), at most perFile
// of each. So once the files recorded whose names sort before a name
// keep perRun findings between them, every finding of that name is
// omitted, whatever is recorded later: a later file only adds. The
// budget holds the names recorded and not yet omitted, the greatest on
// top; while the others keep perRun between them, the top is omitted,
// and with it every name from it on that is recorded later.
//
// It needs no list of the files beforehand: the walk streams, and a tree
// of a million files holds only those that have findings. A tree dense
// with findings (a finding every 160 bytes of 17 MB: 110,000 of them)
// holds ~16 bytes for each finding past the cap instead of the finding
// (~250 bytes) and, at the end, its checks.Finding.
type runBudget struct {
	perRun, perFile int
	mu              sync.Mutex
	held            map[string]*budgetName // the names not omitted
	order           byNameDown             // the same, the greatest first
	total           int                    // what Cap keeps at most of the names held
	// from, once omitting, is the least name omitted: every name from it
	// on is omitted too.
	from     string
	omitting bool
}

// budgetName is a name's files and the findings recorded of them (Cap
// counts a name's findings together against perFile).
type budgetName struct {
	name  string
	n     int
	files []*scannedFile
}

// useRunBudget is false only in the test that compares reports made
// with and without a budget.
var useRunBudget = true

// newRunBudget returns the budget of a run, or nil when there is no run
// cap (perRun <= 0).
func newRunBudget(perRun, perFile int) *runBudget {
	if perRun <= 0 {
		return nil
	}
	return &runBudget{perRun: perRun, perFile: perFile, held: map[string]*budgetName{}}
}

// kept is how many of a name's n findings Cap keeps at most.
func (b *runBudget) kept(n int) int {
	if b.perFile > 0 {
		return min(n, b.perFile)
	}
	return n
}

// record counts f's findings, and omits (scannedFile.omit) f, or files
// recorded before it, once the names before theirs keep the run's cap.
// Each answer is exact for Cap: the names omitted are those Cap keeps
// nothing of among the files recorded so far.
func (b *runBudget) record(f *scannedFile) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.omitting && f.name >= b.from {
		f.omit()
		return
	}
	g := b.held[f.name]
	if g == nil {
		g = &budgetName{name: f.name}
		b.held[f.name] = g
		heap.Push(&b.order, g)
	}
	was := b.kept(g.n)
	for _, s := range f.found {
		if !s.Allowed {
			g.n++
		}
	}
	b.total += b.kept(g.n) - was
	g.files = append(g.files, f)
	for len(b.order) > 0 {
		top := b.order[0]
		if b.total-b.kept(top.n) < b.perRun {
			break
		}
		heap.Pop(&b.order)
		delete(b.held, top.name)
		b.total -= b.kept(top.n)
		for _, f := range top.files {
			f.omit()
		}
		b.from, b.omitting = top.name, true
	}
}

// byNameDown is a heap of names, the greatest on top.
type byNameDown []*budgetName

func (h byNameDown) Len() int           { return len(h) }
func (h byNameDown) Less(i, j int) bool { return h[i].name > h[j].name }
func (h byNameDown) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *byNameDown) Push(x any)        { *h = append(*h, x.(*budgetName)) }
func (h *byNameDown) Pop() any {
	old := *h
	x := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	return x
}

// omittedFile is what the report reads of a file whose findings the run's
// cap omits: the fingerprint key of each finding, in the file's order,
// and their count by rule.
type omittedFile struct {
	keys   []fpKey
	byRule map[string]int
}

// omit reduces found, a file's findings, to an omittedFile. The keys are
// what a scan holds for each finding past the cap, so they take 8 bytes
// each, allocated once: as 16-byte strings appended one by one, a tree of
// 273,000 findings (gen-secrets-tree -allkw, 40 MB) held 6 MB of them at
// its peak, a fifth of the scan's live heap.
func omit(found []secrets.Finding) *omittedFile {
	o := &omittedFile{byRule: map[string]int{}}
	n := 0
	for _, f := range found {
		if !f.Allowed {
			n++
		}
	}
	o.keys = make([]fpKey, 0, n)
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
func reportedKeys(files []*scannedFile) map[fpKey]int {
	keys := map[fpKey]int{}
	for _, f := range files {
		if f.omitted != nil {
			continue
		}
		for _, s := range f.found {
			if !s.Allowed {
				keys[fingerprintKey(s.Fingerprint)] = 0
			}
		}
	}
	return keys
}

// fpKey is the part of a fingerprint scan numbers findings by: (rule,
// secret), not the place (a baseline survives moves). It is the first 16
// hex digits of secrets.Fingerprint, read as a number: a report writes
// them back (String) as they were, lower-case hex being the only way
// Fingerprint writes them.
type fpKey uint64

func fingerprintKey(fp string) fpKey {
	var k fpKey
	for i := range 16 {
		c := fp[i]
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		default:
			panic("sotvet scan: a fingerprint that is not lower-case hex: " + fp)
		}
		k = k<<4 | fpKey(c)
	}
	return k
}

func (k fpKey) String() string { return fmt.Sprintf("%016x", uint64(k)) }
