package secrets

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestOneTimeCodeLists: lists of one-time codes however a site prints
// them and a note keeps them; every code is inside a finding, and no
// other rule's finding covers one the list's finding does.
func TestOneTimeCodeLists(t *testing.T) {
	s := defaultScanner(t)
	rng := rand.New(rand.NewPCG(27, 6))
	from := func(alphabet string, n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(b)
	}
	const digits, hex, lowerAlnum = "0123456789", "0123456789abcdef", "abcdefghijkmnpqrstuvwxyz23456789"
	shapes := map[string]func() string{
		"4+4 digits":      func() string { return from(digits, 4) + " " + from(digits, 4) },
		"5-5 hex":         func() string { return from(hex, 5) + "-" + from(hex, 5) },
		"4-4 lower alnum": func() string { return from(lowerAlnum, 4) + "-" + from(lowerAlnum, 4) },
		"10 lower alnum":  func() string { return from(lowerAlnum, 10) },
		"4-4-4 upper": func() string {
			return strings.ToUpper(from(lowerAlnum, 4) + "-" + from(lowerAlnum, 4) + "-" + from(lowerAlnum, 4))
		},
		"3+3 digits dash":  func() string { return from(digits, 3) + "-" + from(digits, 3) },
		"8 digits 2 parts": func() string { return from(digits, 4) + "-" + from(digits, 4) },
	}
	layouts := map[string]func(codes []string) string{
		"one a line": func(c []string) string { return "Códigos de backup (2FA):\n\n" + strings.Join(c, "\n") + "\n" },
		"bullets":    func(c []string) string { return "Kody zapasowe:\n- " + strings.Join(c, "\n- ") + "\n" },
		"numbered":   func(c []string) string { return "バックアップコード\n1. " + strings.Join(c, "\n1. ") + "\n" },
		"fenced": func(c []string) string {
			return "Backup codes for the shared 2FA:\n\n```\n" + strings.Join(c, "\n") + "\n```\n"
		},
		"two columns": func(c []string) string {
			return c[0] + "    " + c[1] + "\n" + c[2] + "    " + c[3] + "\n" + c[4] + "    " + c[5] + "\n"
		},
		"backquoted":        func(c []string) string { return "- `" + strings.Join(c, "`\n- `") + "`\n" },
		"after a label":     func(c []string) string { return "Notfallcodes: " + strings.Join(c, ", ") + "\n" },
		"a table":           func(c []string) string { return "| code |\n|---|\n| " + strings.Join(c, " |\n| ") + " |\n" },
		"crlf and a quote":  func(c []string) string { return "> " + strings.Join(c, "\r\n> ") + "\r\n" },
		"semicolons inline": func(c []string) string { return strings.Join(c, "; ") + "\n" },
	}
	for sn, shape := range shapes {
		for ln, layout := range layouts {
			var codes []string
			for range 6 {
				codes = append(codes, shape())
			}
			text := layout(codes)
			fs := s.Scan("notes.md", []byte(text))
			for _, c := range codes {
				at := strings.Index(text, c)
				in := false
				for _, f := range fs {
					in = in || f.Start <= at && at+len(c) <= f.End
				}
				if !in {
					t.Errorf("%s, %s: code at %d in no finding (%d findings)\n%s", sn, ln, at, len(fs), text)
					break
				}
			}
		}
	}
}

// TestOneTimeCodesNone: lists that are no codes.
func TestOneTimeCodesNone(t *testing.T) {
	s := defaultScanner(t)
	for name, text := range map[string]string{
		"three codes":       "Codes:\n4821 7730\n9015 2286\n3347 6610\n",
		"part numbers":      "- KX-4411-A\n- KX-4412-B\n- KX-5120-A\n- KX-5121-C\n",
		"invoice numbers":   "2024-0117\n2024-0118\n2024-0121\n2024-0125\n",
		"commit prefixes":   "a1b2c3d\n9f8e7d6\n0a0b0c1\n5e5f5a2\n",
		"order numbers":     "48217730\n90152286\n33476610\n59021187\n",
		"names with digits": "import1\nimport2\nimport3\nimport4\n",
		"words":             "apple pear\nlemon lime\nmango kiwi\ngrape plum\n",
		"a code repeated":   "1234 5678\n1234 5678\n1234 5678\n1234 5678\n",
		"versions":          "v1.2.3\nv1.2.4\nv1.3.0\nv2.0.0\n",
		"times":             "09:00 10:30\n11:00 12:30\n13:00 14:30\n15:00 16:30\n",
		"counting up":       "100 200\n101 201\n102 202\n103 203\n",
	} {
		for _, f := range s.Scan("notes.md", []byte(text)) {
			if f.RuleID == RuleOneTimeCodes {
				t.Errorf("%s: %s at line %d", name, f.RuleID, f.Line)
			}
		}
	}
}

// TestOneTimeCodesLongInput: a file of a million lines of one shape is
// read once and holds no more than codeListMax codes.
func TestOneTimeCodesLongInput(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 7))
	var b strings.Builder
	for b.Len() < 4<<20 {
		fmt.Fprintf(&b, "%04d-%04d\n", rng.IntN(10000), rng.IntN(10000))
	}
	data := []byte(b.String())
	n := 0
	allocs := testing.AllocsPerRun(2, func() {
		findCodeLists(data, func(int, int) bool { return false }, func(int, int) { n++ })
	})
	if n != 0 {
		t.Errorf("a table of %d numbers gave %d lists", bytes.Count(data, []byte("\n")), n)
	}
	if allocs > 12 {
		t.Errorf("%.0f allocations: the list grew past its cap", allocs)
	}
}
