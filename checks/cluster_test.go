package checks

import (
	"strings"
	"testing"
)

func TestMergeClusters(t *testing.T) {
	at := func(check, cat string, sev Severity, off int) Finding {
		return Finding{Check: check, Category: cat, Severity: sev, File: "a.md", Line: off, Col: 1, Offset: off, Message: cat + " here"}
	}
	fs := []Finding{
		at("refs", "conflicting-definition", SeverityError, 10),
		at("structure", "item-status", SeverityError, 10),
		at("structure", "item-acceptance", SeverityError, 10),
		at("structure", "item-status", SeverityError, 20),
		at("structure", "item-acceptance", SeverityError, 20),
		// Not a consequence of the other: both stay.
		at("refs", "unknown-id", SeverityError, 30),
		at("structure", "item-status", SeverityError, 30),
		// A warning does not absorb an error.
		at("consistency", "duplicate-heading", SeverityWarning, 40),
		at("consistency", "date-order", SeverityError, 40),
	}
	got := mergeClusters(fs)
	var codes []string
	for _, f := range got {
		codes = append(codes, f.Code())
	}
	want := "refs/conflicting-definition structure/item-status refs/unknown-id structure/item-status consistency/duplicate-heading consistency/date-order"
	if strings.Join(codes, " ") != want {
		t.Fatalf("kept %s\nwant %s", strings.Join(codes, " "), want)
	}
	if n := len(got[0].Related); n != 2 || got[0].Related[0].Message != "also [structure/item-status] item-status here" || got[0].Related[1].Message != "also [structure/item-acceptance] item-acceptance here" {
		t.Errorf("notes of the stray heading: %+v", got[0].Related)
	}
	if n := len(got[1].Related); n != 1 {
		t.Errorf("notes of the empty item: %+v", got[1].Related)
	}
}

// TestMergeClustersNoAbsorber: findings at one place of checks that
// absorb nothing (prose alerts on one word) stay, in order, and merging
// them allocates nothing.
func TestMergeClustersNoAbsorber(t *testing.T) {
	var fs []Finding
	for off := range 20 {
		for _, cat := range []string{"Google.Passive", "Microsoft.Adverbs", "write-good.Weasel"} {
			fs = append(fs, Finding{Check: "prose", Category: cat, Severity: SeverityWarning, File: "a.md", Offset: off / 2, Message: cat})
		}
	}
	// A structure finding at a place of its own is no group.
	fs = append(fs, Finding{Check: "structure", Category: "item-status", File: "a.md", Offset: 100})
	want := append([]Finding(nil), fs...)
	work := make([]Finding, len(fs))
	allocs := testing.AllocsPerRun(10, func() {
		copy(work, fs)
		if got := mergeClusters(work); len(got) != len(want) {
			t.Fatalf("kept %d findings, want %d", len(got), len(want))
		}
	})
	got := mergeClusters(append([]Finding(nil), fs...))
	for k := range want {
		if got[k].Code() != want[k].Code() || got[k].Offset != want[k].Offset || len(got[k].Related) > 0 {
			t.Fatalf("finding %d: %+v, want %+v", k, got[k], want[k])
		}
	}
	if allocs > 0 {
		t.Errorf("merging allocated %.0f times, want none", allocs)
	}
}
