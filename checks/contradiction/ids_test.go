package contradiction

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// TestSplitID checks splitID against the regular expression it replaces.
func TestSplitID(t *testing.T) {
	re := regexp.MustCompile(`^(.*?)(\d+)$`)
	pieces := []string{"CTO-WORK-", "0", "1", "9", "42", "-", "a", "\n", "\r", "٣", "é", "\xff", " ", "00"}
	rng := rand.New(rand.NewPCG(9, 10))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(6) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		id := b.String()
		prefix, digits, ok := splitID(id)
		m := re.FindStringSubmatch(id)
		if ok != (m != nil) || ok && (prefix != m[1] || digits != m[2]) {
			t.Fatalf("splitID(%q) = %q, %q, %v; the pattern gives %q", id, prefix, digits, ok, m)
		}
	}
}

// BenchmarkSplitID measures splitting typical work ids.
func BenchmarkSplitID(b *testing.B) {
	ids := []string{"CTO-WORK-0001", "CTO-WORK-1234", "ADOPT-7", "X-99999"}
	for b.Loop() {
		for _, id := range ids {
			splitID(id)
		}
	}
}
