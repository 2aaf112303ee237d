package safefs

import (
	"os"
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
	if dir == nil || noOpenat2.Load() {
		return nil, false
	}
	how := unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_NONBLOCK | unix.O_NOCTTY | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS,
	}
	var fd int
	err := ignoringEINTR(func() (err error) {
		fd, err = unix.Openat2(int(dir.Fd()), name, &how)
		return err
	})
	if err == syscall.ENOSYS || err == syscall.EPERM {
		noOpenat2.Store(true)
		return nil, false
	}
	if err != nil {
		return nil, false
	}
	defer syscall.Close(fd)
	data, err = readFD(fd, name, limit)
	if err != nil {
		return nil, false
	}
	return data, true
}
