package secrets

import (
	"bytes"
	"strconv"
)

// RuleOneTimeCodes reports a list of one-time codes, from its first code
// to its last (an
// account's backup or recovery codes) told by its shape, not its label:
// four or more lines in a row, each holding one code and nothing else
// (a bullet or a number before it), all of one shape (groups of digits
// or letters and digits, joined by a dash or a blank), random (no group
// the same on every line, not counting up or down). Labels come in every
// language ("Backup-Codes", "Códigos de backup", "バックアップコード");
// such a list's shape is one. Ranked after every older rule, so a code
// the label-based recovery-codes reports keeps its ID.
const RuleOneTimeCodes = "one-time-codes"

// Bounds of a list of codes.
const (
	codeListMin    = 4  // codes: a list, not a reference and its neighbour
	codeListMax    = 64 // a site gives 8 to 16; more is a table of numbers
	codeMinChars   = 6  // letters and digits in a code
	codeMaxChars   = 32 //
	codeMaxGroups  = 5
	codeMinGroup   = 3
	codeMaxGroup   = 12
	codeMaxLineLen = 64 // a code's line; a line of several, four times that
)

func oneTimeCodesRule() *Rule {
	return &Rule{
		ID:          RuleOneTimeCodes,
		Description: "one-time codes: a list of backup or recovery codes of one random shape, one a line",
		builtinRE:   builtinExpr(`(?m)^[ \t>*+-]*(?:\d{1,2}[.)][ \t]+)?(?P<secret>[A-Za-z0-9]{3,12}(?:[ -][A-Za-z0-9]{3,12}){0,4})[ \t]*$`),
		find:        findCodeLists,
		Path:        proseFiles,
	}
}

// codeShape is the shape of a code: each group's length and the
// separator after it. Its characters' classes are the list's (a random
// group of hex may hold no letter).
type codeShape [codeMaxGroups]struct {
	n   uint8
	sep byte
}

// codeLine is a line holding a code: where the code is, and its shape.
type codeLine struct {
	start, end int
	shape      codeShape
	groups     int
}

// findCodeLists calls emit with the span of each list of codes in data.
func findCodeLists(data []byte, taken func(start, end int) bool, emit func(start, end int)) {
	var list, line []codeLine
	long := false // past codeListMax: not kept, not reported
	flush := func() {
		if len(list) >= codeListMin && !long && randomCodes(data, list) {
			// one finding for the list's codes in a row that no earlier
			// rule reports (recovery-codes reports the first under its
			// label): they are one secret, kept and redacted together
			from := -1
			for k, c := range list {
				switch t := taken(c.start, c.end); {
				case t && from >= 0:
					emit(list[from].start, list[k-1].end)
					from = -1
				case !t && from < 0:
					from = k
				}
			}
			if from >= 0 {
				emit(list[from].start, list[len(list)-1].end)
			}
		}
		list, long = list[:0], false
	}
	for ls := 0; ls < len(data); {
		le := bytes.IndexByte(data[ls:], '\n')
		if le < 0 {
			le = len(data)
		} else {
			le += ls
		}
		var ok bool
		line, ok = codesOnLine(data, ls, le, line[:0])
		if !ok {
			flush()
		}
		for _, c := range line {
			if len(list) > 0 && (c.shape != list[0].shape || c.groups != list[0].groups) {
				flush()
			}
			if len(list) == codeListMax {
				long = true
				continue
			}
			list = append(list, c)
		}
		ls = le + 1
	}
	flush()
}

// codesOnLine appends to out the codes the line data[ls:le] holds and
// nothing else: one, after a bullet, a quote's mark, a list's number or
// a table's bar; or several, parted by commas, semicolons, bars, tabs or
// two blanks, after those or after a label and its colon ("Backup
// codes: … , …"). A code may be in backquotes.
func codesOnLine(data []byte, ls, le int, out []codeLine) ([]codeLine, bool) {
	line := data[ls:le]
	if len(line) > codeMaxLineLen*4 {
		return out, false
	}
	i := 0
	for i < len(line) && bytes.IndexByte([]byte(" \t>-*+|"), line[i]) >= 0 {
		i++
	}
	// a list's number: "1. ", "12) "
	if j := i; j < len(line) && line[j] >= '0' && line[j] <= '9' {
		for j < len(line) && j-i < 2 && line[j] >= '0' && line[j] <= '9' {
			j++
		}
		if j+1 < len(line) && (line[j] == '.' || line[j] == ')') && (line[j+1] == ' ' || line[j+1] == '\t') {
			i = j + 1
		}
	}
	e := len(line)
	for e > i && bytes.IndexByte([]byte(" \t\r|"), line[e-1]) >= 0 {
		e--
	}
	if out, ok := codeItems(data, ls+i, ls+e, out); ok {
		return out, true
	}
	// a label, its colon, and two or more codes
	if c := bytes.IndexByte(line[i:e], ':'); c > 0 {
		n := len(out)
		if out, ok := codeItems(data, ls+i+c+1, ls+e, out); ok && len(out)-n >= 2 {
			return out, true
		}
	}
	return out[:0], false
}

// codeItems appends the codes data[s:e] holds, parted as codesOnLine
// says, all of one shape; false when any part is no code.
func codeItems(data []byte, s, e int, out []codeLine) ([]codeLine, bool) {
	n := len(out)
	for s < e {
		// the end of this item: a comma, a semicolon, a bar, a tab, two blanks
		// (a byte no code holds, or an item longer than a code, ends the
		// look: most lines are prose, and fail in their first words)
		j := s
		for j < e && data[j] != ',' && data[j] != ';' && data[j] != '|' && data[j] != '\t' && !(data[j] == ' ' && j+1 < e && data[j+1] == ' ') {
			if c := data[j]; !isAlnum(c) && c != '-' && c != ' ' && c != '`' && c != '*' || j-s > codeMaxChars+codeMaxGroups+4 {
				return out[:n], false
			}
			j++
		}
		a, b := s, j
		for a < b && (data[a] == ' ' || data[a] == '`' || data[a] == '*') {
			a++
		}
		for b > a && (data[b-1] == ' ' || data[b-1] == '`' || data[b-1] == '*') {
			b--
		}
		if a < b {
			c, ok := codeAt(data, a, b)
			if !ok || len(out) > n && (c.shape != out[n].shape || c.groups != out[n].groups) {
				return out[:n], false
			}
			out = append(out, c)
		}
		s = j
		for s < e && (data[s] == ',' || data[s] == ';' || data[s] == '|' || data[s] == '\t' || data[s] == ' ') {
			s++
		}
	}
	return out, len(out) > n
}

// codeAt reads data[s:e] as one code: groups of letters and digits
// joined by a dash or a blank.
func codeAt(data []byte, s, e int) (codeLine, bool) {
	code := data[s:e]
	if len(code) < codeMinChars || len(code) > codeMaxChars+codeMaxGroups {
		return codeLine{}, false
	}
	c := codeLine{start: s, end: e}
	chars, k := 0, 0
	for k < len(code) {
		g := k
		for k < len(code) && isAlnum(code[k]) {
			k++
		}
		n := k - g
		if n < codeMinGroup || n > codeMaxGroup || c.groups == codeMaxGroups {
			return codeLine{}, false
		}
		c.shape[c.groups].n = uint8(n)
		chars += n
		if k < len(code) {
			if sep := code[k]; sep != '-' && sep != ' ' || k+1 == len(code) || !isAlnum(code[k+1]) {
				return codeLine{}, false
			}
			c.shape[c.groups].sep = code[k]
			k++
		}
		c.groups++
	}
	return c, chars >= codeMinChars && chars <= codeMaxChars
}

func isAlnum(b byte) bool {
	return b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// randomCodes reports whether a list of codes of one shape reads as
// random codes: mixed characters (a word of letters alone is no code),
// no group the same on every line (a part number's family, a date's
// year), not counting up or down (invoice and ticket numbers), every
// code different.
func randomCodes(data []byte, list []codeLine) bool {
	first := list[0]
	seen := map[string]bool{}
	for _, c := range list {
		code := data[c.start:c.end]
		if seen[string(code)] {
			return false
		}
		seen[string(code)] = true
	}
	// a prefix or a suffix of three on every code: a family of names
	// (import1, import2, …; KX-4411-A, …)
	if commonEnds(data, list) >= 3 {
		return false
	}
	// digits in the list: letters alone are words (a list of names)
	if !digitsIn(data, list) {
		return false
	}
	// one group: digits alone are numbers (orders, accounts, phones),
	// hex alone a commit's or a digest's prefix; a code of one group
	// mixes digits with letters hex has not
	if first.groups == 1 && !lettersPastHex(data, list) {
		return false
	}
	// a group the same on every line, or counting
	groups := splitCodes(data, list)
	for g := range first.groups {
		same, up, down := true, true, true
		for k := 1; k < len(list); k++ {
			a, b := groups[k-1][g], groups[k][g]
			if !bytes.Equal(a, b) {
				same = false
			}
			if isDigits(a) && isDigits(b) {
				x, _ := strconv.Atoi(string(a))
				y, _ := strconv.Atoi(string(b))
				up = up && y > x
				down = down && y < x
			} else {
				up, down = false, false
			}
		}
		if same || up || down {
			return false
		}
	}
	return true
}

// commonEnds returns the longer of the prefix and the suffix every code
// of the list shares.
func commonEnds(data []byte, list []codeLine) int {
	first := data[list[0].start:list[0].end]
	pre, suf := len(first), len(first)
	for _, c := range list[1:] {
		code := data[c.start:c.end]
		p := 0
		for p < min(pre, len(code)) && code[p] == first[p] {
			p++
		}
		q := 0
		for q < min(suf, len(code)) && code[len(code)-1-q] == first[len(first)-1-q] {
			q++
		}
		pre, suf = p, q
	}
	return max(pre, suf)
}

// lettersPastHex reports whether the codes hold a letter no hex digit
// is (g to z, or upper case).
func lettersPastHex(data []byte, list []codeLine) bool {
	for _, c := range list {
		for _, b := range data[c.start:c.end] {
			if b >= 'g' && b <= 'z' || b >= 'A' && b <= 'Z' {
				return true
			}
		}
	}
	return false
}

// digitsIn reports whether the codes hold digits.
func digitsIn(data []byte, list []codeLine) bool {
	for _, c := range list {
		if bytes.ContainsAny(data[c.start:c.end], "0123456789") {
			return true
		}
	}
	return false
}

// splitCodes returns each code's groups.
func splitCodes(data []byte, list []codeLine) [][][]byte {
	out := make([][][]byte, len(list))
	for k, c := range list {
		out[k] = bytes.FieldsFunc(data[c.start:c.end], func(r rune) bool { return r == '-' || r == ' ' })
	}
	return out
}
