package cache

import (
	"io/fs"
	"syscall"
)

// stampOf reads a regular file's stamp from what lstat or fstat returned.
func stampOf(info fs.FileInfo) (Stamp, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok || !info.Mode().IsRegular() {
		return Stamp{}, false
	}
	return Stamp{Size: info.Size(), Mtime: st.Mtimespec.Nano(), Ctime: st.Ctimespec.Nano(), Ino: uint64(st.Ino)}, true
}
