package status

import (
	"strings"
	"unicode/utf8"
)

// notNow are the words that, just before the verb of a blocker claim, make
// it something other than the current state: a past ("was blocked by"), a
// future or a modal ("will remain blocked by", "cannot remain blocked
// by") or a negation ("no longer remains blocked by", "nothing remains
// blocked by").
var notNow = map[string]bool{"was": true, "were": true, "been": true, "had": true, "would": true, "could": true,
	"might": true, "may": true, "should": true, "not": true, "never": true,
	"will": true, "shall": true, "can": true, "cannot": true, "must": true, "won't": true, "won’t": true,
	"longer": true, "nothing": true, "no": true}

// conditionalStarts start a sentence that states a condition, not the
// current state: "If `CTO-WORK-040` fails, Stage 5 remains blocked by it."
var conditionalStarts = map[string]bool{"if": true, "unless": true, "when": true, "whenever": true, "whether": true, "should": true}

// conditional reports whether the sentence states a condition: its first
// word is one of conditionalStarts.
func conditional(sentence string) bool {
	first, _, _ := strings.Cut(strings.TrimLeft(sentence, " \t-+>[]"), " ")
	first = strings.Trim(first, "_`,")
	// Lowered without allocating: this runs on every claim.
	var buf [len("whenever")]byte
	for i := 0; i < len(first); i++ {
		if first[i] >= utf8.RuneSelf {
			return conditionalStarts[strings.ToLower(first)] // "İF" lowers to "if"
		}
	}
	if len(first) > len(buf) {
		return false // longer than any of conditionalStarts
	}
	for i := 0; i < len(first); i++ {
		buf[i] = lower(first[i])
	}
	return conditionalStarts[string(buf[:len(first)])]
}

// blockerClaim reads a sentence into the fact "something remains blocked
// by these items": the ids named as what it waits for ("Stage 5
// execution remains blocked by `CTO-WORK-040`", "is still blocked on the
// item CTO-WORK-040", "stays blocked until `CTO-WORK-040` is validated"),
// upper-cased, and the end of the statement in text. Emphasis is not a
// word; a claim inside a code span or double quotes (a quoted value, what
// someone else said) is not read, nor one after "used to" or in a frame
// that places it in the past (historical). date is the date the frame
// gives the claims ("On 2026-05-12, ..."), or "".
func (rp *remainPatterns) blockerClaim(text string) (blockers []string, end int, date string) {
	if !mayNameBlocker(text) {
		return nil, 0, "" // most "blocked" sentences: the pattern is not run
	}
	t := strings.ReplaceAll(text, "*", "")
	if rp.saysBlocked {
		// A match names its id after its verb, which says "bloc": a
		// sentence with none after its first "bloc" ("`CTO-WORK-041`
		// remains blocked until the review") is not run either.
		if at := blocNeedle.index(t); at < 0 || !namesID(t[at:]) {
			return nil, 0, ""
		}
	}
	if conditional(t) {
		return nil, 0, ""
	}
	// The marks before each match are counted from the last one, so that
	// a line of many claims costs in proportion to its length. A quotation
	// is one a later mark closes: a straight quote never closed is an
	// inch mark or a typo (`a 27" display`), and hides nothing after it.
	straightAll, closeAll := strings.Count(t, `"`), strings.Count(t, "”")
	ticks, straight, opens, closes, counted, framed := 0, 0, 0, 0, 0, 0
	past := false
	seen := map[string]bool{}
	for _, m := range rp.blockerMatches(t) {
		before := t[counted:m[0]]
		ticks += strings.Count(before, "`")
		straight += strings.Count(before, `"`)
		opens += strings.Count(before, "“")
		closes += strings.Count(before, "”")
		if !past {
			// The frame of every claim from here on: "Originally,
			// Stage 5 remains blocked by A, and B by C" is history,
			// "On 2026-05-12, A by B, and C by D" an entry of that day.
			var d string
			prefix := t[framed:m[0]]
			if framed == 0 {
				prefix = withoutSubject(prefix)
			}
			past, d = historical(prefix)
			if date == "" {
				date = d
			}
		}
		counted, framed = m[0], m[1]
		quoted := straight%2 == 1 && straightAll > straight || opens > closes && closeAll > closes
		if ticks%2 == 1 || quoted || past {
			continue // inside a code span or a quotation, or history
		}
		prev, at := lastWord(t[:m[0]])
		if notNow[strings.ToLower(strings.Trim(prev, "_`,"))] {
			continue
		}
		if strings.EqualFold(prev, "to") {
			if w, _ := lastWord(t[:at]); strings.EqualFold(strings.Trim(w, "_`,"), "used") {
				continue // "used to remain blocked by": history
			}
		}
		if prev != "" && plainBlocked.MatchString(t[m[0]:m[1]]) && idPattern.MatchString(prev) {
			// "CTO-WORK-050 is blocked by CTO-WORK-049" declares a
			// dependency, as a "Blocked by:" line does: blocked-by-open
			// judges those. "remains blocked by" says it is still so.
			continue
		}
		g := 2
		if m[g] < 0 {
			g = 4
		}
		for id := range ids(t[m[g]:m[g+1]]) {
			if !seen[id] {
				seen[id] = true
				blockers = append(blockers, id)
			}
		}
		end = m[1]
	}
	if len(blockers) == 0 {
		return nil, 0, ""
	}
	return blockers, unstarred(text, end), date
}

// blockerMatches returns the blocker pattern's matches in t, as
// FindAllStringSubmatchIndex does. With no phrase added, the pattern has
// more instructions than the backtracker takes, and its unanchored search
// starts a thread of the automaton at every byte; but a match is a verb of
// letters and white space ending in "blocked" and what follows it, so it
// starts in the run of such bytes before a "bloc". Each search starts
// there, after the last match, rather than at the sentence's start.
func (rp *remainPatterns) blockerMatches(t string) [][]int {
	if !rp.saysBlocked {
		return rp.blocker.FindAllStringSubmatchIndex(t, -1)
	}
	var out [][]int
	for pos := 0; pos < len(t); {
		b := blocNeedle.index(t[pos:])
		if b < 0 {
			break
		}
		from := pos + b
		for from > pos && verbByte(t[from-1]) {
			from--
		}
		m := rp.blocker.FindStringSubmatchIndex(t[from:])
		if m == nil {
			break
		}
		for i := range m {
			if m[i] >= 0 {
				m[i] += from
			}
		}
		out = append(out, m)
		pos = m[1]
	}
	return out
}

// verbByte reports whether c can be part of a verb of the built-in
// family before its "bloc": an ASCII letter, white space as \s means it,
// or a byte of a multi-byte character (a KELVIN SIGN or LONG S folds to a
// letter under (?i)).
func verbByte(c byte) bool {
	return isLetter(c) || c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' || c >= utf8.RuneSelf
}

// unstarred maps off, an offset in text with its '*' removed, back to an
// offset in text: emphasis removed shifts offsets.
func unstarred(text string, off int) int {
	i := 0
	for ; i < len(text) && off > 0; i++ {
		if text[i] != '*' {
			off--
		}
	}
	return i
}

// lastWord returns the last white-space separated word of s and its
// offset: read from its end, so that a line of many claims costs in
// proportion to its length.
func lastWord(s string) (string, int) {
	end := len(strings.TrimRight(s, " \t"))
	start := strings.LastIndexAny(s[:end], " \t") + 1
	return s[start:end], start
}

// asks reports whether sentence s of content ends with a question mark: a
// question states nothing ("Does Stage 5 still remain blocked by X?").
func asks(content []byte, s sentence) bool {
	i := s.off + len(s.text)
	return i < len(content) && content[i] == '?'
}

// blockerWords follow "blocked" in a blocker claim.
var blockerWords = []string{"by ", "on ", "behind ", "pending ", "until "}

// mayNameBlocker reports whether text has "blocked" followed by one of
// blockerWords (emphasis between them allowed): the blocker pattern,
// unanchored, is not cheap, and most lines that say "blocked" ("blocked
// actions", "Status: blocked.") cannot match it.
func mayNameBlocker(text string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], "locked")
		if j < 0 {
			return false
		}
		i += j + len("locked")
		rest := strings.TrimLeft(text[i:], " \t*_")
		for _, adv := range []string{"only ", "solely "} {
			if len(rest) >= len(adv) && strings.EqualFold(rest[:len(adv)], adv) {
				rest = strings.TrimLeft(rest[len(adv):], " \t*_") // "blocked only by"
			}
		}
		for _, w := range blockerWords {
			if len(rest) >= len(w) && strings.EqualFold(rest[:len(w)], w) {
				return true
			}
		}
	}
}

// plainBlocked is the plain present "is blocked", without "still".
var plainBlocked = lazyRE.New(`(?i)^(?:is|are)\s+blocked\b`)

// lastStatements returns, in the order first named, the items the
// document's sentences claim (claim: the ids a match names, and where its
// statement ends; none when the match claims nothing), each with the last
// such sentence outside a possible outcome and their count, but those
// skip leaves out.
func lastStatements(di *docInfo, claim func(*remainMatch) (ids []string, end int, date string), skip func(string) bool) ([]string, map[string]*staleStatement) {
	var order []string
	last := map[string]*staleStatement{}
	for k, ln := range di.remain {
		for j, s := range ln.sents {
			ids, end, date := claim(&di.rx.sents[k][j])
			if len(ids) == 0 || hypothetical(di.d, s.off) {
				continue
			}
			for _, id := range ids {
				if skip(id) {
					continue
				}
				st := last[id]
				if st == nil {
					st = &staleStatement{}
					last[id] = st
					order = append(order, id)
				}
				st.s, st.end, st.date = s, end, date
				st.count++
			}
		}
	}
	return order, last
}

// staleBlockers reports, once per document and item, the last sentence of
// a document that names a validated item as what something remains blocked
// by: "Stage 5 owned repository execution remains blocked by
// `CTO-WORK-040`" while CTO-WORK-040 is validated. A validated item blocks
// nothing, so the sentence is stale, or history nothing marks as such. The
// item may be defined in the same document (its Status line says
// validated a few lines above). skip holds the ids otherBlocked reported
// for the document: it already says the document is stale about them.
func (c *checker) staleBlockers(di *docInfo, skip map[string]bool) {
	if len(di.remain) == 0 || di.rx == nil {
		return
	}
	order, last := lastStatements(di, func(m *remainMatch) ([]string, int, string) { return m.blockers, m.blockEnd, m.blockDate }, func(id string) bool { return skip[id] })
	for _, id := range order {
		c.reportStale(di, id, last[id], "stale-blocker", "something remains blocked by it", "no longer blocks")
	}
}

// blocNeedle is what every verb of the built-in "remains blocked" family
// holds: "bloc" has no letter that a non-ASCII character folds to, so an
// ASCII search for it misses no sentence the patterns match.
var blocNeedle = newNeedle("bloc")

// mayBeBlocked reports whether a sentence can hold a verb of the built-in
// family: it says "bloc" in some case.
func mayBeBlocked(s string) bool { return blocNeedle.index(s) >= 0 }

// mayClaim reports whether a sentence of a remain line whose label can end
// at labelEnd (labelSpan) can be read as a claim with no phrase added: it
// says "bloc", emphasis aside as the claims read it ("remains b*lock*ed"),
// or follows what may be a label ("Still blocked: ...").
func mayClaim(s sentence, labelEnd int) bool {
	if s.off <= labelEnd || mayBeBlocked(s.text) {
		return true
	}
	// otherClaim and blockerClaim drop emphasis before they read.
	return strings.IndexByte(s.text, '*') >= 0 && mayBeBlocked(strings.ReplaceAll(s.text, "*", ""))
}

// idStartNeedle starts every work id but for its "K" (which the KELVIN
// SIGN matches too under (?i)).
var idStartNeedle = newNeedle("CTO-WOR")

// namesID reports whether s holds a work id as the patterns match one
// case-insensitively: "CTO-WOR", a "K" in either case or the KELVIN SIGN,
// "-", a digit.
func namesID(s string) bool {
	for {
		i := idStartNeedle.index(s)
		if i < 0 {
			return false
		}
		s = s[i+len(idStartNeedle.word):]
		rest, ok := strings.CutPrefix(s, "\u212a")
		if !ok && s != "" && (s[0] == 'k' || s[0] == 'K') {
			rest, ok = s[1:], true
		}
		if ok && len(rest) >= 2 && rest[0] == '-' && isDigit(rest[1]) {
			return true
		}
	}
}
