// Package docutil extracts an analyzer's Doc from its package documentation,
// so that doc.go is the single place a check is described.
package docutil

import (
	"go/parser"
	"go/token"
	"strings"
)

// MustExtract returns the part of the package comment of the Go source
// content that follows the "# Analyzer name" heading, up to the next "# "
// heading. It panics if there is none: a check without a Doc is a bug.
func MustExtract(content, name string) string {
	f, err := parser.ParseFile(token.NewFileSet(), "doc.go", content, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil || f.Doc == nil {
		panic("docutil: no package comment in doc.go of " + name)
	}
	text := f.Doc.Text()
	heading := "# Analyzer " + name
	_, after, ok := strings.Cut(text, heading+"\n")
	if !ok {
		panic("docutil: no " + heading + " heading in doc.go")
	}
	if i := strings.Index(after, "\n# "); i >= 0 {
		after = after[:i]
	}
	return strings.TrimSpace(after)
}
