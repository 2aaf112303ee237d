package secrets

import (
	"regexp"
	"regexp/syntax"
	"strings"
)

// A rule's Path is matched against the path of every file that wakes the
// rule: gitleaks' hashicorp-tf-password (keyword "password", path
// `(?i)\.(?:tf|hcl)$`) and its kin are woken by most files of a tree of
// configuration, and Go's regexp, which has no reverse search for an
// expression anchored at the end, reads the whole path each time (~3 µs
// a file, 6-7 % of a scan of gitleaks' samples tree). Most such paths end
// in one of a few literal tails the expression's own end spells out
// (".tf", ".hcl"), so the path's end is compared with those first, and
// the expression runs only on a path that ends in one.

// maxPathTails bounds the tails kept of one expression.
const maxPathTails = 32

// pathTails returns the tails, ASCII-lowered, one of which every path re
// matches ends with, ASCII case aside; nil when re's end spells out none
// (not anchored at the end of the text, or a class or repetition right
// before it). A tail is literal text that the expression matches just
// before its end anchor: literals, alternations of them, optional ones.
func pathTails(re *regexp.Regexp) []string {
	if re == nil {
		return nil
	}
	p, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return nil
	}
	p = p.Simplify()
	if p.Op != syntax.OpConcat || len(p.Sub) < 2 || p.Sub[len(p.Sub)-1].Op != syntax.OpEndText {
		return nil
	}
	tails := []string{""}
	for k := len(p.Sub) - 2; k >= 0; k-- {
		set, ok := pathLiteralSet(p.Sub[k])
		if !ok {
			break
		}
		next := tailProduct(set, tails)
		if next == nil {
			break
		}
		tails = next
	}
	for _, t := range tails {
		if t == "" {
			return nil // a path may end anywhere: no tail to compare
		}
	}
	return tails
}

// pathLiteralSet returns the strings, ASCII-lowered, that re matches when it
// matches exactly a finite few of them whatever the case of their ASCII
// letters (false otherwise). A letter folded with a non-ASCII one under
// (?i) (k with the Kelvin sign, s with the long s) is not such a string:
// the path may spell it in the other script.
func pathLiteralSet(re *syntax.Regexp) ([]string, bool) {
	switch re.Op {
	case syntax.OpEmptyMatch:
		return []string{""}, true
	case syntax.OpLiteral:
		var b strings.Builder
		for _, r := range re.Rune {
			if r >= 0x80 || re.Flags&syntax.FoldCase != 0 && strings.ContainsRune("kKsS", r) {
				return nil, false
			}
			b.WriteRune(asciiLowerRune(r))
		}
		return []string{b.String()}, true
	case syntax.OpCharClass:
		var set []string
		for i := 0; i+1 < len(re.Rune); i += 2 {
			lo, hi := re.Rune[i], re.Rune[i+1]
			if hi >= 0x80 || hi-lo > 8 {
				return nil, false
			}
			for r := lo; r <= hi; r++ {
				set = append(set, string(asciiLowerRune(r)))
			}
		}
		return dedupeTails(set), len(set) > 0 && len(set) <= maxPathTails
	case syntax.OpQuest:
		set, ok := pathLiteralSet(re.Sub[0])
		return dedupeTails(append(set, "")), ok
	case syntax.OpAlternate:
		var set []string
		for _, s := range re.Sub {
			ss, ok := pathLiteralSet(s)
			if !ok {
				return nil, false
			}
			set = append(set, ss...)
		}
		set = dedupeTails(set)
		return set, len(set) <= maxPathTails
	case syntax.OpConcat:
		set := []string{""}
		for _, s := range re.Sub {
			ss, ok := pathLiteralSet(s)
			if !ok {
				return nil, false
			}
			if set = tailProduct(set, ss); set == nil {
				return nil, false
			}
		}
		return set, true
	case syntax.OpCapture:
		return pathLiteralSet(re.Sub[0])
	}
	return nil, false
}

// product returns every a+b, or nil past maxPathTails.
func tailProduct(as, bs []string) []string {
	if len(as)*len(bs) > maxPathTails {
		return nil
	}
	out := make([]string, 0, len(as)*len(bs))
	for _, a := range as {
		for _, b := range bs {
			out = append(out, a+b)
		}
	}
	return dedupeTails(out)
}

func dedupeTails(set []string) []string {
	out := set[:0]
	seen := map[string]bool{}
	for _, s := range set {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// pathMatches reports whether the rule applies to the file at path: it
// has no Path, or path ends in one of its tails and Path matches it.
func (cr *compiledRule) pathMatches(path string) bool {
	if cr.Path == nil {
		return true
	}
	if cr.Path == proseFiles {
		return isProseFile(path)
	}
	// a path with a line break may end a line of a POSIX Path ($ ends a
	// line there, the tails were read with $ ending the text)
	if cr.pathTails != nil && !endsWithFold(path, cr.pathTails) && strings.IndexByte(path, '\n') < 0 {
		return false
	}
	return cr.Path.MatchString(path)
}

// endsWithFold reports whether s ends with one of tails (ASCII-lowered),
// ASCII case aside.
func endsWithFold(s string, tails []string) bool {
	for _, t := range tails {
		if len(s) >= len(t) && asciiEqualFoldLower(s[len(s)-len(t):], t) {
			return true
		}
	}
	return false
}

// asciiEqualFoldLower reports whether s, ASCII-lowered, is lower.
func asciiEqualFoldLower(s, lower string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}
