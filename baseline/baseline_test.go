package baseline

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/svrnty/sotvet/checks"
)

func TestRoundTripAndFilter(t *testing.T) {
	fs := []checks.Finding{
		{Check: "status", File: "a.md", Line: 3, Message: "m1", Fingerprint: "f1:1"},
		{Check: "refs", File: "a.md", Line: 9, Message: "m2", Fingerprint: "f2:1"},
	}
	name := filepath.Join(t.TempDir(), "baseline.json")
	if err := os.WriteFile(name, New(fs).Marshal(), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := Load(name)
	if err != nil {
		t.Fatal(err)
	}
	now := []checks.Finding{
		{Check: "refs", File: "a.md", Line: 12, Message: "m2", Fingerprint: "f2:1"},  // moved: still accepted
		{Check: "status", File: "b.md", Line: 1, Message: "m3", Fingerprint: "f3:1"}, // new
	}
	fresh, stale := b.Filter(now)
	if len(fresh) != 1 || fresh[0].Fingerprint != "f3:1" {
		t.Errorf("fresh = %+v", fresh)
	}
	if len(stale) != 1 || stale[0].Fingerprint != "f1:1" {
		t.Errorf("stale = %+v", stale)
	}
}

func TestLoadRejects(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"garbage.json": "not json",
		"version.json": `{"version": 9, "tool": "sotvet", "findings": []}`,
		"unknown.json": `{"version": 1, "tool": "sotvet", "findings": [], "extra": 1}`,
	} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(content), 0o644)
		if _, err := Load(p); err == nil {
			t.Errorf("%s: loaded", name)
		}
	}
}
