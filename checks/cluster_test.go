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
