package fixsafety

import (
	"testing"

	"golang.org/x/tools/go/analysis"
)

func TestUnsafeRoundTrip(t *testing.T) {
	f := Unsafe(Unsafe(analysis.SuggestedFix{Message: "set last_reviewed to 2026-06-01"}))
	msg, unsafe := Split(f.Message)
	if !unsafe || msg != "set last_reviewed to 2026-06-01" {
		t.Fatalf("Split(%q) = %q, %v", f.Message, msg, unsafe)
	}
	if msg, unsafe := Split("delete the repeated line"); unsafe || msg != "delete the repeated line" {
		t.Fatalf("a plain fix read as unsafe: %q %v", msg, unsafe)
	}
}
