package main

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("update", false, "rewrite testscript golden files (cmp targets) in place")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"sotvet": func() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) },
	})
}

// TestScript runs the scenarios in testdata/script: every user-visible
// behaviour of the command has one.
func TestScript(t *testing.T) {
	sample, err := filepath.Abs("../../testdata/workspace")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:           "../../testdata/script",
		UpdateScripts: *update,
		Setup: func(env *testscript.Env) error {
			env.Setenv("SAMPLE", sample)
			// Scenarios about one subsystem (formats, exit codes, baselines...)
			// run the foundation checks only, so a check added later does not
			// change what they show; each check has its own check_*.txtar.
			env.Setenv("CORE", "--enable=frontmatter,refs,status,syntax,workboard")
			// Harness scenarios run go test inside their cases: share the
			// build cache so each script does not start cold.
			if c, err := exec.Command("go", "env", "GOCACHE").Output(); err == nil {
				env.Setenv("GOCACHE", strings.TrimSpace(string(c)))
			}
			return nil
		},
		RequireExplicitExec: true,
	})
}
