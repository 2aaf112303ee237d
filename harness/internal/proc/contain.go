package proc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// Containment kinds, as recorded in reports.
const (
	ContainCgroup = "cgroup-v2"                  // the process tree ran in its own cgroup, killed with cgroup.kill
	ContainGroup  = "process-group+marker-sweep" // SIGTERM, grace, SIGKILL to the group, then a sweep by env marker
)

// MarkerVar is the environment variable Run adds to a contained process:
// its value is unique per run, so that descendants that left the process
// group (setsid, a new PTY session) can still be found and killed.
const MarkerVar = "SOTVET_CONTAINMENT_ID"

// cgroupRoot is where per-run cgroups are made: a cgroup v2 hierarchy the
// harness may create children in, or "" when there is none.
var cgroupRoot = sync1(func() string {
	dir, err := cgroup2Dir()
	if err != nil {
		return ""
	}
	root := filepath.Join(dir, "sotvet")
	if err := os.MkdirAll(root, 0o755); err != nil {
		return ""
	}
	// Prove that a child can be made and that it offers cgroup.kill.
	probe := filepath.Join(root, fmt.Sprintf("probe-%d", os.Getpid()))
	if err := os.Mkdir(probe, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
		return ""
	}
	defer os.Remove(probe)
	if _, err := os.Stat(filepath.Join(probe, "cgroup.kill")); err != nil {
		return ""
	}
	return root
})

func sync1(f func() string) func() string {
	var once atomic.Pointer[string]
	return func() string {
		if p := once.Load(); p != nil {
			return *p
		}
		v := f()
		once.Store(&v)
		return v
	}
}

// CgroupAvailable reports whether backends can run in their own cgroup.
func CgroupAvailable() bool { return cgroupRoot() != "" }

// cgroup2Dir finds the cgroup v2 directory of this process: the unified
// mount (pure or hybrid hierarchy) joined with the "0::" path.
func cgroup2Dir() (string, error) {
	data, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", err
	}
	rel := ""
	found := false
	for _, l := range strings.Split(string(data), "\n") {
		if p, ok := strings.CutPrefix(l, "0::"); ok {
			rel, found = p, true
		}
	}
	if !found {
		return "", errors.New("no cgroup v2 membership")
	}
	mi, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return "", err
	}
	defer mi.Close()
	sc := bufio.NewScanner(mi)
	for sc.Scan() {
		// id parent maj:min root mountpoint opts ... - fstype source superopts
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		if !ok || !strings.HasPrefix(post, "cgroup2 ") {
			continue
		}
		f := strings.Fields(pre)
		if len(f) < 5 {
			continue
		}
		return filepath.Join(f[4], strings.TrimPrefix(rel, f[3])), nil
	}
	return "", errors.New("no cgroup2 mount")
}

var cgroupSeq atomic.Int64

// newCgroup makes a fresh leaf cgroup and returns its directory and an
// open descriptor for clone3(CLONE_INTO_CGROUP).
func newCgroup() (string, *os.File, error) {
	root := cgroupRoot()
	if root == "" {
		return "", nil, errors.New("no usable cgroup v2 hierarchy")
	}
	dir := filepath.Join(root, fmt.Sprintf("run-%d-%d", os.Getpid(), cgroupSeq.Add(1)))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return "", nil, err
	}
	f, err := os.Open(dir)
	if err != nil {
		os.Remove(dir)
		return "", nil, err
	}
	return dir, f, nil
}

// killCgroup kills every process in dir, waits until it is empty and
// removes it. It returns the pids still listed after the wait.
func killCgroup(dir string) []int {
	var left []int
	for attempt := 0; attempt < 100; attempt++ {
		_ = os.WriteFile(filepath.Join(dir, "cgroup.kill"), []byte("1"), 0)
		left = cgroupProcs(dir)
		if len(left) == 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if len(left) == 0 {
		for attempt := 0; attempt < 50 && os.Remove(dir) != nil; attempt++ {
			time.Sleep(10 * time.Millisecond)
		}
	}
	return left
}

func cgroupProcs(dir string) []int {
	data, err := os.ReadFile(filepath.Join(dir, "cgroup.procs"))
	if err != nil {
		return nil
	}
	var out []int
	for _, f := range strings.Fields(string(data)) {
		if pid, err := strconv.Atoi(f); err == nil {
			out = append(out, pid)
		}
	}
	return out
}

// terminateGroup asks the group to stop, gives it grace to do so (Pi kills
// its detached children on SIGTERM), then kills it.
func terminateGroup(pgid int, grace time.Duration, exited <-chan struct{}) {
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-exited:
	case <-t.C:
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
}

// MarkedProcesses lists live processes whose environment holds
// MarkerVar=id: descendants of a contained run wherever they went.
func MarkedProcesses(id string) []int {
	if id == "" {
		return nil
	}
	want := []byte(MarkerVar + "=" + id + "\x00")
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	self := os.Getpid()
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil || !bytes.Contains(append(env, 0), want) {
			continue
		}
		if st, err := os.ReadFile("/proc/" + e.Name() + "/stat"); err == nil {
			if i := bytes.LastIndexByte(st, ')'); i > 0 {
				if f := strings.Fields(string(st[i+1:])); len(f) > 0 && (f[0] == "Z" || f[0] == "X") {
					continue
				}
			}
		}
		out = append(out, pid)
	}
	return out
}

// sweepMarked kills marked processes until none is left or time runs out,
// and returns those still alive.
func sweepMarked(id string) []int {
	var left []int
	for attempt := 0; attempt < 50; attempt++ {
		if left = MarkedProcesses(id); len(left) == 0 {
			return nil
		}
		for _, pid := range left {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		time.Sleep(10 * time.Millisecond)
	}
	return left
}
