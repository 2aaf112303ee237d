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
	text, ok := lineCommentDoc(content)
	if !ok {
		f, err := parser.ParseFile(token.NewFileSet(), "doc.go", content, parser.ParseComments|parser.PackageClauseOnly)
		if err != nil || f.Doc == nil {
			panic("docutil: no package comment in doc.go of " + name)
		}
		text = f.Doc.Text()
	}
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

// lineCommentDoc returns the package comment's text, as
// go/ast.CommentGroup.Text gives it, of a file that opens with "//" lines
// directly followed by its package clause, the form every check's doc.go
// has; ok is false for any other form. Every check extracts its Doc at
// process start, and scanning the comments with go/parser cost ~0.5 ms.
func lineCommentDoc(content string) (text string, ok bool) {
	var lines []string
	rest := content
	for strings.HasPrefix(rest, "//") {
		line, after, found := strings.Cut(rest, "\n")
		if !found || strings.ContainsRune(line, '\r') {
			return "", false
		}
		rest = after
		c := line[2:]
		switch {
		case c == "":
		case c[0] == ' ':
			c = c[1:]
		case isDirective(c):
			continue
		}
		lines = append(lines, strings.TrimRight(c, " \t"))
	}
	if len(lines) == 0 || !strings.HasPrefix(rest, "package ") {
		return "", false
	}
	// Leading blank lines dropped, runs of blank lines made one, and one
	// final newline, as CommentGroup.Text does.
	n := 0
	for _, l := range lines {
		if l != "" || n > 0 && lines[n-1] != "" {
			lines[n] = l
			n++
		}
	}
	lines = lines[:n]
	if n > 0 && lines[n-1] != "" {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n"), true
}

// isDirective reports whether c, a "//" comment's text without its
// slashes, is a directive (//go:generate, //line, //export, ...), which
// CommentGroup.Text leaves out.
func isDirective(c string) bool {
	if strings.HasPrefix(c, "line ") || strings.HasPrefix(c, "extern ") || strings.HasPrefix(c, "export ") {
		return true
	}
	colon := strings.Index(c, ":")
	if colon <= 0 || colon+1 >= len(c) {
		return false
	}
	for i := 0; i <= colon+1; i++ {
		if i == colon {
			continue
		}
		b := c[i]
		if !('a' <= b && b <= 'z' || '0' <= b && b <= '9') {
			return false
		}
	}
	return true
}
