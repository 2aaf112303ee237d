package authority

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/svrnty/sotvet/internal/lazyre"
)

// mustCompile is a case-insensitive expression of the package, compiled on
// first use.
func mustCompile(p string) *lazyre.Regexp { return lazyRE.New("(?i)" + p) }

// Cues that keep a matched text from being a claim. They are built in, not
// per rule: whatever a rule matches, these forms do not assert it.
var (
	// cueBefore: a word before the match anywhere in its sentence that
	// negates, forbids, conditions, hedges or reports what follows ("Do not
	// activate Case as default backend.", "until Case earns ...", "must not
	// claim ...", "Rejected feedback: ...").
	cueBefore = mustCompile(`\b(?:` +
		`not|never|no|none|nothing|nobody|neither|nor|cannot|\w+n['’]t|without|false|` +
		`deny|denies|denied|forbid|forbids|forbade|forbidden|forbidding|prohibit\w*|disallow\w*|reject\w*|refus\w*|prevent\w*|avoid\w*|block|blocks|blocked|blocking|` +
		`until|unless|before|if|whether|once|pending|only|later|future|instead|means|meaning|` +
		`may|might|could|would|should|can|must|shall|need|needs|require|requires|required|want|wants|` +
		`claim|claims|claimed|claiming|misread\w*|mistak\w*|misinterpret\w*|overstat\w*|treat\w*|impl(?:y|ies|ied)|assum\w*` +
		`)\b`)
	// cueInside: a negation inside the matched text itself.
	cueInside = mustCompile(`\b(?:not|never|no|none|cannot|\w+n['’]t|without|false|denied|no\s+longer)\b`)
	// cueAfter: a word after the match, in the same clause, that negates or
	// defers it ("... remains false", "is not", "not yet", "until ...",
	// "only after ...").
	cueAfter = mustCompile(`\b(?:not|never|no\s+longer|false|until|unless|pending|only|before|if|once|when|whenever|yet)\b`)
	// clauseEnd ends the clause a match is in, for cueAfter.
	clauseEnd = lazyRE.New(`[,;(—–]|\s(?:but|while|whereas|although|though)\s`)
)

// sentences splits text into sentences: a sentence ends at ".", "!" or
// "?" (and closing quotes or brackets) followed by white space and a
// character that is not a lower-case letter, or at the end of the text.
// It returns [start, end) byte ranges, trimmed of white space.
func sentences(text string) [][2]int {
	var out [][2]int
	start := 0
	add := func(i, j int) {
		for i < j && text[i] == ' ' {
			i++
		}
		for j > i && text[j-1] == ' ' {
			j--
		}
		if i < j {
			out = append(out, [2]int{i, j})
		}
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c != '.' && c != '!' && c != '?' {
			continue
		}
		j := i + 1
		for j < len(text) && strings.ContainsRune(`"')]”’`, rune(text[j])) {
			j++
		}
		if j >= len(text) {
			break
		}
		if text[j] != ' ' {
			continue
		}
		k := j
		for k < len(text) && text[k] == ' ' {
			k++
		}
		if k < len(text) {
			r, _ := utf8.DecodeRuneInString(text[k:])
			if unicode.IsLower(r) {
				continue
			}
		}
		add(start, j)
		start = k
		i = k - 1
	}
	add(start, len(text))
	return out
}

// judge reports whether the match [ms, me) of sentence s is a claim, and
// when it is not, why.
func judge(s string, ms, me int) (bool, string) {
	if strings.HasSuffix(strings.TrimRight(s, `"')]”’ `), "?") {
		return false, "question"
	}
	if quoted(s, ms) {
		return false, "quoted"
	}
	if m := cueBefore.FindString(s[:ms]); m != "" {
		return false, "governed by " + strings.ToLower(m)
	}
	if m := cueInside.FindString(s[ms:me]); m != "" {
		return false, "negated by " + strings.ToLower(m)
	}
	rest := s[me:]
	if loc := clauseEnd.FindStringIndex(rest); loc != nil {
		rest = rest[:loc[0]]
	}
	past := pastTense(s[ms:me])
	for _, m := range cueAfter.FindAllString(rest, -1) {
		// "JP granted approval before validation" dates a past act; "is
		// granted before execution" states a rule.
		if past && strings.EqualFold(m, "before") {
			continue
		}
		return false, "negated by " + strings.ToLower(m)
	}
	return true, ""
}

// presentVerb and pastVerb tell the tense of a matched clause.
var (
	presentVerb = mustCompile(`\b(?:is|are|be|becomes|remains|stays|gets)\b`)
	pastVerb    = mustCompile(`\b(?:was|were|has|have|had|became|gave|given|made)\b|\w\w(?:ed|en)\b`)
)

// pastTense reports whether the clause m states a past act: a past
// verb form and no present one.
func pastTense(m string) bool {
	return pastVerb.MatchString(m) && !presentVerb.MatchString(m)
}

// quoted reports whether offset i of s lies inside a double-quoted
// passage: "..." or “...”.
func quoted(s string, i int) bool {
	before := s[:i]
	if strings.Count(before, `"`)%2 == 1 {
		return true
	}
	return strings.LastIndex(before, "“") > strings.LastIndex(before, "”")
}
