package status

import "strings"

// matchStatesStatus returns what statesStatus.FindStringSubmatchIndex(s)
// returns, reading an ASCII sentence by hand: the pattern has no literal
// prefix and is case-insensitive, so the regexp package ran it with its
// backtracker, byte by byte over each id of the list (on a workspace of
// lines of ten ids stating a status, ~4 µs a sentence and an eighth of
// the run). A sentence with a byte outside ASCII goes to the pattern
// itself: under (?i) a 'k' matches the Kelvin sign and an 's' the long s,
// which this reading does not know.
//
// The pattern reads one way only. Each id of the list takes all its digits
// and all the marks after them ([`*_]*): what follows an id in the list
// (a comma or a space) is neither. The list takes every id it can: where
// it ends, what follows must be spaces then "is" or "are", which no
// separator of the list can start (", ", " and "). So the match is the
// longest list, then the tail, or none; in the tail, "now" is taken when
// the rest matches after it, else read as the status; the status is the
// longest run of letters and '-' that ends at a word boundary.
func matchStatesStatus(s string) []int {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return statesStatus.FindStringSubmatchIndex(s)
		}
	}
	end := idToken(s, 0)
	if end < 0 {
		return nil
	}
	for {
		next := listSeparator(s, end)
		if next < 0 {
			break
		}
		e := idToken(s, next)
		if e < 0 {
			break
		}
		end = e
	}
	// \s+(?:is|are)\s+
	i := spaces(s, end)
	if i == end {
		return nil
	}
	switch {
	case hasFold(s, i, "is"):
		i += 2
	case hasFold(s, i, "are"):
		i += 3
	default:
		return nil
	}
	j := spaces(s, i)
	if j == i {
		return nil
	}
	// (?:now\s+)? then ([a-z][a-z-]*)\b
	if hasFold(s, j, "now") {
		if k := spaces(s, j+3); k > j+3 {
			if ws, we := statusWord(s, k); we > 0 {
				return []int{0, we, 0, end, ws, we}
			}
		}
	}
	if ws, we := statusWord(s, j); we > 0 {
		return []int{0, we, 0, end, ws, we}
	}
	return nil
}

// idToken returns the end of idTok ([`*_]*CTO-WORK-\d+[`*_]*, any case)
// at i, or -1.
func idToken(s string, i int) int {
	i = marks(s, i)
	if !hasFold(s, i, "CTO-WORK-") {
		return -1
	}
	i += len("CTO-WORK-")
	d := i
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	if i == d {
		return -1
	}
	return marks(s, i)
}

// listSeparator returns where the id after the separator at i starts
// (\s*,\s*(?:and\s+)? or \s+and\s+), or -1. The id must still be read:
// if none follows, the list ends at i.
func listSeparator(s string, i int) int {
	j := spaces(s, i)
	if j < len(s) && s[j] == ',' {
		j = spaces(s, j+1)
		if hasFold(s, j, "and") {
			if k := spaces(s, j+3); k > j+3 && idToken(s, k) >= 0 {
				return k
			}
		}
		return j
	}
	if j > i && hasFold(s, j, "and") {
		if k := spaces(s, j+3); k > j+3 {
			return k
		}
	}
	return -1
}

// statusWord returns the span of [a-z][a-z-]* (any case) at i that ends at
// a word boundary, the longest such, or 0, 0.
func statusWord(s string, i int) (int, int) {
	if i >= len(s) || !isASCIILetter(s[i]) {
		return 0, 0
	}
	e := i + 1
	for e < len(s) && (isASCIILetter(s[e]) || s[e] == '-') {
		e++
	}
	for ; e > i; e-- {
		after := e < len(s) && isWordByte(s[e])
		if isWordByte(s[e-1]) != after {
			return i, e
		}
	}
	return 0, 0
}

// marks returns the end of the run of [`*_] at i.
func marks(s string, i int) int {
	for i < len(s) && (s[i] == '`' || s[i] == '*' || s[i] == '_') {
		i++
	}
	return i
}

// hasFold reports whether s holds word (ASCII) at i, in any case.
func hasFold(s string, i int, word string) bool {
	return len(s)-i >= len(word) && strings.EqualFold(s[i:i+len(word)], word)
}

func isASCIILetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }
