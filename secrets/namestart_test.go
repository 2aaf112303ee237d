package secrets

import (
	"strings"
	"testing"
)

// TestNameStart: a name glued before a keyword is widened back over name
// bytes, within the bound and the floor, and not over the letter of an
// escaped blank written in a string ("\tpassword" is "password"); a
// name that merely ends in such a letter after a doubled backslash, or
// a letter after no backslash, is the name's.
func TestNameStart(t *testing.T) {
	for _, c := range []struct {
		ctx        string // "|" marks the keyword's start
		name       string // the name nameStart gives, up to the keyword
		floor, max int
	}{
		{`x = "DB_|PASSWORD"`, "DB_", 0, 256},
		{`"#define\t|password\t\"…\""`, "", 0, 256},
		{`"HOST=db1\nDB_|PASS=…"`, "DB_", 0, 256},
		{`"a\r|pwd: …"`, "", 0, 256},
		{`"tab\\t|pw"`, "t", 0, 256}, // a backslash escaped, then the name "t"
		{`net|pass=`, "net", 0, 256},
		{`MYSQL|PASS=`, "SQL", 0, 3},  // at most max bytes
		{`MYSQL|PASS=`, "QL", 3, 256}, // not before floor
	} {
		at := strings.IndexByte(c.ctx, '|')
		ctx := []byte(c.ctx[:at] + c.ctx[at+1:])
		st := nameStart(ctx, at, c.floor, c.max, &keyCharSet)
		if got := string(ctx[st:at]); got != c.name {
			t.Errorf("%s: name %q, want %q", c.ctx, got, c.name)
		}
	}
}
