package authority

import (
	"fmt"
	"go/token"
	"iter"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/sotparse"
)

// candidate is one pattern match, reported or not, with the reason it is
// not a claim. The corpus test lists candidates to review the negation
// rules.
type candidate struct {
	claim    *compiledClaim
	doc      *sotparse.Doc
	pos, end token.Pos
	scope    string
	text     string // the sentence, fact or field
	match    string
	why      string // "" for a claim
}

// Test hooks: traceCandidates, when set, receives every candidate;
// ignoreMentions judges mentioned text as if it were stated;
// readEveryBody reads every body block by block (see docCheck.body).
var (
	traceCandidates func(candidate)
	ignoreMentions  bool
	readEveryBody   bool
)

// claims reports the claims DocCheck found in d (r): those of a rule that
// contradicts a record count only where a record of d's route states what
// the claim contradicts; one finding per rule and line.
func (c *checker) claims(pass *analysis.Pass, d *sotparse.Doc, r *docFindings) {
	// contradicted reports whether a claim of cc counts in d's route.
	contradicted := func(cc *compiledClaim) bool {
		return cc.Contradicts == "" || c.routeState(d.Stem, cc.key, cc.value).path != ""
	}
	if traceCandidates != nil {
		for _, k := range r.traced {
			if k.why == "" && !contradicted(k.claim) {
				k.why = "no record of the route states " + k.claim.key + ": " + k.claim.value
			}
			traceCandidates(k)
		}
	}
	type key struct {
		id   string
		line int
	}
	done := map[key]bool{}
	for _, k := range r.claims {
		if !contradicted(k.claim) {
			continue
		}
		kk := key{k.claim.ID, d.File.Lines().Line(k.pos)}
		if done[kk] {
			continue
		}
		done[kk] = true
		msg := k.claim.Message
		if k.claim.Contradicts != "" {
			rec := c.routeState(d.Stem, k.claim.key, k.claim.value)
			msg += fmt.Sprintf(", but %s records %s: %s", rec.path, k.claim.key, k.claim.value)
		}
		pass.Report(analysis.Diagnostic{Pos: k.pos, End: k.end, Category: k.claim.ID, Message: fmt.Sprintf("%s: %s", msg, k.excerpt)})
	}
}

// claims finds the matches of the rules in d's frontmatter, facts and
// prose (b) and judges each by its text: DocCheck's part of the rules,
// which run completes (checker.claims).
func (c *docCheck) claims(b *body) {
	d := c.d
	compiled, m := c.set.compiled, c.set.matcher
	emit := func(k candidate) {
		if traceCandidates != nil {
			c.out.traced = append(c.out.traced, k)
		}
		if k.why == "" {
			c.out.claims = append(c.out.claims, claimMatch{claim: k.claim, pos: k.pos, end: k.end, excerpt: excerpt(k.match)})
		}
	}
	// The texts each scope offers, computed once for all rules. A field or
	// fact reads "key: value"; the text is built only for a rule whose
	// prefilter admits it (the scan reads the parts in turn).
	type item struct {
		key, value string
		text       string
		found      clauseBits // clauses of the rule set the text satisfies
		pos, end   token.Pos
		mention    bool
	}
	textOf := func(it *item) string {
		if it.text == "" {
			it.text = it.key + ": " + it.value
		}
		return it.text
	}
	// Only the texts a rule of their scope may match are kept.
	var fields, factItems []item
	if d.Frontmatter != nil {
		for _, f := range d.Frontmatter.Fields {
			// core_promotion_status is the promotion-status rule's.
			if !f.Scalar || f.Key == "core_promotion_status" {
				continue
			}
			it := item{key: f.Key, value: strings.TrimSpace(f.Value), pos: f.KeyPos, end: f.ValueEnd}
			if it.found = m.scan(it.key, ": ", it.value); c.set.admits(ScopeFrontmatter, it.found) {
				fields = append(fields, it)
			}
		}
	}
	// A key stated in a table row or a bold label is a fact as much as a
	// "- key: value" item is.
	for f := range facts(d) {
		it := item{key: strings.Trim(f.Key, "`"), value: plain(f.Value), pos: f.Pos, end: f.End}
		if it.found = m.scan(it.key, ": ", it.value); c.set.admits(ScopeFact, it.found) {
			it.mention = !ignoreMentions && b.mentionAt(f.Pos)
			factItems = append(factItems, it)
		}
	}
	var docFound clauseBits
	for i := range b.blocks {
		docFound |= b.blocks[i].found
	}
	for _, cc := range compiled {
		// A rule that contradicts a record is matched here whatever the
		// route's records say: they are other documents, which run reads.
		if cc.Scope.has(ScopeFrontmatter) {
			for i := range fields {
				f := &fields[i]
				if !cc.admits(f.found) {
					continue
				}
				text := textOf(f)
				for _, loc := range cc.find(text, f.found, false) {
					k := candidate{claim: cc, doc: d, pos: f.pos, end: f.end, scope: ScopeFrontmatter, text: text, match: text[loc[0]:loc[1]]}
					k.why = why(cc, text, loc)
					emit(k)
				}
			}
		}
		if cc.Scope.has(ScopeFact) {
			for i := range factItems {
				f := &factItems[i]
				if !cc.admits(f.found) {
					continue
				}
				text := textOf(f)
				for _, loc := range cc.find(text, f.found, false) {
					k := candidate{claim: cc, doc: d, pos: f.pos, end: f.end, scope: ScopeFact, text: text, match: text[loc[0]:loc[1]]}
					if f.mention {
						k.why = "mentioned (phrase list or negating section)"
					} else {
						k.why = why(cc, text, loc)
					}
					emit(k)
				}
			}
		}
		if !cc.admits(docFound) {
			continue
		}
		if cc.Scope.has(ScopeSentence) {
			for i := range b.blocks {
				bl := &b.blocks[i]
				if !cc.admits(bl.found) {
					continue
				}
				lits := bl.literals(m)
				for si, s := range bl.sentences() {
					sent := bl.Text[s[0]:s[1]]
					judgeIn := func(text string, loc []int, k candidate) {
						switch {
						case bl.mention && !ignoreMentions:
							k.why = "mentioned (phrase list or negating section " + excerpt(bl.section) + ")"
						default:
							k.why = why(cc, text, loc)
						}
						emit(k)
					}
					found := false
					if cc.admits(lits[si]) {
						for _, loc := range cc.find(sent, lits[si], true) {
							found = true
							pos, end := bl.Span(s[0]+loc[0], s[0]+loc[1])
							judgeIn(sent, loc, candidate{claim: cc, doc: d, pos: pos, end: end,
								scope: ScopeSentence, text: sent, match: sent[loc[0]:loc[1]]})
						}
					}
					// The sentence in its canonical form: a match there is
					// the whole sentence's, whose words it rearranges.
					if c := bl.canon[si]; !found && c != "" && cc.admits(bl.canonFound[si]) {
						for _, loc := range cc.find(c, bl.canonFound[si], true) {
							pos, end := bl.Span(s[0], s[1])
							judgeIn(c, loc, candidate{claim: cc, doc: d, pos: pos, end: end,
								scope: ScopeSentence, text: c, match: strings.TrimRight(sent, " .;:!")})
						}
					}
				}
			}
		}
	}
}

// facts yields d's facts in every form: list items, then table rows and
// bold labels.
func facts(d *sotparse.Doc) iter.Seq[*sotparse.Fact] {
	return func(yield func(*sotparse.Fact) bool) {
		for _, f := range d.Facts.All() {
			if !yield(f) {
				return
			}
		}
		for _, f := range d.KeyValues {
			if !yield(f) {
				return
			}
		}
	}
}

// plain is sotparse.PlainText, skipped for text it would not change.
func plain(s string) string {
	if strings.ContainsAny(s, "`*_\t\r\n") || strings.Contains(s, "  ") || strings.TrimSpace(s) != s {
		return sotparse.PlainText(s)
	}
	return s
}

// trimMatch drops trailing white space and punctuation from the match loc
// of text; it returns nil for an empty match.
func trimMatch(text string, loc []int) []int {
	if loc == nil {
		return nil
	}
	end := loc[0] + len(strings.TrimRight(text[loc[0]:loc[1]], " .,;:!?"))
	if end <= loc[0] {
		return nil
	}
	return []int{loc[0], end}
}

// why returns why the match loc of cc in text is not a claim by what the
// text says, or "" when it is one: the built-in negation forms, then the
// rule's unless condition. (Its contradicts condition is run's: see
// checker.claims.)
func why(cc *compiledClaim, text string, loc []int) string {
	if ok, why := judge(text, loc[0], loc[1]); !ok {
		return why
	}
	if cc.unless != nil && cc.unless.MatchString(text) {
		return "unless " + excerpt(cc.unless.FindString(text))
	}
	return ""
}

// stateKey names a routeState: the route's stem, the key and the value.
type stateKey struct{ stem, key, value string }

// routeState is what the records of one route say about one key.
type routeState struct {
	path string // the record stating the contradicted value, or ""
}

// routeState returns what the records of the route stem say about key:
// path names a record stating key: value when one does and no record of the
// route states another value for key. The records of a route are its
// RECORD documents; a route without any has as records the documents that
// state key.
func (c *checker) routeState(stem, key, value string) *routeState {
	ck := stateKey{stem, key, value}
	if st, ok := c.states[ck]; ok {
		return st
	}
	if c.routes == nil {
		c.routes = map[string][]*sotparse.Doc{}
		for _, d := range c.ws.Docs {
			c.routes[d.Stem] = append(c.routes[d.Stem], d)
		}
	}
	st := &routeState{}
	c.states[ck] = st
	docs := c.routes[stem]
	var records []*sotparse.Doc
	for _, d := range docs {
		if d.Kind == sotparse.KindRecord {
			records = append(records, d)
		}
	}
	if len(records) == 0 {
		for _, d := range docs {
			if len(factValues(d, key)) > 0 {
				records = append(records, d)
			}
		}
	}
	for _, d := range records {
		for _, v := range factValues(d, key) {
			if v != value {
				st.path = ""
				return st
			}
			if st.path == "" {
				st.path = d.Path
			}
		}
	}
	return st
}

// factValues returns the normalised values d gives key, as a fact or a
// frontmatter field.
func factValues(d *sotparse.Doc, key string) []string {
	var out []string
	if d.Frontmatter != nil {
		for _, f := range d.Frontmatter.Fields {
			if f.Scalar && keyIs(f.Key, key) {
				out = append(out, normValue(f.Value))
			}
		}
	}
	for f := range facts(d) {
		if keyIs(f.Key, key) {
			out = append(out, normValue(f.Value))
		}
	}
	return out
}
