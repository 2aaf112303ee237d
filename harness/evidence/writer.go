package evidence

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Writer writes artifacts into a run directory atomically (temporary file,
// fsync, rename) and remembers each one's digest and write time.
type Writer struct {
	Dir   string
	Clock func() time.Time
	// Fault, when set, is asked before each write and may refuse it; it is
	// the seam through which a failing disk is simulated.
	Fault func(rel string) error

	digests map[string]string
	written map[string]string
}

// NewWriter returns a writer for dir.
func NewWriter(dir string, clock func() time.Time) *Writer {
	return &Writer{Dir: dir, Clock: clock, digests: map[string]string{}, written: map[string]string{}}
}

// Write writes data to the artifact rel (slash-separated, relative to the
// run directory).
func (w *Writer) Write(rel string, data []byte) error {
	if err := checkRel(rel); err != nil {
		return err
	}
	if w.Fault != nil {
		if err := w.Fault(rel); err != nil {
			return fmt.Errorf("write %s: %w", rel, err)
		}
	}
	dst := filepath.Join(w.Dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	if err := WriteFileAtomic(dst, data); err != nil {
		return fmt.Errorf("write %s: %w", rel, err)
	}
	w.digests[rel] = Digest(data)
	w.written[rel] = FormatTime(w.Clock())
	return nil
}

// Digests returns the digests of the artifacts written so far.
func (w *Writer) Digests() map[string]string { return clone(w.digests) }

// WrittenAt returns the write times of the artifacts written so far.
func (w *Writer) WrittenAt() map[string]string { return clone(w.written) }

// Written returns the artifacts written so far, sorted.
func (w *Writer) Written() []string {
	out := make([]string, 0, len(w.digests))
	for k := range w.digests {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func clone(m map[string]string) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func checkRel(rel string) error {
	if rel == "" || strings.HasPrefix(rel, "/") || strings.Contains(rel, "\\") {
		return fmt.Errorf("artifact path %q is not relative", rel)
	}
	for _, s := range strings.Split(rel, "/") {
		if s == "" || s == "." || s == ".." {
			return fmt.Errorf("artifact path %q is not clean", rel)
		}
	}
	return nil
}

// WriteFileAtomic writes data to path through a temporary file in the same
// directory, synced and then renamed over path.
func WriteFileAtomic(path string, data []byte) error {
	var rnd [6]byte
	if _, err := rand.Read(rnd[:]); err != nil {
		return err
	}
	tmp := filepath.Join(filepath.Dir(path), ".tmp-"+filepath.Base(path)+"-"+hex.EncodeToString(rnd[:]))
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}
