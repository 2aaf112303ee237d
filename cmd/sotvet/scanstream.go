package main

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/svrnty/sotvet/secrets"
)

// scannedFile is what a scan keeps of a file for the report: a file
// without findings, the usual one, leaves nothing.
type scannedFile struct {
	seq       int // the file's place in the walk, which numbers fingerprints
	name      string
	unscanned string // why the file was not read (scanFile.unscanned)
	// found is the file's findings that no allow comment allows, the first
	// keep of them; more counts the others by rule.
	found []secrets.Finding
	more  map[string]int
	// omitted, when set, stands for found: the run's cap omits them all
	// (runBudget).
	omitted *omittedFile
}

// omit reduces f's findings to what counts them.
func (f *scannedFile) omit() {
	f.omitted, f.found = omit(f.found), nil
}

// largeScan is the size from which a scan reads a file while no other
// such file is being scanned. A scan's working memory grows with its file
// (the windows, the keyword starts and the accepted spans of every rule it
// wakes: a few MB on a 4 MB file dense with keywords), and on two cores
// two such scans at once kept ~6 MB more live than one (/tmp/allkwdir,
// four 4 MB files that wake every rule: 40-44 MB live at the collections
// instead of 34-37, beside ~22 MB of compiled rules; the collector ran 107
// times instead of ~35). Small files, the usual tree, still scan on every
// CPU, and one large file scans beside them; a large file met while
// another scans is dropped and read again at the end, so that no worker
// waits and no waiting content is held. The CPU time is the same or
// less; a tree of only large files takes longer.
var largeScan = 1 << 20 // a variable: a test makes every file large

// scanStream scans the files source gives, in the order it gives them,
// on every CPU: source runs beside the workers, which read (when a file
// has a path) and scan, so that a walk, opening files and scanning them
// overlap, and no list of the files is held: a tree's memory is that of
// the files in flight and of those with findings. It returns those, in
// source's order, and how many files it looked at (those source gave
// that were not skipped as other than regular). The first error of
// source, else the first read error in source's order, fails the scan.
//
// With keep > 0 each file keeps its first keep findings that are not
// allowed (secrets.Scanner.ScanCapped). With a budget, a file whose
// findings the run's cap omits keeps only what counts them.
func scanStream(sc *secrets.Scanner, rd scanReader, source func(emit func(scanFile)) error, keep int, budget *runBudget) (held []*scannedFile, files int, err error) {
	type job struct {
		seq int
		f   scanFile
	}
	jobs := make(chan job, 8)
	var sourceErr error
	go func() {
		defer close(jobs)
		seq := 0
		sourceErr = source(func(f scanFile) {
			jobs <- job{seq, f}
			seq++
		})
	}()
	var mu sync.Mutex       // held, deferred, the first read error
	var looked atomic.Int64 // files scanned, or reported not scanned
	errSeq := -1
	var readErr error
	hold := func(f *scannedFile) {
		mu.Lock()
		held = append(held, f)
		mu.Unlock()
	}
	scan := func(seq int, f *scanFile) {
		looked.Add(1)
		s := sc
		if f.sc != nil {
			s = f.sc
		}
		found, more := s.ScanCapped(f.name, f.content, keep)
		f.content = nil // scanned: not kept for the report
		found = slices.DeleteFunc(found, func(s secrets.Finding) bool { return s.Allowed })
		if len(found) == 0 && len(more) == 0 {
			return
		}
		out := &scannedFile{seq: seq, name: f.name, found: found, more: more}
		if budget != nil && len(found) > 0 {
			budget.record(out)
		}
		hold(out)
	}
	// read reads f when it has a path; it reports whether f is to be
	// scanned.
	read := func(seq int, f *scanFile) bool {
		if f.path != "" {
			if err := rd.read(f); err != nil {
				mu.Lock()
				if errSeq < 0 || seq < errSeq {
					errSeq, readErr = seq, err
				}
				mu.Unlock()
				return false
			}
		}
		if f.skip {
			return false
		}
		if f.unscanned != "" {
			looked.Add(1)
			hold(&scannedFile{seq: seq, name: f.name, unscanned: f.unscanned})
			return false
		}
		return true
	}
	var wg sync.WaitGroup
	var oneLarge sync.Mutex
	var deferred []job // large files met while another scanned: scanned one by one at the end
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for j := range jobs {
				f := &j.f
				path := f.path // read replaces the record
				if !read(j.seq, f) {
					continue
				}
				large := len(f.content) >= largeScan
				if large && !oneLarge.TryLock() {
					if path != "" {
						// another large scan runs: read this one again
						// at the end rather than hold it, or a worker,
						// idle meanwhile
						f.content, f.path = nil, path
						mu.Lock()
						deferred = append(deferred, j)
						mu.Unlock()
						continue
					}
					oneLarge.Lock() // content given, not read: nothing to read again
				}
				scan(j.seq, f)
				if large {
					oneLarge.Unlock()
				}
			}
		})
	}
	wg.Wait()
	for _, j := range deferred {
		if read(j.seq, &j.f) {
			scan(j.seq, &j.f)
		}
	}
	if sourceErr != nil {
		return nil, 0, sourceErr
	}
	if readErr != nil {
		return nil, 0, readErr
	}
	slices.SortFunc(held, func(a, b *scannedFile) int { return a.seq - b.seq })
	return held, int(looked.Load()), nil
}
