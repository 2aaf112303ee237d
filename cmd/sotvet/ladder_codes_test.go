package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestLadderCodesHaveScenarios: every blocker code of the staged proof
// ladder (harness/evidence/stage.go) is shown by at least one testscript
// scenario, so a new gate cannot land without one.
func TestLadderCodesHaveScenarios(t *testing.T) {
	src, err := os.ReadFile("../../harness/evidence/stage.go")
	if err != nil {
		t.Fatal(err)
	}
	codes := regexp.MustCompile(`(?m)^\s+\w+\s+= "([a-z_]+)"$`).FindAllSubmatch(src, -1)
	if len(codes) < 15 {
		t.Fatalf("found %d codes in stage.go", len(codes))
	}
	files, err := filepath.Glob("../../testdata/script/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	var all strings.Builder
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all.Write(b)
	}
	for _, c := range codes {
		code := string(c[1])
		if !strings.Contains(all.String(), code) {
			t.Errorf("blocker code %s appears in no testdata/script scenario", code)
		}
	}
}
