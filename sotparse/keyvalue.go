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
