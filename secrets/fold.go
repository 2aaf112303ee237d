package secrets

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
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
	return regexp.Compile(regexpString(re))
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

// regexpString returns re as writeRegexp prints it.
func regexpString(re *syntax.Regexp) string {
	var b strings.Builder
	writeRegexp(&b, re)
	return b.String()
}

// writeRegexp prints re in a syntax regexp.Compile reads back to the same
// program. syntax.Regexp.String works out the fewest flags to print
// (calcFlags), which costs more than compiling the expression: on a tree
// where every rule fires, printing the ~800 unfolded expressions was a
// tenth of the run. This printer spells every flag out where it matters
// instead.
func writeRegexp(b *strings.Builder, re *syntax.Regexp) {
	switch re.Op {
	case syntax.OpNoMatch:
		b.WriteString(`[^\x00-\x{10FFFF}]`)
	case syntax.OpEmptyMatch:
		b.WriteString(`(?:)`)
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			b.WriteString(`(?i:`)
		}
		for _, r := range re.Rune {
			writeRune(b, r, false)
		}
		if re.Flags&syntax.FoldCase != 0 {
			b.WriteByte(')')
		}
	case syntax.OpCharClass:
		if len(re.Rune) == 0 {
			b.WriteString(`[^\x00-\x{10FFFF}]`)
			return
		}
		b.WriteByte('[')
		for i := 0; i+1 < len(re.Rune); i += 2 {
			writeRune(b, re.Rune[i], true)
			if re.Rune[i+1] != re.Rune[i] {
				b.WriteByte('-')
				writeRune(b, re.Rune[i+1], true)
			}
		}
		b.WriteByte(']')
	case syntax.OpAnyCharNotNL:
		b.WriteString(`(?-s:.)`)
	case syntax.OpAnyChar:
		b.WriteString(`(?s:.)`)
	case syntax.OpBeginLine:
		b.WriteString(`(?m:^)`)
	case syntax.OpEndLine:
		b.WriteString(`(?m:$)`)
	case syntax.OpBeginText:
		b.WriteString(`\A`)
	case syntax.OpEndText:
		b.WriteString(`\z`) // $ without (?m) in Go, where it never matches before a final newline
	case syntax.OpWordBoundary:
		b.WriteString(`\b`)
	case syntax.OpNoWordBoundary:
		b.WriteString(`\B`)
	case syntax.OpCapture:
		b.WriteByte('(')
		if re.Name != "" {
			b.WriteString(`?P<` + re.Name + `>`)
		}
		writeRegexp(b, re.Sub[0])
		b.WriteByte(')')
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		b.WriteString(`(?:`)
		writeRegexp(b, re.Sub[0])
		b.WriteByte(')')
		switch re.Op {
		case syntax.OpStar:
			b.WriteByte('*')
		case syntax.OpPlus:
			b.WriteByte('+')
		case syntax.OpQuest:
			b.WriteByte('?')
		default:
			b.WriteString(`{` + strconv.Itoa(re.Min))
			if re.Max != re.Min {
				b.WriteByte(',')
				if re.Max >= 0 {
					b.WriteString(strconv.Itoa(re.Max))
				}
			}
			b.WriteByte('}')
		}
		if re.Flags&syntax.NonGreedy != 0 {
			b.WriteByte('?')
		}
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			if sub.Op == syntax.OpAlternate {
				b.WriteString(`(?:`)
				writeRegexp(b, sub)
				b.WriteByte(')')
				continue
			}
			writeRegexp(b, sub)
		}
	case syntax.OpAlternate:
		for i, sub := range re.Sub {
			if i > 0 {
				b.WriteByte('|')
			}
			writeRegexp(b, sub)
		}
	default:
		// an operator this printer does not know: the library's
		b.WriteString(`(?:` + re.String() + `)`)
	}
}

// writeRune writes r as a literal, escaped where the syntax needs it (in
// a class when class is set).
func writeRune(b *strings.Builder, r rune, class bool) {
	switch {
	case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9', r == '_' || r == ' ' && !class:
		b.WriteRune(r)
	case r < 0x80 && strings.ContainsRune(`\.+*?()|[]{}^$-&~#!"'/:;<=>@%,`+"`", r):
		b.WriteByte('\\')
		b.WriteRune(r)
	default:
		b.WriteString(`\x{` + strconv.FormatInt(int64(r), 16) + `}`)
	}
}
