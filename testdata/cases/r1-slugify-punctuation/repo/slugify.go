// Package slugify turns titles into URL slugs.
package slugify

import "strings"

// Slugify returns s as a URL slug.
func Slugify(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), "-")
}
