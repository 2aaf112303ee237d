package testtmp

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// choose returns a new directory of this process under root when root
// is a fit tmpfs, after removing the stale directories of earlier test
// processes there; "" otherwise.
func choose(root string) string {
	if !fit(root) {
		return ""
	}
	removeStale(root, time.Now())
	dir := filepath.Join(root, prefix+strconv.Itoa(os.Getpid()))
	if err := os.Mkdir(dir, 0o700); err != nil {
		if dir, err = os.MkdirTemp(root, filepath.Base(dir)+"-"); err != nil {
			return ""
		}
	}
	if !runs(dir) {
		removeAll(dir)
		return ""
	}
	return dir
}

// fit reports whether root is a tmpfs mounted writable and not noexec,
// with MinFree bytes free, on a machine with MinMemAvailable available.
func fit(root string) bool {
	var st unix.Statfs_t
	return unix.Statfs(root, &st) == nil && st.Type == unix.TMPFS_MAGIC &&
		st.Flags&(unix.ST_NOEXEC|unix.ST_RDONLY) == 0 &&
		uint64(st.Bavail)*uint64(st.Bsize) >= MinFree && memAvailable() >= MinMemAvailable
}

// runs reports whether a script written in dir runs: a mount's flags are
// not all that can forbid it (a security module can too).
func runs(dir string) bool {
	probe := filepath.Join(dir, "probe")
	if err := os.WriteFile(probe, []byte("#!/bin/sh\nexit 0\n"), 0o700); err != nil {
		return false
	}
	defer os.Remove(probe)
	return exec.Command(probe).Run() == nil
}

// memAvailable is /proc/meminfo's MemAvailable in bytes, 0 when unknown.
func memAvailable() uint64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 3 && f[0] == "MemAvailable:" && f[2] == "kB" {
			kb, err := strconv.ParseUint(f[1], 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}

// staleAfter is how long a dead process's directory must have been
// unchanged before it is removed: a process in another pid namespace
// that shares this /dev/shm looks dead from here, and a live test run
// keeps making directories in its own.
const staleAfter = time.Hour

// removeStale removes the directories under root that a test process of
// this user made (their name says so) when that process is gone and the
// directory has not changed for staleAfter.
func removeStale(root string, now time.Time) {
	ents, err := os.ReadDir(root)
	if err != nil {
		return
	}
	uid := uint32(os.Geteuid())
	for _, e := range ents {
		pid, ok := ownerPID(e.Name())
		if !ok || !e.IsDir() {
			continue
		}
		path := filepath.Join(root, e.Name())
		info, err := os.Lstat(path)
		if err != nil || !info.IsDir() {
			continue
		}
		if st, ok := info.Sys().(*syscall.Stat_t); !ok || st.Uid != uid {
			continue
		}
		if now.Sub(info.ModTime()) < staleAfter || alive(pid) {
			continue
		}
		removeAll(path)
	}
}

// ownerPID reads the process id out of a name Run gave a directory.
func ownerPID(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return 0, false
	}
	digits, _, _ := strings.Cut(rest, "-")
	if digits == "" || strings.Trim(digits, "0123456789") != "" {
		return 0, false
	}
	pid, err := strconv.Atoi(digits)
	return pid, err == nil && pid > 0
}

// alive reports whether a process pid exists (of any user: EPERM says
// it does).
func alive(pid int) bool {
	err := unix.Kill(pid, 0)
	return err == nil || err == unix.EPERM
}
