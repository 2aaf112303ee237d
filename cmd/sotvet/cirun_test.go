package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestCIRunsRaceSkipped: every test that skips itself under the race
// detector (`if raceEnabled { t.Skip(...) }`, secrets' sequentialSweep)
// is run by .ci/run's step without -race, named there beside its package
// or in its package run whole: CI runs only the README's -race command
// otherwise, and such a test would hold nothing anywhere.
func TestCIRunsRaceSkipped(t *testing.T) {
	root := filepath.Join("..", "..")
	ci, err := os.ReadFile(filepath.Join(root, ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	// The lines of the step that runs without -race.
	var plain []string
	wholeSweeps := false
	for _, l := range strings.Split(string(ci), "\n") {
		env := envPrefix.FindString(l) // CI="${CI:-true}" go test ...
		l = l[len(env):]
		if strings.HasPrefix(l, "go test ") && !strings.Contains(l, "-race") {
			plain = append(plain, l)
			// secrets' sweeps run whole only where CI is set (sampledSweeps)
			wholeSweeps = wholeSweeps || strings.Contains(env, "CI=") && slices.Contains(strings.Fields(l), "./secrets")
		}
	}
	if !wholeSweeps {
		t.Error(".ci/run's step without -race does not run ./secrets with CI set: its sweeps would run sampled in CI too")
	}
	found := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := "./" + filepath.ToSlash(rel)
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil || !strings.HasPrefix(fn.Name.Name, "Test") || !skipsUnderRace(fn.Body) {
				continue
			}
			found++
			// Named by the step's -run, or its package run whole there.
			name := regexp.MustCompile(`\b` + fn.Name.Name + `\b`)
			ok = false
			for _, l := range plain {
				ok = ok || (name.MatchString(l) || !strings.Contains(l, " -run")) && slices.Contains(strings.Fields(l), pkg)
			}
			if !ok {
				t.Errorf("%s: %s skips under -race, and .ci/run's step without -race does not run it in %s", path, fn.Name.Name, pkg)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found == 0 {
		t.Fatal("no test skips under -race: the search is stale")
	}
}

// envPrefix is the environment assignments a command line of .ci/run
// may start with.
var envPrefix = regexp.MustCompile(`^(?:[A-Z_]+=(?:"[^"]*"|\S*) )+`)

// skipsUnderRace reports whether body has a statement `if raceEnabled
// { ... t.Skip... }`, or calls secrets' sequentialSweep, which skips
// under -race.
func skipsUnderRace(body *ast.BlockStmt) bool {
	for _, st := range body.List {
		called := false
		ast.Inspect(st, func(n ast.Node) bool {
			if c, ok := n.(*ast.CallExpr); ok {
				if id, ok := c.Fun.(*ast.Ident); ok && id.Name == "sequentialSweep" {
					called = true
				}
			}
			return !called
		})
		if called {
			return true
		}
		is, ok := st.(*ast.IfStmt)
		if !ok {
			continue
		}
		if id, ok := is.Cond.(*ast.Ident); !ok || id.Name != "raceEnabled" {
			continue
		}
		skips := false
		ast.Inspect(is.Body, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && strings.HasPrefix(sel.Sel.Name, "Skip") {
				skips = true
			}
			return !skips
		})
		if skips {
			return true
		}
	}
	return false
}
