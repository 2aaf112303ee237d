// Package quotepath renders file names for line-oriented output: a name
// that holds a control character or invalid UTF-8 is quoted (Go syntax),
// as go vet does, so that a name with a newline cannot forge a line of
// the console, a report or a finding. Other names are left as they are.
package quotepath

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Path returns p, quoted when it holds a control character or invalid
// UTF-8.
func Path(p string) string {
	if NeedsQuoting(p) {
		return strconv.Quote(p)
	}
	return p
}

// NeedsQuoting reports whether p holds a control character or invalid
// UTF-8.
func NeedsQuoting(p string) bool {
	return !utf8.ValidString(p) || strings.IndexFunc(p, unicode.IsControl) >= 0
}

// Join quotes each path as Path does and joins them with sep.
func Join(paths []string, sep string) string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = Path(p)
	}
	return strings.Join(out, sep)
}
