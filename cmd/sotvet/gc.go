package main

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
)

// smallHeapGC is the collector's GOGC while the live heap is under
// smallHeap. A small workspace, the usual one, is checked with a live
// heap of a few MB, where collecting at 2.5 times it means a collection
// every few MB allocated: four on the real corpus, ~3 ms of a 40 ms run;
// at 5 times it is one. Under smallHeap live, 5 times is at most 80 MB.
const (
	smallHeapGC = 400
	smallHeap   = 16 << 20
)

// collectLessWhileSmall sets GOGC to smallHeapGC until a collection
// leaves more than small bytes live, then to gcPercent for the rest of
// the run: a large workspace then runs as under gcPercent alone, after a
// first collection or two at the higher setting, below its final peak.
func collectLessWhileSmall(gcPercent int, small uint64) {
	debug.SetGCPercent(smallHeapGC)
	afterEachCollection(func(live uint64) bool {
		if live > small {
			debug.SetGCPercent(gcPercent)
			return false
		}
		return true
	})
}

// moderateLimit is the soft memory limit (debug.SetMemoryLimit) a run
// keeps to while its live heap is under moderateHeap. Under GOGC alone the
// heap may reach 2.5 times the live heap the last collection counted, and
// a collection during the parse counts as live all that is allocated
// while it marks: on 10,000 documents (a model of ~48 MB) the heap reached
// 120-160 MB at the end of the parse, the run's peak, the more the busier
// the cores. Under the limit the collector runs when the process nears
// 112 MiB instead. With under 64 MiB live that still leaves ~40 MiB to
// allocate between collections. A small workspace never comes near it.
//
// The process's peak is the limit and the binary's pages (~24 MB of a
// check run's resident set are the executable's): at 128 MiB, shapes of
// 10,000 documents whose live heap is far under it (default, items,
// distinct) all peaked at 148-152 MiB, the freed pages kept up to the
// limit; at 112 MiB they peak at 132-142 MiB for 0-5 % more CPU.
const (
	moderateLimit = 112 << 20
	moderateHeap  = 64 << 20
)

// smallLimit is the soft memory limit while the live heap is under
// smallHeap. Collecting at smallHeapGC times a small live heap is one
// collection for the default checks, which allocate little; a run that
// allocates many times its small live heap (prose on the corpus: ~60 MB
// allocated, 14 MB live) would grow the heap to five times it instead,
// every byte a fresh page the kernel faults in (12,000 faults), where a
// collection of the small heap costs less: under the limit the corpus's
// prose run peaks at ~46 MB instead of ~68 MB, for ~8% less CPU; the
// default checks never reach it.
const smallLimit = 32 << 20

// limitBySize keeps the run to smallLimit while the live heap is under
// smallHeap, then to moderateLimit while it is under moderateHeap, then
// to a limit that follows the live heap (headroomFor).
func limitBySize() {
	limitInSteps(headroomFor, limitStep{smallHeap, smallLimit}, limitStep{moderateHeap, moderateLimit})
}

// headroomFor is what a run whose live heap has reached live may allocate
// beyond it before the collector runs: half the live heap, and never so
// little that the limit falls below moderateLimit, the step below. A
// fixed limit once the model outgrew it had the collector run ever more
// often, without end (a 100,000-document workspace took twice as long
// under the 384 MiB limit sotvet once set); no limit at all let the heap
// reach 2.5 times the live heap (GOGC 150), 220-250 MB on 10,000
// documents of 100 MB live. A headroom that grows with the live heap costs
// each collection's marking the same share of what is allocated at every
// size: the collector runs as under GOGC 50. It was once at least 64 MiB
// (a limit of 154 MiB at 90 MiB live on default at 10,000 documents, a
// peak of ~180 MB): what the parse allocates per byte of input went down
// (contradiction's readBlockCommands, ~10% of it), so the collections
// half the live heap asks for cost about what the larger headroom did.
func headroomFor(live uint64) int64 {
	return roomAbove(moderateLimit, live, int64(live/2))
}

// roomAbove is room, or more where live+room would fall below floor: a
// limit that follows the live heap starts where the step below it ends.
func roomAbove(floor int64, live uint64, room int64) int64 {
	return max(room, floor-int64(min(live, uint64(floor))))
}

// limitPolicy counts the policies that have set the memory limit; the
// last one set owns it. Every run starts under limitBySize and sotvet
// scan then sets its own: while both paced the limit, limitBySize's step
// to moderateLimit at 16 MiB live undid scan's limit, and a scan of files
// that wake every rule peaked at ~135 MB instead of ~60.
// limitMu holds a policy's check that it owns the limit together with
// its setting of it: else a policy that lost the limit between the two
// would set it over the new owner's.
var (
	limitPolicy atomic.Int64
	limitMu     sync.Mutex
)

// ownLimit makes the caller the memory limit's policy; the function it
// returns reports whether it still is. Both are called under limitMu.
func ownLimit() func() bool {
	g := limitPolicy.Add(1)
	return func() bool { return limitPolicy.Load() == g }
}

// limitStep is a soft memory limit kept while the live heap is at most
// upTo bytes.
type limitStep struct {
	upTo  uint64
	limit int64
}

// limitInSteps sets the first step's limit, then after each collection
// the limit of the first step the live heap fits in; past the last, the
// largest live heap seen plus headroom(it), or no limit if headroom is
// nil. A heap that shrank again does not go back a step: the run has
// shown its size.
func limitInSteps(headroom func(live uint64) int64, steps ...limitStep) {
	limitMu.Lock()
	mine := ownLimit()
	debug.SetMemoryLimit(steps[0].limit)
	limitMu.Unlock()
	i := 0          // read and written by the finalizer goroutine only
	var most uint64 // likewise: the largest live heap past the last step
	afterEachCollection(func(live uint64) bool {
		limitMu.Lock()
		defer limitMu.Unlock()
		if !mine() {
			return false
		}
		at := i
		for i < len(steps) && live > steps[i].upTo {
			i++
		}
		if i == len(steps) {
			if headroom == nil {
				debug.SetMemoryLimit(math.MaxInt64)
				return false
			}
			if live > most {
				most = live
				debug.SetMemoryLimit(int64(most) + headroom(most))
			}
			return true
		}
		if i != at {
			debug.SetMemoryLimit(steps[i].limit)
		}
		return true
	})
}

// afterEachCollection calls f with the live heap after each collection,
// as long as f returns true. A finalizer runs after each collection that
// finds its object unreachable: one object a cycle, armed again.
func afterEachCollection(f func(live uint64) bool) {
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	type sentinel struct{ _ *int }
	var arm func()
	arm = func() {
		runtime.SetFinalizer(&sentinel{}, func(*sentinel) {
			if metrics.Read(live); live[0].Value.Kind() == metrics.KindUint64 && !f(live[0].Value.Uint64()) {
				return
			}
			arm()
		})
	}
	arm()
}

// collectAfterParse collects garbage when a large workspace has been
// parsed (checks.Options.Parsed), and returns the freed pages to the OS.
// A collection during the parse counts as live all it allocates while
// marking, 15-30 MB on two busy cores, and the next sets its goal from
// that; at the end of the parse nothing else runs, so one then sees the
// model alone and sets the goal for the checks from it: on 10,000
// documents the run peaks ~25 MB lower for no more CPU (the collection
// replaces one the checks would have started). The parse's garbage, once
// freed, would stay resident until the checks reused it; returned, the
// checks fault in only the pages they take, ~10 MB fewer at the peak. A
// small workspace (the last collection left under smallHeap live) is not
// worth either. The pages go back once a process: after that a run's
// freed pages are the ones its next workspace takes again (a run over ten
// nested workspaces spent 1.4 s of its 6.5 s CPU returning and faulting
// them in, and peaked no lower).
func collectAfterParse(base uint64) {
	if !largeHeap(base) {
		return
	}
	if released.Swap(true) {
		runtime.GC()
		return
	}
	debug.FreeOSMemory()
}

// released is set once collectAfterParse has returned pages to the OS.
var released atomic.Bool

// collectAfterModel collects garbage when a large workspace's typed model
// has been let go (checks.Options.Forgotten), before the findings are
// resolved: they, their fingerprints and the output then take the
// model's pages instead of new ones. On 10,000 documents with 75,000
// findings the run peaks ~15 MB lower for no more CPU: the checks and the
// findings allocate about what their goal allows, so the collection
// replaces the one that would have come while the findings were resolved.
func collectAfterModel(base uint64) {
	if largeHeap(base) {
		runtime.GC()
	}
}

// largeHeap reports whether the last collection left more than smallHeap
// live beyond base.
func largeHeap(base uint64) bool {
	live, ok := liveBytes()
	return ok && live > base+smallHeap
}

func liveBytes() (uint64, bool) {
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(live)
	if live[0].Value.Kind() != metrics.KindUint64 {
		return 0, false
	}
	return live[0].Value.Uint64(), true
}

// workspaceCollections returns the hooks that collect after a
// workspace's parse and after its model is let go (checks.Options.Parsed,
// Forgotten), judging the workspace large by what it adds to the live
// heap its run starts with. A run over nested workspaces holds the
// findings of those before: judged by the whole live heap, every small
// workspace after the first few was large, and each paid two forced
// collections (corpus ×10 with prose: 18 collections and 0.2 s of
// returning pages to the OS, 12% of its CPU) to lower a peak it did not
// set.
func workspaceCollections() (parsed, forgotten func()) {
	base, _ := liveBytes()
	return func() { collectAfterParse(base) }, func() { collectAfterModel(base) }
}

// scanSmallLimit is the soft memory limit sotvet scan keeps to while its
// live heap is under scanSmallHeap: a single dense file keeps a small
// live heap (~10 MB), and under 56 MiB (at smallHeapGC) grew to ~70 MB
// where 40 MiB holds it near 55.
//
// Past it the limit follows the live heap (scanHeadroom): the live heap of
// a scan is what it compiled (every rule, on a tree that wakes them all:
// ~27 MB, mostly compiled expressions and filters), the files in flight
// and the findings the report keeps, each bounded, so the limit is too.
// A fixed step of 56 MiB there let such a tree (gen-secrets-tree -allkw,
// 19 MB of files dense with every rule's keywords) reach 72 MiB of RSS,
// over issue 33's 64 MB; under GOGC alone it reached 130-135 MB. The
// limit counts the runtime's own memory besides the heap (scanOverhead),
// which is why a fixed 40 MiB there had the collector run without end
// near 28 MB live, and a fixed limit past the step is a cliff a larger
// live heap falls off.
const (
	scanSmallLimit = 40 << 20
	scanSmallHeap  = 20 << 20
	scanOverhead   = 12 << 20
)

// scanHeadroom is what a scan whose live heap has reached live may hold
// beyond it: the runtime's own memory (scanOverhead) and a quarter of the
// live heap to allocate between collections, never so little that the
// limit falls below scanSmallLimit, the step below. On the allkw tree
// (~27 MiB live) that is a limit of ~46 MiB and a peak of ~62.5 MiB RSS
// (the binary's mapped pages are ~19 MB of it) where the fixed step gave
// 72 MiB, for ~10% more CPU (5.6 -> 6.2 s, five interleaved runs); with
// 10 MiB for the runtime it was 62 MiB for ~25% more. A 40 MB file
// (--max-file-size raised) peaks at 95-110 MB where the steps let it
// reach 115-187 MB, for the same CPU. A tree that wakes few rules stays
// under scanSmallHeap and is not affected.
func scanHeadroom(live uint64) int64 {
	return roomAbove(scanSmallLimit, live, int64(live/4)+scanOverhead)
}

func limitScan() {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	limitInSteps(scanHeadroom, limitStep{scanSmallHeap, scanSmallLimit})
}
