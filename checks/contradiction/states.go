package contradiction

import (
	"bytes"
	"maps"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/svrnty/sotvet/checks/internal/bodylines"
	"github.com/svrnty/sotvet/checks/internal/keywords"
	"github.com/svrnty/sotvet/sotparse"
)

// A state statement is a line of prose read as a fact about the state of
// something: its words, lower-cased, without markup, list markers, table
// pipes or punctuation ("- **Source admission** status remained
// `current`." reads "source admission status remained current"). Whether
// it is about a record's subject is decided against that record
// (stateStatement.holds), so that a bullet, a sentence, a table row and a
// "key: value" fact that state the same thing are one fact, whatever their
// wording.
//
// Its words are kept as one string, a space between each, and split when
// a record's subjects are matched against them (holds): held until the
// rules run, a list of them (a string header each, and a copy of each
// word once detached) cost three to four times the words themselves.
type stateStatement struct {
	words string
	stmt  statement
}

// stateWords are the words that say a state holds now. "validated" is
// left to facts: in prose it mostly names work items.
var stateWords = map[string]bool{"current": true, "admitted": true, "resolved": true, "fresh": true}

// hedgeWords make a line a requirement, a condition, a question of the
// future or a denial rather than a statement that the state holds: "Require
// that the source admission record remains current", "If the source
// admission is current, ...", "Confirm ... remains current".
var hedgeWords = map[string]bool{
	"not": true, "no": true, "never": true, "unless": true, "if": true, "until": true, "whether": true,
	"require": true, "requires": true, "required": true, "must": true, "should": true, "shall": true,
	"need": true, "needs": true, "confirm": true, "ensure": true, "verify": true, "check": true,
	"may": true, "might": true, "could": true, "would": true, "when": true, "once": true, "before": true,
	"pending": true, "unknown": true, "stale": true, "expired": true, "missing": true, "without": true,
	"cannot": true, "nobody": true, "neither": true, "nor": true, "none": true,
}

// negatedContraction reports whether a line holds a negated contraction
// ("isn't", "hasn’t"): lineWords splits it at the apostrophe, so it is
// looked for in the line as a whole, as a hedge word would be.
func negatedContraction(text string) bool {
	return bodylines.ContainsFold(text, "n't") || bodylines.ContainsFold(text, "n\u2019t")
}

// auxWords may stand between a subject and the word that says it holds:
// "source admission status remained current", "source is still admitted".
var auxWords = map[string]bool{
	"is": true, "was": true, "are": true, "were": true, "remains": true, "remained": true, "stays": true,
	"stayed": true, "still": true, "now": true, "been": true, "has": true, "have": true, "status": true,
	"freshness": true, "state": true, "fully": true, "confirmed": true, "as": true, "recorded": true,
}

// hasStateWord reports whether a body holds a state word, in lower case
// or capitalised, so that a body without one is not read line by line for
// states. It searches for each word less its first letter and looks at
// the byte before: one pass a word, not one for each of its two forms.
func hasStateWord(body []byte) bool {
	for _, w := range stateTails {
		for i := 0; ; {
			j := bytes.Index(body[i:], w.tail)
			if j < 0 {
				break
			}
			at := i + j
			if at > 0 && (body[at-1] == w.lower || body[at-1] == w.upper) {
				return true
			}
			i = at + 1
		}
	}
	return false
}

// stateTails are the state words as hasStateWord looks for them, built
// once, in a fixed order (a map's would vary the cost from run to run).
var stateTails = func() []struct {
	lower, upper byte
	tail         []byte
} {
	words := slices.Sorted(maps.Keys(stateWords))
	out := make([]struct {
		lower, upper byte
		tail         []byte
	}, len(words))
	for i, w := range words {
		if len(w) < 2 || w[0] < 'a' || w[0] > 'z' {
			panic("contradiction: state word " + w + " is not two or more bytes starting with a lower-case ASCII letter")
		}
		out[i].lower, out[i].upper, out[i].tail = w[0], w[0]-'a'+'A', []byte(w[1:])
	}
	return out
}()

// readState reads a body line as a state statement when it holds a state
// word and no hedge. readText calls it only on lines mayHoldState passes.
func readState(d *sotparse.Doc, l bodylines.Line) (stateStatement, bool) {
	if !statesPlainly(l.Text) || negatedContraction(l.Text) {
		return stateStatement{}, false
	}
	words := lineWords(l.Text)
	state := false
	for _, w := range words {
		if hedgeWords[w] {
			return stateStatement{}, false
		}
		state = state || stateWords[w]
	}
	if !state {
		return stateStatement{}, false
	}
	return stateStatement{words: strings.Join(words, " "), stmt: lineStatement(d, l)}, true
}

// lineWords returns a line's words, lower-cased.
func lineWords(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// statesPlainly reports whether an ASCII line holds a state word and no
// hedge, as the loop of readState over lineWords would, without lowering
// and splitting the line into new strings: most lines with a state word in
// them are hedged or hold it inside another word. A line with other bytes
// is left to that loop (true).
func statesPlainly(text string) bool {
	var buf [16]byte // longer than every state and hedge word
	state := false
	for i := 0; i < len(text); {
		c := text[i]
		if c >= utf8.RuneSelf {
			return true
		}
		if !isAlnumASCII(c) {
			i++
			continue
		}
		j := i
		for j < len(text) && text[j] < utf8.RuneSelf && isAlnumASCII(text[j]) {
			j++
		}
		if j < len(text) && text[j] >= utf8.RuneSelf {
			return true // the word may go on in a letter of another script
		}
		if n := j - i; n <= len(buf) {
			for k := range n {
				buf[k] = text[i+k] | ('a'-'A')&caseBit(text[i+k])
			}
			w := buf[:n]
			if c := w[0]; 'a' <= c && c <= 'z' && plainWordLead[n]&(1<<(c-'a')) != 0 {
				if hedgeWords[string(w)] {
					return false
				}
				state = state || stateWords[string(w)]
			}
		}
		i = j
	}
	return state
}

// plainWordLead holds, for each length up to statesPlainly's buffer, the
// first letters of the state and hedge words of that length: most words
// of a line are neither, which this tells without a map lookup.
var plainWordLead = func() (t [17]uint32) {
	for _, set := range []map[string]bool{stateWords, hedgeWords} {
		for w := range set {
			if len(w) >= len(t) || w[0] < 'a' || w[0] > 'z' {
				panic("contradiction: state or hedge word " + w + " is not a short lower-case word")
			}
			t[len(w)] |= 1 << (w[0] - 'a')
		}
	}
	return t
}()

// isAlnumASCII reports whether c is an ASCII letter or digit.
func isAlnumASCII(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// caseBit is 0xff for an upper-case ASCII letter, which or-ing 0x20
// lowers, and 0 for any other byte.
func caseBit(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return 0xff
	}
	return 0
}

// mayHoldState reports whether a line can hold a state word, without
// lowering and splitting it: most lines of a body with one do not. The
// ASCII letters of a lowered line are its ASCII bytes lowered, so a state
// word among its words is in the line in some case; unless a rune of it
// lowers to an ASCII letter (U+0130, U+212A), when the line is split. m is
// the line's lineKeys mask.
func mayHoldState(text string, m uint64) bool {
	if m&stateKeys != 0 {
		return true
	}
	if m&keywords.NonASCII != 0 {
		for _, r := range text {
			if r >= utf8.RuneSelf && unicode.ToLower(r) < utf8.RuneSelf {
				return true
			}
		}
	}
	return false
}

// holds reports whether the statement says that a subject (a record's title
// phrase, "source admission") holds: the phrase, then (after auxiliaries)
// a state word ("source admission status remained current"), or a state
// word then a colon-less reference to it within four words ("Still current:
// the Case source admission"); or the phrase without its last word followed
// by a word of that word's stem ("source is admitted" for "source
// admission"). w is st's words, split (st.wordList).
func (st stateStatement) holds(w, subjects []string) bool {
	for _, s := range subjects {
		phrase := strings.Fields(s)
		for i := 0; i+len(phrase) <= len(w); i++ {
			if !equalWords(w[i:i+len(phrase)], phrase) {
				continue
			}
			// A state word after the phrase, past auxiliaries.
			j := i + len(phrase)
			for j < len(w) && auxWords[w[j]] {
				j++
			}
			if j < len(w) && stateWords[w[j]] {
				return true
			}
			// A state word shortly before it: "Still current: the ... source admission".
			for k := max(0, i-4); k < i; k++ {
				if stateWords[w[k]] {
					return true
				}
			}
		}
		if len(phrase) < 2 {
			continue
		}
		head, last := phrase[:len(phrase)-1], phrase[len(phrase)-1]
		for i := 0; i+len(head) <= len(w); i++ {
			if !equalWords(w[i:i+len(head)], head) {
				continue
			}
			j := i + len(head)
			if j < len(w) && w[j] == last {
				continue // the phrase itself, judged above
			}
			for j < len(w) && auxWords[w[j]] {
				j++
			}
			if j > i+len(head) && j < len(w) && w[j] != last && sameStem(w[j], last) && stateWords[w[j]] {
				return true
			}
		}
	}
	return false
}

// wordList returns the statement's words, split.
func (st stateStatement) wordList() []string { return strings.Fields(st.words) }

func equalWords(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
