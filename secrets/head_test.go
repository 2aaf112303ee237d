package secrets

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestFindAfterNewlineSame checks that reading a long text through
// newlineThen finds what a copy behind a newline does: word boundaries,
// line starts, runes of several bytes and invalid bytes at every place,
// texts on both sides of headCopyMax.
func TestFindAfterNewlineSame(t *testing.T) {
	exprs := []string{
		`^(?s:.)(?:\bPIN[ :]+(?P<secret>[0-9]{4,8})\b)`,
		`^(?s:.)(?:(?m:^)(?P<key>[a-zé]+)=(?P<secret>\S+))`,
		`^(?s:.)(?:\B(?P<secret>x+)\B)`,
		`^(?s:.)(?:(?P<secret>[^\s]{3,}?)(?:\s|$))`,
		`^(?s:.)(?i:(?P<key>lösenord|пароль)[ \t]+(?P<secret>\S{4,}))`,
	}
	pieces := []string{"PIN ", "PIN: 48213", "48213 ", "lösenord ", "Пароль ", "pass", "é", "=", "x", " ", "\n", "\xff", "\xe2\x82", "aé=1 ", "xxxx"}
	rng := rand.New(rand.NewPCG(7, 11))
	var head []byte
	for _, src := range exprs {
		re := regexp.MustCompile(src)
		for trial := range 60 {
			var b strings.Builder
			size := headCopyMax - 40 + rng.IntN(80)
			if trial%3 == 0 {
				size = rng.IntN(3 * headCopyMax)
			}
			for b.Len() < size {
				b.WriteString(pieces[rng.IntN(len(pieces))])
			}
			text := []byte(b.String())
			want := re.FindSubmatchIndex(append([]byte{'\n'}, text...))
			got := findAfterNewline(re, text, &head)
			if !slices.Equal(got, want) {
				t.Fatalf("%s on %d bytes: got %v, a copy finds %v", src, len(text), got, want)
			}
			// the reader's own reading, whatever the length
			if got := re.FindReaderSubmatchIndex(&newlineThen{text: text, at: -1}); !slices.Equal(got, want) {
				t.Fatalf("%s on %d bytes through newlineThen: got %v, a copy finds %v", src, len(text), got, want)
			}
		}
	}
}
