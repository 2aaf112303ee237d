package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// `go install ./...` (what pre-commit's language: golang runs in a clone of
// sotvet) must install sotvet and nothing else: every other main package is a
// developer tool behind the devtools build tag. The pre-commit scenario that
// proves this end to end is slow and runs only in CI; this is its fast guard.
func TestInstallBuildsOnlySotvet(t *testing.T) {
	t.Parallel()
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

// A developer tool is behind the devtools tag, so every script and page that
// builds or runs one must pass the tag: without it the build fails, as the
// sweep's did ("build constraints exclude all Go files").
func TestDevtoolsBuiltWithTag(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not on PATH")
	}
	cmd := exec.Command("go", "list", "-tags", "devtools", "-f", `{{if eq .Name "main"}}{{.Dir}}{{end}}`, "./...")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	var tools []string
	for _, dir := range strings.Fields(string(out)) {
		rel, err := filepath.Rel(root, dir)
		if err != nil || rel == "cmd/sotvet" {
			continue
		}
		tools = append(tools, "./"+filepath.ToSlash(rel))
	}
	if len(tools) == 0 {
		t.Fatal("no developer tool found: the test looks in the wrong place")
	}
	var files []string
	for _, pat := range []string{"scripts/*.sh", "scripts/ci/*", ".ci/*", "docs/*.md", "README.md", "CONTRIBUTING.md"} {
		m, _ := filepath.Glob(filepath.Join(root, pat))
		files = append(files, m...)
	}
	goCmd := regexp.MustCompile(`go (?:build|run|install)\b[^\n` + "`" + `]*`)
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, c := range goCmd.FindAllString(string(src), -1) {
			for _, tool := range tools {
				if strings.Contains(c+" ", tool+" ") && !strings.Contains(c, "devtools") {
					rel, _ := filepath.Rel(root, f)
					t.Errorf("%s: %q builds %s without -tags devtools", rel, c, tool)
				}
			}
		}
	}
}
