package glossary

import (
	"bytes"
	"fmt"
	"go/token"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks/internal/docutil"
	"github.com/svrnty/sotvet/sotparse"
)

// Analyzer checks that claimed glossary terms are defined in CONTEXT.md.
var Analyzer = &analysis.Analyzer{
	Name:     "glossary",
	Doc:      docutil.MustExtract(doc, "glossary"),
	URL:      "https://github.com/svrnty/sotvet/blob/main/docs/checks.md#glossary",
	Requires: []*analysis.Analyzer{sotparse.Analyzer},
	Run:      run,
}

// GlossaryPath is the workspace path of the glossary.
const GlossaryPath = "CONTEXT.md"

func run(pass *analysis.Pass) (any, error) {
	ws := pass.ResultOf[sotparse.Analyzer].(*sotparse.Workspace)
	report := func(pos, end token.Pos, category, format string, args ...any) {
		pass.Report(analysis.Diagnostic{Pos: pos, End: end, Category: category, Message: fmt.Sprintf(format, args...)})
	}
	g := ws.Glossary
	if g != nil {
		for _, t := range g.Terms {
			if emptyDefinition(t.Definition) {
				report(t.Pos, t.End, "empty-definition", "glossary term %q has no definition", t.Name)
			}
		}
	}
	unreadable := g == nil && ws.File(GlossaryPath) != nil
	var near map[string]*sotparse.Term // by squash of the name, built once
	for _, r := range DocCheck.Each(pass, ws) {
		cs, _ := r.([]termClaim)
		for _, c := range cs {
			switch {
			case unreadable:
			case g == nil:
				report(c.pos, c.end, "missing-glossary", "this says %s defines %q but the workspace has no %s", GlossaryPath, c.term, GlossaryPath)
			case lookup(g, c.term) == nil:
				msg := fmt.Sprintf("%s does not define %q", GlossaryPath, c.term)
				if near == nil {
					near = squashIndex(g)
				}
				if t := near[squash(c.term)]; t != nil {
					msg += fmt.Sprintf(" (it defines %q)", t.Name)
				}
				report(c.pos, c.end, "undefined-term", "%s", msg)
			}
		}
	}
	return nil, nil
}

// DocCheck finds the statements of a document that the glossary defines a
// term; run judges them against the glossary.
var DocCheck = &sotparse.DocCheck{Run: docClaims}

// termClaim is a statement that the glossary defines term.
type termClaim struct {
	pos, end token.Pos
	term     string
}

func docClaims(p *sotparse.DocPass) any {
	d := p.Doc
	if !p.Focused() || !mentionsGlossary(p.Content) {
		return nil
	}
	var out []termClaim
	for _, b := range blocks(d, p.Content) {
		if !mentionsGlossary([]byte(b.text)) {
			continue
		}
		for _, c := range claims(b.text) {
			tc := termClaim{d.File.Pos(b.offset(c.start)), d.File.Pos(b.offset(c.end-1) + 1), c.term}
			// run may report it: the driver keeps the text it flags.
			p.Flag(tc.pos, tc.end)
			out = append(out, tc)
		}
	}
	return out
}

// emptyDefinition reports whether a definition has no text besides
// "_Avoid_:" lines.
func emptyDefinition(def string) bool {
	for _, line := range strings.Split(def, "\n") {
		l := strings.TrimSpace(line)
		if l == "" || avoidLine.MatchString(l) {
			continue
		}
		return false
	}
	return true
}

var avoidLine = lazyRE.New(`^[_*]{1,2}Avoid[_*]{0,2}:`)

// lookup finds the term, or its singular when it ends in "s".
func lookup(g *sotparse.Glossary, term string) *sotparse.Term {
	if t := g.Lookup(term); t != nil {
		return t
	}
	if s, ok := strings.CutSuffix(term, "s"); ok && len(s) > 0 {
		return g.Lookup(s)
	}
	return nil
}

// squashIndex maps the squash of each term's name to the first term of
// that squash: an entry that differs from a name only in case, hyphens,
// spacing or punctuation is found in one look-up, not a pass over every
// term for each undefined one.
func squashIndex(g *sotparse.Glossary) map[string]*sotparse.Term {
	out := make(map[string]*sotparse.Term, len(g.Terms))
	for _, t := range g.Terms {
		if k := squash(t.Name); out[k] == nil {
			out[k] = t
		}
	}
	return out
}

func squash(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return strings.TrimSuffix(b.String(), "s")
}

// mentionsGlossary is a quick test for text that may hold a claim: it
// names context.md, "context" in any case. It runs on every document: it
// looks for the x, the rarest letter of the name, and reads around it.
func mentionsGlossary(b []byte) bool {
	return namesGlossaryAt(b, 'x') || namesGlossaryAt(b, 'X')
}

// namesGlossaryAt reports whether an x of b (x in one case) is the x of
// context.md.
func namesGlossaryAt(b []byte, x byte) bool {
	for i := 0; ; i++ {
		j := bytes.IndexByte(b[i:], x)
		if j < 0 {
			return false
		}
		i += j
		if i >= 5 && i+5 <= len(b) && string(b[i+2:i+5]) == ".md" && bytes.EqualFold(b[i-5:i+2], []byte("context")) {
			return true
		}
	}
}

// block is a paragraph, list item, heading or table row: its lines joined
// with spaces, and where each line starts in the text and in the file.
type block struct {
	text string
	segs []seg
}

type seg struct{ at, off int }

// offset returns the file offset of text[i].
func (b *block) offset(i int) int {
	k := sort.Search(len(b.segs), func(k int) bool { return b.segs[k].at > i }) - 1
	return b.segs[k].off + i - b.segs[k].at
}

var (
	listMarker   = lazyRE.New(`^\s{0,3}(?:[-*+]|\d{1,9}[.)])(?:\s|$)`)
	headingStart = lazyRE.New(`^\s{0,3}#{1,6}(?:\s|$)`)
)

// blocks returns the document's text blocks outside fenced code and
// blockquotes.
func blocks(d *sotparse.Doc, content []byte) []block {
	off := d.File.Tok.Offset(d.BodyStart)
	var out []block
	var cur *block
	flush := func() {
		if cur != nil && cur.text != "" {
			out = append(out, *cur)
		}
		cur = nil
	}
	fence := ""
	for off < len(content) {
		end := off
		for end < len(content) && content[end] != '\n' {
			end++
		}
		line := strings.TrimSuffix(string(content[off:end]), "\r")
		trimmed := strings.TrimLeft(line, " \t")
		indent := len(line) - len(trimmed)
		switch {
		case fence != "":
			if indent < 4 && strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]+" \t") == "" {
				fence = ""
			}
		case indent < 4 && (strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~")):
			flush()
			n := 0
			for n < len(trimmed) && trimmed[n] == trimmed[0] {
				n++
			}
			fence = trimmed[:n]
		case trimmed == "" || (indent < 4 && strings.HasPrefix(trimmed, ">")):
			flush()
		default:
			newBlock := cur == nil || listMarker.MatchString(line) || headingStart.MatchString(line) ||
				strings.HasPrefix(trimmed, "|") || strings.HasPrefix(cur.text, "|") || headingStart.MatchString(cur.text)
			if newBlock {
				flush()
				cur = &block{}
			} else {
				cur.segs = append(cur.segs, seg{at: len(cur.text), off: off - 1})
				cur.text += " "
			}
			cur.segs = append(cur.segs, seg{at: len(cur.text), off: off + indent})
			cur.text += trimmed
		}
		off = end + 1
	}
	flush()
	return out
}

// claim is a term a block says CONTEXT.md defines, at text[start:end].
type claim struct {
	term       string
	start, end int
}

const ctxName = "[`*_]*(?:[A-Za-z0-9_.-]*/)*CONTEXT\\.md[`*_]*"

var (
	definesRe = lazyRE.New(`(?i)(` + ctxName + `)\s+(?:now\s+|also\s+|must\s+|should\s+)?defines?\s+`)
	addRe     = lazyRE.New(`(?i)\b(?:add|adds|added|adding)\s+(.+?)\s+to\s+(?:the\s+)?(` + ctxName + `)`)
	passiveRe = lazyRE.New(`(?i)\s+(?:is|are|was|were|has\s+been|have\s+been)\s+(?:now\s+)?(?:added\s+to|defined\s+in)\s+(?:the\s+)?(` + ctxName + `)`)
	leadIn    = lazyRE.New(`(?i)^(?:the\s+)?(?:(?:[a-z0-9]+\s+)?(?:glossary\s+)?terms?\s*:?\s+)?`)
	trailTerm = lazyRE.New(`(?i)\s+(?:glossary\s+)?(?:terms?|entry|entries|definitions?)$`)
)

// claims finds the terms text says CONTEXT.md defines.
func claims(text string) []claim {
	var out []claim
	for _, m := range definesRe.FindAllStringSubmatchIndex(text, -1) {
		if inCode(text, m[3]) {
			continue
		}
		i := m[1]
		if l := leadIn.FindStringIndex(text[i:]); l != nil {
			i += l[1]
		}
		ts, _ := parseList(text, i, len(text))
		if len(ts) > 0 {
			trimLeading(text, &ts[0])
		}
		out = append(out, ts...)
	}
	for _, m := range addRe.FindAllStringSubmatchIndex(text, -1) {
		if inCode(text, m[0]) {
			continue
		}
		i, j := m[2], m[3]
		if l := leadIn.FindStringIndex(text[i:j]); l != nil {
			i += l[1]
		}
		if t := trailTerm.FindStringIndex(text[i:j]); t != nil {
			j = i + t[0]
		}
		if ts, end := parseList(text, i, j); len(ts) > 0 && end == j {
			trimLeading(text, &ts[0])
			out = append(out, ts...)
		}
	}
	for _, m := range passiveRe.FindAllStringSubmatchIndex(text, -1) {
		if inCode(text, m[0]) {
			continue
		}
		out = append(out, subject(text, m[0])...)
	}
	return out
}

// subject returns the term list that ends the sentence text[:end].
func subject(text string, end int) []claim {
	start := sentenceStart(text, end)
	for i := start; i < end; i++ {
		if i > start && !(text[i-1] == ' ' || text[i-1] == '(') {
			continue
		}
		ts, stop := parseList(text, i, end)
		if len(ts) == 0 || stop != end {
			continue
		}
		trimLeading(text, &ts[0])
		return ts
	}
	return nil
}

// trimLeading drops sentence words from the front of a Title Case term:
// "Then Core X is added" names "Core X", "defines A Core Protocol" names
// "Core Protocol".
func trimLeading(text string, c *claim) {
	if !isTitleRun(text, c) {
		return
	}
	for {
		w, rest, ok := strings.Cut(c.term, " ")
		if !ok || !leadingWords[strings.ToLower(w)] {
			return
		}
		c.term = rest
		c.start += len(w) + 1
	}
}

var leadingWords = map[string]bool{"the": true, "a": true, "an": true, "then": true, "also": true, "now": true,
	"so": true, "and": true, "finally": true, "next": true, "here": true, "this": true, "that": true, "our": true}

func isTitleRun(text string, c *claim) bool {
	r, _ := utf8.DecodeRuneInString(text[c.start:])
	return unicode.IsUpper(r) || unicode.IsDigit(r)
}

// sentenceStart returns where the sentence holding text[end] starts: after
// the last ". ", "; ", ": ", "! ", "? " or "|" outside code spans.
func sentenceStart(text string, end int) int {
	start := 0
	code := false
	for i := 0; i < end; i++ {
		switch c := text[i]; {
		case c == '`':
			code = !code
		case code:
		case c == '|':
			start = i + 1
		case (c == '.' || c == ';' || c == ':' || c == '!' || c == '?') && i+1 < end && text[i+1] == ' ':
			start = i + 2
		}
	}
	for start < end && text[start] == ' ' {
		start++
	}
	return start
}

// inCode reports whether text[i] lies inside a code span.
func inCode(text string, i int) bool { return strings.Count(text[:i], "`")%2 == 1 }

// parseList parses a list of terms joined by ",", "and" or "or" starting at
// text[i], not going past limit. It returns the terms and where the list
// ends.
func parseList(text string, i, limit int) ([]claim, int) {
	var out []claim
	end := i
	for {
		c, ok := parseTerm(text, i, limit)
		if !ok {
			return out, end
		}
		out = append(out, c)
		end = c.end
		j := c.end
		// Skip a parenthetical after the term.
		if k := skipSpace(text, j, limit); k < limit && text[k] == '(' {
			if p := strings.IndexByte(text[k:limit], ')'); p >= 0 {
				j = k + p + 1
				end = j
			}
		}
		sep := listSep.FindStringIndex(text[j:limit])
		if sep == nil {
			return out, end
		}
		i = j + sep[1]
	}
}

var listSep = lazyRE.New(`^(?:\s*,\s*(?:(?:and|or)\s+)?|\s+(?:and|or)\s+)`)

func skipSpace(text string, i, limit int) int {
	for i < limit && text[i] == ' ' {
		i++
	}
	return i
}

// titleFollow is what may follow a Title Case term: the end, punctuation, or
// a word that cannot continue a term.
var titleFollow = lazyRE.New(`(?i)^(?:$|[.,;:!?)(—–]|\s+(?:as|and|or|with|for|to|in|so|because|which|that|is|are|was|were|has|have|must|should|will|entry|term|glossary|before|after|now|here|\(|[-—–]\s))`)

var connectors = map[string]bool{"of": true, "for": true, "the": true, "to": true, "in": true, "on": true}

// parseTerm parses one term at text[i:limit]: a code span, a bold or
// emphasised phrase, a quoted phrase or a Title Case phrase.
func parseTerm(text string, i, limit int) (claim, bool) {
	i = skipSpace(text, i, limit)
	if i >= limit {
		return claim{}, false
	}
	rest := text[i:limit]
	for _, q := range []struct{ open, close string }{
		{"**", "**"}, {"__", "__"}, {"`", "`"}, {"\"", "\""}, {"“", "”"}, {"*", "*"}, {"_", "_"},
	} {
		if !strings.HasPrefix(rest, q.open) {
			continue
		}
		k := strings.Index(rest[len(q.open):], q.close)
		if k <= 0 {
			return claim{}, false
		}
		inner := rest[len(q.open) : len(q.open)+k]
		term := strings.TrimSpace(strings.Trim(inner, "`*_"))
		if term == "" || strings.EqualFold(strings.TrimRight(term, ".,"), "CONTEXT.md") {
			return claim{}, false
		}
		return claim{term: term, start: i, end: i + len(q.open) + k + len(q.close)}, true
	}
	// Title Case phrase: capitalised words, with connectors only between
	// two of them.
	last, words := i, 0
	for j := i; j < limit; {
		w := wordAt(text, j, limit)
		if !titleWord(w, words > 0) {
			if !connectors[strings.ToLower(w)] || words == 0 || j+len(w) >= limit || text[j+len(w)] != ' ' ||
				!titleWord(wordAt(text, j+len(w)+1, limit), true) {
				break
			}
		} else {
			words++
			last = j + len(w)
		}
		j += len(w)
		if j >= limit || text[j] != ' ' {
			break
		}
		j++
	}
	if words == 0 {
		return claim{}, false
	}
	if !titleFollow.MatchString(text[last:limit]) && last != limit {
		return claim{}, false
	}
	return claim{term: text[i:last], start: i, end: last}, true
}

// titleWord reports whether w is a capitalised word (or, after the first
// word, a number: "Stage 5 Gate").
func titleWord(w string, later bool) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return w != "" && (unicode.IsUpper(r) || (later && unicode.IsDigit(r)))
}

// wordAt returns the word at text[i:limit]: letters, digits and inner
// hyphens, slashes, apostrophes and dots.
func wordAt(text string, i, limit int) string {
	j := i
	for j < limit {
		r, size := utf8.DecodeRuneInString(text[j:limit])
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			j += size
			continue
		}
		if (r == '-' || r == '/' || r == '\'' || r == '’' || r == '.') && j > i && j+size < limit {
			if r2, _ := utf8.DecodeRuneInString(text[j+size : limit]); unicode.IsLetter(r2) || unicode.IsDigit(r2) {
				j += size
				continue
			}
		}
		break
	}
	return text[i:j]
}
