package prose

import (
	"reflect"
	"testing"
)

// TestWholeCompiledOnDemand: a pattern whose block is settled by a
// shortcut (a word sequence, its factors) never compiles its whole
// expression; one whose block has a rune folding to ASCII does, and finds
// what the expression finds.
func TestWholeCompiledOnDemand(t *testing.T) {
	p, err := compilePattern(`\b(?:very|quite) (?:unique|perfect)\b`)
	if err != nil {
		t.Fatal(err)
	}
	if p.compiled(); p.seq == nil {
		t.Fatal("no word sequence: the test needs one")
	}
	if got := p.find("This is very unique.", ""); len(got) != 1 {
		t.Fatalf("found %v", got)
	}
	if p.std != nil {
		t.Fatal("the whole expression was compiled for a block its word sequence settles")
	}
	// U+212A KELVIN SIGN folds to k: the word sequence does not apply.
	text := "quite perfect \u212a"
	got := p.find(text, "")
	if p.std == nil {
		t.Fatal("the whole expression was not compiled for a block with a rune folding to ASCII")
	}
	if want := p.std.FindAllStringSubmatchIndex(text, -1); !reflect.DeepEqual(got, want) {
		t.Fatalf("found %v, the expression %v", got, want)
	}
}
