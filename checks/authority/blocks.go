package authority

import (
	"go/token"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/svrnty/sotvet/checks/internal/keywords"
	"github.com/svrnty/sotvet/sotparse"
)

// block is a paragraph, list-item paragraph or table cell of a document:
// sotparse's Block, whose Text has code spans replaced by
// sotparse.CodePlaceholder (what a code span says is quoted, never
// asserted, and the placeholder matches no pattern), with what the check
// computes about it.
type block struct {
	*sotparse.Block
	found     clauseBits // the prefilter clauses of the rule set Text satisfies
	sents     [][2]int
	sentFound []clauseBits // those each sentence satisfies, computed once for all rules
	// canon holds each sentence's canonical form, "" where it is the
	// sentence; canonFound, the clauses it satisfies.
	canon      []string
	canonFound []clauseBits
	// mention is set when the block only mentions its text: it lies in a
	// phrase list section or a section whose heading negates its content
	// ("Non-Goals", "Out of Scope", "Blocked Actions", ...).
	mention bool
	section string // the heading of the enclosing section
}

// sentences returns the sentence ranges of the text, computed once.
func (b *block) sentences() [][2]int {
	if b.sents == nil {
		b.sents = sentences(b.Text)
	}
	return b.sents
}

// literals returns the prefilter clauses each sentence satisfies, scanned
// once for all the rules that look at the block.
func (b *block) literals(m *matcher) []clauseBits {
	if b.sentFound == nil {
		ss := b.sentences()
		b.sentFound = make([]clauseBits, len(ss))
		for i, s := range ss {
			b.sentFound[i] = m.scan(b.Text[s[0]:s[1]])
		}
		b.canon = make([]string, len(ss))
		b.canonFound = make([]clauseBits, len(ss))
		if b.found&rewriteClause != 0 {
			for i, s := range ss {
				sent := b.Text[s[0]:s[1]]
				if c := canonical(sent); c != sent {
					b.canon[i], b.canonFound[i] = c, m.scan(c)
				}
			}
		}
	}
	return b.sentFound
}

// body is what the check reads of one document's body.
type body struct {
	blocks []block
	// all is every block of the document, which mentionAt reads on
	// first use; from doc when set.
	all []*sotparse.Block
	doc *docCheck
	// sections marks where each section starts (its heading) and whether
	// its content is only mentioned; sectioned is set once they are read.
	sections  []sectionMark
	sectioned bool
}

type sectionMark struct {
	pos     token.Pos
	mention bool
}

// mentionAt reports whether pos lies in a section whose content is only
// mentioned.
func (b *body) mentionAt(pos token.Pos) bool {
	if !b.sectioned {
		if b.doc != nil {
			b.all = b.doc.blocks()
		}
		var w sectionWalker
		for _, bl := range b.all {
			if bl.Kind == sotparse.BlockHeading {
				b.sections = append(b.sections, w.heading(bl))
			}
		}
		b.sectioned = true
	}
	m := false
	for _, s := range b.sections {
		if s.pos > pos {
			break
		}
		m = s.mention
	}
	return m
}

// sectionWalker follows the sections of a document heading by heading.
// A section is mentioned from a phrase-list heading, or from a negating
// heading, down to the next heading of the same or a higher level.
// Headings inside blockquotes are not blocks, and start no section.
type sectionWalker struct {
	phraseLevel int    // level of the enclosing phrase-list heading, or 0
	negateLevel int    // level of the enclosing negating heading, or 0
	section     string // the heading of the enclosing section
}

// heading enters the section the heading bl starts.
func (w *sectionWalker) heading(bl *sotparse.Block) sectionMark {
	txt := strings.TrimSpace(bl.Text)
	level := bl.Level
	if w.phraseLevel > 0 && level <= w.phraseLevel {
		w.phraseLevel = 0
	}
	if w.negateLevel > 0 && level <= w.negateLevel {
		w.negateLevel = 0
	}
	for _, sec := range sotparse.PhraseSections {
		if strings.EqualFold(txt, sec) {
			w.phraseLevel = level
		}
	}
	if w.negateLevel == 0 && negating(txt) {
		w.negateLevel = level
	}
	w.section = txt
	return sectionMark{pos: bl.Pos, mention: w.mention()}
}

// mention reports whether the current section's content is only
// mentioned.
func (w *sectionWalker) mention() bool { return w.phraseLevel > 0 || w.negateLevel > 0 }

// readBody collects the prose blocks of a document, its blocks, and the
// sections they lie in. With a rule set, it keeps only the blocks a
// sentence rule of the set may match (their found set), which most blocks
// are not: what the check keeps per document stays small. found is memory
// for the found sets, reused from document to document.
//
// The prose blocks are scanned first, and the sections walked only when
// a block is kept: a rule admits no block unless it admits the union of
// their found sets (admitting is monotone), and in most documents it
// admits neither. The sections are otherwise read only if a fact asks
// (mentionAt).
func readBody(blocks []*sotparse.Block, set *ClaimSet, found *[]clauseBits) *body {
	b := &body{all: blocks}
	if set != nil && !scanProse(blocks, set, found) {
		return b
	}
	var w sectionWalker
	k := 0 // the index of the next prose block in *found
	for _, bl := range blocks {
		if bl.Kind == sotparse.BlockHeading {
			b.sections = append(b.sections, w.heading(bl))
			continue
		}
		if !isProse(bl) {
			continue
		}
		blk := block{Block: bl, mention: w.mention(), section: w.section}
		if set != nil {
			blk.found = (*found)[k]
			k++
			if !set.admits(ScopeSentence, blk.found) {
				continue
			}
		}
		b.blocks = append(b.blocks, blk)
	}
	b.sectioned = true
	return b
}

// scanProse sets *found to the found sets of the prose blocks of blocks,
// in order, and reports whether a sentence rule of the set may match one
// of them.
func scanProse(blocks []*sotparse.Block, set *ClaimSet, found *[]clauseBits) bool {
	// One for each prose block at most: sized once, not grown through a
	// large document.
	f := slices.Grow((*found)[:0], len(blocks))
	var all clauseBits
	held := "" // a prose text waiting for the next one to be scanned with
	pending := false
	for _, bl := range blocks {
		if !isProse(bl) {
			continue
		}
		if !pending {
			held, pending = bl.Text, true
			continue
		}
		// Two texts scanned at once (scan2), kept in order.
		fa, fb := set.matcher.scan2(held, bl.Text)
		f = append(f, fa, fb)
		all |= fa | fb
		pending = false
	}
	if pending {
		fa := set.matcher.scan(held)
		f = append(f, fa)
		all |= fa
	}
	// A block is kept for what its sentences' canonical forms hold too.
	k := 0
	for _, bl := range blocks {
		if !isProse(bl) {
			continue
		}
		if f[k]&rewriteClause == 0 {
			k++
			continue
		}
		if ct := canonicalText(bl.Text); ct != "" {
			f[k] |= set.matcher.scan(ct)
			all |= f[k]
		}
		k++
	}
	*found = f
	return set.admits(ScopeSentence, all)
}

// isProse reports whether bl is a block whose sentences are judged: a
// paragraph, list-item paragraph or table cell with text.
func isProse(bl *sotparse.Block) bool {
	switch bl.Kind {
	case sotparse.BlockParagraph, sotparse.BlockListItem, sotparse.BlockTableCell:
		return bl.Text != ""
	}
	return false
}

// negatingWords are the words and phrases of section headings under which
// statements are listed as things not to do or not to claim.
var negatingWords = []string{
	"non goal", "non goals", "nongoal", "nongoals", "out of scope", "forbidden", "prohibited",
	"blocked action", "blocked actions", "disallowed", "not allowed", "anti goal", "anti goals",
	"antigoal", "antigoals", "rejected", "must not", "do not", "dont", "don t", "donts",
	"don ts", "risk", "risks", "non admission", "failure mode", "failure modes",
	"negative gate", "negative gates",
}

// negatingNeedles are negatingWords as negating looks for them, whole
// words between spaces, in one automaton: a heading is read once, not once
// per phrase.
var negatingNeedles = func() *keywords.Set {
	var out []string
	for _, w := range negatingWords {
		out = append(out, " "+w+" ")
	}
	return keywords.New(out...)
}()

// negating reports whether a section heading names things not to do or
// claim: one of negatingWords as whole words, in any case. It runs on
// every heading, so it builds the normalised heading (" " + lower-case
// words separated by single spaces + " ") without allocating.
func negating(heading string) bool {
	var buf [128]byte
	h := append(buf[:0], ' ')
	for i := 0; i < len(heading); {
		// An ASCII byte is lowered and classed by table, as unicode's
		// functions would; only other runes are decoded.
		if c := heading[i]; c < utf8.RuneSelf {
			i++
			switch {
			case 'a' <= c && c <= 'z' || '0' <= c && c <= '9':
				h = append(h, c)
			case 'A' <= c && c <= 'Z':
				h = append(h, c+'a'-'A')
			case h[len(h)-1] != ' ':
				h = append(h, ' ')
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(heading[i:])
		i += size
		r = unicode.ToLower(r)
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			h = utf8.AppendRune(h, r)
		case h[len(h)-1] != ' ':
			h = append(h, ' ')
		}
	}
	if h[len(h)-1] != ' ' {
		h = append(h, ' ')
	}
	// h is not kept past the call: viewed as a string, not copied.
	return negatingNeedles.Mask(unsafe.String(unsafe.SliceData(h), len(h)))&^keywords.NonASCII != 0
}
