package sotparse

import (
	"bytes"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v4"
)

// Nearly every frontmatter block is a flat mapping of `key: value` lines,
// and yaml.Load spends a quarter of a large workspace's parse (and much of
// its garbage) composing it, adrg/frontmatter and the conversion of the
// tree to a Frontmatter much of the rest. scanFlatYAML reads the blocks of
// a small subset of YAML as a list of entries, which typedFlatFrontmatter
// turns into the Frontmatter typedFrontmatter would make of yaml.Load's
// tree, and declines every other block, which then goes to
// adrg/frontmatter and yaml.Load. The differential tests and
// FuzzFrontmatterFastPath hold the entries to yaml.Load's tree, node for
// node (loadFlatYAML, in the tests, builds the tree from them), and the
// Frontmatter to typedFrontmatter's.
//
// The subset, line by line (lines end at \n or \r\n; any other \r, tab,
// control character, BOM, invalid UTF-8 or YAML line break declines the
// whole block):
//
//   - an empty line;
//   - `key:` at column 1, the key [A-Za-z0-9_][A-Za-z0-9_.-]* (at most
//     maxFlatKey bytes), then nothing but spaces (a null value), or one or
//     more spaces and a value.
//
// A value is a plain scalar that starts with none of YAML's indicators (a
// `-` only when a non-space follows it), holds no `: ` or ` #` and does not
// end in `:` (trailing spaces are not part of it); or a single-line
// "double-quoted" scalar without `\` or `"` inside, or 'single-quoted'
// scalar without `'` inside, followed by spaces only. A block with no key,
// or with a plain value that resolves to the merge key `<<`, is declined
// too. Nothing in the subset makes a comment, anchor, tag or collection.

// maxFlatKey bounds a key's length, far below YAML's 1024-character limit
// on a simple key.
const maxFlatKey = 128

type flatEntry struct {
	line             int
	keyStart, keyEnd int
	valStart, valEnd int
	valCol           int
	style            yaml.Style
	null             bool
}

// scanFlatYAML appends to entries the `key: value` entries of data and
// reports true when data is in the subset above, tags unresolved; or
// reports false. A plain value `<<`, which the resolver makes the merge
// key, declines (the only tag that does).
func scanFlatYAML(data []byte, entries []flatEntry) ([]flatEntry, bool) {
	line := 0
	for ls := 0; ls < len(data); {
		line++
		le := ls
		if i := bytes.IndexByte(data[ls:], '\n'); i >= 0 {
			le = ls + i
		} else {
			le = len(data)
		}
		next := le + 1
		if le > ls && data[le-1] == '\r' {
			le-- // CRLF: yaml reads \r\n as one break
		}
		if le == ls {
			ls = next
			continue
		}
		e, ok := flatLine(data, ls, le)
		if !ok {
			return entries, false
		}
		if e.style == 0 && !e.null && e.valEnd-e.valStart == 2 && data[e.valStart] == '<' && data[e.valStart+1] == '<' {
			return entries, false
		}
		e.line = line
		entries = append(entries, e)
		ls = next
	}
	return entries, len(entries) > 0
}

// flatLine reads the non-empty line data[ls:le] as one `key: value` entry.
func flatLine(data []byte, ls, le int) (flatEntry, bool) {
	e, i, ok := flatKey(data, ls, le)
	if !ok || e.null {
		return e, ok
	}
	return e, flatValue(data, &e, ls, i, le)
}

// flatKey reads the `key:` that starts data[ls:le] at ls. A key followed by
// spaces alone has a null value; otherwise i is where the value starts.
// Columns count from ls.
func flatKey(data []byte, ls, le int) (e flatEntry, i int, ok bool) {
	if !isFlatKeyFirst(data[ls]) {
		return e, 0, false
	}
	i = ls + 1
	for i < le && isFlatKeyByte(data[i]) {
		i++
	}
	if i == le || data[i] != ':' || i-ls > maxFlatKey {
		return e, 0, false
	}
	e.keyStart, e.keyEnd = ls, i
	colon := i
	i++
	for i < le && data[i] == ' ' {
		i++
	}
	if i == le {
		// A null value: yaml marks it just after the colon.
		e.null = true
		e.valStart, e.valEnd = colon+1, colon+1
		e.valCol = colon + 1 - ls + 1
		return e, i, true
	}
	if i == colon+1 {
		return e, 0, false // `key:value` is one plain scalar
	}
	return e, i, true
}

// flatValue reads the scalar that starts data[i:le] and runs to the end of
// the line into e; ls is the first column.
func flatValue(data []byte, e *flatEntry, ls, i, le int) bool {
	e.valStart = i
	e.valCol = i - ls + 1 // everything before the value is ASCII
	switch c := data[i]; c {
	case '"', '\'':
		q := i + 1
		for q < le && data[q] != c {
			if data[q] == '\\' {
				return false
			}
			q++
		}
		if q == le || !printableRun(data[i+1:q]) {
			return false
		}
		for j := q + 1; j < le; j++ {
			if data[j] != ' ' {
				return false
			}
		}
		e.valStart, e.valEnd = i+1, q
		e.style = yaml.DoubleQuotedStyle
		if c == '\'' {
			e.style = yaml.SingleQuotedStyle
		}
		return true
	case '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '%', '@', '`':
		return false
	case '-':
		if i+1 == le || data[i+1] == ' ' {
			return false
		}
	}
	end := le
	for end > i && data[end-1] == ' ' {
		end--
	}
	if data[end-1] == ':' || !printableRun(data[i:end]) {
		return false
	}
	for j := i; j < end; j++ {
		switch data[j] {
		case ':':
			if data[j+1] == ' ' {
				return false
			}
		case '#':
			if data[j-1] == ' ' {
				return false
			}
		}
	}
	e.valEnd = end
	return true
}

func isFlatKeyFirst(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

func isFlatKeyByte(c byte) bool {
	return isFlatKeyFirst(c) || c == '-' || c == '.'
}

// printableRun reports whether b holds only characters YAML reads as
// ordinary printable content on one line: no tab, control character, BOM,
// invalid UTF-8, or NEL/LS/PS (YAML line breaks).
func printableRun(b []byte) bool {
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return false
		}
		switch {
		case r < 0xA0, r == 0x2028, r == 0x2029, r == 0xFEFF,
			0xD800 <= r && r < 0xE000, r == 0xFFFE, r == 0xFFFF:
			return false
		}
		i += size
	}
	return true
}

// The short tags go-yaml's resolver gives (internal/libyaml).
const (
	strTag       = "!!str"
	intTag       = "!!int"
	floatTag     = "!!float"
	boolTag      = "!!bool"
	nullTag      = "!!null"
	timestampTag = "!!timestamp"
	mergeTag     = "!!merge"
	mapTag       = "!!map"
	seqTag       = "!!seq"
)

// resolvePlainTag is go.yaml.in/yaml/v4's resolve (internal/libyaml
// resolver.go) for an untagged plain scalar, tag only: the same table,
// words, timestamp layouts, integer and float rules, in the same order.
func resolvePlainTag(in string) string {
	hint := byte('N')
	if in != "" {
		hint = flatResolveTable[in[0]]
	}
	if hint == 0 {
		return strTag
	}
	if tag, ok := flatResolveWord(in); ok {
		return tag
	}
	switch hint {
	case '.':
		if _, err := strconv.ParseFloat(in, 64); err == nil {
			return floatTag
		}
	case 'D', 'S':
		if flatTimestamp(in) {
			return timestampTag
		}
		plain := strings.ReplaceAll(in, "_", "")
		if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
			return intTag
		}
		if _, err := strconv.ParseUint(strings.TrimPrefix(plain, "+"), 0, 64); err == nil {
			return intTag
		}
		if isYAMLStyleFloat(plain) {
			if _, err := strconv.ParseFloat(plain, 64); err == nil {
				return floatTag
			}
		}
	}
	return strTag
}

var flatResolveTable = func() (t [256]byte) {
	t['+'], t['-'] = 'S', 'S'
	for _, c := range "0123456789" {
		t[c] = 'D'
	}
	for _, c := range "yYnNtTfFoO~<" {
		t[c] = 'M'
	}
	t['.'] = '.'
	return t
}()

// flatResolveWord is the resolver's resolveMap, tags only.
func flatResolveWord(in string) (string, bool) {
	switch in {
	case "true", "True", "TRUE", "false", "False", "FALSE":
		return boolTag, true
	case "", "~", "null", "Null", "NULL":
		return nullTag, true
	case ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF",
		"-.inf", "-.Inf", "-.INF", "-0", "-0.0":
		return floatTag, true
	case "<<":
		return mergeTag, true
	}
	return "", false
}

// isYAMLStyleFloat matches what the resolver's yamlStyleFloat expression
// does, `^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$`,
// without compiling it in every sotvet process.
func isYAMLStyleFloat(s string) bool {
	i := 0
	digits := func() int {
		n := 0
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	} else {
		if digits() == 0 {
			return false
		}
		if i < len(s) && s[i] == '.' {
			i++
			digits()
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// flatTimestampLayouts are the resolver's allowedTimestampFormats.
var flatTimestampLayouts = []string{
	"2006-1-2T15:4:5.999999999Z07:00",
	"2006-1-2t15:4:5.999999999Z07:00",
	"2006-1-2 15:4:5.999999999",
	"2006-1-2",
}

// flatTimestamp is the resolver's parseTimestamp, reporting success only.
// The first three layouts need a T, t or space in the text; a bare date,
// the usual case, is tried against the last alone.
func flatTimestamp(s string) bool {
	i := 0
	for ; i < len(s); i++ {
		if c := s[i]; c < '0' || c > '9' {
			break
		}
	}
	if i != 4 || i == len(s) || s[i] != '-' {
		return false
	}
	layouts := flatTimestampLayouts
	if !strings.ContainsAny(s, "Tt ") {
		layouts = layouts[3:]
	}
	for _, layout := range layouts {
		if _, err := time.Parse(layout, s); err == nil {
			return true
		}
	}
	return false
}

// FlatScalar is one `key: value` entry of a block in the flat subset of
// YAML that ScanFlatYAML reads: offsets into the block, and what
// yaml.Load's tree would say of its value.
type FlatScalar struct {
	KeyStart, KeyEnd     int
	ValueStart, ValueEnd int // the value's text, quotes excluded; empty for a null value
	Line                 int // 1-based
	Quoted               bool
	Tag                  string // the short tag yaml.Load resolves: "!!str" for a quoted value
}

// ScanFlatYAML appends to dst the entries of data when data is in the flat
// subset above (a mapping of one-line scalars without escapes, comments,
// anchors or tags) and reports true; otherwise it reports false, and the
// caller reads data with a YAML parser. A value's text is data's bytes as
// they are: the subset holds no escape.
func ScanFlatYAML(data []byte, dst []FlatScalar) ([]FlatScalar, bool) {
	var buf [16]flatEntry
	entries, ok := scanFlatYAML(data, buf[:0])
	if !ok {
		return dst, false
	}
	for _, e := range entries {
		f := FlatScalar{KeyStart: e.keyStart, KeyEnd: e.keyEnd, ValueStart: e.valStart, ValueEnd: e.valEnd,
			Line: e.line, Quoted: e.style != 0, Tag: strTag}
		if e.null {
			f.Tag = nullTag
		} else if e.style == 0 {
			f.Tag = resolvePlainTag(string(data[e.valStart:e.valEnd]))
		}
		dst = append(dst, f)
	}
	return dst, true
}
