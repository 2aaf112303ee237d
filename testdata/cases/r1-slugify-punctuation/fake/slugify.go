// Package slugify turns titles into URL slugs.
package slugify

import "strings"

// Slugify returns s lower-cased as a URL slug: apostrophes are dropped, and
// every other run of characters that are not ASCII letters or digits becomes
// one hyphen, with no hyphen at either end.
func Slugify(s string) string {
	var b strings.Builder
	pending := false
	for _, r := range strings.ToLower(s) {
		switch {
		case r == '\'' || r == '’':
			continue
		case ('a' <= r && r <= 'z') || ('0' <= r && r <= '9'):
			if pending && b.Len() > 0 {
				b.WriteByte('-')
			}
			pending = false
			b.WriteRune(r)
		default:
			pending = true
		}
	}
	return b.String()
}
