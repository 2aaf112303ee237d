package harness

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestGoTelemetryOff: in a run's HOME the go command's telemetry is off,
// as the run's environment (GOTELEMETRY=off) says; the environment alone
// leaves it on.
func TestGoTelemetryOff(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	mode := func(home string) string {
		cmd := exec.Command(goBin, "env", "GOTELEMETRY")
		cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "GOTELEMETRY=off", "GOENV=off", "GOTOOLCHAIN=local"}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go env GOTELEMETRY: %v", err)
		}
		return strings.TrimSpace(string(out))
	}
	if m := mode(fresh(t)); m == "off" {
		t.Skipf("the go command's telemetry is off in a fresh HOME already (%q)", m)
	}
	r := &run{dir: t.TempDir()} // telemetry is off there: no child
	if err := r.makeSubdirs(); err != nil {
		t.Fatal(err)
	}
	if m := mode(r.home); m != "off" {
		t.Errorf("go env GOTELEMETRY in a run's HOME = %q, want off", m)
	}
	if _, err := os.Stat(filepath.Join(r.home, ".config", "go", "telemetry", "local")); err == nil {
		t.Error("the go command wrote telemetry counters in the run's HOME")
	}
}

// fresh is a directory removed after the test, retrying for a while: with
// telemetry on, the go command leaves a child behind that may still be
// writing its counters there when the test ends (t.TempDir's removal then
// fails the test), or recreate them just after a removal. Removed once it
// stays gone for half a second, giving up after five.
func fresh(t *testing.T) string {
	dir, err := os.MkdirTemp("", "telemetry-home-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		gone := 0
		for i := 0; i < 50 && gone < 5; i++ {
			// Look before removing: a directory the child recreated
			// since the last look is not gone.
			if _, err := os.Lstat(dir); os.IsNotExist(err) {
				gone++
			} else {
				gone = 0
				os.RemoveAll(dir)
			}
			time.Sleep(100 * time.Millisecond)
		}
		if gone < 5 {
			t.Logf("%s: the go command's telemetry child kept writing there", dir)
		}
	})
	return dir
}
