// Package testcorpus locates the user's real workspace for tests. It sits
// beside the checkout (../shared/corpus/cto-planb from the module root) in
// CI and on developers' machines, and is absent from a plain clone, where
// every test that needs it must skip and say so.
package testcorpus

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// Env names a corpus directory that replaces the default one.
const Env = "SOTVET_CORPUS"

// Dir returns where the corpus is looked for (absolute when the module
// root is found) and whether a directory is there.
func Dir() (string, bool) {
	dir := os.Getenv(Env)
	if dir == "" {
		dir = filepath.Join(moduleRoot(), "..", "shared", "corpus", "cto-planb")
	}
	info, err := os.Stat(dir)
	return dir, err == nil && info.IsDir()
}

// Require returns the corpus, or skips tb with a message naming where it
// looked.
func Require(tb testing.TB) string {
	tb.Helper()
	dir, ok := Dir()
	if !ok {
		tb.Skipf("skipped: the corpus is not beside the checkout (looked in %s; set %s to name one)", dir, Env)
	}
	return dir
}

// Optional returns the corpus, or "" after logging that tb runs without
// it: for tests that cover the corpus among other inputs.
func Optional(tb testing.TB) string {
	tb.Helper()
	dir, ok := Dir()
	if !ok {
		tb.Logf("the corpus is not beside the checkout (looked in %s): running without it", dir)
		return ""
	}
	return dir
}

// Scenarios writes the files of every testscript scenario
// (testdata/script/*.txtar) into a directory of its own under tb's
// temporary directory and returns the directories, by scenario name, in
// name order: workspaces that tests cover among other inputs. They are in
// every checkout; a file a scenario names outside its directory is left
// out.
func Scenarios(tb testing.TB) (names []string, dirs map[string]string) {
	tb.Helper()
	scripts, err := filepath.Glob(filepath.Join(moduleRoot(), "testdata", "script", "*.txtar"))
	if err != nil || len(scripts) == 0 {
		tb.Fatalf("no testscript scenarios found under %s: %v", moduleRoot(), err)
	}
	dirs = map[string]string{}
	for _, s := range scripts {
		ar, err := txtar.ParseFile(s)
		if err != nil {
			tb.Fatal(err)
		}
		dir := tb.TempDir()
		for _, f := range ar.Files {
			if strings.Contains(f.Name, "..") || filepath.IsAbs(f.Name) {
				continue
			}
			p := filepath.Join(dir, filepath.FromSlash(f.Name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				tb.Fatal(err)
			}
			if err := os.WriteFile(p, f.Data, 0o644); err != nil {
				tb.Fatal(err)
			}
		}
		name := strings.TrimSuffix(filepath.Base(s), ".txtar")
		names = append(names, name)
		dirs[name] = dir
	}
	slices.Sort(names)
	return names, dirs
}

// moduleRoot is the directory of the go.mod above the working directory (a
// test's package directory), or the working directory when there is none.
func moduleRoot() string {
	wd, err := os.Getwd()
	if err != nil {
		return "."
	}
	for dir := wd; ; {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			return wd
		}
		dir = up
	}
}
