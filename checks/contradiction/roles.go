package contradiction

import (
	"fmt"
	"go/token"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// roleClaim is a sentence giving a provider/model pair a role.
type roleClaim struct {
	di       *docInfo
	pair     string // "`provider` / `model`", as written
	key      string // the pair, lower-cased
	role     string // "primary" or "fallback"
	word     string // the role word, lower-cased ("default")
	pos, end token.Pos
	sentence string
}

var (
	roleWord = lazyRE.New(`(?i)\b(?:primary|fallback|default)\b`)
	// pairPattern is a provider/model pair: two code spans joined.
	pairPattern = lazyRE.New(code + `(?: / | with model |, model )` + code)
	negated     = lazyRE.New(`(?i)\b(?:not|no|never|without)\b`)
	hedged      = lazyRE.New(`(?i)\b(?:may|might|could|would|should|if|unless|when)\b`)
	sentenceEnd = lazyRE.New(`[.!?;](?:\s|$)`)
)

// maxRoleDistance is how many words may separate a pair from its role word.
const maxRoleDistance = 5

// roleClaims returns the role claims of the line's sentences; a hedged
// sentence states a branch, not a role, and is skipped.
func (ln *line) roleClaims() []roleClaim {
	var out []roleClaim
	start := 0
	for _, end := range append(sentenceEnds(ln.text), len(ln.text)) {
		if end <= start {
			continue
		}
		if s := ln.text[start:end]; !hedged.MatchString(s) {
			out = append(out, ln.sentenceClaims(start, end)...)
		}
		start = end
	}
	return out
}

func sentenceEnds(text string) []int {
	var out []int
	for _, m := range sentenceEnd.FindAllStringIndex(text, -1) {
		out = append(out, m[0]+1)
	}
	return out
}

// sentenceClaims reads the pairs of the sentence text[base:stop] and gives
// each the nearest role word: after it before the next pair, else before
// it after the previous pair.
func (ln *line) sentenceClaims(base, stop int) []roleClaim {
	s := ln.text[base:stop]
	pairs := pairPattern.FindAllStringIndex(s, -1)
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
		if best == nil {
			continue
		}
		provider, model := ln.codeText(base+p[0]), ln.codeText(base+p[1]-len(code))
		if provider == "" || model == "" {
			continue
		}
		word := strings.ToLower(s[best[0]:best[1]])
		role := "primary"
		if word == "fallback" {
			role = "fallback"
		}
		lead := len(s) - len(strings.TrimLeft(s, " "))
		out = append(out, roleClaim{
			pair: fmt.Sprintf("`%s` / `%s`", provider, model),
			key:  strings.ToLower(provider + "\x00" + model),
			role: role, word: word,
			pos:      ln.d.File.Pos(ln.off(base + lead)),
			end:      ln.d.File.Pos(ln.off(stop-1) + 1),
			sentence: quote(strings.TrimSpace(ln.withCode(base, stop))),
		})
	}
	return out
}

// near reports whether the text between a pair and a role word is at most
// maxRoleDistance words and denies nothing.
func near(between string) bool {
	return len(strings.Fields(between)) <= maxRoleDistance && !negated.MatchString(between)
}

// roles reports pairs that are primary in one sentence and fallback in
// another.
func (c *checker) roles() {
	// A finding lands on a claim of a document read so far (one in
	// focus): without one there is nothing to report, and the other
	// documents' text is not read.
	if !slices.ContainsFunc(c.docs, func(di *docInfo) bool { return len(di.roles) > 0 }) {
		return
	}
	c.text(func(*docInfo) bool { return true })
	byPair := map[string][]roleClaim{}
	var keys []string
	for _, di := range c.docs {
		for _, rc := range di.roles {
			rc.di = di
			if byPair[rc.key] == nil {
				keys = append(keys, rc.key)
			}
			byPair[rc.key] = append(byPair[rc.key], rc)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		claims := byPair[k]
		var primary, fallback []roleClaim
		for _, rc := range claims {
			if rc.role == "primary" {
				primary = append(primary, rc)
			} else {
				fallback = append(fallback, rc)
			}
		}
		if len(primary) == 0 || len(fallback) == 0 {
			continue
		}
		// The role fewer sentences give is the odd one out; on a tie,
		// the role the first sentence gives is taken as established.
		odd, other := fallback, primary
		if len(primary) < len(fallback) || len(primary) == len(fallback) && claims[0].role == "fallback" {
			odd, other = primary, fallback
		}
		for _, rc := range odd {
			var related []analysis.RelatedInformation
			for _, o := range other {
				related = append(related, rel(o.pos, "%s calls it the %s path: %q", o.di.d.Path, o.word, o.sentence))
			}
			c.report(rc.di.d.Path, rc.pos, rc.end, "role",
				fmt.Sprintf("%s is the %s path here, but %d other sentence(s) make it the %s path: state one role for the pair, or say which statement supersedes the other",
					rc.pair, rc.role, len(other), other[0].role), related)
		}
	}
}
