// Package didyoumean finds the known name a mistyped one was meant to be,
// for the "did you mean" hint of an unknown check, category, command or
// flag.
package didyoumean

import "strings"

// Closest returns the candidate closest to name when it is close enough to
// be a typo: within two edits (one for a name of three letters or fewer),
// or the only candidate name is a prefix of. It returns "" otherwise.
func Closest(name string, candidates []string) string {
	limit := 3
	if len(name) <= 3 {
		limit = 2
	}
	best, bestDist := "", limit
	var prefixed []string
	for _, c := range candidates {
		if c == name {
			return c
		}
		if name != "" && strings.HasPrefix(c, name) {
			prefixed = append(prefixed, c)
		}
		if d := Distance(name, c); d < bestDist {
			best, bestDist = c, d
		}
	}
	if best == "" && len(prefixed) == 1 {
		return prefixed[0]
	}
	return best
}

// Hint returns " (did you mean X?)" for the candidate Closest finds, or "".
func Hint(name string, candidates []string) string {
	if c := Closest(name, candidates); c != "" && c != name {
		return " (did you mean " + c + "?)"
	}
	return ""
}

// Distance is the Levenshtein distance between a and b.
func Distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
