package prose

import (
	"math/rand/v2"
	"reflect"
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"
)

// TestClassRunAgrees checks the run search against the regexp engine on
// random texts with ASCII, other letters, folding letters and invalid
// bytes, for the expressions it takes; and that it refuses those whose
// matches are not the runs.
func TestClassRunAgrees(t *testing.T) {
	taken := []string{`[^\s]+`, `([^\s]+)`, `\b(\w+)\b`, `\w+`, `(?m)\b\w+\b`, `[a-z]+`, `(?i)[a-z]+`, `(\pL+)`, `.+`, `(?s).+`, `[^,]+`}
	refused := []string{`\b[a-z]+\b`, `(?i)\b(\w+)\b`, `\w+ed`, `(\w)+`, `a+`, `\b\pL+\b`, `[^\s]*`}
	alphabet := []string{"a", "Z", "k", "0", "_", " ", "\n", "\t", ",", ".", "é", "ſ", "K", "\xff", "\xe2\x80", "—", "ed"}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, expr := range taken {
		re := regexp.MustCompile(expr)
		parsed, _ := syntax.Parse(expr, syntax.Perl)
		c := classRunOf(parsed.Simplify())
		if c == nil {
			t.Errorf("%s: not taken as runs of a class", expr)
			continue
		}
		for range 400 {
			var b strings.Builder
			for range rng.IntN(30) {
				b.WriteString(alphabet[rng.IntN(len(alphabet))])
			}
			s := b.String()
			want := re.FindAllStringSubmatchIndex(s, -1)
			if got := c.findAll(s); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s on %q: got %v, want %v", expr, s, got, want)
			}
		}
	}
	for _, expr := range refused {
		parsed, _ := syntax.Parse(expr, syntax.Perl)
		if classRunOf(parsed.Simplify()) != nil {
			t.Errorf("%s: taken as runs of a class, but its matches are not the runs", expr)
		}
	}
}
