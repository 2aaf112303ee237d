package status

import (
	"regexp/syntax"
	"testing"
)

// TestByIDBacktracks: the by-id claim pattern, tried at every clause start
// of a "blocked" line, stays within the program size Go's regexp runs
// with its backtracker (500 instructions); over it, every attempt ran in
// the NFA, and a claim-dense shape cost a third more.
func TestByIDBacktracks(t *testing.T) {
	byID, _, _, _ := stillBlockedPatterns(nil)
	r, err := syntax.Parse(byID.String(), syntax.Perl)
	if err != nil {
		t.Fatal(err)
	}
	p, err := syntax.Compile(r.Simplify())
	if err != nil {
		t.Fatal(err)
	}
	if n := len(p.Inst); n > 500 {
		t.Errorf("byID compiles to %d instructions, over the backtracker's 500", n)
	}
}
