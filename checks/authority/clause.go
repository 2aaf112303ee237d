package authority

import (
	"strings"

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
// matches are replaced by its template (regexp.Expand syntax). The fronted
// complement goes first, so that a passive after it reads subject first.
var rewrites = []struct {
	re   *lazyre.Regexp
	repl string
}{
	// "As the runtime default, the Pi lane was ..." -> "the Pi lane was ... as the runtime default".
	{mustCompile(`^as\s+((?:the|a|an)\s+(?:` + word + `\s+){0,3}?` + word + `),\s+(.+?)([.!]?)$`), `$2 as $1$3`},
	// A change of state states the state it ends in: "flipped from false to true" -> "is true".
	{mustCompile(`\b(?:(?:was|were|is|are|has\s+been|have\s+been)\s+)?(?:flipped|changed|switched|moved|went|turned|set)\s+from\s+` + word + `\s+to\b`), `is`},
	// Phrasal verbs of activation: "switched on" -> "activated".
	{mustCompile(`\b(?:switch|turn)ed\s+on\b`), `activated`},
	{mustCompile(`\b(?:switch|turn)(?:es|s)\s+on\b`), `activates`},
	{mustCompile(`\b(?:switch|turn)\s+on\b`), `activate`},
	// A role served is a role held: "serves as" -> "is".
	{mustCompile(`\b(?:serves|acts|functions|works)\s+as\b`), `is`},
	{mustCompile(`\b(?:served|acted|functioned|worked)\s+as\b`), `was`},
	// "was made X" -> "became X"; "replaced Y as X" -> "became X".
	{mustCompile(`\b(?:was|were|has\s+been|have\s+been|had\s+been|got)\s+made\b`), `became`},
	{mustCompile(`\b(?:is|are|gets|get)\s+made\b`), `becomes`},
	{mustCompile(`\breplaced\s+(?:(?:the|a|an|its|our)\s+)?(?:` + word + `\s+){0,3}?as\b`), `became`},
	{mustCompile(`\breplaces\s+(?:(?:the|a|an|its|our)\s+)?(?:` + word + `\s+){0,3}?as\b`), `becomes`},
	// "S defaults to X ..." -> "X is the default of S ...".
	{mustCompile(`^(.+?)\s+(?:now\s+)?(?:defaults|defaulted)\s+to\s+(` + word + `)(.*)$`), `$2 is the default of $1$3`},
	// "Approved by JP: the request" -> "JP Approved the request".
	{mustCompile(`^(\pL+(?:ed|en))\s+by\s+((?:the\s+)?` + word + `(?:\s+` + word + `)?)\s*[:—–]\s*(.+)$`), `$2 $1 $3`},
}

// passive finds a passive with its agent: "S was approved by JP".
var passive = mustCompile(`\b(?:was|were|is|are|has\s+been|have\s+been|had\s+been)\s+(\pL+(?:ed|en|wn))\s+by\s+`)

// agentStops end a by-phrase's noun phrase.
var agentStops = map[string]bool{
	"as": true, "in": true, "on": true, "at": true, "for": true, "with": true, "after": true,
	"before": true, "during": true, "to": true, "from": true, "and": true, "or": true, "but": true,
	"via": true, "through": true, "under": true, "since": true, "until": true, "of": true, "is": true,
}

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
	head := s[:m[0]]
	cut := strings.LastIndexAny(head, ",;:(—–")
	subject := strings.TrimSpace(head[cut+1:])
	if subject == "" {
		return s
	}
	prefix := head[:cut+1]
	if prefix != "" {
		prefix += " "
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
	if len(ag) == 0 {
		return s
	}
	tail := strings.TrimLeft(rest[i:], " ")
	if tail != "" && !strings.ContainsRune(".,;:!?)", rune(tail[0])) {
		tail = " " + tail
	}
	return prefix + strings.Join(ag, " ") + " " + s[m[2]:m[3]] + " " + subject + tail
}

// canonical returns the canonical form of the sentence s (s itself when
// no rewrite applies).
func canonical(s string) string {
	c := s
	for _, r := range rewrites {
		if r.re.MatchString(c) {
			c = r.re.ReplaceAllString(c, r.repl)
		}
	}
	return activeVoice(c)
}

// triggers tell a text some rewrite may apply to from one no rewrite
// does: each is a literal every match of its expression holds, and an
// expression that finds where a rewrite may start (without the sentence
// anchors, which a text of many sentences does not have where they match).
var triggers = []struct {
	lits []string
	re   *lazyre.Regexp
}{
	{[]string{" by ", "\tby ", "\nby "}, mustCompile(`\b(?:was|were|is|are|been)\s+\pL+(?:ed|en|wn)\s+by\s|(?m)(?:^[\s>*+-]*(?:\[.\]\s+)?|[.!?]\s+)\pL+(?:ed|en)\s+by\s+\pL`)},
	{[]string{"As ", "as "}, mustCompile(`(?m)(?:^[\s>*+-]*(?:\[.\]\s+)?|[.!?:]\s+)as\s+(?:the|a|an)\s+[^,\n]{1,80},`)},
	{[]string{"from ", "from\n", "from\t"}, rewrites[1].re},
	{[]string{"witch", "urn"}, mustCompile(`\b(?:switch|turn)(?:ed|es|s)?\s+on\b`)},
	{[]string{"as"}, rewrites[5].re},
	{[]string{"as"}, rewrites[6].re},
	{[]string{"made"}, mustCompile(`\b(?:was|were|been|got|is|are|gets|get)\s+made\b`)},
	{[]string{"eplace"}, mustCompile(`\breplace[ds]\s`)},
	{[]string{"efault"}, mustCompile(`\bdefault(?:s|ed)\s+to\s`)},
}

// mayRewrite reports whether a rewrite of canonical may apply to some
// sentence of text.
func mayRewrite(text string) bool {
	for _, t := range triggers {
		for _, l := range t.lits {
			if strings.Contains(text, l) {
				if t.re.MatchString(text) {
					return true
				}
				break
			}
		}
	}
	return false
}

// canonicalText returns the sentences of text in their canonical forms,
// joined by a space: the text the prefilter scans for a block whose
// sentences a rule is matched against in both forms. It returns "" when
// no rewrite applies.
func canonicalText(text string) string {
	if !mayRewrite(text) {
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
