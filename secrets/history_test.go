package secrets

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
)

// TestScanIndependentOfHistory: what a scanner finds in a text does not
// depend on what it scanned before. A rule's follow automaton is built
// once the rule has had followAfter hits, and from then on a hit no match
// can start at is not kept; inside a dense run of kept hits the hits
// between are not kept either, the run's one pass being left to read
// them. Here 20 fillers (a name, an operator, no value: the automaton
// rules them out), a gap the run's average hides, 12 more fillers and
// the assignment were a dense run when the fillers were kept (a fresh
// scanner) yet no run of 32 hits when searched: the assignment's hit was
// dropped and no pass read it, and generic-secret took the value in
// linear-client-secret's place; after a text that built the automaton it
// was found.
func TestScanIndependentOfHistory(t *testing.T) {
	sum := sha256.Sum256([]byte("history"))
	value := hex.EncodeToString(sum[:16])
	var b strings.Builder
	for range 20 {
		b.WriteString("linear = x\n")
	}
	b.WriteString(strings.Repeat("-", 150) + "\n")
	for range 12 {
		b.WriteString("linear = x\n")
	}
	fmt.Fprintf(&b, "linear_token = '%s'\n", value)
	text := []byte(b.String())
	// a text of hits far apart, enough to build the automaton
	before := []byte(strings.Repeat("linear = x"+strings.Repeat(" ", 70)+"\n", 2*followAfter))

	ids := func(fs []Finding) string {
		var out []string
		for _, f := range fs {
			out = append(out, fmt.Sprintf("%s@%d-%d", f.RuleID, f.Start, f.End))
		}
		return strings.Join(out, " ")
	}
	fresh, err := newScanner(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	want := ids(fresh.Scan("b.txt", text))
	used, err := newScanner(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	used.Scan("a.txt", before)
	if got := ids(used.Scan("b.txt", text)); got != want {
		t.Errorf("after another text:\n  %s\nfresh:\n  %s", got, want)
	}
	at := strings.Index(string(text), value)
	if w := fmt.Sprintf("linear-client-secret@%d-%d", at, at+len(value)); !strings.Contains(want, w) {
		t.Errorf("fresh scanner: %s, want %s among them", want, w)
	}
}
