package authority

import (
	"slices"
	"strings"
	"sync"

	"github.com/svrnty/sotvet/internal/lazyre"
)

// A claim has more word orders than a rule has expressions: "Case was made
// the default backend", "the harness defaults to Pi", "Approved by JP:
// ...". Rather than one more expression per order, a sentence is also read
// in a canonical form, the clause with its agent or subject first and its
// verb plain, and the rules are matched against both. Each rewrite needs
// its verb group unbroken ("was not made" stays as it is) and keeps every
// other word, so the negation rules judge the canonical form as they judge
// the sentence.

const word = `[\w‹›-]+`

// rewrites are the steps of canonical, in order: each expression's
// matches are replaced by its template (regexp.Expand syntax). A step runs
// only on a sentence that holds one of its literals (as the prefilter's
// matcher reads them: lower case, a run of white space as one space),
// which every match of its expression holds. The fronted complement goes
// first, so that a passive after it reads subject first.
var rewrites = []struct {
	lits []string
	re   *lazyre.Regexp
	repl string
}{
	// "As the runtime default, the Pi lane was ..." -> "the Pi lane was ... as the runtime default".
	{[]string{"as the ", "as a ", "as an "}, mustCompile(`^as\s+((?:the|a|an)\s+(?:` + word + `\s+){0,3}?` + word + `),\s+(.+?)([.!]?)$`), `$2 as $1$3`},
	// A change of state states the state it ends in: "flipped from false to true" -> "is true".
	{[]string{"from "}, mustCompile(`\b(?:(?:was|were|is|are|has\s+been|have\s+been)\s+)?(?:flipped|changed|switched|moved|went|turned|set)\s+from\s+` + word + `\s+to\b`), `is`},
	// Phrasal verbs of activation: "switched on" -> "activated".
	{[]string{"switched on", "turned on"}, mustCompile(`\b(?:switch|turn)ed\s+on\b`), `activated`},
	{[]string{"switches on", "turns on"}, mustCompile(`\b(?:switch|turn)(?:es|s)\s+on\b`), `activates`},
	{[]string{"switch on", "turn on"}, mustCompile(`\b(?:switch|turn)\s+on\b`), `activate`},
	// A role served is a role held: "serves as" -> "is".
	{[]string{"serves as", "acts as", "functions as", "works as"}, mustCompile(`\b(?:serves|acts|functions|works)\s+as\b`), `is`},
	{[]string{"served as", "acted as", "functioned as", "worked as"}, mustCompile(`\b(?:served|acted|functioned|worked)\s+as\b`), `was`},
	// "was made X" -> "became X"; "replaced Y as X" -> "became X".
	{[]string{" made"}, mustCompile(`\b(?:was|were|has\s+been|have\s+been|had\s+been|got)\s+made\b`), `became`},
	{[]string{" made"}, mustCompile(`\b(?:is|are|gets|get)\s+made\b`), `becomes`},
	{[]string{"replaced "}, mustCompile(`\breplaced\s+(?:(?:the|a|an|its|our)\s+)?(?:` + word + `\s+){0,3}?as\b`), `became`},
	{[]string{"replaces "}, mustCompile(`\breplaces\s+(?:(?:the|a|an|its|our)\s+)?(?:` + word + `\s+){0,3}?as\b`), `becomes`},
	// "Approved by JP: the request" -> "JP Approved the request".
	{[]string{"ed by ", "en by "}, mustCompile(`^(\pL+(?:ed|en))\s+by\s+((?:the\s+)?` + word + `(?:\s+` + word + `)?)\s*[:—–]\s*(.+)$`), `$2 $1 $3`},
}

// passiveLits are the literals every passive with an agent holds.
var passiveLits = []string{"ed by ", "en by ", "wn by "}

// The bits of rewriteBits beyond the rewrites'.
const (
	defaultsBit = iota
	passiveBit
)

// rewriteMatcher finds the literals of the rewrites in a text: bit i of
// its output for rewrites[i], then defaultsBit and passiveBit past them.
var rewriteMatcher = sync.OnceValue(func() *matcher {
	lits := map[string]clauseBits{}
	for i, r := range rewrites {
		for _, l := range r.lits {
			lits[l] |= 1 << i
		}
	}
	for _, l := range defaultsToLits {
		lits[l] |= 1 << (len(rewrites) + defaultsBit)
	}
	for _, l := range passiveLits {
		lits[l] |= 1 << (len(rewrites) + passiveBit)
	}
	return newMatcher(lits)
})

// rewriteBits returns the rewrites whose literals text holds.
func rewriteBits(text string) clauseBits { return rewriteMatcher().scan(text) &^ markupClause }

// rewriteLits returns the literals of the rewrites: the rule set's
// matcher finds them too, as rewriteClause, so that the scan of a body
// tells whether a sentence of it may read otherwise in its canonical form
// (see docCheck.body).
func rewriteLits() []string {
	out := slices.Concat(passiveLits, defaultsToLits)
	for _, r := range rewrites {
		out = append(out, r.lits...)
	}
	return out
}

// defaultsTo finds "defaults to X", which reads "the default of S is X"
// (see canonicalWith).
var defaultsTo = mustCompile(`\s+(?:now\s+)?(?:defaults|defaulted)\s+to\s+(` + word + `)`)

// defaultsToLits are its literals.
var defaultsToLits = []string{"defaults to ", "defaulted to "}

// readDefault rewrites "S defaults to X" as "the default of S is X", what
// comes before S staying before it.
func readDefault(s string) string {
	m := defaultsTo.FindStringSubmatchIndex(s)
	if m == nil {
		return s
	}
	prefix, subject := subjectOf(s[:m[0]])
	if subject == "" {
		return s
	}
	return prefix + "the default of " + subject + " is " + s[m[2]:m[3]] + s[m[1]:]
}

// passive finds a passive with its agent: "S was approved by JP".
var passive = mustCompile(`\b(?:was|were|is|are|has\s+been|have\s+been|had\s+been)\s+(\pL+(?:ed|en|wn))\s+by\s+`)

// agentStops end a by-phrase's noun phrase.
var agentStops = map[string]bool{
	"as": true, "in": true, "on": true, "at": true, "for": true, "with": true, "after": true,
	"before": true, "during": true, "to": true, "from": true, "and": true, "or": true, "but": true,
	"via": true, "through": true, "under": true, "since": true, "until": true, "of": true, "is": true,
	"rather": true, "than": true, "instead": true, "not": true,
}

// byManner are the words of a by-phrase that says how, not who: "disabled
// by default" has no agent.
var byManner = map[string]bool{"default": true, "design": true, "hand": true, "itself": true, "themselves": true,
	"convention": true, "construction": true, "accident": true, "mistake": true, "contract": true, "policy": true}

// activeVoice rewrites the first passive with an agent in s to the
// active: "the request has been approved by JP, and ..." -> "JP approved
// the request, and ...". The subject is the clause's text before the verb
// group; the agent, at most four words after "by" up to a preposition, a
// conjunction or punctuation.
func activeVoice(s string) string {
	m := passive.FindStringSubmatchIndex(s)
	if m == nil {
		return s
	}
	prefix, subject := subjectOf(s[:m[0]])
	if subject == "" || determiners[strings.ToLower(subject)] {
		return s // "... that is proven by ...": a relative clause, no subject
	}
	rest := s[m[1]:]
	var ag []string
	i := 0
	for len(ag) < 4 && i < len(rest) {
		j := strings.IndexByte(rest[i:], ' ')
		if j < 0 {
			j = len(rest) - i
		}
		tok := rest[i : i+j]
		w := strings.TrimRight(tok, ".,;:!?)")
		if w == "" || agentStops[strings.ToLower(w)] {
			break
		}
		ag = append(ag, w)
		i += j
		if w != tok {
			i -= len(tok) - len(w)
			break
		}
		for i < len(rest) && rest[i] == ' ' {
			i++
		}
	}
	if len(ag) == 0 || byManner[strings.ToLower(ag[0])] {
		return s
	}
	tail := strings.TrimLeft(rest[i:], " ")
	if tail != "" && !strings.ContainsRune(".,;:!?)", rune(tail[0])) {
		tail = " " + tail
	}
	return prefix + strings.Join(ag, " ") + " " + s[m[2]:m[3]] + " " + subject + tail
}

// subjectOf splits head, the text before a verb group, into what comes
// before the verb's subject and the subject: a noun phrase of at most seven
// words back to its determiner (and on over "of" or "for"), within the clause, and without the words
// that govern a clause rather than name a thing ("We should confirm that
// the request ..." keeps "We should confirm that" in front).
func subjectOf(head string) (prefix, subject string) {
	end := len(strings.TrimRight(head, " "))
	start := end
	for n := 0; n < 7 && start > 0; n++ {
		i := strings.LastIndexByte(head[:start], ' ') + 1
		w := head[i:start]
		if w == "" || strings.ContainsAny(w, ",;:(—–") || subjectStops[strings.ToLower(w)] || cueBefore.MatchString(w) {
			break
		}
		start = i
		if determiners[strings.ToLower(w)] {
			// "Approval for this request": the phrase goes on back
			// over "of" or "for".
			j := strings.LastIndexByte(strings.TrimRight(head[:start], " "), ' ') + 1
			if p := strings.ToLower(strings.TrimSpace(head[j:start])); p != "of" && p != "for" || n >= 3 {
				break
			}
		}
		if start == 0 {
			break
		}
		start-- // the space before the word
	}
	for start < end && head[start] == ' ' {
		start++
	}
	return head[:start], head[start:end]
}

// determiners start a noun phrase; subjectStops end one, read backwards.
var (
	determiners  = map[string]bool{"the": true, "this": true, "that": true, "these": true, "those": true, "a": true, "an": true, "our": true, "its": true, "their": true, "each": true, "every": true}
	subjectStops = map[string]bool{"and": true, "or": true, "but": true, "so": true, "then": true, "which": true, "who": true, "when": true, "while": true, "because": true, "as": true, "we": true, "it": true, "they": true, "he": true, "she": true, "i": true, "you": true}
)

// canonical returns the canonical form of the sentence s (s itself when
// no rewrite applies).
func canonical(s string) string { return canonicalWith(s, rewriteBits(s)) }

// canonicalWith is canonical, given rewriteBits(s).
func canonicalWith(s string, bits clauseBits) string {
	c := s
	for i, r := range rewrites {
		if bits&(1<<i) != 0 && r.re.MatchString(c) {
			c = r.re.ReplaceAllString(c, r.repl)
			// A rewrite may make a later one apply: "switched on by"
			// reads "activated by", a passive.
			bits |= rewriteBits(c)
		}
	}
	if bits&(1<<(len(rewrites)+defaultsBit)) != 0 {
		c = readDefault(c)
	}
	if bits&(1<<(len(rewrites)+passiveBit)) != 0 {
		c = activeVoice(c)
	}
	return c
}

// canonicalText returns the sentences of text in their canonical forms,
// joined by a space: the text the prefilter scans for a block whose
// sentences a rule is matched against in both forms. It returns "" when
// no rewrite applies.
func canonicalText(text string) string {
	if rewriteBits(text) == 0 {
		return ""
	}
	var b strings.Builder
	changed := false
	for _, s := range sentences(text) {
		sent := text[s[0]:s[1]]
		c := canonical(sent)
		changed = changed || c != sent
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(c)
	}
	if !changed {
		return ""
	}
	return b.String()
}
