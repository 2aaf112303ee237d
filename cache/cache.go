// Package cache keeps the document summaries of one workspace between sotvet
// runs, so that a run reporting on a few changed files (a pre-commit hook)
// reads and parses only those.
//
// A workspace's summaries live in one pack file under the cache directory,
// named by a hash of the workspace's path. The pack starts with a header
// holding a key (the sotvet version and binary); a pack written under
// another key is ignored. Each record, keyed by document path and content
// id, carries a CRC-32C checksum: a damaged record and everything after it
// are dropped, so a torn write or a corrupt file costs a slower run, never a
// wrong answer. Runs append their new records; a pack that has grown to
// hold mostly records no run uses any more is rewritten, atomically, and
// Trim removes the packs of workspaces no run has used for a while.
package cache

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/svrnty/sotvet/internal/atomicfile"
	"github.com/svrnty/sotvet/internal/safefs"
)

// EnvDir names the environment variable that overrides the cache directory.
const EnvDir = "SOTVET_CACHE"

// DefaultDir returns $SOTVET_CACHE, or "sotvet" under the user cache
// directory.
func DefaultDir() (string, error) {
	if d := os.Getenv(EnvDir); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "sotvet"), nil
}

// BuildKey names the sotvet build that writes summaries: its version and
// the identity of its executable, so that a rebuilt binary, whose parser
// may differ, never reads an older one's summaries.
func BuildKey(version string) string {
	key := version
	if exe, err := os.Executable(); err == nil {
		if info, err := os.Stat(exe); err == nil {
			key += fmt.Sprintf(" %s %d %d", exe, info.Size(), info.ModTime().UnixNano())
		}
	}
	return key
}

const magic = "sotvet summary pack 1\n"

// maxPack bounds the pack file read: beyond it the pack is ignored and
// rewritten (summaries are a fraction of the documents, which are capped).
const maxPack = 1 << 30

// crcTable is made on first use: making it at init cost every sotvet
// process ~0.2 ms, and only runs that read or write a pack use it.
var crcTable = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

type entryKey struct{ path, id string }

// Pack is one workspace's summaries. It implements sotparse.SummaryStore
// and is safe for concurrent use.
type Pack struct {
	file  string
	key   string
	ready chan struct{} // closed once the pack and the stat index are read

	mu      sync.Mutex
	entries map[entryKey][]byte
	used    map[entryKey]bool
	added   []entryKey
	hits    int   // summaries Summary found
	records int   // records read from the file
	rewrite bool  // the file is missing, foreign, damaged or mostly garbage
	problem error // why the file was not used in full, for diagnostics

	// The stat index (stamp.go): the stamps read, those this run saw
	// unchanged or recorded, and whether they differ.
	stats, statsNow map[string]statEntry
	statsDirty      bool
	statsUsed       bool // the run asked the index about a file, or recorded one
}

// Open loads the pack of the workspace at root from dir, under key. It does
// not fail: a missing, foreign or damaged pack gives an empty (or partial)
// one, and Problem says why.
func Open(dir, root, key string) *Pack {
	sum := sha256.Sum256([]byte(root))
	p := &Pack{
		file:    filepath.Join(dir, "summaries", hex.EncodeToString(sum[:12])+".pack"),
		key:     key,
		entries: map[entryKey][]byte{},
		used:    map[entryKey]bool{},
	}
	// Read while the caller walks the workspace: its first use waits.
	p.ready = make(chan struct{})
	go func() {
		defer close(p.ready)
		p.load()
		p.loadStats()
	}()
	return p
}

// Problem returns why the pack on disk was ignored in whole or in part, or
// nil.
func (p *Pack) Problem() error {
	<-p.ready
	return p.problem
}

// File returns the pack's path.
func (p *Pack) File() string { return p.file }

func (p *Pack) load() {
	info, err := os.Stat(p.file)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		p.rewrite = true
		return
	case err == nil && info.Size() > maxPack:
		err = fmt.Errorf("%d bytes, over the %d-byte limit", info.Size(), maxPack)
	}
	var data []byte
	if err == nil {
		// Bounded and regular only: a FIFO or a device put in the pack's
		// place must not hang the run or fill memory.
		data, err = safefs.ReadPath(p.file, maxPack)
	}
	if err != nil {
		p.fail(err)
		return
	}
	rest, ok := bytes.CutPrefix(data, []byte(magic))
	if !ok {
		p.fail(errors.New("not a summary pack"))
		return
	}
	key, rest, ok := field(rest)
	if !ok || string(key) != p.key {
		// Another sotvet wrote it: its summaries may differ from ours.
		p.rewrite = true
		p.problem = errors.New("written by another sotvet build; starting afresh")
		return
	}
	for len(rest) > 0 {
		var path, id, sum []byte
		rec := rest
		path, rest, ok = field(rest)
		if ok {
			id, rest, ok = field(rest)
		}
		if ok {
			sum, rest, ok = field(rest)
		}
		if !ok || len(rest) < 4 {
			p.fail(errors.New("truncated record"))
			return
		}
		body := rec[:len(rec)-len(rest)]
		if binary.LittleEndian.Uint32(rest) != crc32.Checksum(body, crcTable()) {
			p.fail(errors.New("record checksum mismatch"))
			return
		}
		rest = rest[4:]
		p.entries[entryKey{string(path), string(id)}] = sum
		p.records++
	}
}

// fail keeps the records read so far (each was checksummed) and marks the
// pack for rewriting.
func (p *Pack) fail(err error) {
	p.rewrite = true
	p.problem = fmt.Errorf("%s: %w; ignoring the rest", p.file, err)
}

// field reads a uvarint length and that many bytes.
func field(b []byte) (f, rest []byte, ok bool) {
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)-k) {
		return nil, nil, false
	}
	return b[k : k+int(n)], b[k+int(n):], true
}

func appendField(b, f []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(f)))
	return append(b, f...)
}

// Summary returns the summary of path at content id, or nil.
func (p *Pack) Summary(path, id string) []byte {
	<-p.ready
	p.mu.Lock()
	defer p.mu.Unlock()
	k := entryKey{path, id}
	s, ok := p.entries[k]
	if ok {
		p.used[k] = true
		p.hits++
	}
	return s
}

// Stats returns how many summaries were found and how many were added.
func (p *Pack) Stats() (found, added int) {
	<-p.ready
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.hits, len(p.added)
}

// PutSummary records the summary of path at content id, unless the pack
// already holds that one.
func (p *Pack) PutSummary(path, id string, summary []byte) {
	<-p.ready
	p.mu.Lock()
	defer p.mu.Unlock()
	k := entryKey{path, id}
	p.used[k] = true
	if old, ok := p.entries[k]; ok && bytes.Equal(old, summary) {
		return
	}
	p.entries[k] = summary
	p.added = append(p.added, k)
}

// StylesDir is the directory under a cache directory that holds the prose
// check's style sets (prose.StyleCache).
const StylesDir = "prose-styles"

// Trim removes the packs under dir that no run has used for maxAge (Save
// and Touch mark a pack used), and the style sets no run has read for as
// long (each build writes its own), at most once a day: workspaces and
// builds come and go, and their files must not pile up.
func Trim(dir string, maxAge time.Duration) error {
	marker := filepath.Join(dir, "summaries", "trim.txt")
	now := time.Now()
	if info, err := os.Stat(marker); err == nil && now.Sub(info.ModTime()) < 24*time.Hour {
		return nil
	}
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err := trimDir(filepath.Join(dir, "summaries"), []string{".pack", ".stat"}, now.Add(-maxAge)); err != nil {
		return err
	}
	if err := trimDir(filepath.Join(dir, StylesDir), []string{".rules", ".filter", ".stamps"}, now.Add(-maxAge)); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(marker), 0o755); err != nil {
		return err
	}
	return os.WriteFile(marker, []byte(now.UTC().Format(time.RFC3339)+"\n"), 0o644)
}

// trimDir removes the files of dir with one of exts, and the temporary
// files of rewrites a crash interrupted, last modified before cut.
func trimDir(dir string, exts []string, cut time.Time) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		n := e.Name()
		if !slices.ContainsFunc(exts, func(ext string) bool {
			return strings.HasSuffix(n, ext) || strings.Contains(n, ext+atomicfile.TempPrefix)
		}) {
			continue
		}
		if info, err := e.Info(); err == nil && info.Mode().IsRegular() && info.ModTime().Before(cut) {
			os.Remove(filepath.Join(dir, n))
		}
	}
	return nil
}

// Save writes what this run added: appended to the pack, or, when the pack
// must be rewritten or has grown to more than twice what this run used, a
// new pack holding only the used summaries replaces it atomically.
func (p *Pack) Save() error {
	<-p.ready
	p.mu.Lock()
	defer p.mu.Unlock()
	// The pack is written even when its stat index cannot be: only the
	// index is then lost.
	statsErr := p.saveStats()
	return errors.Join(p.savePack(), statsErr)
}

func (p *Pack) savePack() error {
	if !p.rewrite && len(p.added) == 0 {
		// Nothing to write; the pack and its stat index were used,
		// which Trim goes by.
		now := time.Now()
		for _, f := range []string{p.file, p.statFile()} {
			if err := os.Chtimes(f, now, now); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
		}
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(p.file), 0o755); err != nil {
		return err
	}
	if p.rewrite || p.records+len(p.added) > 2*len(p.used)+64 {
		return p.compact()
	}
	size := 0
	for _, k := range p.added {
		size += p.recordSize(k)
	}
	b := make([]byte, 0, size)
	for _, k := range p.added {
		b = p.appendRecord(b, k)
	}
	f, err := os.OpenFile(p.file, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return err
	}
	// One write: a torn one leaves a bad checksum, which load stops at.
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	p.records += len(p.added)
	p.added = nil
	return f.Close()
}

func (p *Pack) compact() error {
	keys := make([]entryKey, 0, len(p.used))
	for k := range p.used {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b entryKey) int {
		return cmp.Or(strings.Compare(a.path, b.path), strings.Compare(a.id, b.id))
	})
	// The pack is written whole, in one buffer of its size: grown by
	// append it took up to twice that (144 MB at once for a pack of 84
	// MB on hub at 10,000 documents, while the language server held every
	// summary besides).
	size := fieldSize(len(p.key)) + len(magic)
	for _, k := range keys {
		size += p.recordSize(k)
	}
	b := make([]byte, 0, size)
	b = appendField(append(b, magic...), []byte(p.key))
	for _, k := range keys {
		b = p.appendRecord(b, k)
	}
	if err := atomicfile.Write(p.file, b, 0o600); err != nil {
		return err
	}
	p.records, p.added, p.rewrite = len(keys), nil, false
	return nil
}

// recordSize is the length of k's record (appendRecord).
func (p *Pack) recordSize(k entryKey) int {
	return fieldSize(len(k.path)) + fieldSize(len(k.id)) + fieldSize(len(p.entries[k])) + 4
}

// fieldSize is the length of a field of n bytes (appendField).
func fieldSize(n int) int {
	var buf [binary.MaxVarintLen64]byte
	return binary.PutUvarint(buf[:], uint64(n)) + n
}

func (p *Pack) appendRecord(b []byte, k entryKey) []byte {
	start := len(b)
	b = appendField(b, []byte(k.path))
	b = appendField(b, []byte(k.id))
	b = appendField(b, p.entries[k])
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b[start:], crcTable()))
}
