package sotparse

import (
	"bytes"
	"strings"
)

// The "Key: value" lines and "- key: value" facts are found by hand rather
// than with lineKeyPattern and factPattern (kept as their specification,
// and checked against them by tests): the backtracking regexps were a tenth
// of the parse of a large workspace.

// perlSpace is what \s matches in Go regexps.
const perlSpace = "\t\n\f\r "

// lineKeys are the keys of lineKeyPattern.
var lineKeys = []string{"Type", "Status", "Blocked by", "Validator"}

// matchLineKey matches lineKeyPattern against raw and returns the submatch
// offsets of the key and the value, or nil.
func matchLineKey(raw []byte) []int {
	for _, k := range lineKeys {
		if !bytes.HasPrefix(raw, []byte(k)) || len(raw) == len(k) || raw[len(k)] != ':' {
			continue
		}
		vs := len(k) + 1
		for vs < len(raw) && (raw[vs] == ' ' || raw[vs] == '\t') {
			vs++
		}
		ve := max(vs, len(bytes.TrimRight(raw, perlSpace)))
		if bytes.IndexByte(raw[vs:ve], '\n') >= 0 { // . does not match it
			return nil
		}
		return []int{0, len(raw), 0, len(k), vs, ve}
	}
	return nil
}

// isFactKeyByte reports whether c may continue a fact key:
// [A-Za-z0-9_ ./()-].
func isFactKeyByte(c byte) bool {
	return isWordByte(c) || c == ' ' || c == '.' || c == '/' || c == '(' || c == ')' || c == '-'
}

// matchFact matches factPattern against line and returns the submatch
// offsets of the key and the value, or nil.
func matchFact(line string) []int {
	i := 0
	if strings.HasPrefix(line, "`") {
		i = 1
	}
	ks := i
	if ks >= len(line) || !(line[ks] >= 'A' && line[ks] <= 'Z' || line[ks] >= 'a' && line[ks] <= 'z') {
		return nil
	}
	ke := ks + 1
	for ke < len(line) && isFactKeyByte(line[ke]) {
		ke++
	}
	if ke-ks > 64 {
		return nil
	}
	c := ke
	if c < len(line) && line[c] == '`' {
		c++
	}
	if c >= len(line) || line[c] != ':' {
		return nil
	}
	vs := c + 1
	if vs >= len(line) || line[vs] != ' ' && line[vs] != '\t' {
		return nil
	}
	for vs < len(line) && (line[vs] == ' ' || line[vs] == '\t') {
		vs++
	}
	if vs >= len(line) || strings.IndexByte(perlSpace, line[vs]) >= 0 {
		return nil
	}
	ve := len(strings.TrimRight(line, perlSpace))
	if strings.IndexByte(line[vs:ve], '\n') >= 0 {
		return nil
	}
	return []int{0, len(line), ks, ke, vs, ve}
}

// matchWorkItemHeading matches workItemHeading (in the tests) against a
// heading's text and returns its submatch offsets: the "Issue:" prefix
// (-1, -1 when absent), the id and the title; or nil.
//
//	^(?:(Issue:)\s+)?(CTO-WORK-\d+)(?:\s+-\s+|:\s+)(\S.*)$
//
// Each part of it can match in one way only (a run of spaces or digits is
// followed by something that is not one), so it is matched left to right.
func matchWorkItemHeading(s string) []int {
	issue, i := [2]int{-1, -1}, 0
	if strings.HasPrefix(s, "Issue:") {
		issue, i = [2]int{0, len("Issue:")}, len("Issue:")
		if i = skipPerlSpace(s, i); i == len("Issue:") {
			return nil
		}
	}
	const prefix = "CTO-WORK-"
	if !strings.HasPrefix(s[i:], prefix) {
		return nil
	}
	idStart := i
	i += len(prefix)
	digits := i
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	if i == digits {
		return nil
	}
	idEnd := i
	switch {
	case i < len(s) && strings.IndexByte(perlSpace, s[i]) >= 0:
		if i = skipPerlSpace(s, i); i == len(s) || s[i] != '-' {
			return nil
		}
		i++
	case i < len(s) && s[i] == ':':
		i++
	default:
		return nil
	}
	title := skipPerlSpace(s, i)
	// The title starts with a non-space, which the spaces before it
	// being all of them makes so, and runs to the end on one line.
	if title == i || title == len(s) || strings.IndexByte(s[title:], '\n') >= 0 {
		return nil
	}
	return []int{0, len(s), issue[0], issue[1], idStart, idEnd, title, len(s)}
}

// skipPerlSpace returns the offset of the first byte of s at or after i
// that \s does not match.
func skipPerlSpace(s string, i int) int {
	for i < len(s) && strings.IndexByte(perlSpace, s[i]) >= 0 {
		i++
	}
	return i
}

// matchLabel matches a bold label and its value, "**Key:** value",
// "**Key**: value" (or with "__"), against line and returns the offsets
// of the key and of the value, or nil. The key is a fact key (isFactKeyByte);
// the value runs to the end of the line.
func matchLabel(line string) []int {
	if len(line) < 2 || line[:2] != "**" && line[:2] != "__" {
		return nil
	}
	mark := line[:2]
	ks := 2
	if ks >= len(line) || !(line[ks] >= 'A' && line[ks] <= 'Z' || line[ks] >= 'a' && line[ks] <= 'z') {
		return nil
	}
	ke := ks + 1
	for ke < len(line) && isFactKeyByte(line[ke]) {
		ke++
	}
	// Trailing spaces are no part of the key ("**Key :**"), nor is the
	// closing "__", which a key's bytes include.
	for ke > ks && (line[ke-1] == ' ' || mark == "__" && line[ke-1] == '_') {
		ke--
	}
	if ke-ks > 64 {
		return nil
	}
	rest := strings.TrimLeft(line[ke:], " ")
	switch {
	case strings.HasPrefix(rest, ":"+mark): // "**Key:**"
		rest = rest[3:]
	case strings.HasPrefix(rest, mark+":"): // "**Key**:"
		rest = rest[3:]
	default:
		return nil
	}
	if rest == "" || rest[0] != ' ' && rest[0] != '\t' {
		return nil
	}
	vs := len(line) - len(strings.TrimLeft(rest, " \t"))
	ve := len(strings.TrimRight(line, perlSpace))
	if vs >= ve || strings.IndexByte(line[vs:ve], '\n') >= 0 {
		return nil
	}
	return []int{0, len(line), ks, ke, vs, ve}
}

// definitional reports whether a table's header names what its cells say
// about a key rather than the key's value ("| Field | Meaning |"): the rows
// of such a table define keys, they state no fact.
func definitional(header string) bool {
	switch strings.ToLower(strings.Trim(strings.TrimSpace(header), "*_` ")) {
	case "meaning", "description", "purpose", "definition", "explanation", "notes", "note",
		"comment", "comments", "rationale", "why", "use", "usage", "example", "examples", "type", "format":
		return true
	}
	return false
}

// factKey returns key, trimmed of code-span and emphasis markers, when it
// may be a fact's key: a letter, then isFactKeyByte bytes, at most 64;
// else "".
func factKey(key string) string {
	k := strings.Trim(strings.TrimSpace(key), "`*_")
	if k == "" || len(k) > 64 || !(k[0] >= 'A' && k[0] <= 'Z' || k[0] >= 'a' && k[0] <= 'z') {
		return ""
	}
	for i := 1; i < len(k); i++ {
		if !isFactKeyByte(k[i]) {
			return ""
		}
	}
	return k
}
