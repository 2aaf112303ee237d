package safefs

import (
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"

	"golang.org/x/sys/unix"
)

// noOpenat2 is set once openat2 turns out unavailable (an old kernel, a
// seccomp filter): ReadFile then takes os.Root's way for good.
var noOpenat2 atomic.Bool

// readBeneath reads name under dir with one openat2 that the kernel keeps
// beneath dir (RESOLVE_BENEATH: no "..", absolute or symbolic link leads
// out; no /proc magic link is followed), then fstat and read: four system
// calls where os.Root opens each directory of the path. ok is false when
// it did not read the file (unsupported, or any error): the caller takes
// os.Root's way, which then reports the error as it always has.
func readBeneath(dir *os.File, name string, limit int64) (data []byte, ok bool) {
	fd, ok := openBeneath(dir, name, unix.O_NONBLOCK)
	if !ok {
		return nil, false
	}
	defer syscall.Close(fd)
	data, err := readFD(fd, name, limit)
	if err != nil {
		return nil, false
	}
	return data, true
}

// readDirBeneath lists the directory name under dir, sorted by name as
// fs.ReadDir sorts, with one openat2 kept beneath dir (as readBeneath) where
// os.Root opens every directory of the path in turn: a walk of a tree d
// levels deep made d opens per directory. ok is false when it did not list
// the directory (unsupported, or any error): the caller takes os.Root's
// way, which then reports the error as it always has.
func readDirBeneath(dir *os.File, name string) (entries []fs.DirEntry, ok bool) {
	// no O_NONBLOCK: O_DIRECTORY refuses a FIFO before any open, and a
	// non-blocking descriptor would be put in the poller
	fd, ok := openBeneath(dir, name, unix.O_DIRECTORY)
	if !ok {
		return nil, false
	}
	d := os.NewFile(uintptr(fd), name)
	defer d.Close()
	// Readdir, not ReadDir: an entry's Info must come from an fstatat on
	// this descriptor, as os.Root's does, not from an lstat of a path
	// relative to the working directory later (Go 1.26's File.Readdir
	// stats by fstatat on the descriptor; go.mod requires it).
	infos, err := d.Readdir(-1)
	if err != nil {
		return nil, false
	}
	entries = make([]fs.DirEntry, len(infos))
	for i, info := range infos {
		entries[i] = fs.FileInfoToDirEntry(info)
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, true
}

// openBeneath opens name under dir read-only with flags added, by one
// openat2 the kernel keeps beneath dir; ok is false when it did not (openat2
// unsupported: noOpenat2 is set; or any error).
func openBeneath(dir *os.File, name string, flags uint64) (fd int, ok bool) {
	if dir == nil || noOpenat2.Load() {
		return -1, false
	}
	how := unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_NOCTTY | unix.O_CLOEXEC | flags,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS,
	}
	err := ignoringEINTR(func() (err error) {
		fd, err = unix.Openat2(int(dir.Fd()), name, &how)
		return err
	})
	if err == syscall.ENOSYS || err == syscall.EPERM {
		noOpenat2.Store(true)
		return -1, false
	}
	return fd, err == nil
}
