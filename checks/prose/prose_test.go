package prose

import (
	"os"
	"path/filepath"
	"testing"
)

// TestNestedWorkspacesShareStyles: two workspaces under one .vale.ini
// share the styles read for the first, and each sees its own paths.
func TestNestedWorkspacesShareStyles(t *testing.T) {
	top := t.TempDir()
	styles := filepath.Join(top, "styles", "S")
	if err := os.MkdirAll(styles, 0o755); err != nil {
		t.Fatal(err)
	}
	rule := "extends: existence\nmessage: \"'%s'\"\ntokens:\n  - foo\n"
	ini := "StylesPath = styles\n\n[*.md]\nBasedOnStyles = S\n"
	for name, body := range map[string]string{filepath.Join(styles, "R.yml"): rule, filepath.Join(top, ".vale.ini"): ini} {
		if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a, b := filepath.Join(top, "a"), filepath.Join(top, "b")
	for _, d := range []string{a, b} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	la, err := load(a, "")
	if err != nil || la == nil {
		t.Fatalf("load a: %v", err)
	}
	lb, err := load(b, "")
	if err != nil || lb == nil {
		t.Fatalf("load b: %v", err)
	}
	if la.linter != lb.linter {
		t.Error("the second workspace read the styles again")
	}
	if got := lb.rel("x.md"); got != "b/x.md" {
		t.Errorf("b's x.md is %q to the configuration, want b/x.md", got)
	}
	if got := la.rel("x.md"); got != "a/x.md" {
		t.Errorf("a's x.md is %q to the configuration, want a/x.md", got)
	}
	if again, _ := load(b, ""); again != lb {
		t.Error("the same workspace loaded twice is not the cached one")
	}
}
