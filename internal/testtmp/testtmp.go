// Package testtmp puts a test process's temporary files on a tmpfs when
// its user has not said where they go.
//
// The tests of sotvet's larger packages create and delete tens of
// thousands of files (scenario archives, copied git workspaces,
// generated corpora). On a disk file system that is a large part of
// their cost: on an ext4 without a journal, every inode allocated after
// many deletions probes the recently deleted ones, and `go test ./...`
// spent as much CPU in the kernel as in the tests. On a tmpfs it does
// not (measured in docs/scaling.md, "Round 38").
//
// A test binary that calls Run gets TMPDIR set, for itself and every
// process it starts, to a directory of its own on /dev/shm, removed when
// its tests end, but only when all of these hold:
//
//   - TMPDIR is unset or empty: a user who set it has chosen (set
//     TMPDIR=/tmp to keep the files on disk);
//   - /dev/shm is a tmpfs, writable, and not mounted noexec (the tests
//     run programs they build there), and a script written there runs;
//   - /dev/shm has at least MinFree bytes free, and the machine at least
//     MinMemAvailable bytes of memory available (a tmpfs's files are
//     memory; a run holds about 200 MB at its peak).
//
// Otherwise nothing changes. When the tests fail and left files there
// (a test that keeps what it found for a reader), the directory is kept
// and its path printed. A directory kept so, or left by a test process
// that was killed (a timeout's panic skips every cleanup), holds memory
// until reboot, not disk space: Run removes those of this user whose
// process is gone and which have not changed for an hour.
package testtmp

import (
	"fmt"
	"os"
)

// MinFree is the free space /dev/shm must have: five times what a whole
// `go test ./...` held there at its peak.
const MinFree = 1 << 30

// MinMemAvailable is the memory the machine must have available.
const MinMemAvailable = 2 << 30

// prefix names the directories Run makes: prefix and the process id,
// then, where that name is taken, "-" and os.MkdirTemp's random part.
// Short: a Unix socket's path holds at most 107 bytes, and chromium and
// Neovim make theirs in directories of TMPDIR.
const prefix = "sotvet-t"

// Runner is what TestMain runs: *testing.M, or a RunFunc that runs it
// and cleans up after.
type Runner interface{ Run() int }

// RunFunc is a function as a Runner.
type RunFunc func() int

// Run calls f.
func (f RunFunc) Run() int { return f() }

// Run runs m with TMPDIR on a tmpfs where one is fit for it (see the
// package comment), and returns m's exit code after removing the
// directory. Call it from TestMain: os.Exit(testtmp.Run(m)).
func Run(m Runner) int {
	dir := use()
	if dir == "" {
		return m.Run()
	}
	code := m.Run()
	os.Unsetenv("TMPDIR")
	if code != 0 && !empty(dir) {
		fmt.Fprintf(os.Stderr, "testtmp: the tests failed; what they left is in %s (on a tmpfs: a later test run removes it after an hour)\n", dir)
		return code
	}
	removeAll(dir)
	return code
}

// empty reports whether dir holds nothing.
func empty(dir string) bool {
	f, err := os.Open(dir)
	if err != nil {
		return true
	}
	defer f.Close()
	names, _ := f.Readdirnames(1)
	return len(names) == 0
}

// use sets TMPDIR to a new directory on a fit tmpfs and returns it, or
// returns "" and changes nothing.
func use() string {
	if os.Getenv("TMPDIR") != "" {
		return ""
	}
	dir := choose("/dev/shm")
	if dir != "" {
		os.Setenv("TMPDIR", dir)
	}
	return dir
}
