package testtmp

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

type runner = RunFunc

func TestRunKeepsAChosenTMPDIR(t *testing.T) {
	mine := t.TempDir()
	t.Setenv("TMPDIR", mine)
	code := Run(runner(func() int {
		if got := os.Getenv("TMPDIR"); got != mine {
			t.Errorf("TMPDIR = %q inside Run, want the user's %q", got, mine)
		}
		return 3
	}))
	if code != 3 {
		t.Errorf("Run returned %d, want m's 3", code)
	}
}

func TestRunOnATmpfs(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("a tmpfs is chosen on Linux only")
	}
	t.Setenv("TMPDIR", "")
	if !fit("/dev/shm") {
		t.Skip("/dev/shm is not a tmpfs with room here: Run changes nothing (TestRunKeepsAChosenTMPDIR)")
	}
	var inside string
	Run(runner(func() int {
		inside = os.Getenv("TMPDIR")
		if filepath.Dir(inside) != "/dev/shm" {
			t.Errorf("TMPDIR = %q, want a directory of /dev/shm", inside)
		}
		if pid, ok := ownerPID(filepath.Base(inside)); !ok || pid != os.Getpid() {
			t.Errorf("%s: not named for this process (%d)", inside, os.Getpid())
		}
		// What the tests leave behind, a read-only directory included.
		ro := filepath.Join(os.TempDir(), "mod", "ro")
		if err := os.MkdirAll(ro, 0o755); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(ro, "f"), []byte("x"), 0o444)
		os.Chmod(ro, 0o555)
		return 0
	}))
	if inside == "" {
		t.Fatal("TMPDIR not set inside Run")
	}
	if _, err := os.Lstat(inside); !os.IsNotExist(err) {
		t.Errorf("%s still there after Run (%v)", inside, err)
	}
	if got := os.Getenv("TMPDIR"); got != "" {
		t.Errorf("TMPDIR = %q after Run, want it unset again", got)
	}
}

func TestChooseNotATmpfs(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("Linux only")
	}
	// The package's own directory: on the checkout's file system.
	dir, _ := os.Getwd()
	var st unix.Statfs_t
	if unix.Statfs(dir, &st) == nil && st.Type == unix.TMPFS_MAGIC {
		t.Skip("the checkout is on a tmpfs")
	}
	if got := choose(dir); got != "" {
		os.RemoveAll(got)
		t.Errorf("choose(%s) = %q, want \"\": not a tmpfs", dir, got)
	}
}

func TestOwnerPID(t *testing.T) {
	for name, want := range map[string]int{
		"sotvet-t123":                  123,
		"sotvet-t123-456789":           123,
		"sotvet-t7-":                   7,
		"sotvet-t-1-2":                 0,
		"sotvet-t0":                    0,
		"sotvet-tx1":                   0,
		"sotvet-t+1":                   0,
		"sotvet-t1x":                   0,
		"other-t123":                   0,
		"sotvet-ci.123":                0,
		"sotvet-t99999999999999999999": 0,
	} {
		pid, ok := ownerPID(name)
		if ok != (want != 0) || pid != want && want != 0 {
			t.Errorf("ownerPID(%q) = %d, %v; want %d", name, pid, ok, want)
		}
	}
}

// deadPID is the id of a process that ran and was reaped.
func deadPID(t *testing.T) int {
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("no true to run:", err)
	}
	pid := cmd.Process.Pid
	if alive(pid) {
		t.Skip("the pid was taken again at once")
	}
	return pid
}

func TestRemoveStale(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("Linux only")
	}
	root := t.TempDir()
	dead, live := deadPID(t), os.Getpid()
	old := time.Now().Add(-2 * staleAfter)
	mk := func(name string, mtime time.Time, dir bool) string {
		p := filepath.Join(root, name)
		if dir {
			if err := os.MkdirAll(filepath.Join(p, "sub"), 0o755); err != nil {
				t.Fatal(err)
			}
		} else if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
		return p
	}
	gone := mk(prefix+strconv.Itoa(dead), old, true)
	kept := []string{
		mk(prefix+strconv.Itoa(live)+"-2", old, true),        // its process runs
		mk(prefix+strconv.Itoa(dead)+"-3", time.Now(), true), // changed lately
		mk(prefix+strconv.Itoa(dead)+"-4", old, false),       // a file
		mk("sotvet-ci."+strconv.Itoa(dead), old, true),       // not Run's
		mk("sotvet-"+strconv.Itoa(dead), old, true),          // not Run's either
	}
	removeStale(root, time.Now())
	if _, err := os.Lstat(gone); !os.IsNotExist(err) {
		t.Errorf("%s: a dead process's old directory, still there", gone)
	}
	for _, p := range kept {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s: removed (%v), want it kept", p, err)
		}
	}
}

func TestRunKeepsWhatFailedTestsLeft(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("a tmpfs is chosen on Linux only")
	}
	if !fit("/dev/shm") {
		t.Skip("/dev/shm is not a tmpfs with room here")
	}
	for _, left := range []bool{false, true} {
		t.Setenv("TMPDIR", "")
		var inside string
		code := Run(runner(func() int {
			inside = os.Getenv("TMPDIR")
			if left {
				os.WriteFile(filepath.Join(inside, "found"), []byte("x"), 0o644)
			}
			return 1
		}))
		if code != 1 {
			t.Errorf("Run returned %d, want m's 1", code)
		}
		_, err := os.Lstat(inside)
		switch {
		case left && err != nil:
			t.Errorf("failed tests left a file: %s removed (%v), want it kept", inside, err)
		case !left && !os.IsNotExist(err):
			t.Errorf("failed tests left nothing: %s still there (%v)", inside, err)
		}
		os.RemoveAll(inside)
	}
}
