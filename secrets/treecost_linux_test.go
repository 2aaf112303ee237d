package secrets

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// BenchmarkTreeRules scans the files of the tree SOTVET_TREE names twice
// with one scanner and prints, per rule, the time of its first pass (its
// compilations and its searches) and of its second (its searches alone:
// every expression compiled): the first minus the second is what the rule
// cost to compile; only the first iteration's first pass compiles: run it
// with -benchtime 1x (SOTVET_RULES, an expression, keeps the rules whose IDs
// it matches). A rule's time is that of its searches and their checks, not
// its share of the keyword pass. Where to look when a tree of small files
// is slow.
func BenchmarkTreeRules(b *testing.B) {
	root := os.Getenv("SOTVET_TREE")
	if root == "" {
		b.Skip("SOTVET_TREE names no tree")
	}
	type file struct {
		path string
		data []byte
	}
	var files []file
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !d.Type().IsRegular() {
			return err
		}
		data, err := os.ReadFile(p)
		if err == nil && len(data) <= 1<<20 {
			rel, _ := filepath.Rel(root, p)
			files = append(files, file{filepath.ToSlash(rel), data})
		}
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	s := defaultScanner(b)
	if sel := os.Getenv("SOTVET_RULES"); sel != "" {
		// only the rules whose IDs the expression matches: to profile them
		re := regexp.MustCompile(sel)
		var rules []*Rule
		for _, r := range DefaultRules() {
			if re.MatchString(r.ID) {
				rules = append(rules, r)
			}
		}
		var err error
		if s, err = NewScanner(Config{Rules: rules, AllowLocalhost: true}); err != nil {
			b.Fatal(err)
		}
	}
	// One goroutine on one thread, timed by the thread's CPU: on a loaded
	// machine wall time counts the waits.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	defer func(c func() time.Duration) { ruleNanos, ruleClock = nil, c }(ruleClock)
	ruleClock = threadCPU
	pass := func() ([]atomic.Int64, time.Duration) {
		ruleNanos = make([]atomic.Int64, len(s.rules))
		t0 := cpuTime()
		for _, f := range files {
			s.ScanCapped(f.path, f.data, 0)
		}
		return ruleNanos, cpuTime() - t0
	}
	for i := 0; i < b.N; i++ {
		cold, coldCPU := pass()
		warm, warmCPU := pass()
		type cost struct {
			id         string
			cold, warm time.Duration
		}
		var cs []cost
		for r := range cold {
			c := cost{s.rules[r].ID, time.Duration(cold[r].Load()), time.Duration(warm[r].Load())}
			if c.cold > 0 || c.warm > 0 {
				cs = append(cs, c)
			}
		}
		// most costly first to a process that scans the tree once
		sort.Slice(cs, func(i, j int) bool { return cs[i].cold > cs[j].cold })
		var lines []string
		var extra, again time.Duration
		compiled := 0
		for _, c := range cs {
			extra += c.cold - c.warm
			again += c.warm
		}
		for _, r := range s.rules {
			if r.compiled.Load() {
				compiled++
			}
		}
		lines = append(lines, fmt.Sprintf("rules' first pass %.1fms more than again (%.1fms); %d rules compiled", float64(extra)/1e6, float64(again)/1e6, compiled))
		for _, c := range cs[:min(25, len(cs))] {
			lines = append(lines, fmt.Sprintf("%-40s first %6.1fms  again %6.1fms", c.id, float64(c.cold)/1e6, float64(c.warm)/1e6))
		}
		b.Logf("%d files: cpu first %.0fms, again %.0fms; %d rules ran\n%s", len(files), float64(coldCPU)/1e6, float64(warmCPU)/1e6, len(cs), strings.Join(lines, "\n"))
	}
}

// threadCPU is the calling thread's CPU time (CLOCK_THREAD_CPUTIME_ID: to
// the nanosecond, where getrusage counts ticks).
func threadCPU() time.Duration {
	var ts syscall.Timespec
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, 3, uintptr(unsafe.Pointer(&ts)), 0)
	return time.Duration(ts.Nano())
}
