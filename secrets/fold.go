package secrets

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"unicode"
)

// compileFolded compiles expr with each case-insensitive literal written
// as classes: (?i)token becomes [Tt][Oo][Kk\x{212a}][Ee][Nn]. The
// language is the same, but Go's matcher tests a folded literal rune by
// walking its fold orbit (unicode.SimpleFold) at every byte it is tried
// on, and a class by comparing ranges: on a line dense with keywords the
// (?i) rules spent a quarter of their time folding.
func compileFolded(expr string) (*regexp.Regexp, error) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, err
	}
	if !unfold(re) {
		return regexp.Compile(expr)
	}
	return regexp.Compile(re.String())
}

// unfoldMarker is a surrogate, never the rune of decoded input.
const unfoldMarker = 0xD800

// unfold rewrites the folded literals under re in place and reports
// whether it changed anything.
func unfold(re *syntax.Regexp) bool {
	changed := false
	for _, sub := range re.Sub {
		changed = unfold(sub) || changed
	}
	if re.Op != syntax.OpLiteral || re.Flags&syntax.FoldCase == 0 {
		return changed
	}
	flags := re.Flags &^ syntax.FoldCase
	var subs []*syntax.Regexp
	for _, r := range re.Rune {
		orbit := []rune{r}
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			orbit = append(orbit, f)
		}
		if len(orbit) == 1 {
			subs = append(subs, &syntax.Regexp{Op: syntax.OpLiteral, Flags: flags, Rune: []rune{r}})
			continue
		}
		// The class holds a surrogate as well, a code point no UTF-8
		// decoding yields (invalid bytes decode to U+FFFD): the parser
		// turns a class that is exactly a two-rune orbit, [Tt], back
		// into a folded literal, and String prints one as (?i:t).
		slices.Sort(orbit)
		class := []rune{}
		for _, o := range orbit {
			class = append(class, o, o)
		}
		class = append(class, unfoldMarker, unfoldMarker)
		subs = append(subs, &syntax.Regexp{Op: syntax.OpCharClass, Flags: flags, Rune: class})
	}
	*re = syntax.Regexp{Op: syntax.OpConcat, Flags: flags, Sub: subs}
	if len(subs) == 1 {
		*re = *subs[0]
	}
	return true
}
