//go:build unix

package safefs

import (
	"errors"
	"io/fs"
	"syscall"
)

// ReadNoFollow reads the regular file name as ReadPath does, but refuses a
// symbolic link in its last element (ErrNotRegular), and costs four
// system calls (open, fstat, read, close) where os.File costs eight: a
// scan of many small files spends more time opening them than reading.
func ReadNoFollow(name string, limit int64) ([]byte, error) {
	var fd int
	err := ignoringEINTR(func() (err error) {
		fd, err = syscall.Open(name, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
		return err
	})
	if errors.Is(err, syscall.ELOOP) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: ErrNotRegular}
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	defer syscall.Close(fd)
	return readFD(fd, name, limit)
}

// readFD reads the open file fd, named name, if it is a regular file of at
// most limit bytes.
func readFD(fd int, name string, limit int64) ([]byte, error) {
	var st syscall.Stat_t
	if err := ignoringEINTR(func() error { return syscall.Fstat(fd, &st) }); err != nil {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return nil, &fs.PathError{Op: "open", Path: name, Err: ErrNotRegular}
	}
	size := int64(st.Size)
	if limit > 0 && size > limit {
		return nil, &fs.PathError{Op: "read", Path: name, Err: &TooLargeError{Limit: limit}}
	}
	// One byte more than the size: a short read that reached the size is
	// the file's end, so a file that did not change is read in one call;
	// one that grew is read on, up to the limit.
	want := size + 1
	if limit > 0 {
		want = min(want, limit+1)
	}
	buf := make([]byte, 0, want)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		var n int
		err := ignoringEINTR(func() (err error) {
			n, err = syscall.Read(fd, buf[len(buf):cap(buf)])
			return err
		})
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: name, Err: err}
		}
		room := cap(buf) - len(buf)
		buf = buf[:len(buf)+n]
		if limit > 0 && int64(len(buf)) > limit {
			return nil, &fs.PathError{Op: "read", Path: name, Err: &TooLargeError{Limit: limit}}
		}
		if n == 0 || n < room && int64(len(buf)) >= size {
			return buf, nil
		}
	}
}

func ignoringEINTR(f func() error) error {
	for {
		if err := f(); err != syscall.EINTR {
			return err
		}
	}
}
