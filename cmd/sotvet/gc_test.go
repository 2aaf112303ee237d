package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestCollectLessWhileSmall: GOGC is smallHeapGC until a collection
// leaves more than the bound live, then the run's own setting.
func TestCollectLessWhileSmall(t *testing.T) {
	prev := debug.SetGCPercent(100)
	defer debug.SetGCPercent(prev)
	collectLessWhileSmall(150, 16<<20)
	runtime.GC()
	if got := debug.SetGCPercent(smallHeapGC); got != smallHeapGC {
		t.Fatalf("GOGC %d with a small heap, want %d", got, smallHeapGC)
	}
	live := liveHeap()
	collectUntil(t, "GOGC is not 150 with 24 MB live", func() bool {
		got := debug.SetGCPercent(-1)
		debug.SetGCPercent(got)
		return got == 150
	})
	runtime.KeepAlive(live)
}

// TestCollectAfterParse: a collection at the end of the parse of a large
// workspace, none for a small one.
func TestCollectAfterParse(t *testing.T) {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	collectAfterParse(0)
	runtime.ReadMemStats(&after)
	if after.NumGC != before.NumGC {
		t.Fatalf("%d collections with a small heap, want none", after.NumGC-before.NumGC)
	}
	live := liveHeap()
	runtime.GC()
	runtime.ReadMemStats(&before)
	collectAfterParse(0)
	runtime.ReadMemStats(&after)
	if after.NumGC == before.NumGC {
		t.Fatal("no collection with 24 MB live")
	}
	if !released.Load() {
		t.Fatal("pages not returned to the OS after the first large parse")
	}
	// Later parses collect without returning the pages again.
	runtime.ReadMemStats(&before)
	collectAfterParse(0)
	runtime.ReadMemStats(&after)
	if after.NumGC == before.NumGC {
		t.Fatal("no collection after a second large parse")
	}
	runtime.KeepAlive(live)
}

// TestCollectAfterParseOwnHeap: a workspace is large by what it adds to the
// live heap its run started with, not by what earlier workspaces left.
func TestCollectAfterParseOwnHeap(t *testing.T) {
	earlier := liveHeap() // what a workspace before left live
	runtime.GC()
	parsed, forgotten := workspaceCollections()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	parsed()
	forgotten()
	runtime.ReadMemStats(&after)
	if after.NumGC != before.NumGC {
		t.Fatalf("%d collections for a workspace that added nothing, want none", after.NumGC-before.NumGC)
	}
	own := liveHeap()
	runtime.GC()
	runtime.ReadMemStats(&before)
	parsed()
	runtime.ReadMemStats(&after)
	if after.NumGC == before.NumGC {
		t.Fatal("no collection for a workspace that added 24 MB")
	}
	runtime.KeepAlive(earlier)
	runtime.KeepAlive(own)
}

// TestLimitBySize: the small limit holds while the live heap is small,
// then the moderate one.
func TestLimitBySize(t *testing.T) {
	prev := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(prev)
	runtime.GC()
	limitBySize()
	runtime.GC()
	time.Sleep(time.Millisecond)
	if got := debug.SetMemoryLimit(-1); got != smallLimit {
		t.Fatalf("memory limit %d with a small heap, want %d", got, smallLimit)
	}
	live := liveHeap()
	collectUntil(t, "memory limit not moderate with 24 MB live", func() bool {
		return debug.SetMemoryLimit(-1) == moderateLimit
	})
	runtime.KeepAlive(live)
}

// TestLimitInSteps: the memory limit holds until a collection leaves
// more than the last step's bound live, then it is lifted.
func TestLimitInSteps(t *testing.T) {
	prev := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(prev)
	const limit = 1 << 30
	limitInSteps(nil, limitStep{16 << 20, limit})
	runtime.GC()
	time.Sleep(time.Millisecond)
	if got := debug.SetMemoryLimit(-1); got != limit {
		t.Fatalf("memory limit %d with a small heap, want %d", got, limit)
	}
	live := liveHeap()
	collectUntil(t, "memory limit still set with 24 MB live", func() bool {
		return debug.SetMemoryLimit(-1) == math.MaxInt64
	})
	runtime.KeepAlive(live)
}

// liveHeap returns 24 MB that the caller keeps live.
func liveHeap() [][]byte {
	live := make([][]byte, 64)
	for i := range live {
		live[i] = make([]byte, 384<<10)
	}
	return live
}

// collectUntil collects garbage until done reports true, or fails with
// msg after 5 seconds: the finalizers that pace the collector run after a
// cycle, on a goroutine of their own.
func collectUntil(t *testing.T, msg string, done func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); ; {
		runtime.GC()
		time.Sleep(time.Millisecond)
		if done() {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal(msg)
		}
	}
}

// TestLimitScanOwnsLimit: once sotvet scan sets its limit, the steps the
// run started under no longer change it (their step at 16 MiB live undid
// scan's), and past scanSmallHeap it follows the live heap
// (scanHeadroom): neither lifted nor a fixed step.
func TestLimitScanOwnsLimit(t *testing.T) {
	prev := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(prev)
	t.Setenv("GOMEMLIMIT", "")
	runtime.GC()
	limitBySize()
	limitScan()
	runtime.GC()
	time.Sleep(time.Millisecond)
	if got := debug.SetMemoryLimit(-1); got != scanSmallLimit {
		t.Fatalf("memory limit %d with a small heap, want scan's %d", got, scanSmallLimit)
	}
	live := append(liveHeap(), liveHeap()...) // 48 MB: past scanSmallHeap
	const held = 48 << 20
	var got int64
	collectUntil(t, "scan's memory limit does not follow 48 MB live", func() bool {
		got = debug.SetMemoryLimit(-1)
		return got >= held+scanHeadroom(held)
	})
	// Not limitBySize's moderateLimit, nor lifted: the live heap (the
	// test binary's own included) plus a quarter and scanOverhead.
	if most := int64(held+16<<20) + scanHeadroom(held+16<<20); got > most || got == moderateLimit {
		t.Fatalf("memory limit %d with 48 MB live, want at most %d (scan's headroom)", got, most)
	}
	runtime.KeepAlive(live)
}

// TestScanHeadroom: the limit past scanSmallHeap starts where the step
// below ends (no cliff) and grows with the live heap.
func TestScanHeadroom(t *testing.T) {
	if got := scanSmallHeap + scanHeadroom(scanSmallHeap); got < scanSmallLimit {
		t.Errorf("limit %d just past the small step, under its %d", got, scanSmallLimit)
	}
	prev := int64(0)
	for live := uint64(scanSmallHeap); live <= 1<<30; live += 4 << 20 {
		limit := int64(live) + scanHeadroom(live)
		if limit < prev {
			t.Fatalf("limit %d at %d live, below %d at less", limit, live, prev)
		}
		if limit < int64(live)+scanOverhead {
			t.Fatalf("limit %d at %d live leaves no room for the runtime's own memory", limit, live)
		}
		prev = limit
	}
	// The tree that wakes every rule: ~27 MiB live, a limit under 46 MiB
	// (a peak of ~62.5 MiB RSS with the binary's pages).
	if got := 27<<20 + scanHeadroom(27<<20); got > 46<<20 {
		t.Errorf("limit %d at 27 MiB live, want at most 46 MiB", got)
	}
}

// TestLimitLaterPolicyOwns: a policy whose step changes on every
// collection no longer sets the limit once a later one has taken it. At
// 24 MB live both of limitScan's and limitBySize's first steps end on the
// same collection, so TestLimitScanOwnsLimit passes either way.
func TestLimitLaterPolicyOwns(t *testing.T) {
	prev := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(prev)
	limitInSteps(nil, limitStep{0, 2 << 40}, limitStep{1 << 50, 1 << 40})
	limitInSteps(nil, limitStep{1 << 50, 3 << 30})
	n := 0
	collectUntil(t, "", func() bool { n++; return n == 4 })
	if got := debug.SetMemoryLimit(-1); got != 3<<30 {
		t.Fatalf("memory limit %d, want the later policy's %d", got, int64(3<<30))
	}
}

// TestLimitFollowsLive: past the last step the memory limit is the live
// heap plus its headroom, not lifted, and it does not fall when the heap
// shrinks again.
func TestLimitFollowsLive(t *testing.T) {
	prev := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(prev)
	const room = 1 << 30
	limitInSteps(func(uint64) int64 { return room }, limitStep{16 << 20, 1 << 40})
	live := liveHeap()
	var set int64
	collectUntil(t, "memory limit does not follow 24 MB live", func() bool {
		set = debug.SetMemoryLimit(-1)
		return set >= room+24<<20 && set < room+64<<20
	})
	runtime.KeepAlive(live)
	live = nil
	// Wait for the pacer's callback to have seen the small heap: two
	// collections under 16 MB live seen by an observer of its own (the
	// finalizers of one cycle all run before the next cycle's).
	var small atomic.Int32
	afterEachCollection(func(live uint64) bool {
		if live < 16<<20 {
			small.Add(1)
		}
		return small.Load() < 2
	})
	collectUntil(t, "the heap did not shrink under 16 MB", func() bool { return small.Load() >= 2 })
	if got := debug.SetMemoryLimit(-1); got != set {
		t.Fatalf("memory limit %d once the heap shrank, want %d", got, set)
	}
}

// TestHeadroomFor: the limit (live + headroom) is moderateLimit at least,
// with no step down past moderateHeap, and half the live heap beyond it.
func TestHeadroomFor(t *testing.T) {
	for _, c := range []struct{ live, want uint64 }{
		{moderateHeap, moderateLimit},
		{70 << 20, moderateLimit},
		{90 << 20, 135 << 20},
		{400 << 20, 600 << 20},
	} {
		if got := uint64(headroomFor(c.live)) + c.live; got != c.want {
			t.Errorf("limit at %d MiB live = %d MiB, want %d MiB", c.live>>20, got>>20, c.want>>20)
		}
	}
}

// TestScanLargeFilesDeferred: with every file large, each one met while
// another scans is read again at the end; the findings and their order
// are those of a scan where no file is large.
func TestScanLargeFilesDeferred(t *testing.T) {
	dir := t.TempDir()
	for i := range 24 {
		sum := sha256.Sum256([]byte{byte(i)})
		tok := "ghp_" + strings.NewReplacer("+", "", "/", "", "=", "").Replace(base64.StdEncoding.EncodeToString(sum[:]))[:36]
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%02d.txt", i)), []byte("token: "+tok+"\nplain text\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	scan := func() string {
		var out, errOut bytes.Buffer
		run([]string{"scan", "--format", "json", dir}, &out, &errOut)
		return out.String()
	}
	want := scan()
	defer func(n int) { largeScan = n }(largeScan)
	largeScan = 1
	for range 3 {
		if got := scan(); got != want {
			t.Fatalf("with every file large:\n%s\nwant\n%s", got, want)
		}
	}
	if !strings.Contains(want, "f23.txt") {
		t.Fatalf("the scan found nothing to compare: %s", want)
	}
}
