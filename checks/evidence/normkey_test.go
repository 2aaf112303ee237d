package evidence

import (
	"strings"
	"testing"
)

// TestNormKeyASCII checks normKey's one-pass path for ASCII keys against
// the plain definition it must agree with.
func TestNormKeyASCII(t *testing.T) {
	plain := func(k string) string {
		k = strings.ToLower(strings.Trim(strings.TrimSpace(k), "`"))
		k = strings.ReplaceAll(k, "_", " ")
		return strings.Join(strings.Fields(k), " ")
	}
	keys := []string{
		"", " ", "`", "``", "run id", "Run ID", "run_id", " `Run_ID` ", "`run id`:", "a  b", "a_ _b",
		"\tRun\r\nID\v\f", "`a b` `", "` `a", "__a__", "A`B", "approval_granted", "Status",
		"x-y.z/1", strings.Repeat("ab ", 21) + "a", strings.Repeat("a", 65), "caf\u00e9 id", "a\u00a0b", "a\u0085b",
	}
	for _, k := range keys {
		if got, want := normKey(k), plain(k); got != want {
			t.Errorf("normKey(%q) = %q, want %q", k, got, want)
		}
	}
	// Every short string over the bytes that matter.
	alphabet := []byte{'a', 'B', '_', ' ', '\t', '`', '-'}
	var rec func(prefix []byte)
	rec = func(prefix []byte) {
		if got, want := normKey(string(prefix)), plain(string(prefix)); got != want {
			t.Fatalf("normKey(%q) = %q, want %q", prefix, got, want)
		}
		if len(prefix) == 5 {
			return
		}
		for _, c := range alphabet {
			rec(append(prefix, c))
		}
	}
	rec(nil)
}
