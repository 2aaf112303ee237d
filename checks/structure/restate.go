package structure

import (
	"fmt"
	"strings"
	"unicode/utf8"
	"unsafe"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks/internal/bodylines"
	"github.com/svrnty/sotvet/checks/internal/flagutil"
	"github.com/svrnty/sotvet/sotparse"
)

// DefaultFramingWords are the words that frame a statement without changing
// what it is about: "Require no X." and "No X occurs." state the same X.
var DefaultFramingWords = []string{"require", "requires", "required", "ensure", "ensures", "record", "records",
	"keep", "keeps", "state", "states", "must", "should", "shall", "occur", "occurs", "happens", "is", "are", "be"}

var framingWords = flagutil.Words(append([]string(nil), DefaultFramingWords...))

func init() {
	Analyzer.Flags.Var(&framingWords, "framing-words", "comma-separated words near-duplicate-line drops before comparing two list items")
}

// nearDuplicates reports a list item that restates the list item right
// before it: different lines with the same words once framing words are
// dropped ("- Require no Target Repository path exposure." then "- No
// Target Repository path exposure.").
func (c *checker) nearDuplicates(d *sotparse.Doc) {
	frame := c.frame
	content := c.content
	prevIsItem := false // the line before is a list item
	var prevItem, prevLast string
	// An item's fact is hashed only when it is compared: an item after a
	// line that is not one is compared with nothing until the next item.
	var prevFact itemFact
	prevHashed := false
	var prevLine bodylines.Line
	bodylines.EachIn(content, bodylines.Starts(d.File.Tok, content, d.File.Content), d.File.Tok.Offset(d.BodyStart), len(content), func(l bodylines.Line) {
		item, ok := listItemText(l.Text)
		if !ok || l.Quoted {
			prevIsItem = false
			return
		}
		// Two items with the same key end in the same word: most pairs of
		// items do not, and are told apart without hashing either.
		last := lastWord(item, frame)
		var fact itemFact
		hashed := false
		if prevIsItem {
			if !prevHashed {
				prevFact = factOf(prevItem, frame)
			}
			fact, hashed = factOf(item, frame), true
		}
		if prevIsItem && (last != "" && equalASCIIFold(last, prevLast) && restates(item, prevItem, frame) || fact.same(prevFact) && !sameWords(item, prevItem)) {
			start := l.Off + len(l.Text) - len(strings.TrimLeft(l.Text, " \t"))
			end := l.Off + len(strings.TrimRight(l.Text, " \t\r"))
			c.pass.Report(analysis.Diagnostic{
				Pos: d.File.Pos(start), End: d.File.Pos(end), Category: "near-duplicate-line",
				Message: fmt.Sprintf("list item restates the item before it in other words: %s; keep one", shorten(strings.TrimSpace(item))),
				Related: []analysis.RelatedInformation{{Pos: d.File.Pos(prevLine.Off), Message: fmt.Sprintf("the item before: %s", shorten(strings.TrimSpace(prevLine.Text)))}},
			})
		}
		prevIsItem, prevItem, prevLast, prevFact, prevHashed, prevLine = true, item, last, fact, hashed, l
	})
}

// restates reports whether item restates prev: the same key, of at least
// two words (fewer restate nothing), but not the same words in all (a
// repeat, not a restatement: duplicate-line's business when the lines
// match).
func restates(item, prev string, frame *framing) bool {
	key, n := restateKey(item, frame)
	prevKey, prevN := restateKey(prev, frame)
	return n >= 2 && prevN >= 2 && prevKey != 0 && key == prevKey && !sameWords(item, prev)
}

// lastWord returns the last word of s that restateKey hashes (dots
// trimmed, framing words left out), or "" when it hashes none.
func lastWord(s string, frame *framing) string {
	for i := len(s); i > 0; {
		if !wordByte[s[i-1]] {
			i--
			continue
		}
		b := i
		for i > 0 && wordByte[s[i-1]] {
			i--
		}
		if w := hashedWord(s[i:b], frame); w != "" {
			return w
		}
	}
	return ""
}

// hashedWord is the word restateKey hashes for the run of word bytes w:
// w without its leading and trailing dots, or "" when that leaves nothing
// or a framing word.
func hashedWord(w string, frame *framing) string {
	w = strings.Trim(w, ".")
	if w == "" || frame != nil && frame.has(w) {
		return ""
	}
	return w
}

// equalASCIIFold reports whether a and b are equal once ASCII letters are
// lower-cased, as restateKey compares words.
func equalASCIIFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if lowerASCII[a[i]] != lowerASCII[b[i]] {
			return false
		}
	}
	return true
}

// listItemText returns the text of a list item line after its marker and
// task box.
func listItemText(line string) (string, bool) {
	t := line
	for t != "" && (t[0] == ' ' || t[0] == '\t') {
		t = t[1:]
	}
	i := 0
	switch {
	case strings.HasPrefix(t, "- "), strings.HasPrefix(t, "* "), strings.HasPrefix(t, "+ "):
		i = 2
	default:
		for i < len(t) && i < 9 && t[i] >= '0' && t[i] <= '9' {
			i++
		}
		if i == 0 || i+1 >= len(t) || (t[i] != '.' && t[i] != ')') || t[i+1] != ' ' {
			return "", false
		}
		i += 2
	}
	t = t[i:]
	if t != "" && t[0] == '[' {
		for _, box := range []string{"[ ] ", "[x] ", "[X] "} {
			t = strings.TrimPrefix(t, box)
		}
	}
	return t, true
}

// restateKey hashes the item's words, lower-cased, leaving out the
// framing words when frame is set, and counts the words hashed. A word is
// a run of word bytes with its leading and trailing dots dropped. It
// allocates nothing and reads each byte through a table: this runs on
// every list item of every document.
func restateKey(s string, frame *framing) (key uint64, n int) {
	const offset, prime = 14695981039346656037, 1099511628211
	key = offset
	for i := 0; i < len(s); {
		if !wordByte[s[i]] {
			i++
			continue
		}
		start := i
		for i < len(s) && wordByte[s[i]] {
			i++
		}
		w := hashedWord(s[start:i], frame)
		if w == "" {
			continue
		}
		for j := 0; j < len(w); j++ {
			key = (key ^ uint64(lowerASCII[w[j]])) * prime
		}
		key = (key ^ ' ') * prime
		n++
	}
	return key, n
}

// wordByte holds the bytes of a word: ASCII letters and digits, "_./-",
// and every byte of a multi-byte UTF-8 sequence.
var wordByte = func() (t [256]bool) {
	for c := range 256 {
		t[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '.' || c == '/' || c == '-' || c >= 0x80
	}
	return t
}()

// lowerASCII maps an ASCII upper-case letter to its lower case and every
// other byte to itself.
var lowerASCII = func() (t [256]byte) {
	for c := range 256 {
		t[c] = byte(c)
		if 'A' <= c && c <= 'Z' {
			t[c] += 'a' - 'A'
		}
	}
	return t
}()

// framing is the set of framing words, by length: a lookup compares a few
// short strings, which is cheaper than hashing the word. lead tells, by
// length and first byte, whether a word may be one of them at all, so that
// most words are turned away by one load.
type framing struct {
	byLen [16][]string
	lead  [16][256]bool
}

func newFraming(words []string) *framing {
	f := new(framing)
	for _, w := range words {
		w = strings.ToLower(w)
		if w == "" || len(w) >= len(f.byLen) {
			continue
		}
		n := len(w)
		f.byLen[n] = append(f.byLen[n], w)
		lead := &f.lead[n]
		if c := w[0]; c < utf8.RuneSelf {
			// An ASCII first byte folds only to its other ASCII case.
			lead[c], lead[lowerASCII[c]] = true, true
			if 'a' <= c && c <= 'z' {
				lead[c-('a'-'A')] = true
			}
		} else {
			// A rune beyond ASCII may fold to an ASCII letter ("ſ", "K"):
			// any first byte may match.
			for c := range lead {
				lead[c] = true
			}
		}
		// A word that starts beyond ASCII is always compared.
		for c := utf8.RuneSelf; c < 256; c++ {
			lead[c] = true
		}
	}
	return f
}

func (f *framing) has(w string) bool {
	if len(w) == 0 || len(w) >= len(f.byLen) || !f.lead[len(w)][w[0]] {
		return false
	}
	c := w[0]
	for _, x := range f.byLen[len(w)] {
		// Two ASCII first bytes that differ but for case tell at once.
		if c < utf8.RuneSelf && x[0] < utf8.RuneSelf && lowerASCII[c] != lowerASCII[x[0]] {
			continue
		}
		if strings.EqualFold(w, x) {
			return true
		}
	}
	return false
}

// sameWords reports whether a and b have the same words, framing words
// included.
func sameWords(a, b string) bool {
	ka, na := restateKey(a, nil)
	kb, nb := restateKey(b, nil)
	return ka == kb && na == nb
}

// itemFact is what tells whether two items state the same fact in other
// words (itemFact.same, and their words not all the same):
// the same content words in any order, each cut to its stem ("expose",
// "exposure"; "promotion", "promoted"), with the same polarity ("No X",
// "X: none", "X does not occur", "Must not X" all deny X), once framing
// words and function words are dropped. Items that differ in one content
// word, or of which one denies what the other requires, are parallel
// statements, not restatements. Two identical items are duplicate-line's.
type itemFact struct {
	key uint64
	n   int
	neg bool
}

// same reports whether two items' facts are one, of two words or more.
func (f itemFact) same(g itemFact) bool {
	return f.n >= 2 && f == g
}

// factOf hashes the stems of an item's content words as a multiset (a sum
// of word hashes, so that word order does not count), and says whether the
// item denies them.
func factOf(s string, frame *framing) itemFact {
	var key uint64
	var n int
	var neg bool
	var lowered [64]byte // an ASCII word in lower case, read before the next is lowered
	for i := 0; i < len(s); {
		if !wordByte[s[i]] {
			i++
			continue
		}
		start := i
		for i < len(s) && wordByte[s[i]] {
			i++
		}
		w := lowerWord(strings.Trim(s[start:i], "."), &lowered)
		if strings.HasSuffix(w, "n") && strings.HasPrefix(s[i:], "'t") && (i+2 == len(s) || !wordByte[s[i+2]]) {
			// "doesn't": the apostrophe parts the word; a curly one does not.
			w, i = w+"'t", i+2
		}
		switch {
		case w == "":
			continue
		case negationWord(w) || strings.HasSuffix(w, "n't") || strings.HasSuffix(w, "n\u2019t"):
			neg = true
			continue
		case functionWord(w), frame != nil && frame.has(w):
			continue
		}
		w = stem(w)
		h := uint64(14695981039346656037)
		for j := 0; j < len(w); j++ {
			h = (h ^ uint64(w[j])) * 1099511628211
		}
		key += mix64(h)
		n++
	}
	return itemFact{key, n, neg}
}

// mix64 scrambles a word's FNV hash before factOf adds it to the others:
// FNV-1a's last step is linear in the last byte, so words that differ in
// a last digit ("150", "151") changed a sum of raw hashes by +p and -p,
// and two list rows naming consecutive numbers twice summed the same (21
// rows of a 1,000-row index read as restatements, round twenty's blind
// shapes). murmur3's finaliser spreads every bit over the whole word.
func mix64(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	h ^= h >> 33
	return h
}

// lowerWord returns w in lower case: an ASCII word of up to len(buf)
// bytes is lowered into buf, not allocated (every item has a capitalised
// word, and factOf reads every item of a list), so the result is good
// until buf is written again.
func lowerWord(w string, buf *[64]byte) string {
	upper := false
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c >= utf8.RuneSelf {
			return strings.ToLower(w)
		}
		upper = upper || 'A' <= c && c <= 'Z'
	}
	if !upper {
		return w
	}
	if len(w) > len(buf) {
		return strings.ToLower(w)
	}
	for i := 0; i < len(w); i++ {
		buf[i] = lowerASCII[w[i]]
	}
	return unsafe.String(&buf[0], len(w))
}

// negationWord reports whether w, in lower case, denies what the item
// names. Any negated contraction ("doesn't", "isn’t") denies too.
func negationWord(w string) bool {
	switch w {
	case "no", "not", "none", "never", "without", "nothing", "cannot":
		return true
	}
	return false
}

// functionWord reports whether w, in lower case, carries no content of
// its own.
func functionWord(w string) bool {
	switch w {
	case "the", "a", "an", "do", "does", "did", "any", "been", "will", "to", "of":
		return true
	}
	return false
}

// stemSuffixes are the suffixes stem cuts, the longest of each family
// first.
var stemSuffixes = []string{"ations", "ation", "ions", "ion", "ures", "ure", "ments", "ment", "ing", "ed", "es", "s", "e"}

// stemsByLast holds stemSuffixes by their last byte, in their order: a
// word is compared only with the suffixes it may end in, most words with
// none.
var stemsByLast = func() (by [256][]string) {
	for _, suf := range stemSuffixes {
		c := suf[len(suf)-1]
		by[c] = append(by[c], suf)
	}
	return by
}()

// stem cuts a word's common suffix, so that a noun and its verb compare
// equal ("exposure", "expose": "expos"); a stem keeps three letters.
func stem(w string) string {
	if len(w) < 4 {
		return w // no suffix leaves three letters
	}
	for _, suf := range stemsByLast[w[len(w)-1]] {
		if len(w) >= len(suf)+3 && strings.HasSuffix(w, suf) {
			return w[:len(w)-len(suf)]
		}
	}
	return w
}
