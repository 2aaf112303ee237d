package main

import (
	"bytes"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v4"
)

// TestCIExamples runs the sotvet commands of the CI examples in docs/ci.md
// against a copy of the sample workspace, through a shell, as CI would: each
// must succeed (the sample is clean) and write what the next step reads.
func TestCIExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the sotvet binary")
	}
	doc, err := os.ReadFile("../../docs/ci.md")
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "sotvet"), ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllSubmatch(doc, -1)
	if len(blocks) < 2 {
		t.Fatalf("docs/ci.md has %d yaml blocks, want the GitHub and the GitLab example first", len(blocks))
	}
	var commands []string
	for _, b := range blocks[:2] { // the others are the sharded comparison's (TestCIShardedCompare)
		var v any
		if err := yaml.Load(b[1], &v); err != nil {
			t.Fatalf("docs/ci.md: example is not valid YAML: %v", err)
		}
		collect(v, &commands)
	}
	if len(commands) < 5 {
		t.Fatalf("found %d sotvet commands in docs/ci.md: %q", len(commands), commands)
	}
	ws := t.TempDir()
	if out, err := exec.Command("cp", "-R", "../../testdata/workspace/.", ws).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v\n%s", err, out)
	}
	for _, c := range commands {
		cmd := exec.Command("sh", "-e", "-c", c)
		cmd.Dir = ws
		cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			t.Errorf("%s: %v\n%s", c, err, out.String())
		}
	}
	for _, f := range []string{"sotvet.sarif", "sotvet-junit.xml"} {
		if b, err := os.ReadFile(filepath.Join(ws, f)); err != nil || len(b) == 0 {
			t.Errorf("%s was not written: %v", f, err)
		}
	}
}

// collect appends every command line that starts with "sotvet" found in the
// run steps and script lists of a CI configuration.
func collect(v any, out *[]string) {
	switch v := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			e := v[k]
			if s, ok := e.(string); ok && k == "run" {
				addLines(s, out)
				continue
			}
			collect(e, out)
		}
	case []any:
		for _, e := range v {
			if s, ok := e.(string); ok {
				addLines(s, out)
				continue
			}
			collect(e, out)
		}
	}
}

func addLines(s string, out *[]string) {
	for _, line := range strings.Split(s, "\n") {
		if line = strings.TrimSpace(line); strings.HasPrefix(line, "sotvet ") {
			*out = append(*out, line)
		}
	}
}
