package secrets

import (
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestWriteAdversarialFiles writes each of adversarial()'s shapes to a
// file of its own under $SOTVET_ADVERSARIAL_OUT, for
// scripts/adversarial.sh to time sotvet scan on, a file a run, as a user
// meets such a file. Each is NNN/adv.txt, and shapes.tsv names them: a
// shape's name may hold "/" or "|", or a word a path makes mean
// something to the rules ("test": test code). The size is
// $SOTVET_ADVERSARIAL_SIZE bytes, by default 4 MiB: what scan reads a
// file up to unless told otherwise. Skipped unless the directory is set.
func TestWriteAdversarialFiles(t *testing.T) {
	dir := os.Getenv("SOTVET_ADVERSARIAL_OUT")
	if dir == "" {
		t.Skip("SOTVET_ADVERSARIAL_OUT unset: scripts/adversarial.sh sets it")
	}
	size := 4 << 20
	if s := os.Getenv("SOTVET_ADVERSARIAL_SIZE"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("SOTVET_ADVERSARIAL_SIZE=%q: want a size in bytes", s)
		}
		size = n
	}
	gens := adversarial()
	var index strings.Builder
	for i, name := range slices.Sorted(maps.Keys(gens)) {
		sub := filepath.Join(dir, fmt.Sprintf("%03d", i))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(sub, "adv.txt"), gens[name](size), 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&index, "%03d\t%s\n", i, name)
	}
	if err := os.WriteFile(filepath.Join(dir, "shapes.tsv"), []byte(index.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestAdversarialCommands runs docs/development.md's two commands for one
// shape's cost as written, on a small size: scripts/adversarial.sh (which
// builds sotvet and writes the shapes through TestWriteAdversarialFiles)
// and BenchmarkAdversarialRules. Each builds and links again, seconds of
// CPU: run where the sweeps run whole (CI's step without -race).
func TestAdversarialCommands(t *testing.T) {
	if sampledSweeps() {
		t.Skip("runs where the sweeps run whole: CI=1 or SOTVET_SLOW=1, without -race or -short")
	}
	if _, err := os.Stat("/usr/bin/time"); err != nil {
		t.Skip("scripts/adversarial.sh needs GNU time at /usr/bin/time")
	}
	script := exec.Command("bash", "../scripts/adversarial.sh", "line:heroku$")
	script.Env = append(os.Environ(), "SIZE=65536")
	out, err := script.CombinedOutput()
	if err != nil {
		t.Fatalf("scripts/adversarial.sh: %v\n%s", err, out)
	}
	if !regexp.MustCompile(`(?m)^ +[0-9.]+ +[0-9]+  line:heroku\n1 shapes; over 1 s: 0; over 64 MB: 0;`).Match(out) {
		t.Errorf("scripts/adversarial.sh printed no row and summary for line:heroku:\n%s", out)
	}
	bench := exec.Command("go", "test", ".", "-run", "^$", "-bench", "^BenchmarkAdversarialRules$", "-benchtime", "1x", "-v")
	bench.Env = append(os.Environ(), "SOTVET_SWEEP=line:heroku$")
	if out, err = bench.CombinedOutput(); err != nil {
		t.Fatalf("BenchmarkAdversarialRules: %v\n%s", err, out)
	}
	if !regexp.MustCompile(`line:heroku +cpu +[0-9]+ms, [0-9]+ rules .*generic-secret`).Match(out) {
		t.Errorf("BenchmarkAdversarialRules printed no rules for line:heroku:\n%s", out)
	}
}
