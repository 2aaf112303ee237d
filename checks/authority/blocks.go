package authority

import (
	"bytes"
	"go/token"
	"strings"
	"unicode"
	"unicode/utf8"

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
	}
	return b.sentFound
}

// body is what the check reads of one document's body.
type body struct {
	blocks []block
	// sections marks where each section starts (its heading) and whether
	// its content is only mentioned.
	sections []sectionMark
}

type sectionMark struct {
	pos     token.Pos
	mention bool
}

// mentionAt reports whether pos lies in a section whose content is only
// mentioned.
func (b *body) mentionAt(pos token.Pos) bool {
	m := false
	for _, s := range b.sections {
		if s.pos > pos {
			break
		}
		m = s.mention
	}
	return m
}

// readBody collects the prose blocks of a document, its blocks, and the
// sections they lie in. With a rule set, it keeps only the blocks a
// sentence rule of the set may match (their found set), which most blocks
// are not: what the check keeps per document stays small.
// A section is mentioned from a phrase-list heading, or from a negating
// heading, down to the next heading of the same or a higher level.
// Headings inside blockquotes are not blocks, and start no section.
func readBody(blocks []*sotparse.Block, set *ClaimSet) *body {
	b := &body{}
	phraseLevel := 0 // level of the enclosing phrase-list heading, or 0
	negateLevel := 0 // level of the enclosing negating heading, or 0
	section := ""
	var held block // a prose block waiting for the next one to be scanned with
	pending := false
	for _, bl := range blocks {
		if bl.Kind == sotparse.BlockHeading {
			txt := strings.TrimSpace(bl.Text)
			level := bl.Level
			if phraseLevel > 0 && level <= phraseLevel {
				phraseLevel = 0
			}
			if negateLevel > 0 && level <= negateLevel {
				negateLevel = 0
			}
			for _, sec := range sotparse.PhraseSections {
				if strings.EqualFold(txt, sec) {
					phraseLevel = level
				}
			}
			if negateLevel == 0 && negating(txt) {
				negateLevel = level
			}
			section = txt
			b.sections = append(b.sections, sectionMark{pos: bl.Pos, mention: phraseLevel > 0 || negateLevel > 0})
			continue
		}
		if !isProse(bl) {
			continue
		}
		blk := block{Block: bl, mention: phraseLevel > 0 || negateLevel > 0, section: section}
		switch {
		case set == nil:
			b.blocks = append(b.blocks, blk)
		case !pending:
			held, pending = blk, true
		default:
			// Two blocks scanned at once (scan2), kept in order.
			held.found, blk.found = set.matcher.scan2(held.Text, blk.Text)
			b.keep(set, held)
			b.keep(set, blk)
			pending = false
		}
	}
	if pending {
		held.found = set.matcher.scan(held.Text)
		b.keep(set, held)
	}
	return b
}

// keep adds blk, whose found set is computed, when a sentence rule of the
// set may match it.
func (b *body) keep(set *ClaimSet, blk block) {
	if set.admits(ScopeSentence, blk.found) {
		b.blocks = append(b.blocks, blk)
	}
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

// negatingNeedles are negatingWords as negating looks for them.
var negatingNeedles = func() [][]byte {
	var out [][]byte
	for _, w := range negatingWords {
		out = append(out, []byte(" "+w+" "))
	}
	return out
}()

// negating reports whether a section heading names things not to do or
// claim: one of negatingWords as whole words, in any case. It runs on
// every heading, so it builds the normalised heading (" " + lower-case
// words separated by single spaces + " ") without allocating.
func negating(heading string) bool {
	var buf [128]byte
	h := append(buf[:0], ' ')
	for _, r := range heading {
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
	for _, w := range negatingNeedles {
		if bytes.Contains(h, w) {
			return true
		}
	}
	return false
}
