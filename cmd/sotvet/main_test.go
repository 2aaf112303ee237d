package main

import (
	"flag"
	"os"
	"path/filepath"
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
			return nil
		},
		RequireExplicitExec: true,
	})
}
