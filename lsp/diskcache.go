package lsp

import (
	"bytes"
	"errors"
	"io/fs"
	"path"
	"sync"
	"time"

	"github.com/svrnty/sotvet/internal/safefs"
	"github.com/svrnty/sotvet/sotparse"
)

// diskCache is a workspace's files as the server last read them, under its
// root (safefs: no link leads out). The session reads every file on every
// run; a file is read from disk again only once the client said it
// changed (a save, a close, a watched-file event), as an editor's server
// must not re-read a workspace per keystroke. Directories are listed again
// on the same events (checks.Session keeps its walk until told of a file
// from disk).
type diskCache struct {
	*safefs.FS // ReadDir, Stat, Lstat and ReadLink go to the disk
	limit      int64

	mu    sync.Mutex
	files map[string][]byte
	ids   map[string]string // content id of each cached file
}

func newDiskCache(root *safefs.FS, limit int64) *diskCache {
	return &diskCache{FS: root, limit: limit, files: map[string][]byte{}, ids: map[string]string{}}
}

// Open returns a regular file from the cache, reading it once; anything
// else (a directory) is opened on disk.
func (c *diskCache) Open(name string) (fs.File, error) {
	c.mu.Lock()
	b, ok := c.files[name]
	c.mu.Unlock()
	if ok {
		return &cachedFile{Reader: bytes.NewReader(b), name: path.Base(name), size: int64(len(b))}, nil
	}
	// Read first, without a Stat: a workspace's load opens every file
	// once, and os.Root's Stat walks the path's directories each time.
	b, err := safefs.ReadFile(c.FS, name, c.limit)
	if errors.Is(err, safefs.ErrNotRegular) {
		return c.FS.Open(name) // a directory: opened as such
	}
	if err != nil {
		return nil, err
	}
	id := sotparse.BlobID(b)
	c.mu.Lock()
	c.files[name], c.ids[name] = b, id
	c.mu.Unlock()
	return &cachedFile{Reader: bytes.NewReader(b), name: path.Base(name), size: int64(len(b))}, nil
}

// ID returns the content id of a file read already: the session takes its
// summary without reading or hashing it again.
func (c *diskCache) ID(name string) (string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	id, ok := c.ids[name]
	return id, ok
}

// forget drops a file the client says changed: it is read again.
func (c *diskCache) forget(name string) {
	c.mu.Lock()
	delete(c.files, name)
	delete(c.ids, name)
	c.mu.Unlock()
}

type cachedFile struct {
	*bytes.Reader
	name string
	size int64
}

func (f *cachedFile) Stat() (fs.FileInfo, error) { return f, nil }
func (f *cachedFile) Close() error               { return nil }
func (f *cachedFile) Name() string               { return f.name }
func (f *cachedFile) Size() int64                { return f.size }
func (f *cachedFile) Mode() fs.FileMode          { return 0o644 }
func (f *cachedFile) ModTime() time.Time         { return time.Time{} }
func (f *cachedFile) IsDir() bool                { return false }
func (f *cachedFile) Sys() any                   { return nil }
