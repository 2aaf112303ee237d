package guard

import (
	"errors"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"github.com/svrnty/sotvet/harness/ledger"
)

// pfKthread is the kernel-thread flag of /proc/PID/stat: kernel threads
// work nowhere in a file system.
const pfKthread = 0x00200000

// procScan is what /proc says about processes working inside the roots.
type procScan struct {
	found []ledger.GuardProcess
	// Processes whose working directory or files could not be read: the
	// repository owner's (which block) and other users' (which cannot
	// reach into a repository they do not own unless it lets them).
	ownerUncertain, otherUncertain int
	// uninspected names the owner's processes counted in ownerUncertain.
	uninspected []ledger.GuardUninspected
	err         error // /proc itself could not be read
}

// scanProcs lists the processes whose working directory or an open file
// lies inside one of roots (absolute, cleaned, links resolved). It reads
// /proc/PID/cwd, /proc/PID/fd/* (links only, never file content) and
// /proc/PID/comm; never cmdline or environ. The guard's own process and
// the processes that started it (the operator's shell) are not counted.
func scanProcs(procDir string, roots []string, owner uint32) procScan {
	var ps procScan
	ents, err := os.ReadDir(procDir)
	if err != nil {
		ps.err = err
		return ps
	}
	skip := ancestors(procDir)
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid <= 0 || skip[pid] {
			continue
		}
		dir := filepath.Join(procDir, e.Name())
		if kernelThread(dir) {
			continue
		}
		where, via, certain := procInside(dir, roots)
		if !certain {
			if uid, ok := procUID(dir); !ok || uid == owner {
				ps.ownerUncertain++
				u := ledger.GuardUninspected{PID: pid, Command: comm(dir), UID: -1}
				if ok {
					u.UID, u.Owner = int(uid), userName(uid)
				}
				ps.uninspected = append(ps.uninspected, u)
			} else {
				ps.otherUncertain++
			}
		}
		if where == "" {
			continue
		}
		ps.found = append(ps.found, ledger.GuardProcess{PID: pid, Command: comm(dir), Worktree: where, Via: via})
	}
	sort.Slice(ps.found, func(i, j int) bool { return ps.found[i].PID < ps.found[j].PID })
	sort.Slice(ps.uninspected, func(i, j int) bool { return ps.uninspected[i].PID < ps.uninspected[j].PID })
	return ps
}

// procInside says which root, if any, process dir works in. certain is
// false when something of the process could not be read for a reason
// other than its exit.
func procInside(dir string, roots []string) (root, via string, certain bool) {
	certain = true
	cwd, err := os.Readlink(filepath.Join(dir, "cwd"))
	switch {
	case err == nil:
		if r := within(cwd, roots); r != "" {
			return r, "cwd", true
		}
	case gone(err):
		return "", "", true
	default:
		certain = false
	}
	fds, err := os.ReadDir(filepath.Join(dir, "fd"))
	if err != nil {
		return "", "", certain && gone(err)
	}
	for _, fd := range fds {
		target, err := os.Readlink(filepath.Join(dir, "fd", fd.Name()))
		if err != nil {
			if !gone(err) {
				certain = false
			}
			continue
		}
		if r := within(target, roots); r != "" {
			return r, "open_file", true
		}
	}
	return "", "", certain
}

// gone reports an error of a process that exited while it was read.
func gone(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, os.ErrProcessDone)
}

// within returns the root p lies in (or is), or "".
func within(p string, roots []string) string {
	p = strings.TrimSuffix(p, " (deleted)")
	if !filepath.IsAbs(p) {
		return "" // pipe:[…], socket:[…], anon_inode:…
	}
	best := ""
	for _, r := range roots {
		if (p == r || strings.HasPrefix(p, r+"/") || r == "/") && len(r) > len(best) {
			best = r
		}
	}
	return best
}

// procUID is the process's owner: the owner of its /proc directory.
func procUID(dir string) (uint32, bool) {
	info, err := os.Stat(dir)
	if err != nil {
		return 0, false
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return st.Uid, true
}

// userName is uid's login name from the user database, or "".
func userName(uid uint32) string {
	u, err := user.LookupId(strconv.FormatUint(uint64(uid), 10))
	if err != nil {
		return ""
	}
	return comm0(u.Username)
}

// comm0 keeps a name printable.
func comm0(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, s)
}

// ownerOf is the owner of path, or false when it cannot be told.
func ownerOf(path string) (uint32, bool) { return procUID(path) }

// kernelThread reads the flags field of /proc/PID/stat.
func kernelThread(dir string) bool {
	b, err := readSmall(filepath.Join(dir, "stat"), 4096)
	if err != nil {
		return false
	}
	// The command name, in parentheses, may hold spaces: fields count
	// from the last ')'.
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return false
	}
	f := strings.Fields(string(b[i+1:]))
	// After ')': state(3) ppid(4) pgrp(5) session(6) tty_nr(7) tpgid(8) flags(9).
	if len(f) < 7 {
		return false
	}
	flags, err := strconv.ParseUint(f[6], 10, 64)
	return err == nil && flags&pfKthread != 0
}

// ancestors are the guard's own process and the chain that started it.
func ancestors(procDir string) map[int]bool {
	m := map[int]bool{}
	pid := os.Getpid()
	for i := 0; i < 64 && pid > 1 && !m[pid]; i++ {
		m[pid] = true
		pid = ppid(filepath.Join(procDir, strconv.Itoa(pid)))
	}
	return m
}

func ppid(dir string) int {
	b, err := readSmall(filepath.Join(dir, "stat"), 4096)
	if err != nil {
		return 0
	}
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 2 {
		return 0
	}
	n, _ := strconv.Atoi(f[1])
	return n
}

// comm is the process's command name, at most 15 bytes, printable only.
func comm(dir string) string {
	b, err := readSmall(filepath.Join(dir, "comm"), 64)
	if err != nil {
		return "?"
	}
	s := strings.TrimSpace(string(b))
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, s)
}
