package harness

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
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
	if m := mode(t.TempDir()); m == "off" {
		t.Skipf("the go command's telemetry is off in a fresh HOME already (%q)", m)
	}
	r := &run{dir: t.TempDir()}
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
