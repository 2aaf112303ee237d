package status

import (
	"strings"
)

// historyWords, in a phrase set off before a claim's verb, place the claim
// at a time before now: "Originally,", "In the superseded plan,", "Stage
// 5, in the earlier revision,", "(at kickoff)".
var historyWords = map[string]bool{
	"originally": true, "historically": true, "previously": true, "formerly": true, "initially": true,
	"original": true, "previous": true, "earlier": true, "old": true, "older": true, "former": true, "prior": true,
	"superseded": true, "retired": true, "obsolete": true, "outdated": true, "deprecated": true, "abandoned": true,
	"v1": true, "kickoff": true, "kick-off": true, "retrospective": true, "retro": true, "snapshot": true, "minutes": true,
}

// historyPhrases do the same in more than one word.
var historyPhrases = []string{"at the time", "at that time", "at that point", "at that stage", "back then", "back in", "in the past", "at the start"}

// historyStarts open a phrase about what preceded an event: "Before the
// admission record landed,", "Prior to the re-plan,". A date after "on"
// is a dated entry: "On 2026-05-12,".
var historyStarts = map[string]bool{"before": true, "prior": true}

// contrastStarts open a phrase that sets the claim against the past, so
// that the claim is the current state: "Unlike the old design,", "Despite
// the earlier review,", "Since the re-plan,".
var contrastStarts = map[string]bool{"unlike": true, "despite": true, "since": true, "except": true, "contrary": true,
	"compared": true, "versus": true, "although": true, "though": true, "even": true, "notwithstanding": true}

// historical reports whether prefix, the words of a sentence before a
// claim's subject or verb, sets the claim in the past: one of its phrases
// set off by a comma, a semicolon or parentheses (not the last, which
// holds the subject) places it there. A claim whose verb is present but
// whose frame is history ("In the old design, Stage 5 remains blocked by
// `CTO-WORK-040`") does not state the current state.
func historical(prefix string) bool {
	segs := strings.FieldsFunc(prefix, func(r rune) bool { return r == ',' || r == ';' || r == '(' || r == ')' })
	if len(segs) == 0 {
		return false
	}
	if !strings.ContainsAny(strings.TrimRight(prefix, " \t"), ",;()") {
		return false // no phrase set off: the words are the subject
	}
	last := len(segs) - 1
	if t := strings.TrimRight(prefix, " \t"); t != "" && strings.ContainsRune(",;()", rune(t[len(t)-1])) {
		last = len(segs) // the prefix ends at a mark: every phrase is set off
	}
	for _, seg := range segs[:last] {
		if historyPhrase(seg) {
			return true
		}
	}
	return false
}

// historyPhrase reports whether one phrase set off in a sentence places it
// in the past (historical).
func historyPhrase(seg string) bool {
	words := strings.Fields(strings.ToLower(strings.Map(func(r rune) rune {
		switch r {
		case '*', '_', '`', '"', '“', '”', '[', ']':
			return ' '
		}
		return r
	}, seg)))
	if len(words) == 0 || contrastStarts[words[0]] {
		return false
	}
	if historyStarts[words[0]] || words[0] == "on" && findDate(seg) != "" {
		return true
	}
	for i, w := range words {
		w = strings.Trim(w, ".:!?'’-")
		if historyWords[w] || w == "first" && i > 0 {
			// "First," enumerates; "the first review", "as first
			// written" date.
			return true
		}
	}
	joined := " " + strings.Join(words, " ") + " "
	for _, p := range historyPhrases {
		if strings.Contains(joined, " "+p+" ") {
			return true
		}
	}
	return false
}
