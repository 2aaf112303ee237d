// Package slugify turns titles into URL slugs.
package slugify

import "strings"

// Slugify returns s as a URL slug.
func Slugify(s string) string {
	return strings.ReplaceAll(strings.ToLower(s), " ", "-")
}
