//go:build unix

package prose

import (
	"errors"
	"runtime"
	"syscall"
)

// mapFile maps the regular file name, of at most limit bytes, read-only:
// a cached literal table is used where the page cache holds it, not
// copied into fresh memory. The mapping is let go when owner is no longer
// reachable. Cache files are replaced by a rename, never written in place,
// so a mapped file does not change under a run.
func mapFile(name string, limit int64, owner *matcher) ([]byte, error) {
	fd, err := syscall.Open(name, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, err
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG || st.Size <= 0 || st.Size > limit {
		return nil, errors.New("not a regular file of a table's size")
	}
	data, err := syscall.Mmap(fd, 0, int(st.Size), syscall.PROT_READ, syscall.MAP_PRIVATE)
	if err != nil {
		return nil, err
	}
	runtime.AddCleanup(owner, func(b []byte) { _ = syscall.Munmap(b) }, data)
	return data, nil
}
