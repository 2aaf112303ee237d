package checks

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestLineLookupsUnpack: a check reads a document's lines through
// File.Lines(), never token.File's own methods, while the checks run: a
// released document's line table is packed then, and Tok.Line gives line
// 0 without an error (a finding's "(line 0)", or a dedupe by line that
// silently merges findings). Only the files that resolve findings after
// Run has unpacked every table may call them.
func TestLineLookupsUnpack(t *testing.T) {
	afterRun := map[string]bool{"suppress.go": true, "redact.go": true}
	direct := regexp.MustCompile(`\.Tok\.(?:Line|LineStart|LineCount|Position|PositionFor)\(`)
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || afterRun[path] {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(src), "\n") {
			if direct.MatchString(line) {
				t.Errorf("%s:%d: reads token.File's lines directly; use File.Lines() (the table may be packed): %s", path, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
