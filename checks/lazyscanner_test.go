package checks_test

import (
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"golang.org/x/tools/go/analysis"

	engine "github.com/svrnty/sotvet/secrets"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/checks/hygiene"
	"github.com/svrnty/sotvet/internal/safefs"
)

// TestRedactScannerOnlyWithFindings: a run without the secrets check
// builds the scanner it redacts with only when a document has findings,
// once however many have.
func TestRedactScannerOnlyWithFindings(t *testing.T) {
	build := *checks.RedactScanner
	var builds atomic.Int32
	*checks.RedactScanner = func() (*engine.Scanner, error) { builds.Add(1); return build() }
	t.Cleanup(func() { *checks.RedactScanner = build })

	run := func(docs map[string]string) []checks.Finding {
		t.Helper()
		root := t.TempDir()
		for name, text := range docs {
			p := filepath.Join(root, ".sot", name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		fsys, err := safefs.Open(root, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer fsys.Close()
		res, _, err := checks.Run(checks.Options{Root: root, FS: fsys, Analyzers: []*analysis.Analyzer{hygiene.Analyzer}, ReleaseText: true})
		if err != nil {
			t.Fatal(err)
		}
		return res.Findings
	}

	clean := "# Clean\n\nNothing to report.\n"
	if fs := run(map[string]string{"a.md": clean, "b.md": clean}); len(fs) != 0 || builds.Load() != 0 {
		t.Fatalf("clean run: %d findings, scanner built %d times; want none", len(fs), builds.Load())
	}
	dirty := "# Dirty\n\nA line with trailing spaces.  \t\n"
	fs := run(map[string]string{"a.md": dirty, "b.md": dirty, "c.md": clean})
	if len(fs) != 2 {
		t.Fatalf("got %d findings, want 2", len(fs))
	}
	if n := builds.Load(); n != 1 {
		t.Errorf("scanner built %d times, want once", n)
	}
}
