package secrets

import (
	"bytes"
	_ "embed"
	"encoding/binary"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// RuleSeedPhrase reports a wallet's recovery phrase: twelve to thirty
// words in a row, each of the BIP-39 English word list, whatever names
// it (a note's "recovery words", a chat's answer, a MNEMONIC= line). It
// reads the words, not the phrase's label: a seed phrase is told by its
// words alone, and the labels people give one are as many as its
// languages. Ranked after every older rule, so no finding changes its ID.
const RuleSeedPhrase = "seed-phrase"

// The BIP-39 English word list and the test vectors of its reference
// implementation (trezor/python-mnemonic, MIT; see LICENSE beside them).
//
//go:embed rules/third_party/python-mnemonic/english.txt
var bip39English string

//go:embed rules/third_party/python-mnemonic/vectors-english.txt
var bip39Vectors string

// Bounds of a seed phrase: BIP-39 phrases have 12 to 24 words (and
// Electrum's 12 or 13); a run a few words longer may be a phrase and the
// words around it. A longer run is a list of words, not a phrase.
const (
	seedMinWords = 12
	seedMaxWords = 30
	// the longest run judged: a phrase beside published ones, which
	// judgeSeedRun cuts out (the longest has 24 words)
	seedRunCap = seedMaxWords + 2*24
	// what may stand between two words: blanks, punctuation, a list's
	// numbers ("1. timber 2. frost"), a table's bars, a line break
	seedMaxGap      = 16
	seedMaxNewlines = 1
)

// publicSeedPhrases are phrases published as development defaults, which
// hold no one's funds: Truffle's `develop` and ganache-cli's
// `--deterministic` mnemonics.
var publicSeedPhrases = []string{
	"candy maple cake sugar pudding cream honey rich smooth crumble sweet treat",
	"myth like bonus scare over problem client lizard pioneer submit female collect",
}

// seedWords is the word list, and the phrases that are none (the test
// vectors and the development defaults), by their words joined by one
// space.
type seedWords struct {
	table [seedSlots]struct {
		word uint64 // packed as lookup takes it; 0 for an empty slot
		idx  uint16
	}
	public     map[string]bool
	publicLens []int // the lengths in words of the public phrases
}

var bip39Words = sync.OnceValue(func() *seedWords {
	w := &seedWords{public: map[string]bool{}}
	for i, word := range strings.Fields(bip39English) {
		var packed uint64
		for k := range len(word) {
			packed |= uint64(word[k]) << (8 * k)
		}
		h := seedHash(packed)
		for w.table[h].word != 0 {
			h = (h + 1) & (seedSlots - 1)
		}
		w.table[h].word, w.table[h].idx = packed, uint16(i)
	}
	for _, p := range append(strings.Split(strings.TrimSpace(bip39Vectors), "\n"), publicSeedPhrases...) {
		f := strings.Fields(p)
		w.public[strings.Join(f, " ")] = true
		if !slices.Contains(w.publicLens, len(f)) {
			w.publicLens = append(w.publicLens, len(f))
		}
	}
	return w
})

func seedPhraseRule() *Rule {
	return &Rule{
		ID:          RuleSeedPhrase,
		Description: "wallet recovery phrase: 12 to 30 words of the BIP-39 English list in a row",
		// The shape, for Expr and the documentation; findSeedPhrases
		// finds the phrases (a word list has no keyword to wake a rule).
		builtinRE: builtinExpr(`\b[A-Za-z]{3,8}(?:[^A-Za-z]{1,16}[A-Za-z]{3,8}){11,29}\b`),
		find:      findSeedPhrases,
	}
}

// seedWord is a word of a run: where it is, its index in the list, and
// how it is written.
type seedWord struct {
	start, end int
	idx        int
	style      wordCase
}

type wordCase uint8

const (
	caseLower wordCase = iota
	caseUpper
	caseTitle
	caseMixed
)

func caseOf(w []byte) wordCase {
	upper := 0
	for _, c := range w {
		if c <= 'Z' {
			upper++
		}
	}
	switch {
	case upper == 0:
		return caseLower
	case upper == len(w):
		return caseUpper
	case upper == 1 && w[0] <= 'Z':
		return caseTitle
	}
	return caseMixed
}

// findSeedPhrases calls emit with the span of each seed phrase in data:
// a run of seedMinWords or more words of the list, written in one case
// (the first may be capitalised), each a whole word (no digit or
// underscore glued to it), with at most seedMaxGap bytes between two,
// none of them a letter of any script.
func findSeedPhrases(data []byte, _ func(start, end int) bool, emit func(start, end int)) {
	list := bip39Words()
	var run []seedWord
	var key []byte
	// a run past seedRunCap words is a list of words, whatever it holds:
	// it is not kept (a file of listed words would hold them all)
	long := false
	flush := func() {
		if len(run) >= seedMinWords && !long {
			judgeSeedRun(data, run, list, &key, emit)
		}
		run, long = run[:0], false
	}
	add := func(w seedWord) {
		if len(run) == seedRunCap && !long {
			// A run this long is lines of phrases (a dump, one a line)
			// or a list of words: its complete lines are judged each on
			// its own, and the rest kept; a line this long is a list.
			if k := lastLineStart(data, run); k > 0 {
				judgeSeedLines(data, run[:k], list, &key, emit)
				run = append(run[:0], run[k:]...)
			} else {
				long = true
			}
		}
		if !long {
			run = append(run, w)
		}
	}
	last := 0 // the end of the run's last word
	n := len(data)
	for i := 0; i < n; {
		// Every byte is read once, and a word is looked up as one
		// integer: prose is mostly words, and this pass reads all of it.
		if seedByte[data[i]] != seedLetter {
			i++
			continue
		}
		j := i + 1
		for j < n && seedByte[data[j]] == seedLetter {
			j++
		}
		idx := -1
		if l := j - i; l >= 3 && l <= 8 && (i == 0 || seedByte[data[i-1]] != seedGlue) && (j == n || seedByte[data[j]] != seedGlue) {
			var packed uint64
			if i+8 <= n {
				packed = binary.LittleEndian.Uint64(data[i:]) & (1<<(8*l) - 1)
			} else {
				for k := range l {
					packed |= uint64(data[i+k]) << (8 * k)
				}
			}
			// lower case: every byte is a letter, and 0x20 folds one
			idx = list.lookup(packed | 0x2020202020202020&(1<<(8*l)-1))
		}
		if idx < 0 {
			if len(run) > 0 {
				flush()
			}
			i = j
			continue
		}
		style := caseOf(data[i:j])
		switch {
		case style == caseMixed:
			if len(run) > 0 {
				flush()
			}
			i = j
			continue
		case len(run) > 0 && (!seedGap(data[last:i]) || !sameCase(run, style)):
			flush()
		}
		add(seedWord{i, j, idx, style})
		last = j
		i = j
	}
	flush()
}

// The classes of bytes findSeedPhrases tells apart: a letter of a word,
// what glues a word to a longer token (a digit, an underscore), the rest.
const (
	seedOther = iota
	seedLetter
	seedGlue
)

var seedByte = func() (t [256]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = seedLetter, seedLetter
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = seedGlue
	}
	t['_'] = seedGlue
	return t
}()

// seedSlots is the size of seedWords' table: a power of two, four times
// the list.
const seedSlots = 8192

// lookup returns the index in the list of the word packed holds (its
// lower-case bytes, the first in the lowest), -1 when it is none.
func (w *seedWords) lookup(packed uint64) int {
	for h := seedHash(packed); ; h = (h + 1) & (seedSlots - 1) {
		switch e := w.table[h]; {
		case e.word == packed:
			return int(e.idx)
		case e.word == 0:
			return -1
		}
	}
}

func seedHash(packed uint64) uint64 { return packed * 0x9e3779b97f4a7c15 >> (64 - 13) }

// seedGap reports whether gap may stand between two words of a phrase:
// not a colon or an equals sign, which end a label ("Recovery phrase:",
// and phrase is a word of the list) or a name (words=).
func seedGap(gap []byte) bool {
	if len(gap) > seedMaxGap || bytes.Count(gap, []byte{'\n'}) > seedMaxNewlines || bytes.ContainsAny(gap, ":=") {
		return false
	}
	for i := 0; i < len(gap); {
		if gap[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRune(gap[i:])
		if unicode.IsLetter(r) {
			return false // a word of another script between them
		}
		i += n
	}
	return true
}

// sameCase reports whether a word written in style continues run: every
// word in one case, but a first word capitalised before lower-case ones.
func sameCase(run []seedWord, style wordCase) bool {
	last := run[len(run)-1].style
	if len(run) == 1 && last == caseTitle {
		return style == caseLower || style == caseTitle
	}
	return style == last
}

// judgeSeedRun calls emit with the phrases a run of listed words holds:
// the run, or its parts around published phrases (a file of test vectors
// or of development defaults writes them one after the other), each
// judged by judgeSeedPart.
func judgeSeedRun(data []byte, run []seedWord, list *seedWords, key *[]byte, emit func(start, end int)) {
	from := 0
	for k := 0; k+seedMinWords <= len(run); k++ {
		for _, l := range list.publicLens {
			if k+l <= len(run) && list.public[seedKey(data, run[k:k+l], key)] {
				judgeSeedPart(data, run[from:k], list, key, emit)
				from, k = k+l, k+l-1
				break
			}
		}
	}
	judgeSeedPart(data, run[from:], list, key, emit)
}

// judgeSeedPart calls emit with the span of a run of listed words if it
// is a phrase: long enough, not a list of words (longer than a phrase,
// or in the list's order), not a made-up one (a word drawn again and
// again, as the test vectors' "abandon abandon … about" and Hardhat's
// "test test … junk").
func judgeSeedPart(data []byte, run []seedWord, list *seedWords, key *[]byte, emit func(start, end int)) {
	n := len(run)
	if n > seedMaxWords || n > 24 && linesArePhrases(data, run) {
		judgeSeedLines(data, run, list, key, emit)
		return
	}
	if n < seedMinWords {
		return
	}
	ascending := 0
	distinct := map[int]bool{}
	for k, w := range run {
		if k > 0 && w.idx > run[k-1].idx {
			ascending++
		}
		distinct[w.idx] = true
	}
	if ascending*10 >= (n-1)*9 || len(distinct)*4 < n*3 || list.public[seedKey(data, run, key)] {
		return
	}
	run = trimSeedRun(data, run)
	emit(run[0].start, run[len(run)-1].end)
}

// judgeSeedLines judges the words of each line of a run on their own
// (judgeSeedPart): a run longer than a phrase may be phrases written one
// a line.
func judgeSeedLines(data []byte, run []seedWord, list *seedWords, key *[]byte, emit func(start, end int)) {
	from := 0
	for k := 1; k <= len(run); k++ {
		if k == len(run) || bytes.IndexByte(data[run[k-1].end:run[k].start], '\n') >= 0 {
			if k-from <= seedMaxWords {
				judgeSeedPart(data, run[from:k], list, key, emit)
			}
			from = k
		}
	}
}

// linesArePhrases reports whether a run spans lines each of which holds
// a phrase's words on its own: phrases written one a line, not one
// phrase wrapped.
func linesArePhrases(data []byte, run []seedWord) bool {
	from, lines := 0, 0
	for k := 1; k <= len(run); k++ {
		if k == len(run) || bytes.IndexByte(data[run[k-1].end:run[k].start], '\n') >= 0 {
			if k-from < seedMinWords {
				return false
			}
			from = k
			lines++
		}
	}
	return lines > 1
}

// lastLineStart returns the index of the first word of the run's last
// line, 0 when the run is one line.
func lastLineStart(data []byte, run []seedWord) int {
	for k := len(run) - 1; k > 0; k-- {
		if bytes.IndexByte(data[run[k-1].end:run[k].start], '\n') >= 0 {
			return k
		}
	}
	return 0
}

// trimSeedRun drops from a run of a length no phrase has (BIP-39's are
// 12, 15, 18, 21 or 24 words) the words at either end that stand apart
// from the others as the phrase's words do not: a word of the sentence
// before it ("move timber-frost-…", "in order\ntimber frost …"), whose
// gap to the phrase is not the one most of its words have.
func trimSeedRun(data []byte, run []seedWord) []seedWord {
	valid := func(n int) bool { return n >= 12 && n <= 24 && n%3 == 0 }
	if valid(len(run)) {
		return run
	}
	kind := func(k int) string { return gapKind(data[run[k-1].end:run[k].start]) }
	count := map[string]int{}
	for k := 1; k < len(run); k++ {
		count[kind(k)]++
	}
	most, best := "", 0
	for g, c := range count {
		if c > best || c == best && g < most {
			most, best = g, c
		}
	}
	for len(run) > seedMinWords && !valid(len(run)) {
		switch {
		case kind(1) != most:
			run = run[1:]
		case kind(len(run)-1) != most:
			run = run[:len(run)-1]
		default:
			return run
		}
	}
	return run
}

// gapKind is what a gap between two words is made of, a list's numbers
// left out: the separator a phrase repeats between its words.
func gapKind(gap []byte) string {
	var b []byte
	for _, c := range gap {
		if c < '0' || c > '9' {
			b = append(b, c)
		}
	}
	return string(b)
}

// seedKey returns the words of run in lower case joined by one space,
// in *key's storage.
func seedKey(data []byte, run []seedWord, key *[]byte) string {
	*key = (*key)[:0]
	for k, w := range run {
		if k > 0 {
			*key = append(*key, ' ')
		}
		for _, b := range data[w.start:w.end] {
			*key = append(*key, b|0x20)
		}
	}
	return string(*key)
}
