package cache

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/svrnty/sotvet/internal/atomicfile"
)

func put(p *Pack, n int, tag string) {
	for i := range n {
		p.PutSummary(fmt.Sprintf("doc%d.md", i), fmt.Sprintf("id%d", i), []byte(fmt.Sprintf("%s summary %d", tag, i)))
	}
}

func TestPackRoundTrip(t *testing.T) {
	dir := t.TempDir()
	p := Open(dir, "/ws", "k1")
	if p.Problem() != nil {
		t.Fatalf("a missing pack is no problem: %v", p.Problem())
	}
	put(p, 5, "a")
	if err := p.Save(); err != nil {
		t.Fatal(err)
	}
	q := Open(dir, "/ws", "k1")
	if q.Problem() != nil {
		t.Fatal(q.Problem())
	}
	for i := range 5 {
		got := q.Summary(fmt.Sprintf("doc%d.md", i), fmt.Sprintf("id%d", i))
		if want := fmt.Sprintf("a summary %d", i); string(got) != want {
			t.Errorf("doc%d: got %q, want %q", i, got, want)
		}
	}
	if q.Summary("doc1.md", "id2") != nil || q.Summary("docX.md", "id1") != nil {
		t.Error("a summary is keyed by path and content id together")
	}
	if found, added := q.Stats(); found != 5 || added != 0 {
		t.Errorf("Stats = %d, %d; want 5, 0", found, added)
	}
	// Another workspace has its own pack.
	if r := Open(dir, "/other", "k1"); r.Summary("doc0.md", "id0") != nil {
		t.Error("a pack is per workspace")
	}
}

func TestPackAppendsAndCompacts(t *testing.T) {
	dir := t.TempDir()
	p := Open(dir, "/ws", "k")
	put(p, 100, "a")
	if err := p.Save(); err != nil {
		t.Fatal(err)
	}
	size := func() int64 {
		info, err := os.Stat(p.File())
		if err != nil {
			t.Fatal(err)
		}
		return info.Size()
	}
	before := size()
	// A run using every summary and adding one appends one record.
	q := Open(dir, "/ws", "k")
	for i := range 100 {
		q.Summary(fmt.Sprintf("doc%d.md", i), fmt.Sprintf("id%d", i))
	}
	q.PutSummary("new.md", "idn", []byte("new"))
	if err := q.Save(); err != nil {
		t.Fatal(err)
	}
	if grown := size() - before; grown <= 0 || grown > 64 {
		t.Errorf("appending one record grew the pack by %d bytes", grown)
	}
	// Runs that use only a few summaries leave garbage behind; once it
	// dominates, the pack is rewritten with the used ones only.
	r := Open(dir, "/ws", "k")
	r.Summary("doc1.md", "id1")
	r.PutSummary("doc2.md", "id2-changed", []byte("changed"))
	if err := r.Save(); err != nil {
		t.Fatal(err)
	}
	s := Open(dir, "/ws", "k")
	<-s.ready
	if s.records != 2 || s.Summary("doc1.md", "id1") == nil || string(s.Summary("doc2.md", "id2-changed")) != "changed" {
		t.Errorf("after compaction: %d records, want the 2 used", s.records)
	}
}

func TestPackKeyMismatch(t *testing.T) {
	dir := t.TempDir()
	p := Open(dir, "/ws", "v1")
	put(p, 3, "a")
	if err := p.Save(); err != nil {
		t.Fatal(err)
	}
	q := Open(dir, "/ws", "v2")
	if q.Summary("doc0.md", "id0") != nil {
		t.Fatal("a pack written by another build was used")
	}
	if q.Problem() == nil || !strings.Contains(q.Problem().Error(), "another sotvet build") {
		t.Errorf("Problem = %v", q.Problem())
	}
	q.PutSummary("x.md", "x", []byte("x"))
	if err := q.Save(); err != nil {
		t.Fatal(err)
	}
	if r := Open(dir, "/ws", "v2"); r.Problem() != nil || r.Summary("x.md", "x") == nil || r.records != 1 {
		t.Errorf("the foreign pack was not replaced: problem %v, %d records", r.Problem(), r.records)
	}
}

// TestPackDamage cuts and flips the pack file at every byte: a summary the
// damaged pack returns is always the one stored, never another.
func TestPackDamage(t *testing.T) {
	dir := t.TempDir()
	p := Open(dir, "/ws", "k")
	put(p, 4, "a")
	if err := p.Save(); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(p.File())
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, data []byte) {
		if err := os.WriteFile(p.File(), data, 0o600); err != nil {
			t.Fatal(err)
		}
		q := Open(dir, "/ws", "k")
		for i := range 4 {
			got := q.Summary(fmt.Sprintf("doc%d.md", i), fmt.Sprintf("id%d", i))
			if got != nil && string(got) != fmt.Sprintf("a summary %d", i) {
				t.Fatalf("%s: doc%d gives %q", what, i, got)
			}
		}
		if !bytes.Equal(data, good) && q.Problem() == nil && q.records == 4 {
			t.Fatalf("%s: damage went unnoticed", what)
		}
	}
	for n := range len(good) {
		check(fmt.Sprintf("cut at %d", n), good[:n])
	}
	for i := range good {
		b := bytes.Clone(good)
		b[i] ^= 0x20
		check(fmt.Sprintf("flip at %d", i), b)
	}
}

func TestPackUnwritableDir(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	p := Open(file, "/ws", "k") // the cache "directory" is a file
	put(p, 1, "a")
	if err := p.Save(); err == nil {
		t.Error("Save under a file succeeded")
	}
}

func TestTrim(t *testing.T) {
	dir := t.TempDir()
	old, fresh := Open(dir, "/old", "k"), Open(dir, "/fresh", "k")
	for _, p := range []*Pack{old, fresh} {
		put(p, 1, "a")
		if err := p.Save(); err != nil {
			t.Fatal(err)
		}
	}
	long := time.Now().Add(-40 * 24 * time.Hour)
	if err := os.Chtimes(old.File(), long, long); err != nil {
		t.Fatal(err)
	}
	// A run that only reads the fresh pack keeps it fresh.
	if err := Open(dir, "/fresh", "k").Save(); err != nil {
		t.Fatal(err)
	}
	if err := Trim(dir, 30*24*time.Hour); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(old.File()); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a pack unused for 40 days survived: %v", err)
	}
	if _, err := os.Stat(fresh.File()); err != nil {
		t.Errorf("a used pack was removed: %v", err)
	}
	// At most once a day.
	long2 := time.Now().Add(-40 * 24 * time.Hour)
	if err := os.Chtimes(fresh.File(), long2, long2); err != nil {
		t.Fatal(err)
	}
	if err := Trim(dir, 30*24*time.Hour); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(fresh.File()); err != nil {
		t.Errorf("Trim ran twice in a day: %v", err)
	}
	if err := Trim(filepath.Join(dir, "absent"), time.Hour); err != nil {
		t.Errorf("Trim of a missing cache: %v", err)
	}
}

func TestDefaultDir(t *testing.T) {
	t.Setenv(EnvDir, "/x/y")
	if d, err := DefaultDir(); err != nil || d != "/x/y" {
		t.Errorf("DefaultDir = %q, %v", d, err)
	}
	t.Setenv(EnvDir, "")
	t.Setenv("XDG_CACHE_HOME", "/c")
	if d, err := DefaultDir(); err != nil || d != filepath.Join("/c", "sotvet") {
		t.Errorf("DefaultDir = %q, %v", d, err)
	}
}

// A FIFO (or a device) in the pack's place is a problem, never a hang.
func TestPackNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	p := Open(dir, "/ws", "k")
	put(p, 1, "a")
	if err := p.Save(); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(p.File()); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(p.File(), 0o600); err != nil {
		t.Fatal(err)
	}
	q := Open(dir, "/ws", "k")
	if q.Problem() == nil || !strings.Contains(q.Problem().Error(), "not a regular file") {
		t.Errorf("Problem() = %v, want not a regular file", q.Problem())
	}
}

// TestTrimStyles: the prose check's style sets (one per build and set of
// rule files) unread for maxAge go with the packs, and the temporary files
// a crash left; other files stay.
func TestTrimStyles(t *testing.T) {
	dir := t.TempDir()
	styles := filepath.Join(dir, StylesDir)
	if err := os.MkdirAll(styles, 0o700); err != nil {
		t.Fatal(err)
	}
	long := time.Now().Add(-40 * 24 * time.Hour)
	files := map[string]bool{ // name -> kept
		"old.rules": false, "old.filter": false, "old.stamps": false, ".old.filter" + atomicfile.TempPrefix + "1": false,
		"fresh.rules": true, "fresh.filter": true, "fresh.stamps": true, "notes.txt": true,
	}
	for n, kept := range files {
		f := filepath.Join(styles, n)
		if err := os.WriteFile(f, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		if !kept || n == "notes.txt" {
			if err := os.Chtimes(f, long, long); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := Trim(dir, 30*24*time.Hour); err != nil {
		t.Fatal(err)
	}
	for n, kept := range files {
		_, err := os.Stat(filepath.Join(styles, n))
		if kept != (err == nil) {
			t.Errorf("%s: kept %v, want %v", n, err == nil, kept)
		}
	}
}

// TestPackWrittenInOneBuffer: the sizes Save computes for the pack's
// buffer are the sizes written, so the buffer is allocated once, at its
// size (grown by append, it took up to twice the pack).
func TestPackWrittenInOneBuffer(t *testing.T) {
	p := &Pack{key: "k", entries: map[entryKey][]byte{}}
	for i, n := range []int{0, 1, 127, 128, 300, 16383, 16384, 70000} {
		k := entryKey{path: strings.Repeat("p", i*40), id: "id"}
		p.entries[k] = make([]byte, n)
		if got, want := len(p.appendRecord(nil, k)), p.recordSize(k); got != want {
			t.Errorf("a record of a %d-byte summary is %d bytes, recordSize says %d", n, got, want)
		}
	}
	if got, want := len(appendField(nil, make([]byte, 200))), fieldSize(200); got != want {
		t.Errorf("a 200-byte field is %d bytes, fieldSize says %d", got, want)
	}
}
