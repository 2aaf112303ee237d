package checks_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/checks/registry"
	"github.com/svrnty/sotvet/internal/testcorpus"
	"github.com/svrnty/sotvet/internal/workspaces"
	"github.com/svrnty/sotvet/scripts/gen-corpus/gencorpus"
	"github.com/svrnty/sotvet/sotparse"
)

// TestFixesNeverAddErrors holds --fix to its promise over every workspace
// the tests have: the sample, the corpus (when beside the checkout), the
// workspaces of every testscript scenario and each generated shape. With
// the safe fixes, and with the unsafe ones too: after fixing, a workspace
// has no more errors than before, and fixing it again changes nothing.
func TestFixesNeverAddErrors(t *testing.T) {
	roots := map[string]string{"sample": filepath.Join("..", "testdata", "workspace")}
	if c := testcorpus.Optional(t); c != "" {
		roots["corpus"] = c
	} else {
		t.Log("corpus absent: the property is held over the sample, the scenarios and the generated shapes only")
	}
	// The generated workspaces are written when a run first holds the
	// property on them: without SOTVET_SLOW only the default one is, and
	// writing every shape (bigdoc alone is megabytes) was most of the
	// test's time.
	gen := t.TempDir()
	generate := map[string]func() error{}
	roots["generated/default"] = filepath.Join(gen, "default")
	generate["generated/default"] = func() error { return gencorpus.Write(filepath.Join(gen, "default"), 80, 5) }
	for _, shape := range gencorpus.Shapes {
		n := 40
		if shape == "bigdoc" {
			n = 1 // megabytes
		}
		dir := filepath.Join(gen, shape)
		roots["generated/"+shape] = dir
		generate["generated/"+shape] = func() error { return gencorpus.WriteShape(dir, shape, n, 5, gencorpus.Options{}) }
	}
	_, scenarios := testcorpus.Scenarios(t)
	for name, dir := range scenarios {
		ws, err := workspaces.Find(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range ws {
			roots["script/"+name+"/"+w] = filepath.Join(dir, filepath.FromSlash(w))
		}
	}
	names := make([]string, 0, len(roots))
	for n := range roots {
		names = append(names, n)
	}
	sort.Strings(names)
	applied := map[bool]int{}
	for i, name := range names {
		// Every scenario's workspaces cost minutes: the property is held on
		// a fixed sample of them (one in four; one in sixteen under the race
		// detector, which makes each run ten times dearer), and on every
		// other workspace.
		if every := sampleEvery(); strings.HasPrefix(name, "script/") && !fixScenario(name) && i%every != 0 {
			continue
		}
		// The generated shapes and the scenarios take minutes in all: they
		// run with SOTVET_SLOW=1; every run holds the sample, the corpus and
		// the default generated workspace.
		if os.Getenv("SOTVET_SLOW") == "" && (strings.HasPrefix(name, "script/") && !fixScenario(name) ||
			strings.HasPrefix(name, "generated/") && name != "generated/default") {
			continue
		}
		if g := generate[name]; g != nil {
			if err := g(); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		for _, unsafe := range []bool{false, true} {
			work := t.TempDir()
			if err := copyTree(roots[name], work); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			before, res, ws, ok := errorsIn(t, work)
			if !ok {
				break // a scenario's deliberately unusable configuration
			}
			// A workspace with no fix of this kind has nothing to hold.
			if !hasFix(res.Findings, unsafe) {
				if !hasFix(res.Findings, true) {
					break
				}
				continue
			}
			changed, n := checks.ApplyFixes(ws, res.Findings, unsafe)
			applied[unsafe] += n.Applied
			writeAll(t, work, changed)
			after, res, ws, _ := errorsIn(t, work)
			if after > before {
				t.Errorf("%s (unsafe %v): %d fixes raised the errors from %d to %d", name, unsafe, n.Applied, before, after)
			}
			again, n2 := checks.ApplyFixes(ws, res.Findings, unsafe)
			for p, b := range again {
				if !bytes.Equal(b, ws.File(p).Content) {
					t.Errorf("%s (unsafe %v): a second fix changes %s (%d fixes)", name, unsafe, p, n2.Applied)
				}
			}
		}
	}
	// The property is empty if no fix was ever applied.
	if applied[false] == 0 || applied[true] <= applied[false] {
		t.Errorf("fixes applied: %d safe, %d with unsafe ones: the workspaces exercise too few fixes", applied[false], applied[true])
	}
}

// fixScenario reports whether a root is a workspace of the scenarios about
// fixes, which hold safe and unsafe fixes without the corpus: every run
// keeps them.
func fixScenario(name string) bool {
	for _, p := range []string{"script/fix/", "script/check_status_stale/", "script/check_consistency/", "script/check_hygiene/"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

func sampleEvery() int {
	if raceEnabled {
		return 16
	}
	return 4
}

// hasFix reports whether a finding has a fix that a --fix run (with
// --unsafe-fixes when unsafe) applies.
func hasFix(fs []checks.Finding, unsafe bool) bool {
	for i := range fs {
		for _, f := range fs[i].Fixes {
			if unsafe || !f.Unsafe {
				return true
			}
		}
	}
	return false
}

// errorsIn runs every check on dir and returns its number of errors; ok is
// false when the run stops on a configuration error (a scenario's bad
// .vale.ini, say), which is no workspace to fix.
func errorsIn(t *testing.T, dir string) (int, *checks.Result, *sotparse.Workspace, bool) {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	res, ws, err := checks.Run(checks.Options{Root: abs, FS: os.DirFS(abs), Analyzers: registry.All})
	if err != nil {
		t.Logf("%s: %v", dir, err)
		return 0, nil, nil, false
	}
	n := 0
	for _, f := range res.Findings {
		if f.Severity == checks.SeverityError {
			n++
		}
	}
	return n, res, ws, true
}

// writeAll writes the fixed contents into dir.
func writeAll(t *testing.T, dir string, files map[string][]byte) {
	t.Helper()
	for p, b := range files {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(p)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// copyTree copies the regular files and directories under src to dst,
// .git left out.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		switch {
		case de.IsDir() && de.Name() == ".git":
			return fs.SkipDir
		case de.IsDir():
			return os.MkdirAll(target, 0o755)
		case !de.Type().IsRegular():
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
}
