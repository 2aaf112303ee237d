// Package safefs reads files the way sotvet must read anything an adversary
// may have laid out: every path resolved under a root with os.Root (no
// symbolic link, whatever the chain, leads out), only regular files opened
// (a FIFO or a device never blocks or streams forever), and every read
// bounded by a hard size limit before anything parses it.
package safefs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"syscall"
)

// TooLargeError is returned for a file over the size limit; nothing past the
// limit was read.
type TooLargeError struct {
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("file is over the %d-byte limit; not read", e.Limit)
}

// ErrNotRegular is returned for a file that is not a regular file (a FIFO, a
// device, a socket).
var ErrNotRegular = errors.New("not a regular file")

// FS is a directory tree opened under an os.Root. It implements fs.FS,
// fs.ReadDirFS, fs.ReadFileFS, fs.StatFS and fs.ReadLinkFS; Open only opens
// regular files and directories, and ReadFile is bounded by the limit.
type FS struct {
	root  *os.Root
	dir   *os.File // the root directory, for readBeneath; nil if it did not open
	limit int64
}

// Open opens the directory dir as a root. Reads through ReadFile are limited
// to limit bytes (no limit when limit <= 0).
func Open(dir string, limit int64) (*FS, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	// The same directory as the root: the fast read resolves under it.
	d, err := r.Open(".")
	if err != nil {
		d = nil
	}
	return &FS{root: r, dir: d, limit: limit}, nil
}

// Close releases the root.
func (f *FS) Close() error {
	if f.dir != nil {
		f.dir.Close()
	}
	return f.root.Close()
}

// Root returns the os.Root the FS reads under.
func (f *FS) Root() *os.Root { return f.root }

// Open opens name under the root: a regular file or a directory, never
// anything else. The open does not block on a FIFO.
func (f *FS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	return openChecked(func() (*os.File, error) {
		return f.root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	}, name, true)
}

// ReadDir lists the directory name, sorted by name. The open does not
// block on a FIFO put where a directory was (fs.ReadDir's plain open of
// os.Root would wait on it for a writer).
func (f *FS) ReadDir(name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	if entries, ok := readDirBeneath(f.dir, name); ok {
		return entries, nil
	}
	d, err := openChecked(func() (*os.File, error) {
		return f.root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	}, name, true)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	// Readdir, as readDirBeneath: each Info from an fstatat on d
	infos, err := d.Readdir(-1)
	entries := make([]fs.DirEntry, len(infos))
	for i, info := range infos {
		entries[i] = fs.FileInfoToDirEntry(info)
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, err
}

// ReadFile reads the regular file name, at most the FS's limit.
func (f *FS) ReadFile(name string) ([]byte, error) {
	return ReadFile(f, name, f.limit)
}

// Stat follows links, under the root.
func (f *FS) Stat(name string) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrInvalid}
	}
	return f.root.Stat(name)
}

// Lstat does not follow a final link.
func (f *FS) Lstat(name string) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "lstat", Path: name, Err: fs.ErrInvalid}
	}
	return f.root.Lstat(name)
}

// ReadLink returns a link's target.
func (f *FS) ReadLink(name string) (string, error) {
	if !fs.ValidPath(name) {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: fs.ErrInvalid}
	}
	return f.root.Readlink(name)
}

// ReadFile reads the regular file name from fsys, at most limit bytes (no
// limit when limit <= 0): a larger file is a *TooLargeError, a non-regular
// one ErrNotRegular.
func ReadFile(fsys fs.FS, name string, limit int64) ([]byte, error) {
	var file fs.File
	var err error
	if sf, ok := fsys.(*FS); ok {
		if fs.ValidPath(name) {
			if data, ok := readBeneath(sf.dir, name, limit); ok {
				return data, nil
			}
		}
		file, err = openChecked(func() (*os.File, error) {
			return sf.root.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
		}, name, false)
	} else {
		file, err = fsys.Open(name)
	}
	if err != nil {
		return nil, err
	}
	defer file.Close()
	info, err := file.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: name, Err: ErrNotRegular}
	}
	if m, ok := file.(InMemory); ok {
		// Read already: its bytes are shared, not copied (a workspace's
		// load reads every file through such a cache).
		// Clipped: an append to it must not write into the shared array.
		if b := m.Bytes(); limit <= 0 || int64(len(b)) <= limit {
			return b[:len(b):len(b)], nil
		}
		return nil, &fs.PathError{Op: "read", Path: name, Err: &TooLargeError{Limit: limit}}
	}
	return readBounded(file, name, info.Size(), limit)
}

// InMemory is a file whose content is in memory: ReadFile returns its
// bytes without a copy. Neither the file system nor the reader may modify
// them afterwards.
type InMemory interface {
	Bytes() []byte
}

// ReadPath reads the regular file at the operating-system path name, at
// most limit bytes, for files outside any workspace root (a config given by
// flag, the cache, a baseline).
func ReadPath(name string, limit int64) ([]byte, error) {
	file, err := openChecked(func() (*os.File, error) {
		return os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	}, name, false)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	info, err := file.Stat()
	if err != nil {
		return nil, err
	}
	return readBounded(file, name, info.Size(), limit)
}

// ReadIn reads name (slash-separated, relative) under the directory dir, as
// ReadFile does: no link leads out of dir.
func ReadIn(dir, name string, limit int64) ([]byte, error) {
	f, err := Open(dir, limit)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.ReadFile(name)
}

// openChecked opens a file and keeps it only when it is a regular file (or,
// with dirOK, a directory).
func openChecked(open func() (*os.File, error), name string, dirOK bool) (*os.File, error) {
	file, err := open()
	if err != nil {
		return nil, err
	}
	info, err := file.Stat()
	if err != nil {
		file.Close()
		return nil, err
	}
	if !info.Mode().IsRegular() && !(dirOK && info.IsDir()) {
		file.Close()
		return nil, &fs.PathError{Op: "open", Path: name, Err: ErrNotRegular}
	}
	return file, nil
}

func readBounded(r io.Reader, name string, size, limit int64) ([]byte, error) {
	if limit > 0 && size > limit {
		return nil, &fs.PathError{Op: "read", Path: name, Err: &TooLargeError{Limit: limit}}
	}
	if limit <= 0 {
		return io.ReadAll(r)
	}
	// The size is a hint: a file growing while it is read stops at the limit.
	buf := make([]byte, 0, min(size, limit)+1)
	data, err := readAll(io.LimitReader(r, limit+1), buf)
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, &fs.PathError{Op: "read", Path: name, Err: &TooLargeError{Limit: limit}}
	}
	return data, nil
}

func readAll(r io.Reader, b []byte) ([]byte, error) {
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}
