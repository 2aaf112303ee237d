package contract

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestShippedCases(t *testing.T) {
	dirs, err := List("../../testdata/cases")
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) != 3 {
		t.Fatalf("%d cases, want 3", len(dirs))
	}
	for _, d := range dirs {
		c, err := Load(d)
		if err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		if c.ID != filepath.Base(d) || len(c.Verification) == 0 || c.FakeSolution == "" || len(c.Digest) != 64 {
			t.Errorf("%s: %+v", d, c)
		}
		if c.Verification[len(c.Verification)-1].String() != "go test -count=1 ./..." {
			t.Errorf("%s: verification %v", d, c.Verification)
		}
	}
	c, _ := Load("../../testdata/cases/r1-string-slugify")
	if c.BackendTimeout != 60*time.Second || c.VerificationTimeout != 120*time.Second {
		t.Errorf("timeouts %v %v", c.BackendTimeout, c.VerificationTimeout)
	}
}

const good = `id: demo
title: Demo
task: Do it.
mutation_mode: copied-fixture
allowed_writes: [a.go]
forbidden_paths: []
forbidden_actions: [push]
verification:
  - go test ./...
`

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      []string
	}{
		{"ok", good, nil},
		{"yaml", "id: [\n", []string{"case.yaml:2:1: malformed YAML"}},
		{"not mapping", "- a\n", []string{"case.yaml:1:1: contract must be a mapping"}},
		{"empty", "", []string{"case.yaml: contract is empty"}},
		{"unknown key", good + "colour: blue\n", []string{`case.yaml:10:1: unknown key "colour"`}},
		{"duplicate", good + "id: again\n", []string{`case.yaml:10:1: duplicate key "id" (first at line 1)`}},
		{"missing", "id: demo\n", []string{"missing required key title", "missing required key allowed_writes"}},
		{"bad id", strings.Replace(good, "id: demo", "id: Demo Case", 1), []string{`case.yaml:1:5: id "Demo Case"`}},
		{"dotdot", strings.Replace(good, "[a.go]", "[../a.go]", 1), []string{`case.yaml:5:18: allowed_writes: glob "../a.go": path escapes the tree with ..`}},
		{"absolute", strings.Replace(good, "[a.go]", "[/etc/passwd]", 1), []string{"absolute path"}},
		{"unclean", strings.Replace(good, "[a.go]", "[./a.go]", 1), []string{"path is not clean"}},
		{"bad glob", strings.Replace(good, "[a.go]", "[\"a[.go\"]", 1), []string{"not a valid pattern"}},
		{"mode", strings.Replace(good, "copied-fixture", "yolo", 1), []string{`case.yaml:4:16: mutation_mode "yolo"`}},
		{"bool", good + "approval_required: maybe\n", []string{"case.yaml:10:20: approval_required: want true or false"}},
		{"timeout", good + "timeouts:\n  backend: forever\n", []string{"case.yaml:11:12: timeouts.backend: want a duration"}},
		{"phase timeout", good + "timeouts:\n  phase: 0s\n", []string{"case.yaml:11:10: timeouts.phase: want a duration"}},
		{"event", good + "required_events: [run.started, run.exploded]\n", []string{`case.yaml:10:32: required_events: unknown event "run.exploded"`}},
		{"shell", good + "  - echo hi | tee x\n", []string{`case.yaml:10:13: verification: "echo hi | tee x" needs a shell for a pipe (|)`}},
		{"shell prog", good + "  - $(rm) x\n", []string{"case.yaml:10:5: verification: \"$(rm) x\" needs a shell for a command substitution"}},
		{"shell prog list", good + "  - [\"$(rm)\", x]\n", []string{"looks like shell syntax"}},
		{"unicode col", "title: «héllo»\n" + strings.Replace(good, "title: Demo\n", "", 1) + "colour: x\n", []string{`case.yaml:10:1: unknown key "colour"`}},
		{"unicode value col", strings.Replace(good, "title: Demo", "title: é", 1) + "fake: {solution: ../x}\n", []string{"case.yaml:10:18: fake.solution"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, errs := Parse("case.yaml", []byte(tc.src))
			if len(tc.want) == 0 {
				if len(errs) != 0 {
					t.Fatalf("errors: %v", errs)
				}
				if c.ID != "demo" || !c.RequireDiff || len(c.RequiredEvents) != len(DefaultRequiredEvents) {
					t.Errorf("case %+v", c)
				}
				return
			}
			got := errs.Error()
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("errors\n%s\nwant %q", got, w)
				}
			}
		})
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Load(dir); err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("no case.yaml: %v", err)
	}
	os.WriteFile(filepath.Join(dir, FileName), []byte(good+"fake:\n  solution: fake\n"), 0o644)
	_, err := Load(dir)
	var el ErrorList
	if !errors.As(err, &el) || !strings.Contains(err.Error(), "no repo/ fixture directory") || !strings.Contains(err.Error(), `fake.solution "fake"`) {
		t.Errorf("Load: %v", err)
	}
	// The missing overlay is reported at its value, the missing repo/ at
	// the file.
	if len(el) != 2 || el[0].Line != 0 || el[1].Line != 11 || el[1].Col != 13 {
		t.Errorf("positions: %v", el)
	}
	if err := os.Mkdir(filepath.Join(dir, RepoDir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "fake"), 0o755); err != nil {
		t.Fatal(err)
	}
	c, err := Load(dir)
	if err != nil || c.FakeSolution != filepath.Join(c.Dir, "fake") {
		t.Errorf("Load: %v %+v", err, c)
	}
	if _, err := Resolve("r1-string-slugify", "../../testdata/cases"); err != nil {
		t.Error(err)
	}
	if _, err := Resolve("../../testdata/cases/r1-string-slugify", "nowhere"); err != nil {
		t.Error(err)
	}
	if _, err := Resolve("nope", "../../testdata/cases"); err == nil {
		t.Error("Resolve found nope")
	}
}

func TestCheckRelPath(t *testing.T) {
	for p, ok := range map[string]bool{
		"a.go": true, "src/a.go": true, "**/*.go": true, "": false, "/a": false, "../a": false,
		"a/../b": false, "a//b": false, "a/./b": false, `a\b`: false, "C:/x": false, "a\x00": false,
	} {
		if err := CheckRelPath(p); (err == nil) != ok {
			t.Errorf("CheckRelPath(%q) = %v", p, err)
		}
	}
}
