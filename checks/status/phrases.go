package status

import (
	"regexp"
	"slices"
	"strings"

	"github.com/svrnty/sotvet/checks/internal/flagutil"
)

// stillBlocked is the "remains blocked" family: the verb phrases that say an
// item is still blocked now. -still-blocked adds to it.
var stillBlocked = []string{
	"remains blocked", "remain blocked",
	"stays blocked", "stay blocked",
	"is still blocked", "are still blocked",
	"still remains blocked", "still remain blocked",
	"continues to be blocked", "continue to be blocked",
	// The plain present with what it waits for: "`CTO-WORK-040` is
	// blocked pending the review". "is blocked by" stays a dependency
	// ("`CTO-WORK-041` is blocked by `CTO-WORK-040`", as a "Blocked by:"
	// line says it).
	"is blocked pending", "are blocked pending", "is blocked until", "are blocked until",
	// The present perfect reaches now ("has stayed blocked since May"); the
	// simple past ("remained blocked") is history.
	"has stayed blocked", "have stayed blocked", "has remained blocked", "have remained blocked",
	"has been kept blocked", "have been kept blocked", "has been blocked since", "have been blocked since",
}

var extraBlocked flagutil.Words

// thisSubjects are the subjects that name the item whose section holds the
// sentence.
var thisSubjects = []string{"this issue", "this item", "this work item", "the item", "the issue"}

// stillBlockedPatterns compiles the family, extra phrases included, into the
// by-id and by-"this issue" sentence patterns, and the by-id pattern with an
// aside before the verb.
func stillBlockedPatterns(extra flagutil.Words) (byID, aside, this, blocker *regexp.Regexp) {
	var alts []string
	for _, p := range append(append([]string{}, stillBlocked...), extra...) {
		if f := strings.Fields(p); len(f) > 0 {
			for i := range f {
				f[i] = regexp.QuoteMeta(f[i])
			}
			alts = append(alts, strings.Join(f, `\s+`))
		}
	}
	// Sorted, so that the parser factors the phrases' common words
	// ("has been ...", "is still ..."): the by-id pattern then stays
	// within the size Go's backtracker takes, where it ran in the NFA
	// at every clause start. No phrase of the family is a prefix of
	// another, so the order decides no match.
	slices.Sort(alts)
	alts = slices.Compact(alts)
	verb := `(?:` + strings.Join(alts, "|") + `)\b`
	var subj []string
	for _, s := range thisSubjects {
		subj = append(subj, strings.ReplaceAll(s, " ", `\s+`))
	}
	byID = regexp.MustCompile(`(?i)^(` + idList + `)\s+` + verb)
	// An aside may stand between the ids and the verb ("`CTO-WORK-040`
	// (checked 2026-06-03) stays blocked", "`CTO-WORK-040`, as of the
	// standup, stays blocked"); its words frame the claim (otherClaim).
	// A pattern of its own, tried where byID fails at an id list followed
	// by "(" or ",": with the aside optional in byID, its program was too
	// large for the backtracker, and every clause start paid the NFA.
	aside = regexp.MustCompile(`(?i)^(` + idList + `)(?:\s*(\([^()]{1,80}\))|\s*,([^,]{1,80}),)\s+` + verb)
	this = regexp.MustCompile(`(?i)^(?:` + strings.Join(subj, "|") + `)\s+` + verb)
	// The verb, or the present "is blocked" (a current state as much as
	// "remains blocked"), then the items it waits for: "(only) by|on|
	// behind|pending ID" or "until ID is validated|lands|...". The words before
	// the verb are judged by blockerClaim (a past or a modal is not a
	// current state).
	present := `(?:(?:is|are)\s+(?:still\s+|currently\s+|now\s+)?blocked|still\s+blocked)\b`
	item := `(?:the\s+)?(?:(?:work\s+)?item\s+)?`
	blocker = regexp.MustCompile(`(?i)(?:` + strings.Join(alts, "|") + `|` + present + `)\s+(?:` +
		`(?:(?:only|solely)\s+)?(?:by|on|behind|pending)\s+` + item + `(` + idList + `)` +
		`|until\s+` + item + `(` + idList + `)\s+(?:(?:is|are|has\s+been|have\s+been|gets?)\s+)?` + doneWords + `)`)
	return byID, aside, this, blocker
}

// doneWords end "until ID ...": the blocker's own completion.
const doneWords = `(?:validated|done|complete|completed|closed|resolved|lands?|pass(?:es)?|closes?)\b`
