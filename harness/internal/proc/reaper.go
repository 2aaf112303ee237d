package proc

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// The harness makes itself a child subreaper (PR_SET_CHILD_SUBREAPER):
// a descendant of a backend whose parent exits is re-parented to the
// harness instead of to init. A child that cleared its environment (no
// marker) and called setsid (out of the process group), where no cgroup
// can be made, is then still found, as a child of the harness's, killed
// and reaped.
//
// A re-parented process is told apart from the harness's own children
// (git and the like, started in the harness's process group) by its
// process group, and from the leaders Run is waiting for by the leader
// registry. Under concurrent runs (matrix --jobs N) an escaped process is
// killed by whichever run ends first after it started: never left alive.

var (
	subreaperOnce sync.Once
	subreaperOK   bool
)

// becomeSubreaper makes this process a child subreaper, once; it reports
// whether the kernel accepted.
func becomeSubreaper() bool {
	subreaperOnce.Do(func() {
		subreaperOK = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == nil
	})
	return subreaperOK
}

// leaders are the processes Run started and has not yet waited for. The
// lock is held across a start, so that a sweep never takes a leader being
// started for an orphan.
var (
	leadersMu sync.Mutex
	leaders   = map[int]bool{}
)

func addLeader(pid int) { leaders[pid] = true } // with leadersMu held

func removeLeader(pid int) {
	leadersMu.Lock()
	delete(leaders, pid)
	leadersMu.Unlock()
}

// procStat is what the sweep reads of /proc/PID/stat.
type procStat struct {
	state           string
	ppid, pgrp, sid int
	start           uint64 // clock ticks after boot
}

func readStat(pid int) (procStat, bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procStat{}, false
	}
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return procStat{}, false
	}
	// state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt
	// cmajflt utime stime cutime cstime priority nice num_threads
	// itrealvalue starttime ...
	f := strings.Fields(string(data[i+1:]))
	if len(f) < 20 {
		return procStat{}, false
	}
	var s procStat
	s.state = f[0]
	s.ppid, _ = strconv.Atoi(f[1])
	s.pgrp, _ = strconv.Atoi(f[2])
	s.sid, _ = strconv.Atoi(f[3])
	s.start, _ = strconv.ParseUint(f[19], 10, 64)
	return s, true
}

// startTime is pid's start time in clock ticks after boot (0 if unknown).
func startTime(pid int) uint64 {
	s, _ := readStat(pid)
	return s.start
}

// orphans lists this process's children that Run did not start and that
// are not in this process's own group: descendants of a backend that were
// re-parented here, started at or after since.
func orphans(since uint64) []int {
	self, pgrp := os.Getpid(), syscall.Getpgrp()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		s, ok := readStat(pid)
		if !ok || s.ppid != self || s.pgrp == pgrp || leaders[pid] || s.start < since {
			continue
		}
		out = append(out, pid)
	}
	return out
}

// sweepOrphans kills and reaps the re-parented descendants started at or
// after since until none is left (killing one re-parents its children
// here) or time runs out, and returns those still alive.
func sweepOrphans(since uint64) []int {
	if !subreaperOK {
		return nil
	}
	var left []int
	for attempt := 0; attempt < 50; attempt++ {
		leadersMu.Lock()
		left = orphans(since)
		for _, pid := range left {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		// Reap under the lock: these pids are this process's children
		// that nothing else waits for.
		alive := left[:0]
		for _, pid := range left {
			var ws unix.WaitStatus
			if got, err := unix.Wait4(pid, &ws, unix.WNOHANG, nil); got != pid || err != nil {
				alive = append(alive, pid)
			}
		}
		leadersMu.Unlock()
		if len(alive) == 0 {
			return nil
		}
		left = alive
		time.Sleep(10 * time.Millisecond)
	}
	return left
}
