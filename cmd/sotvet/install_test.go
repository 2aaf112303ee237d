package main

import (
	"os/exec"
	"strings"
	"testing"
)

// `go install ./...` (what pre-commit's language: golang runs in a clone of
// sotvet) must install sotvet and nothing else: every other main package is a
// developer tool behind the devtools build tag. The pre-commit scenario that
// proves this end to end is slow and runs only in CI; this is its fast guard.
func TestInstallBuildsOnlySotvet(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not on PATH")
	}
	cmd := exec.Command("go", "list", "-f", `{{if eq .Name "main"}}{{.ImportPath}}{{end}}`, "./...")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var mains []string
	for _, l := range strings.Fields(string(out)) {
		mains = append(mains, l)
	}
	if len(mains) != 1 || !strings.HasSuffix(mains[0], "/cmd/sotvet") {
		t.Errorf("go install ./... would install %v; every main package but cmd/sotvet needs //go:build devtools", mains)
	}
}
