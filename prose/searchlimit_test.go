package prose

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSearchLimitReported: a backtracking search that reaches its time
// limit does not drop its rule's alerts in silence: Lint returns the
// alerts found and a SearchLimitError naming the rule.
func TestSearchLimitReported(t *testing.T) {
	defer func(d time.Duration) { backtrackTimeout = d }(backtrackTimeout)
	backtrackTimeout = time.Millisecond // before the styles compile
	dir := t.TempDir()
	style := filepath.Join(dir, "Hostile")
	if err := os.MkdirAll(style, 0o755); err != nil {
		t.Fatal(err)
	}
	// (a+)+ before a lookahead that fails: exponential backtracking in
	// regexp2 on a long run of a's. And a plain rule that finds "utilize".
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(style, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("Slow.yml", "extends: existence\nmessage: \"slow '%s'\"\nlevel: warning\nraw:\n  - '(a+)+(?=c)'\n")
	write("Plain.yml", "extends: existence\nmessage: \"'%s'\"\nlevel: warning\ntokens:\n  - utilize\n")
	cfg, err := ParseConfig("t.ini", []byte("StylesPath = "+dir+"\n\n[*.md]\nBasedOnStyles = Hostile\n"))
	if err != nil {
		t.Fatal(err)
	}
	src := []byte("We utilize it.\n\n" + strings.Repeat("a", 40) + "b\n")
	alerts, err := NewLinter(cfg).Lint("x.md", src)
	var limit *SearchLimitError
	if !errors.As(err, &limit) || limit.Rule != "Hostile.Slow" {
		t.Fatalf("err = %v, want a SearchLimitError of Hostile.Slow", err)
	}
	found := false
	for _, a := range alerts {
		found = found || a.Rule == "Hostile.Plain"
	}
	if !found {
		t.Errorf("the other rule's alert was lost with the error: %v", alerts)
	}
}
