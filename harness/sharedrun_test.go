package harness_test

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/svrnty/sotvet/harness"
)

// sharedRun is one pass run of r1-string-slugify made at most once per
// test process, for the tests that only read a finished run: a run is a
// backend, a go vet and a go test of the case, a second or more of CPU.
// Tests read it in place; a test that edits a run works on its own copy
// (copyRun), so no test sees another's edit.
type sharedRun struct {
	once   sync.Once
	signed bool
	root   string
	dir    string
	key    ed25519.PrivateKey
	err    error
	// files lists every entry of the run as it was made.
	files runFiles
	// changedBy names the first test found to have changed the run.
	changedBy string
}

var (
	// unsignedRun is run with TestRedaction's redactor: TestForgedUnsigned,
	// which reads it too, judges its signature, which redaction of the
	// backend's logs does not touch.
	unsignedRun = &sharedRun{}
	signedRun   = &sharedRun{signed: true}
)

// get returns the run's directory and, for a signed run, its key. When
// the test ends, it fails if the run differs in any file from the run as
// made: the tests that read a shared run are not parallel, so the test
// named is the one that changed it.
func (s *sharedRun) get(t *testing.T) (string, ed25519.PrivateKey) {
	t.Helper()
	s.once.Do(s.make)
	if s.err != nil {
		t.Fatalf("shared run: %v", s.err)
	}
	if s.changedBy != "" {
		t.Fatalf("the shared run %s was changed by %s", s.dir, s.changedBy)
	}
	t.Cleanup(func() {
		if diff := s.changes(); len(diff) > 0 && s.changedBy == "" {
			s.changedBy = t.Name()
			t.Errorf("%s changed the shared run %s:\n\t%s", t.Name(), s.dir, strings.Join(diff, "\n\t"))
		}
	})
	return s.dir, s.key
}

// make makes the run. No test may fail inside it: t.Fatal ends the
// goroutine, the once would count as done and every later caller would
// get no run and no error. So s.err holds an error until the run is made.
func (s *sharedRun) make() {
	s.err = errors.New("making it stopped before the run was made (see the first test to ask for it)")
	exe, err := childExePath()
	if err != nil {
		s.err = err
		return
	}
	opt := caseOptions(exe, "r1-string-slugify")
	if !s.signed {
		opt.Redactor = upper{}
	} else {
		if _, opt.SignKey, err = ed25519.GenerateKey(rand.Reader); err != nil {
			s.err = err
			return
		}
	}
	if s.root, err = os.MkdirTemp("", "harness-shared-"); err != nil {
		s.err = err
		return
	}
	opt.RunsRoot = s.root
	res, err := harness.Run(context.Background(), opt)
	if err != nil {
		s.err = err
		return
	}
	s.dir, s.key, s.files = res.RunDir, opt.SignKey, listRun(res.RunDir)
	s.err = nil
}

// changes lists how the run differs from the run as made.
func (s *sharedRun) changes() []string {
	return s.files.diff(listRun(s.dir))
}

// unchanged reports whether the run, if one was made, is still the run
// as made: TestMain asks it after the tests, as a backstop for a test
// that changed the run without asking for it.
func (s *sharedRun) unchanged() error {
	if s.files == nil {
		return nil
	}
	if s.changedBy != "" {
		return fmt.Errorf("the shared run %s was changed by %s", s.dir, s.changedBy)
	}
	if diff := s.changes(); len(diff) > 0 {
		return fmt.Errorf("the shared run %s was changed by a test:\n\t%s", s.dir, strings.Join(diff, "\n\t"))
	}
	return nil
}

// remove removes the run, if one was made: call it from TestMain after
// the tests.
func (s *sharedRun) remove() {
	if s.root != "" {
		os.RemoveAll(s.root)
	}
}

// runFiles maps the slash path of every entry under a directory to its
// mode, and for a regular file its size and sha256, for a symlink its
// target, or why it could not be read.
type runFiles map[string]string

func listRun(root string) runFiles {
	files := runFiles{}
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if err != nil {
			// A directory that cannot be listed is reported a second
			// time, after its own entry.
			files[rel] += "unreadable: " + err.Error()
			return nil
		}
		files[rel] = describe(p, d)
		return nil
	})
	return files
}

func describe(p string, d fs.DirEntry) string {
	info, err := d.Info()
	if err != nil {
		return "unreadable: " + err.Error()
	}
	switch {
	case info.Mode().IsRegular():
		f, err := os.Open(p)
		if err != nil {
			return fmt.Sprintf("%v %d unreadable: %v", info.Mode(), info.Size(), err)
		}
		defer f.Close()
		h := sha256.New()
		if _, err := io.Copy(h, f); err != nil {
			return fmt.Sprintf("%v %d unreadable: %v", info.Mode(), info.Size(), err)
		}
		return fmt.Sprintf("%v %d sha256:%x", info.Mode(), info.Size(), h.Sum(nil))
	case info.Mode()&fs.ModeSymlink != 0:
		target, err := os.Readlink(p)
		if err != nil {
			return fmt.Sprintf("%v unreadable: %v", info.Mode(), err)
		}
		return fmt.Sprintf("%v -> %s", info.Mode(), target)
	}
	return info.Mode().String()
}

// diff lists the entries added, removed or changed in now, sorted.
func (was runFiles) diff(now runFiles) []string {
	var out []string
	for p, w := range was {
		if n, ok := now[p]; !ok {
			out = append(out, fmt.Sprintf("%s removed (was %s)", p, w))
		} else if n != w {
			out = append(out, fmt.Sprintf("%s: was %s, now %s", p, w, n))
		}
	}
	for p, n := range now {
		if _, ok := was[p]; !ok {
			out = append(out, fmt.Sprintf("%s added (%s)", p, n))
		}
	}
	slices.Sort(out)
	return out
}

// copyRun copies the run directory dir into the test's own temporary
// directory, modes kept, for a test that edits it.
func copyRun(t *testing.T, dir string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(dir))
	if out, err := exec.Command("cp", "-a", dir, dst).CombinedOutput(); err != nil {
		t.Fatalf("cp -a %s: %v\n%s", dir, err, out)
	}
	return dst
}
