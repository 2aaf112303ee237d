package lsp

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestMissingIDSessionParity edits one document, which defines the ids
// after some gaps, while other documents the session keeps mention ids in
// those gaps, in mixed widths: after each edit the session reports what a
// full run of the same files does, the kept documents' mentions included.
func TestMissingIDSessionParity(t *testing.T) {
	const front = "---\nname: n\nstatus: candidate\n---\n\n# N\n\n"
	files := map[string]string{
		"WORKBOARD.yaml":                    "items:\n  - id: CTO-WORK-1\n    title: Item\n    status: candidate\n    blocked_by: []\n    source: .sot/03-PROTOCOLS/CTO-E-ISSUES.md\n",
		".sot/03-PROTOCOLS/CTO-E-ISSUES.md": front + "## CTO-WORK-0004 - Edited\n\nStatus: candidate.\n",
		".sot/03-PROTOCOLS/CTO-A-NOTES.md":  front + "`CTO-WORK-0002`, `CTO-WORK-2` and `CTO-WORK-0006` come next.\n",
		".sot/03-PROTOCOLS/CTO-Z-NOTES.md":  front + "`CTO-WORK-0003`, `CTO-WORK-0007` and `CTO-WORK-9223372036854775806` are planned.\n",
	}
	root, mirror := t.TempDir(), t.TempDir()
	for _, dir := range []string{root, mirror} {
		for p, text := range files {
			if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, p), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	w, err := loadWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	const edited = ".sot/03-PROTOCOLS/CTO-E-ISSUES.md"
	text := files[edited]
	for _, add := range []string{
		"",
		"\n## CTO-WORK-0008 - After a gap the kept documents mention\n\nStatus: candidate.\n",
		"\nSee `CTO-WORK-0003` and `CTO-WORK-0007`.\n",
		"\n## CTO-WORK-9223372036854775807 - After a huge gap\n\nStatus: candidate.\n",
	} {
		text += add
		open := map[string]string{edited: text}
		w.setOverlay(edited, []byte(text))
		snap, want := runBoth(t, w, open, mirror)
		got, exp := findingLines(snap.findings, edited), findingLines(want.Findings, edited)
		if !slices.Equal(got, exp) {
			t.Fatalf("after adding %q: the session differs from a full run\ngot:\n%s\nwant:\n%s", add, strings.Join(got, "\n"), strings.Join(exp, "\n"))
		}
		if !strings.Contains(strings.Join(got, "\n"), "CTO-Z-NOTES.md:8:2 CTO-WORK-0003 is mentioned here") {
			t.Fatalf("after adding %q: no finding lists the kept document's mention of CTO-WORK-0003:\n%s", add, strings.Join(got, "\n"))
		}
	}
}
