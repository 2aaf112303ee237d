package plainbuild

import (
	"os"
	"os/exec"
	"testing"
)

func TestWithoutRace(t *testing.T) {
	for in, want := range map[string]string{
		"":                     "",
		"-race":                "",
		"-mod=mod -race -v":    "-mod=mod -v",
		"-tags=devtools":       "-tags=devtools",
		"--race -race=true -x": "-x",
	} {
		if got := WithoutRace(in); got != want {
			t.Errorf("WithoutRace(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCommandCached: a command is taken from the go command's build
// cache, so that a second Build (another test process) finds the same
// executable instead of linking its own, and Remove leaves the cache's
// copy alone.
func TestCommandCached(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	first := Command("plainbuild-test-", "hello", "./testdata/hello")
	exe, err := first.Exe()
	if err != nil {
		t.Fatal(err)
	}
	if first.temp {
		t.Fatalf("%s: built in a temporary directory, not taken from the build cache", exe)
	}
	out, err := exec.Command(exe).Output()
	if err != nil || string(out) != "hello\n" {
		t.Fatalf("%s: %q, %v", exe, out, err)
	}
	second := Command("plainbuild-test-", "hello", "./testdata/hello")
	if again, err := second.Exe(); err != nil || again != exe {
		t.Fatalf("a second build: %s, %v; want the first's %s", again, err, exe)
	}
	first.Remove()
	second.Remove()
	if _, err := os.Stat(exe); err != nil {
		t.Fatalf("Remove removed the cache's copy: %v", err)
	}
}
