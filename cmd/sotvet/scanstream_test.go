package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/secrets"
)

// TestScanStreamHoldsOnlyFindings: a scan keeps nothing of a clean file,
// so a tree's memory does not grow with its files; what it keeps comes
// back in the source's order whatever order the workers finish in, with
// every file counted.
func TestScanStreamHoldsOnlyFindings(t *testing.T) {
	sc, err := secrets.NewScanner(secrets.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	const clean = 50000
	withFindings := map[int]bool{7: true, 9000: true, clean - 1: true}
	source := func(emit func(scanFile)) error {
		for i := range clean {
			name := fmt.Sprintf("f%05d.txt", i)
			if withFindings[i] {
				emit(scanFile{name: name, content: []byte("token: " + fixtureToken(byte(i), byte(i>>8)) + "\n")})
				continue
			}
			emit(scanFile{name: name, content: []byte("plain text, nothing to see\n")})
		}
		emit(scanFile{name: "fifo", unscanned: "not a regular file"})
		return nil
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	held, files, err := scanStream(sc, scanReader{maxSize: 1 << 20}, source, 0, nil)
	runtime.GC()
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if files != clean+1 {
		t.Errorf("files = %d, want %d", files, clean+1)
	}
	var got []string
	for _, f := range held {
		got = append(got, fmt.Sprintf("%d %s %d %q", f.seq, f.name, len(f.found), f.unscanned))
	}
	want := []string{"7 f00007.txt 1 \"\"", "9000 f09000.txt 1 \"\"", "49999 f49999.txt 1 \"\"", "50000 fifo 0 \"not a regular file\""}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("held %q, want %q", got, want)
	}
	// What is live after the scan is what it returned, not a record
	// per file (~100 bytes each: 5 MB here).
	if grown := int64(after.HeapAlloc) - int64(before.HeapAlloc); grown > 2<<20 {
		t.Errorf("the heap grew by %d bytes over a scan of %d clean files", grown, clean)
	}
	runtime.KeepAlive(held)
}

// TestScanStreamErrors: the source's error fails the scan; else the first
// read error in the source's order does, whichever worker met it first;
// a file gone since the source gave it is not an error but unscanned.
func TestScanStreamErrors(t *testing.T) {
	sc, err := secrets.NewScanner(secrets.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.txt")
	if err := os.WriteFile(plain, []byte("plain\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Under a regular file: opening it fails (ENOTDIR), whoever runs.
	unreadable := func(n string) scanFile {
		p := filepath.Join(plain, n)
		return scanFile{name: n, path: p, root: dir}
	}
	walkErr := errors.New("walk failed")
	_, _, err = scanStream(sc, scanReader{maxSize: 1 << 20}, func(emit func(scanFile)) error {
		emit(unreadable("a"))
		return walkErr
	}, 0, nil)
	if err != walkErr {
		t.Errorf("err = %v, want the source's", err)
	}
	for range 20 {
		_, _, err = scanStream(sc, scanReader{maxSize: 1 << 20}, func(emit func(scanFile)) error {
			for i := range 50 {
				emit(scanFile{name: "clean", content: []byte("plain\n")})
				if i%10 == 3 {
					emit(unreadable(fmt.Sprintf("bad%02d", i)))
				}
			}
			return nil
		}, 0, nil)
		if err == nil || filepath.Base(pathOfError(err)) != "bad03" {
			t.Fatalf("err = %v, want the read error of bad03, the first in order", err)
		}
	}
	held, files, err := scanStream(sc, scanReader{maxSize: 1 << 20}, func(emit func(scanFile)) error {
		emit(scanFile{name: "gone.txt", path: filepath.Join(dir, "gone.txt"), root: dir})
		return nil
	}, 0, nil)
	if err != nil || files != 1 || len(held) != 1 || !strings.Contains(held[0].unscanned, "removed") {
		t.Fatalf("a file gone when read: err %v, %d files, held %+v; want it unscanned", err, files, held)
	}
}

// pathOfError is the path a *fs.PathError names, or the error's text.
func pathOfError(err error) string {
	if pe, ok := errors.AsType[*fs.PathError](err); ok {
		return pe.Path
	}
	return err.Error()
}
