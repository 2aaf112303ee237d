// Package slugify turns titles into URL slugs.
package slugify

import "strings"

// Slugify returns s lower-cased, with every run of characters other than
// ASCII letters and digits replaced by one hyphen and no hyphen at either
// end.
func Slugify(s string) string {
	var b strings.Builder
	pending := false
	for _, r := range strings.ToLower(s) {
		if ('a' <= r && r <= 'z') || ('0' <= r && r <= '9') {
			if pending && b.Len() > 0 {
				b.WriteByte('-')
			}
			pending = false
			b.WriteRune(r)
			continue
		}
		pending = true
	}
	return b.String()
}
