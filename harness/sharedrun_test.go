package harness_test

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/svrnty/sotvet/harness"
	"github.com/svrnty/sotvet/harness/verify"
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
}

var (
	// unsignedRun is run with TestRedaction's redactor: TestForgedUnsigned,
	// which reads it too, judges its signature, which redaction of the
	// backend's logs does not touch.
	unsignedRun = &sharedRun{}
	signedRun   = &sharedRun{signed: true}
)

// get returns the run's directory and, for a signed run, its key.
func (s *sharedRun) get(t *testing.T) (string, ed25519.PrivateKey) {
	t.Helper()
	s.once.Do(func() {
		s.root, s.err = os.MkdirTemp("", "harness-shared-")
		if s.err != nil {
			return
		}
		opt := options(t, "r1-string-slugify")
		opt.RunsRoot = s.root
		if !s.signed {
			opt.Redactor = upper{}
		} else {
			if _, s.key, s.err = ed25519.GenerateKey(rand.Reader); s.err != nil {
				return
			}
			opt.SignKey = s.key
		}
		var res *harness.Result
		if res, s.err = harness.Run(context.Background(), opt); s.err == nil {
			s.dir = res.RunDir
		}
	})
	if s.err != nil {
		t.Fatalf("shared run: %v", s.err)
	}
	return s.dir, s.key
}

// unchanged reports whether the run, if one was made, still verifies as
// made (its digests cover every artifact, and an added file shows):
// TestMain asks it after the tests, so that a test that edited the shared
// run in place fails the package.
func (s *sharedRun) unchanged() error {
	if s.dir == "" {
		return nil
	}
	opt := verify.Options{}
	if s.signed {
		opt.PublicKey = s.key.Public().(ed25519.PublicKey)
	}
	vs, _, err := verify.Dir(s.dir, opt)
	if err == nil && len(vs) > 0 {
		err = fmt.Errorf("%v", vs)
	}
	if err != nil {
		return fmt.Errorf("the shared run %s was changed by a test: %v", s.dir, err)
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
