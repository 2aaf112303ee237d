package plainbuild

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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

// TestCommandCached: a command is linked once into the go command's
// build cache and run from a copy of its own outside it (the cache may be
// noexec, cleaned, or written by another link), which Remove removes.
func TestCommandCached(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	gocache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	first := Command("plainbuild-test-", "hello", "./testdata/hello")
	exe, err := first.Exe()
	if err != nil {
		t.Fatal(err)
	}
	if cache := strings.TrimSpace(string(gocache)); cache != "" && strings.HasPrefix(exe, cache+string(filepath.Separator)) {
		t.Fatalf("%s: runs from the build cache %s", exe, cache)
	}
	out, err := exec.Command(exe).Output()
	if err != nil || string(out) != "hello\n" {
		t.Fatalf("%s: %q, %v", exe, out, err)
	}
	second := Command("plainbuild-test-", "hello", "./testdata/hello")
	again, err := second.Exe()
	if err != nil || again == exe {
		t.Fatalf("a second build: %s, %v; want a copy of its own", again, err)
	}
	first.Remove()
	second.Remove()
	for _, p := range []string{exe, again} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s: Remove left it (%v)", p, err)
		}
	}
}
