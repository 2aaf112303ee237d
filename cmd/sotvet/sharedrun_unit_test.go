package main

import (
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"testing"
)

func TestSharedRunKey(t *testing.T) {
	flags := []string{"--case", "r1-string-slugify", "--cases", "/src/testdata/cases"}
	env := func(work string) []string {
		return []string{"HOME=" + work + "/home", "PATH=" + work + "/bin:/usr/bin", "PANELPORT=1234", "WORK=" + work}
	}
	base := sharedRunKey("/bin/sotvet", flags, "run-one", env("/tmp/a"), "/tmp/a")
	// Another scenario's directory and panel port: the same run.
	other := env("/tmp/b")
	other[2] = "PANELPORT=999"
	if got := sharedRunKey("/bin/sotvet", flags, "run-one", other, "/tmp/b"); got != base {
		t.Errorf("key changed with the scenario's directory")
	}
	for name, key := range map[string]string{
		"run ID":      sharedRunKey("/bin/sotvet", flags, "run-two", env("/tmp/a"), "/tmp/a"),
		"binary":      sharedRunKey("/race/sotvet", flags, "run-one", env("/tmp/a"), "/tmp/a"),
		"flags":       sharedRunKey("/bin/sotvet", append(flags, "--fixture", "no-diff"), "run-one", env("/tmp/a"), "/tmp/a"),
		"environment": sharedRunKey("/bin/sotvet", flags, "run-one", append(env("/tmp/a"), "SOTVET_X=1"), "/tmp/a"),
	} {
		if key == base {
			t.Errorf("key ignores the %s", name)
		}
	}
}

func TestSplitRunDir(t *testing.T) {
	dir, rest, err := splitRunDir([]string{"--case", "c", "--run-dir", "/w/run", "--json"})
	if err != nil || dir != "/w/run" || !reflect.DeepEqual(rest, []string{"--case", "c", "--json"}) {
		t.Errorf("got %q %q %v", dir, rest, err)
	}
	if dir, _, err := splitRunDir([]string{"-run-dir=/w/r"}); err != nil || dir != "/w/r" {
		t.Errorf("got %q %v", dir, err)
	}
	for _, args := range [][]string{{"--case", "c"}, {"--run-dir"}} {
		if _, _, err := splitRunDir(args); err == nil {
			t.Errorf("splitRunDir(%q): no error", args)
		}
	}
}

func TestOwnFile(t *testing.T) {
	cwd := t.TempDir()
	if err := os.Mkdir(filepath.Join(cwd, "cases"), 0o755); err != nil {
		t.Fatal(err)
	}
	for a, want := range map[string]bool{
		"/tmp/w/key.pem":             true,
		"--sign-key=/tmp/w/key.pem":  true,
		"cases":                      true,
		"r1-string-slugify":          false,
		"/src/testdata/cases":        false,
		"--cases=/src/testdata/case": false,
		"--json":                     false,
	} {
		if got := ownFile(a, "/tmp/w", cwd); got != want {
			t.Errorf("ownFile(%q) = %v, want %v", a, got, want)
		}
	}
}

func TestCopyTree(t *testing.T) {
	src, dst := t.TempDir(), filepath.Join(t.TempDir(), "copy")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(src, "backend"), 0o755))
	must(os.WriteFile(filepath.Join(src, "backend", "run.sh"), []byte("#!/bin/sh\n"), 0o755))
	must(os.WriteFile(filepath.Join(src, "report.json"), []byte("{}"), 0o644))
	must(os.Symlink("report.json", filepath.Join(src, "link")))
	must(copyTree(src, dst))
	info, err := os.Stat(filepath.Join(dst, "backend", "run.sh"))
	must(err)
	if info.Mode().Perm() != 0o755 {
		t.Errorf("mode %v, want 0755", info.Mode().Perm())
	}
	if target, err := os.Readlink(filepath.Join(dst, "link")); err != nil || target != "report.json" {
		t.Errorf("link: %q %v", target, err)
	}
	if data, err := os.ReadFile(filepath.Join(dst, "report.json")); err != nil || string(data) != "{}" {
		t.Errorf("report.json: %q %v", data, err)
	}
}

// TestParallelWidened: without -parallel, twice as many parallel tests
// as CPUs run at once (widenParallel).
func TestParallelWidened(t *testing.T) {
	if explicitParallel {
		t.Skip("-parallel given")
	}
	if got, want := flag.Lookup("test.parallel").Value.String(), strconv.Itoa(2*runtime.GOMAXPROCS(0)); got != want {
		t.Errorf("-test.parallel = %s, want %s", got, want)
	}
}
