package cache

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/svrnty/sotvet/internal/atomicfile"
	"github.com/svrnty/sotvet/internal/safefs"
	"github.com/svrnty/sotvet/sotparse"
)

// A summary is found by the content id of its document (its git blob id),
// which takes reading the document to know. The stat index, kept beside
// the pack as git keeps its index, maps a path and what stat says of the
// file (size, modification and change times, inode) to the content id read
// last time, so that a run finds the summary of an unchanged file without
// reading or hashing it.
//
// A stamp is trusted only when its times are older than the moment the
// stamp was taken by more than the file system's timestamp granularity
// (racyMargin): a file written in the same tick as it was read (git's
// "racy" case) could change again without its stamp changing, and is read
// again on the next run instead. The change time is set by the kernel on
// every write, and cannot be set back as the modification time can (a
// content change that keeps size and modification time still changes it).
// Unsaved editor buffers never reach the index: it records only what was
// read from disk.

// racyMargin is how much older than its stat a file's times must be for
// its stamp to be trusted: above the kernel's clock tick (the times of a
// write are taken from a clock updated once a tick, 1-10 ms), or, where a
// file system keeps whole seconds (both times on a second: FAT, HFS+, ext3),
// above its 2 s.
const (
	racyMargin       = 100 * time.Millisecond
	racyMarginCoarse = 3 * time.Second
)

// statOf reads stamps; tests fake it.
var statOf = stampOf

// clock is the time stamps are judged by (Clock); nil: time.Now. An
// atomic, not a variable: a test moves it on while a language server an
// earlier test started may still be walking a workspace (go test -race
// caught one).
var clock atomic.Pointer[func() time.Time]

// Clock returns the time stamps are judged by: now, unless a test set
// another (SetClock).
func Clock() time.Time {
	if f := clock.Load(); f != nil {
		return (*f)()
	}
	return time.Now()
}

// SetClock makes f the time stamps are judged by (nil: time.Now) and
// returns the one before, for a test to put back.
func SetClock(f func() time.Time) (old func() time.Time) {
	var p *func() time.Time
	if f != nil {
		p = &f
	}
	if q := clock.Swap(p); q != nil {
		return *q
	}
	return nil
}

// Stamp is what stat says of a regular file.
type Stamp struct {
	Size, Mtime, Ctime int64 // Mtime, Ctime in Unix nanoseconds
	Ino                uint64
}

// trusted reports whether s, taken at or after at (Unix nanoseconds), is
// old enough to stand for the file's content.
func (s Stamp) trusted(at int64) bool {
	margin := racyMargin
	if s.Mtime%int64(time.Second) == 0 && s.Ctime%int64(time.Second) == 0 {
		margin = racyMarginCoarse
	}
	limit := at - int64(margin)
	return s.Mtime < limit && s.Ctime < limit
}

// StampOf is what stat (info, from Lstat or a directory entry's Info)
// says of a regular file, for a cache keyed as the stat index is (the
// prose style cache); false for anything else.
func StampOf(info fs.FileInfo) (Stamp, bool) { return statOf(info) }

// Trusted reports whether s, taken at or after at (Unix nanoseconds), is
// old enough to stand for the file's content: the racy-timestamp rule.
func (s Stamp) Trusted(at int64) bool { return s.trusted(at) }

type statEntry struct {
	st Stamp
	id string
}

const statMagic = "sotvet stat index 1\n"

func (p *Pack) statFile() string { return p.file[:len(p.file)-len(".pack")] + ".stat" }

// loadStats reads the stat index beside the pack; any damage drops it whole
// (it is rewritten whole: one checksum covers it).
func (p *Pack) loadStats() {
	p.stats, p.statsNow = map[string]statEntry{}, map[string]statEntry{}
	data, err := safefs.ReadPath(p.statFile(), maxPack)
	if err != nil {
		return
	}
	if err := p.decodeStats(data); err != nil {
		p.stats = map[string]statEntry{}
		p.statsDirty = true
		if p.problem == nil {
			p.problem = fmt.Errorf("%s: %w; ignoring it", p.statFile(), err)
		}
	}
}

func (p *Pack) decodeStats(data []byte) error {
	if len(data) < 4 {
		return errors.New("truncated")
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.Checksum(body, crcTable()) != sum {
		return errors.New("checksum mismatch")
	}
	rest, ok := bytes.CutPrefix(body, []byte(statMagic))
	if !ok {
		return errors.New("not a stat index")
	}
	key, rest, ok := field(rest)
	if !ok || string(key) != p.key {
		return errors.New("written by another sotvet build")
	}
	for len(rest) > 0 {
		var pth, id []byte
		var e statEntry
		pth, rest, ok = field(rest)
		if ok {
			id, rest, ok = field(rest)
		}
		var n [4]uint64
		for i := range n {
			if !ok {
				break
			}
			var k int
			n[i], k = binary.Uvarint(rest)
			ok = k > 0
			if ok {
				rest = rest[k:]
			}
		}
		if !ok {
			return errors.New("truncated record")
		}
		e.id = string(id)
		e.st = Stamp{Size: int64(n[0]), Mtime: int64(n[1]), Ctime: int64(n[2]), Ino: n[3]}
		p.stats[string(pth)] = e
	}
	return nil
}

// statID returns the content id recorded for path at stamp st.
func (p *Pack) statID(path string, st Stamp) (string, bool) {
	<-p.ready
	p.mu.Lock()
	defer p.mu.Unlock()
	e, ok := p.stats[path]
	if !ok || e.st != st {
		return "", false
	}
	p.statsNow[path] = e
	p.statsUsed = true
	return e.id, true
}

// putStat records that the file at path, at stamp st, has content id.
func (p *Pack) putStat(path string, st Stamp, id string) {
	<-p.ready
	p.mu.Lock()
	defer p.mu.Unlock()
	e := statEntry{st, id}
	if p.stats[path] != e {
		p.statsDirty = true
	}
	p.statsNow[path] = e
	p.statsUsed = true
}

// saveStats rewrites the stat index with the stamps this run saw, when they
// differ from those it read: a file gone, or no longer trusted, drops out.
// A run that did not walk through the index (check --staged, whose ids
// come from git) leaves it as it is. Callers hold p.mu.
func (p *Pack) saveStats() error {
	if !p.statsUsed || !p.statsDirty && len(p.statsNow) == len(p.stats) {
		return nil
	}
	b := appendField([]byte(statMagic), []byte(p.key))
	for _, pth := range slices.Sorted(maps.Keys(p.statsNow)) {
		e := p.statsNow[pth]
		b = appendField(b, []byte(pth))
		b = appendField(b, []byte(e.id))
		for _, n := range [4]uint64{uint64(e.st.Size), uint64(e.st.Mtime), uint64(e.st.Ctime), e.st.Ino} {
			b = binary.AppendUvarint(b, n)
		}
	}
	b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, crcTable()))
	if err := os.MkdirAll(filepath.Dir(p.file), 0o755); err != nil {
		return err
	}
	if err := atomicfile.Write(p.statFile(), b, 0o600); err != nil {
		return err
	}
	p.stats, p.statsNow, p.statsDirty, p.statsUsed = p.statsNow, map[string]statEntry{}, false, false
	return nil
}

// Files reads the files of a workspace under its root for a run, and knows
// the content id of each it read, and, through the pack's stat index, of
// each unchanged since a run before: Reuse.ID. The stamps come from the
// walk (ReadDir's entries, whose Info a walk asks for), so asking costs no
// system call. With keep, it also keeps what it read (the language server
// reads a file again only once told it changed: Forget).
type Files struct {
	*safefs.FS // Stat, Lstat and ReadLink go to the disk
	limit      int64
	pack       *Pack // nil: no stat index
	keep       bool

	mu     sync.Mutex
	stamps map[string]walked
	files  map[string][]byte // kept contents, with keep
	ids    map[string]string // content ids of the files read
	reads  int               // files read from disk
}

type walked struct {
	st Stamp
	at int64 // when the walk listed the file's directory, before its stat
}

// NewFiles reads under root, files at most limit bytes; pack, when not
// nil, holds the stat index to consult and record in.
func NewFiles(root *safefs.FS, limit int64, pack *Pack, keep bool) *Files {
	return &Files{FS: root, limit: limit, pack: pack, keep: keep,
		stamps: map[string]walked{}, files: map[string][]byte{}, ids: map[string]string{}}
}

// ReadDir lists a directory; its entries note the stamps of the files a
// walk asks Info of.
func (f *Files) ReadDir(name string) ([]fs.DirEntry, error) {
	at := Clock().UnixNano()
	ents, err := f.FS.ReadDir(name)
	f.mu.Lock()
	pack := f.pack
	f.mu.Unlock()
	if pack == nil {
		return ents, err
	}
	for i, e := range ents {
		if e.Type().IsRegular() {
			ents[i] = &stampEntry{DirEntry: e, f: f, path: path.Join(name, e.Name()), at: at}
		}
	}
	return ents, err
}

type stampEntry struct {
	fs.DirEntry
	f    *Files
	path string
	at   int64
}

func (e *stampEntry) Info() (fs.FileInfo, error) {
	info, err := e.DirEntry.Info()
	if err == nil {
		if st, ok := statOf(info); ok {
			e.f.mu.Lock()
			e.f.stamps[e.path] = walked{st, e.at}
			e.f.mu.Unlock()
		}
	}
	return info, err
}

// Open returns a regular file read whole (kept, with keep), noting its
// content id; a directory is opened on disk.
func (f *Files) Open(name string) (fs.File, error) {
	f.mu.Lock()
	b, ok := f.files[name]
	f.mu.Unlock()
	if ok {
		return newMemFile(name, b), nil
	}
	// Read first, without a Stat: a workspace's load opens every file
	// once, and os.Root's Stat walks the path's directories each time.
	b, err := safefs.ReadFile(f.FS, name, f.limit)
	if errors.Is(err, safefs.ErrNotRegular) {
		return f.FS.Open(name) // a directory: opened as such
	}
	if err != nil {
		return nil, err
	}
	id := sotparse.BlobID(b)
	f.mu.Lock()
	f.reads++
	f.ids[name] = id
	if f.keep {
		f.files[name] = b
	}
	w, stamped := f.stamps[name]
	pack := f.pack
	f.mu.Unlock()
	// The walk's stamp was taken before this read: if the file changed
	// in between, its change time moved past the stamp's, which no later
	// stat will match.
	if stamped && pack != nil && w.st.Size == int64(len(b)) && w.st.trusted(w.at) {
		pack.putStat(name, w.st, id)
	}
	return newMemFile(name, b), nil
}

// ID returns the content id of a file read already, or of one whose stamp
// the walk saw unchanged since a run before recorded it.
func (f *Files) ID(name string) (string, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	id, ok := f.ids[name]
	w, stamped := f.stamps[name]
	if ok || !stamped || f.pack == nil || !w.st.trusted(w.at) {
		return id, ok
	}
	if id, ok = f.pack.statID(name, w.st); ok {
		f.ids[name] = id // known after Detach
	}
	return id, ok
}

// Reads returns how many files f read from disk.
func (f *Files) Reads() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.reads
}

// Detach lets go of pack (if f uses it) and of the stamps: the ids found
// stay known. A process that keeps f after a load (the language server)
// must not keep the pack's summaries in memory for its life.
func (f *Files) Detach(pack *Pack) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.pack == pack {
		f.pack, f.stamps = nil, map[string]walked{}
	}
}

// Forget drops what is known of a file that changed: it is read again,
// and its stamp is not trusted until a walk takes it anew.
func (f *Files) Forget(name string) {
	f.mu.Lock()
	delete(f.files, name)
	delete(f.ids, name)
	delete(f.stamps, name)
	f.mu.Unlock()
}

func newMemFile(name string, b []byte) *memFile {
	return &memFile{Reader: bytes.NewReader(b), data: b, name: path.Base(name)}
}

type memFile struct {
	*bytes.Reader
	data []byte
	name string
}

// Bytes is safefs.InMemory: a file read is handed on, not copied again.
func (f *memFile) Bytes() []byte { return f.data }

func (f *memFile) Stat() (fs.FileInfo, error) { return f, nil }
func (f *memFile) Close() error               { return nil }
func (f *memFile) Name() string               { return f.name }
func (f *memFile) Size() int64                { return int64(len(f.data)) }
func (f *memFile) Mode() fs.FileMode          { return 0o644 }
func (f *memFile) ModTime() time.Time         { return time.Time{} }
func (f *memFile) IsDir() bool                { return false }
func (f *memFile) Sys() any                   { return nil }

var _ fs.ReadDirFS = (*Files)(nil)
