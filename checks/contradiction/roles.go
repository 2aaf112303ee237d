package contradiction

import (
	"cmp"
	"fmt"
	"go/token"
	"maps"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/svrnty/sotvet/sotparse"
)

// roleClaim is a statement giving a provider/model pair a role: a fact
// (subject: the pair; property: its role on the route's provider path;
// value: primary or fallback) read from a sentence, a table row or a group
// of key: value facts. It is the form a line is read into; a document
// keeps its claims in a roleSet.
type roleClaim struct {
	pair     string // "`provider` / `model`", as written
	key      string // the pair, lower-cased
	role     string // "primary" or "fallback"
	word     string // the role word, lower-cased ("default")
	bare     bool   // the pair is named in plain text, not code spans
	pos, end token.Pos
	said     string // the sentence, unquoted: what a message quotes of it
}

// roleSet holds the role claims of one document: each distinct pair once,
// and per claim its place, its role word and an index into the pairs. A
// sentence that is the document's own text between the claim's positions
// (a table row, most sentences) is not held: it is read back when a
// finding quotes it, which few do (the first maxRelated claims of a role
// per pair). Held for every document until the rules run: on a workspace
// whose matrices give a dozen pairs roles in thousands of rows, each claim
// held its pair, key and sentence as strings of its own (~300 bytes).
type roleSet struct {
	pairs  []rolePair
	claims []heldRole
	base   token.Pos          // the place the claims' offsets are from (the first claim's)
	words  []string           // the role words of its claims that are not the usual ones
	said   []string           // the sentences it holds (quoted): of claims not fromSource
	index  map[rolePair]int32 // while read (detach lets it go)
}

type rolePair struct{ pair, key string }

// heldRole is a role claim as a document holds it, in 24 bytes: its
// place as an offset from its set's base and a length, and its pair, role
// word and sentence as indexes (a word and a sentence as strings and two
// positions made it 56 bytes, 12 MB on hub at 10,000 documents).
type heldRole struct {
	off  int32  // pos - roleSet.base
	span uint32 // end - pos
	pair int32  // index in roleSet.pairs
	// word: the role word, lower-cased: an index in usualWords, or for
	// -i-1 in roleSet.words.
	word int32
	// said: the index of the sentence in roleSet.said, or -1 when the
	// sentence is the text between pos and end (fromSource).
	said     int32
	bare     bool
	fallback bool // the role: fallback, else primary
}

// role returns the role hr gives: "primary" or "fallback".
func (hr *heldRole) role() string {
	if hr.fallback {
		return "fallback"
	}
	return "primary"
}

// fromSource reports whether hr's sentence is the text between its
// positions (read back when quoted), not held.
func (hr *heldRole) fromSource() bool { return hr.said < 0 }

func (rs *roleSet) pos(hr *heldRole) token.Pos { return rs.base + token.Pos(hr.off) }
func (rs *roleSet) end(hr *heldRole) token.Pos { return rs.pos(hr) + token.Pos(hr.span) }

// word returns hr's role word.
func (rs *roleSet) word(hr *heldRole) string {
	if hr.word >= 0 {
		return usualWords[hr.word]
	}
	return rs.words[-hr.word-1]
}

// sentence returns hr's sentence as held, quoted ("" when fromSource).
func (rs *roleSet) sentence(hr *heldRole) string {
	if hr.said < 0 {
		return ""
	}
	return rs.said[hr.said]
}

// usualWords are the usual role words (roleWords' keys, sorted), which a
// claim names by index: the words of roleWord's matches, lower-cased, but
// for letters that fold to others (U+017F to s).
var usualWords = slices.Sorted(maps.Keys(roleWords))

// wordIndex returns the index heldRole.word takes for w.
func (rs *roleSet) wordIndex(w string) int32 {
	if i, ok := slices.BinarySearch(usualWords, w); ok {
		return int32(i)
	}
	if i := slices.Index(rs.words, w); i >= 0 {
		return int32(-i - 1)
	}
	rs.words = append(rs.words, w)
	return int32(-len(rs.words))
}

// add adds claims; src, when not nil, is the document's text, from which
// a claim's sentence is read back when it is the text between its
// positions (tf: the document's file).
func (rs *roleSet) add(src []byte, tf *token.File, claims ...roleClaim) {
	for _, rc := range claims {
		p := rolePair{rc.pair, rc.key}
		i, ok := rs.index[p]
		if !ok {
			i = int32(len(rs.pairs))
			rs.pairs = append(rs.pairs, p)
			if rs.index == nil {
				rs.index = map[rolePair]int32{}
			}
			rs.index[p] = i
		}
		if len(rs.claims) == 0 {
			rs.base = rc.pos
		}
		hr := heldRole{off: int32(rc.pos - rs.base), span: uint32(rc.end - rc.pos), word: rs.wordIndex(rc.word), pair: i, said: -1, bare: rc.bare, fallback: rc.role == "fallback"}
		if t, ok := sourceText(src, tf, rc.pos, rc.end); !ok || t != rc.said {
			hr.said = int32(len(rs.said))
			rs.said = append(rs.said, quote(rc.said))
		}
		rs.claims = append(rs.claims, hr)
	}
}

// sourceText returns the text between pos and end in src, the content
// of tf's document (a view of src), and whether they are in it.
func sourceText(src []byte, tf *token.File, pos, end token.Pos) (string, bool) {
	if src == nil || tf == nil {
		return "", false
	}
	base := token.Pos(tf.Base())
	if pos < base || end < pos || int(end-base) > len(src) {
		return "", false
	}
	b := src[pos-base : end-base]
	return unsafe.String(unsafe.SliceData(b), len(b)), true
}

// detach gives rs strings of its own (own copies a view once) and lets
// what reading needed go.
func (rs *roleSet) detach(own func(string) string) {
	for i := range rs.pairs {
		rs.pairs[i].pair, rs.pairs[i].key = own(rs.pairs[i].pair), own(rs.pairs[i].key)
	}
	for i := range rs.words {
		rs.words[i] = own(rs.words[i])
	}
	for i := range rs.said {
		rs.said[i] = own(rs.said[i])
	}
	rs.index = nil
	if cap(rs.said) > len(rs.said) {
		rs.said = slices.Clone(rs.said)
	}
	if cap(rs.claims) > len(rs.claims) {
		rs.claims = slices.Clone(rs.claims)
	}
	if cap(rs.pairs) > len(rs.pairs) {
		rs.pairs = slices.Clone(rs.pairs)
	}
}

// roleWords give a role: "default" and "primary" the primary path,
// "fallback", "backup", "secondary" and the verb "falls back to" the
// fallback.
var roleWords = map[string]string{
	"primary": "primary", "default": "primary",
	"fallback": "fallback", "backup": "fallback", "secondary": "fallback",
	"falls back": "fallback", "fall back": "fallback", "fell back": "fallback", "falling back": "fallback",
}

var (
	roleWord = lazyRE.New(`(?i)\b(?:primary|default|fallback|backup|secondary|fall(?:s|ing)? back|fell back)\b`)
	// pairPattern is a provider/model pair: two code spans joined ("`p` /
	// `m`", "`p` with model `m`", "`p`, model `m`", "`p` (model `m`)"),
	// or two names in plain text joined by "with model" or ", model",
	// which say that the second is a model.
	pairPattern = lazyRE.New(`(` + code + `|\b[A-Za-z][\w.-]*\w)( / | with model |, model | \(model )(` + code + `|\b[A-Za-z0-9][\w.-]*\w)`)
	negated     = lazyRE.New(`(?i)\b(?:not|no|never|without)\b`)
	// A modal or a condition makes a sentence a branch, not a role; "when"
	// does too, except for the verb "falls back", whose meaning is a
	// condition ("when the hosted path is unavailable, Case falls back to").
	hedged     = lazyRE.New(`(?i)\b(?:may|might|could|would|should|if|unless)\b|\?`)
	hedgedWhen = lazyRE.New(`(?i)\bwhen\b`)
	// history places a statement before now: "Before 2026-05-31 the draft
	// named ...", "previously", "originally". A role held then is no claim
	// about the role now.
	history = lazyRE.New(`(?i)\b(?:before|until) (?:\d{4}-\d{2}-\d{2}|\d{1,2} [A-Z][a-z]{2,8} \d{4}|[A-Z][a-z]{2,8} \d{1,2},? \d{4})|\b(?:previously|formerly|originally|earlier|at first|superseded|used to)\b`)
)

// hedgeWordsIn reports whether s holds, as a word (a run of RE2's \w,
// the bytes \b reads), one that hedged, history or hedgedWhen needs to
// match it, or a "?" (hedged's). A byte beyond ASCII may fold to a letter
// of one ("ſhould"): then each may, but for a code span's placeholder.
// The expressions were the larger cost of a sentence's role claims, run
// on every sentence joining a pair.
func hedgeWordsIn(s string) (hedge, history, when bool) {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= utf8.RuneSelf && strings.HasPrefix(s[i:], code):
			i += len(code) // a code span's placeholder: no word of these, and no letter that folds
			continue
		case c >= utf8.RuneSelf:
			return true, true, true
		case c == '?':
			hedge = true
		}
		if !isAlnumASCII(c) && c != '_' {
			i++
			continue
		}
		j := i
		for j < len(s) && (isAlnumASCII(s[j]) || s[j] == '_') {
			j++
		}
		if j-i <= len("previously") {
			var low [len("previously")]byte
			for k := i; k < j; k++ {
				low[k-i] = s[k] | 0x20 // only letters compare equal below
			}
			switch string(low[:j-i]) {
			case "may", "might", "could", "would", "should", "if", "unless":
				hedge = true
			case "before", "until", "previously", "formerly", "originally", "earlier", "first", "superseded", "used":
				history = true
			case "when":
				when = true
			}
		}
		i = j
	}
	return hedge, history, when
}

// maxRoleDistance is how many words may separate a pair from its role word.
const maxRoleDistance = 5

// roleOf returns the role a role word gives, from its lower-cased text.
func roleOf(word string) string {
	return roleWords[strings.Join(strings.Fields(word), " ")]
}

// roleClaims returns the role claims of the line's sentences; a hedged
// sentence states a branch, and a dated past one history, not a role, and
// is skipped. Emphasis is not part of the words.
func (ln *line) roleClaims() []roleClaim {
	var out []roleClaim
	start := 0
	for _, end := range append(sentenceEnds(ln.text), len(ln.text)) {
		if end <= start {
			continue
		}
		s := ln.text[start:end]
		// A sentence without a pair's joiner holds no claim: the
		// expressions below then need not read it (a long line may hold
		// thousands of sentences and one pair). Nor are the hedge and
		// history expressions run on a sentence without their words.
		if !mayJoinPair(s) {
			start = end
			continue
		}
		mayHedge, mayHistory, mayWhen := hedgeWordsIn(s)
		if !(mayHedge && hedged.MatchString(s)) && !(mayHistory && history.MatchString(s)) {
			for _, rc := range ln.sentenceClaims(start, end) {
				if strings.Contains(rc.word, " ") || !(mayWhen && hedgedWhen.MatchString(s)) {
					out = append(out, rc)
				}
			}
		}
		start = end
	}
	return out
}

// sentenceEnds returns the offsets just past each sentence's closing mark
// in text: a '.', '!', '?' or ';' followed by white space or the end.
func sentenceEnds(text string) []int {
	var out []int
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '.', '!', '?', ';':
			if i+1 == len(text) || asciiSpace[text[i+1]] {
				out = append(out, i+1)
			}
		}
	}
	return out
}

// asciiSpace holds the bytes of RE2's \s.
var asciiSpace = [256]bool{'\t': true, '\n': true, '\f': true, '\r': true, ' ': true}

// mayJoinPair reports whether s holds a joiner of pairPattern, which
// every pair holds.
func mayJoinPair(s string) bool {
	return strings.Contains(s, " / ") || strings.Contains(s, " with model ") || strings.Contains(s, ", model ") || strings.Contains(s, " (model ")
}

// sentenceClaims reads the pairs of the sentence text[base:stop] and gives
// each the nearest role word: after it before the next pair, else before
// it after the previous pair. A role word after a possessive ("its own
// primary model") is the role of another owner, not of the route's path.
func (ln *line) sentenceClaims(base, stop int) []roleClaim {
	s := ln.text[base:stop]
	var pairs [][]int
	for _, m := range pairPattern.FindAllStringSubmatchIndex(s, -1) {
		joiner := s[m[4]:m[5]]
		isCode := func(i, j int) bool { return s[i:j] == code }
		// "a / b" and "a (model b" join names only as code spans.
		if (joiner == " / " || joiner == " (model ") && !(isCode(m[2], m[3]) && isCode(m[6], m[7])) {
			continue
		}
		pairs = append(pairs, m)
	}
	if len(pairs) == 0 {
		return nil
	}
	roles := roleWord.FindAllStringIndex(s, -1)
	var out []roleClaim
	for i, p := range pairs {
		lo, hi := 0, len(s)
		if i > 0 {
			lo = pairs[i-1][1]
		}
		if i+1 < len(pairs) {
			hi = pairs[i+1][0]
		}
		var best []int
		for _, r := range roles {
			if r[0] >= p[1] && r[1] <= hi && near(s[p[1]:r[0]]) {
				best = r
				break
			}
		}
		if best == nil {
			for k := len(roles) - 1; k >= 0; k-- {
				if r := roles[k]; r[1] <= p[0] && r[0] >= lo && near(s[r[1]:p[0]]) {
					best = r
					break
				}
			}
		}
		if best == nil || possessed(s[:best[0]]) {
			continue
		}
		name := func(i, j int) (string, bool) {
			if s[i:j] == code {
				return ln.codeText(base + i), false
			}
			return s[i:j], true
		}
		provider, bareP := name(p[2], p[3])
		model, bareM := name(p[6], p[7])
		if provider == "" || model == "" {
			continue
		}
		word := strings.ToLower(s[best[0]:best[1]])
		lead := len(s) - len(strings.TrimLeft(s, " "))
		out = append(out, roleClaim{
			pair: fmt.Sprintf("`%s` / `%s`", provider, model),
			key:  strings.ToLower(provider + "\x00" + model),
			role: roleOf(word), word: word, bare: bareP || bareM,
			pos:  ln.d.File.Pos(ln.off(base + lead)),
			end:  ln.d.File.Pos(ln.off(stop-1) + 1),
			said: strings.TrimSpace(ln.withCode(base, stop)),
		})
	}
	return out
}

// possessed reports whether the text before a role word ends in a
// possessive ("its own", "their"): the role is its owner's.
func possessed(before string) bool {
	f := strings.Fields(strings.ToLower(before))
	if n := len(f); n > 0 && f[n-1] == "own" {
		f = f[:n-1]
	}
	if n := len(f); n > 0 {
		switch f[n-1] {
		case "its", "their", "his", "her":
			return true
		}
	}
	return false
}

// near reports whether the text between a pair and a role word is at most
// maxRoleDistance words and denies nothing.
func near(between string) bool {
	return len(strings.Fields(between)) <= maxRoleDistance && !negated.MatchString(between)
}

// roleTable reads the role claims of table rows: a header row (followed by
// a separator) names the columns; a row gives a pair when it has a
// provider and a model column, and a role when a cell (its role column, or
// any other) is a role word.
type roleTable struct {
	prev, header []string
}

func tableCells(t string) []string {
	cells := strings.Split(strings.Trim(strings.TrimSpace(t), "|"), "|")
	for i, c := range cells {
		cells[i] = strings.TrimSpace(strings.Trim(strings.TrimSpace(c), "`*_"))
	}
	return cells
}

func separatorRow(cells []string) bool {
	for _, c := range cells {
		if strings.Trim(c, ":- ") != "" || c == "" {
			return false
		}
	}
	return len(cells) > 0
}

// row reads a table line (nil ends a table) and returns its claim.
func (tb *roleTable) row(d *sotparse.Doc, pos, end token.Pos, raw string) []roleClaim {
	cells := tableCells(raw)
	if separatorRow(cells) {
		tb.header, tb.prev = tb.prev, nil
		return nil
	}
	tb.prev = cells
	if tb.header == nil {
		return nil
	}
	col := func(word string) int {
		return slices.IndexFunc(tb.header, func(h string) bool { return strings.Contains(strings.ToLower(h), word) })
	}
	pc, mc := col("provider"), col("model")
	if pc < 0 || mc < 0 || pc >= len(cells) || mc >= len(cells) || cells[pc] == "" || cells[mc] == "" {
		return nil
	}
	role, word := "", ""
	for i, c := range cells {
		if i == pc || i == mc {
			continue
		}
		if r := roleOf(strings.ToLower(c)); r != "" {
			role, word = r, strings.ToLower(c)
			break
		}
	}
	if role == "" {
		return nil
	}
	return []roleClaim{{
		pair: fmt.Sprintf("`%s` / `%s`", cells[pc], cells[mc]),
		key:  strings.ToLower(cells[pc] + "\x00" + cells[mc]),
		role: role, word: word, pos: pos, end: end,
		said: strings.TrimSpace(raw),
	}}
}

// factRoles reads the role claims of a document's key: value facts: in a
// section that gives a fallback ("fallback_provider", "fallback_model"),
// the pair without the prefix ("provider", "model") is the primary one;
// "primary_" and "default_" prefixes say so themselves.
func factRoles(d *sotparse.Doc) []roleClaim {
	type half struct {
		provider, model *sotparse.Fact
	}
	var out []roleClaim
	flush := func(sec map[string]*half) {
		if sec["fallback"] == nil && sec["primary"] == nil {
			return // a plain provider and model give no role
		}
		for _, role := range []string{"primary", "plain", "fallback"} {
			h := sec[role]
			if h == nil || h.provider == nil || h.model == nil {
				continue
			}
			r := role
			if r == "plain" {
				if sec["primary"] != nil {
					continue
				}
				r = "primary"
			}
			p, m := plain(h.provider.Value), plain(h.model.Value)
			out = append(out, roleClaim{
				pair: fmt.Sprintf("`%s` / `%s`", p, m), key: strings.ToLower(p + "\x00" + m),
				role: r, word: r, pos: h.provider.Pos, end: h.model.End,
				said: strings.Trim(h.provider.Key, "`") + ": `" + p + "`, " + strings.Trim(h.model.Key, "`") + ": `" + m + "`",
			})
		}
	}
	sec := map[string]*half{}
	hi := 0
	for _, f := range d.Facts.Each() {
		if hi < len(d.Headings) && d.Headings[hi].Pos < f.Pos {
			for hi < len(d.Headings) && d.Headings[hi].Pos < f.Pos {
				hi++
			}
			flush(sec)
			sec = map[string]*half{}
		}
		// factKey's key ends with what it names: a key whose end is neither
		// is passed over without a lower-cased copy of it
		if t := strings.TrimRightFunc(strings.TrimRight(f.Key, "`"), unicode.IsSpace); !hasSuffixFold(t, "provider") && !hasSuffixFold(t, "model") {
			continue
		}
		k := strings.ReplaceAll(factKey(&f), " ", "_")
		prefix, what := "plain", k
		if p, w, ok := strings.Cut(k, "_"); ok {
			prefix, what = p, w
			if prefix == "default" {
				prefix = "primary"
			}
		}
		if what != "provider" && what != "model" || prefix != "plain" && prefix != "primary" && prefix != "fallback" {
			continue
		}
		h := sec[prefix]
		if h == nil {
			h = &half{}
			sec[prefix] = h
		}
		kept := f // only a pair's facts are kept
		if what == "provider" {
			h.provider = &kept
		} else {
			h.model = &kept
		}
	}
	flush(sec)
	return out
}

// roles reports pairs that are primary in one statement and fallback in
// another.
//
// The claims stay where the documents hold them: a pair's group is a list
// of references to them, and the related places of its findings (the
// first maxRelated claims of the other role, the same for every claim of
// the odd role) are formatted once per pair and shared by its findings.
//
// In a session, the groups of the documents it keeps are gathered once
// for as long as it keeps them (keptRolesKey: each pair's counts by role,
// its first claim and the first maxRelated claims of each role); a run
// groups the other documents' claims (those in focus, those parsed) and
// adds them, so that an edit reads the claims of the documents it
// parsed, not every claim of the workspace.
func (c *checker) roles() {
	// A finding lands on a claim of a document in focus: without one
	// there is nothing to report, and the other documents' text is not
	// read.
	if !c.anyFocused(func(di *docInfo) bool { return len(di.roles.claims) > 0 || len(di.factRoles.claims) > 0 }) {
		return
	}
	c.text(func(*docInfo) bool { return true })
	at := func(r claimRef) (*roleSet, *heldRole) {
		di := c.docs[r.doc]
		if n := int32(len(di.factRoles.claims)); r.i >= n {
			return &di.docText.roles, &di.docText.roles.claims[r.i-n]
		}
		return &di.factRoles, &di.factRoles.claims[r.i]
	}
	// The pairs the documents in focus name: only theirs are grouped.
	focused := map[string]bool{}
	for _, di := range c.docs {
		if len(di.roles.claims)+len(di.factRoles.claims) > 0 && c.ws.Focused(di.d.Path) {
			for _, rs := range []*roleSet{&di.factRoles, &di.docText.roles} {
				for _, hr := range rs.claims {
					focused[rs.pairs[hr.pair].key] = true
				}
			}
		}
	}
	// The kept documents' groups (none is in focus: a document in focus
	// is parsed, sotparse.Reuse), unless a kept text could not be read
	// back (the run starts over; what it read is not kept).
	var kept map[string]*roleGroup
	live, fromKept := c.runDocs()
	if fromKept {
		kept = sotparse.Aggregate(c.ws, &keptRolesKey, func([]*sotparse.Doc) map[string]*roleGroup {
			return groupRoles(c.docs, c.keptAt, nil)
		})
	}
	runs := groupRoles(c.docs, live, focused)
	keys := make([]string, 0, len(focused))
	for k := range focused {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	// Two passes over the pairs: the first gathers the claims the
	// findings will quote, so that each document whose sentences must be
	// read from its text is read once, however many pairs quote it; the
	// second reports.
	need := map[claimRef]bool{}
	var quoted map[claimRef]string
	for report := range 2 {
		if report == 1 {
			quoted = c.quoteSources(need, at)
		}
		for _, k := range keys {
			kg, g := kept[k], runs[k]
			if g == nil {
				g = &roleGroup{first: claimRef{-1, 0}}
			}
			if kg == nil {
				kg = &roleGroup{first: claimRef{-1, 0}}
			}
			// A pair named only in plain text may be any two words: it is
			// read as a provider and a model where the workspace names them so
			// elsewhere.
			if !kg.named && !g.named {
				continue
			}
			n := [2]int{len(g.claims[0]) + kg.n[0], len(g.claims[1]) + kg.n[1]}
			if n[0] == 0 || n[1] == 0 {
				continue
			}
			// The role fewer statements give is the odd one out; on a tie,
			// the role the first statement gives is taken as established.
			first := g.first
			if kf := c.mapKept(kg.first); first.doc < 0 || kf.doc >= 0 && kf.doc < first.doc {
				first = kf
			}
			_, f := at(first)
			odd := 1 // fallback
			if n[0] < n[1] || n[0] == n[1] && f.fallback {
				odd = 0
			}
			other := 1 - odd
			var related relList // formatted at the first finding reported
			for _, r := range g.claims[odd] {
				rs, hr := at(r)
				path := c.docs[r.doc].d.Path
				if !c.ws.Focused(path) {
					continue
				}
				if report == 0 {
					for _, o := range c.mergeClaims(kg.head[other], g.claims[other]) {
						if _, oh := at(o); oh.fromSource() {
							need[o] = true
						}
					}
					break
				}
				if related == nil {
					for _, o := range c.mergeClaims(kg.head[other], g.claims[other]) {
						ors, oh := at(o)
						od := c.docs[o.doc].d
						if !related.full() { // its arguments cost a boxing each
							q := ors.sentence(oh)
							if oh.fromSource() {
								q = quoted[o]
							}
							related.add(ors.pos(oh), "%s calls it the %s path: %q", od.Path, ors.word(oh), q)
						}
					}
				}
				c.report(path, rs.pos(hr), rs.end(hr), "role",
					fmt.Sprintf("%s is the %s path here, but %d other sentence(s) make it the %s path: state one role for the pair, or say which statement supersedes the other",
						rs.pairs[hr.pair].pair, hr.role(), n[other], []string{"primary", "fallback"}[other]), related)
			}
		}
	}
}

// quoteSources returns the sentences of the claims of need, each read from
// its document's text and quoted: a document's text is read once for all
// of its claims, and let go before the next is read.
func (c *checker) quoteSources(need map[claimRef]bool, at func(claimRef) (*roleSet, *heldRole)) map[claimRef]string {
	refs := slices.SortedFunc(maps.Keys(need), func(a, b claimRef) int {
		return cmp.Or(cmp.Compare(a.doc, b.doc), cmp.Compare(a.i, b.i))
	})
	out := make(map[claimRef]string, len(refs))
	var src []byte
	for i, r := range refs {
		d := c.docs[r.doc].d
		if i == 0 || refs[i-1].doc != r.doc {
			src = c.ws.TransientContent(d)
		}
		rs, hr := at(r)
		t, _ := sourceText(src, d.File.Tok, rs.pos(hr), rs.end(hr))
		out[r] = quote(t)
	}
	return out
}

// claimRef names a claim: its document's index (in c.docs, or in a
// session's kept documents in a roleGroup of keptRoles), and its index in
// the document's fact claims followed by its text claims.
type claimRef struct{ doc, i int32 }

// roleGroup is the claims of a pair: a run's, each claim by role (0
// primary, 1 fallback); the kept documents', counted by role, with the
// first maxRelated claims of each role (head) and the first claim.
type roleGroup struct {
	claims [2][]claimRef
	n      [2]int
	head   [2][]claimRef
	first  claimRef // doc -1: none
	named  bool     // named in code spans or facts
}

// runDocs returns the documents a rule that groups every document reads
// in the run, and whether it takes the kept documents' groups from an
// Aggregate: those parsed in the run, with the kept ones' groups; or,
// when a kept text could not be read back, every document (the run
// starts over, and what it read is not kept).
func (c *checker) runDocs() ([]int32, bool) {
	if len(c.keptAt) == 0 {
		return c.live, false
	}
	if c.ws.ReadBackErr() == nil {
		return c.live, true
	}
	all := make([]int32, len(c.docs))
	for i := range all {
		all[i] = int32(i)
	}
	return all, false
}

// keptRolesKey keeps the role groups of a session's kept documents.
var keptRolesKey sotparse.MemoKey

// groupRoles groups the claims of docs[at...] by pair, of the pairs
// focused names (every pair when focused is nil: then the claims are
// counted, and only each role's first maxRelated held).
func groupRoles(docs []*docInfo, at []int32, focused map[string]bool) map[string]*roleGroup {
	byPair := map[string]*roleGroup{}
	var groups []*roleGroup // of a set's pairs
	for j, k := range at {
		di := docs[k]
		ref := k // the run's claims name the document in docs
		if focused == nil {
			ref = int32(j) // the kept claims name it among the kept
		}
		n := int32(0)
		for _, rs := range []*roleSet{&di.factRoles, &di.docText.roles} {
			// A document's pair is looked up once, not once a claim.
			groups = groups[:0]
			for _, p := range rs.pairs {
				g := byPair[p.key]
				if g == nil && (focused == nil || focused[p.key]) {
					g = &roleGroup{first: claimRef{-1, 0}}
					byPair[p.key] = g
				}
				groups = append(groups, g)
			}
			for j := range rs.claims {
				hr := &rs.claims[j]
				if g := groups[hr.pair]; g != nil {
					r := claimRef{ref, n}
					if g.first.doc < 0 {
						g.first = r
					}
					role := 0
					if hr.fallback {
						role = 1
					}
					if focused == nil {
						if g.n[role]++; len(g.head[role]) < maxRelated {
							g.head[role] = append(g.head[role], r)
						}
					} else {
						g.claims[role] = append(g.claims[role], r)
					}
					if !hr.bare {
						g.named = true
					}
				}
				n++
			}
		}
	}
	return byPair
}

// mapKept returns r, a claim of a kept document, as a claim of c.docs.
func (c *checker) mapKept(r claimRef) claimRef {
	if r.doc >= 0 {
		r.doc = c.keptAt[r.doc]
	}
	return r
}

// mergeClaims returns the first maxRelated claims of kept (of the kept
// documents) and run (of the run's), in the order of c.docs.
func (c *checker) mergeClaims(kept, run []claimRef) []claimRef {
	out := make([]claimRef, 0, maxRelated)
	for len(out) < maxRelated && (len(kept) > 0 || len(run) > 0) {
		if len(kept) > 0 && (len(run) == 0 || c.keptAt[kept[0].doc] < run[0].doc) {
			out = append(out, c.mapKept(kept[0]))
			kept = kept[1:]
		} else {
			out = append(out, run[0])
			run = run[1:]
		}
	}
	return out
}

// hasSuffixFold is strings.HasSuffix under ASCII case folding.
func hasSuffixFold(s, suffix string) bool {
	return len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix)
}
