package status

import (
	"strings"
	"unicode/utf8"
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
// admission record landed,", "Prior to the re-plan,".
var historyStarts = map[string]bool{"before": true, "prior": true}

// contrastStarts open a phrase that sets the claim against the past, so
// that the claim is the current state: "Unlike the old design,", "Despite
// the earlier review,", "Since the re-plan,".
var contrastStarts = map[string]bool{"unlike": true, "despite": true, "since": true, "except": true, "contrary": true,
	"compared": true, "versus": true, "although": true, "though": true, "even": true, "notwithstanding": true}

// spanStarts open a phrase whose date starts a span that reaches now
// ("Since 2026-05-12,", "From 2026-05-20 onward,"): the claim still holds
// at the end of it, so the date does not date the claim.
var spanStarts = map[string]bool{"since": true, "ever": true, "from": true, "after": true, "starting": true, "beginning": true,
	"until": true, "till": true, "through": true, "throughout": true}

// historical reports whether prefix, the words of a sentence before a
// claim's subject or verb, sets the claim in the past: one of its phrases
// set off by a comma, a semicolon or parentheses (not the last, which
// holds the subject) places it there. A claim whose verb is present but
// whose frame is history ("In the old design, Stage 5 remains blocked by
// `CTO-WORK-040`") does not state the current state. date is the date
// such a phrase gives the claim ("On 2026-05-12,", "As of 2026-05-12,",
// "(2026-05-12)"), or "": a claim so dated is an entry of that day, which
// the caller compares with the validation it contradicts.
func historical(prefix string) (past bool, date string) {
	segs := strings.FieldsFunc(prefix, func(r rune) bool { return strings.ContainsRune(setOff, r) })
	if len(segs) == 0 {
		return false, ""
	}
	if !strings.ContainsAny(strings.TrimRight(prefix, " \t"), setOff) {
		// No phrase set off: the words are the subject, or a dated
		// opening its writer did not end with a comma ("On 2026-05-12
		// Stage 5 remains blocked by ...").
		return false, leadDate(prefix)
	}
	last := len(segs) - 1
	if r, _ := utf8.DecodeLastRuneInString(strings.TrimRight(prefix, " \t")); strings.ContainsRune(setOff, r) {
		last = len(segs) // the prefix ends at a mark: every phrase is set off
	}
	for _, seg := range segs[:last] {
		if historyPhrase(seg) {
			return true, ""
		}
		if date == "" {
			date = phraseDate(seg)
		}
	}
	return false, date
}

// setOff are the marks that end a phrase set off before a claim's subject:
// "Originally, ...", "Stage 5 (in the old plan) ...", "Snapshot taken
// 2026-05-16: ...", "Status at the sync — ...".
const setOff = ",;():—"

// datePreps open a phrase that can date what follows without a comma.
var datePreps = map[string]bool{"on": true, "in": true, "at": true, "per": true, "during": true, "as": true}

// leadDate returns the date of an opening phrase not set off by a mark
// ("On 2026-05-12 Stage 5 ...", "In the 2026-05-10 review we noted ..."):
// a preposition of datePreps or "the" ("The 2026-05-30 triage notes
// record that ..."), then a date among the next few words.
func leadDate(prefix string) string {
	words := strings.Fields(prefix)
	if len(words) < 2 || !datePreps[strings.ToLower(strings.Trim(words[0], "*_`\"“["))] && !strings.EqualFold(words[0], "the") {
		return ""
	}
	return findDate(strings.Join(words[1:min(len(words), 6)], " "))
}

// frameOpeners open a phrase that frames a claim rather than naming its
// subject: "In the old design,", "Per the review,", "As of today,".
var frameOpeners = map[string]bool{"in": true, "at": true, "on": true, "under": true, "during": true, "per": true,
	"for": true, "as": true, "after": true, "back": true, "then": true, "once": true, "when": true, "by": true,
	"with": true, "according": true, "following": true, "within": true, "upon": true, "between": true}

// withoutSubject returns prefix, the words of a sentence before a claim's
// verb, without the claim's subject when the subject comes first and a
// phrase set off follows it ("The Stage 6 kickoff, as of 2026-06-10,
// remains blocked by ..."): the words of a subject are not a frame, and
// "kickoff" or "old" there does not make the claim history. The first
// phrase is a frame when a word of frameOpeners, an adverb in -ly, a
// history, contrast or span word opens it, when it is one word
// ("Originally,") or when it holds a date.
func withoutSubject(prefix string) string {
	if r, _ := utf8.DecodeLastRuneInString(strings.TrimRight(prefix, " \t")); !strings.ContainsRune(setOff, r) {
		return prefix // the subject is the last words, after every phrase set off
	}
	i := strings.IndexAny(prefix, setOff)
	first := prefix[:i]
	words := strings.Fields(strings.ToLower(first))
	if len(words) <= 1 || findDate(first) != "" {
		return prefix
	}
	w := strings.Trim(words[0], "*_`\"“[")
	if frameOpeners[w] || strings.HasSuffix(w, "ly") || historyStarts[w] || contrastStarts[w] || spanStarts[w] || historyWords[w] {
		return prefix
	}
	return prefix[i:]
}

// phraseDate returns the date a phrase set off before a claim gives it
// ("On 2026-05-12", "as of 2026-05-20", "In the 2026-05-10 review"), or
// "" when it has none or its date starts a span that reaches now.
func phraseDate(seg string) string {
	d := findDate(seg)
	if d == "" {
		return ""
	}
	first, _, _ := strings.Cut(strings.TrimLeft(strings.ToLower(seg), " \t*_`\"“[-"), " ")
	if spanStarts[first] || contrastStarts[first] {
		return ""
	}
	return d
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
	if historyStarts[words[0]] {
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
