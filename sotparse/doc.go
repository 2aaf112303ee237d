package sotparse

import (
	"go/token"
	"path"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/yuin/goldmark/ast"
)

// Kind is a document's kind, from its file-name suffix.
type Kind string

const (
	KindPRD      Kind = "PRD"
	KindIssues   Kind = "ISSUES"
	KindEvidence Kind = "EVIDENCE"
	KindCloseout Kind = "CLOSEOUT"
	KindRecord   Kind = "RECORD"
	KindContract Kind = "CONTRACT"
	KindTemplate Kind = "TEMPLATE"
	KindPacket   Kind = "PACKET"
	KindGuard    Kind = "GUARD"
	KindBrief    Kind = "BRIEF"
	KindAudit    Kind = "AUDIT"
	KindMatrix   Kind = "MATRIX"
	KindGates    Kind = "GATES"
	KindBlocker  Kind = "BLOCKER"
	KindAttempt  Kind = "ATTEMPT"
	KindOther    Kind = "other"
)

// Kinds lists every suffix kind, in the order DESIGN.md gives them.
var Kinds = []Kind{KindPRD, KindIssues, KindEvidence, KindCloseout, KindRecord,
	KindContract, KindTemplate, KindPacket, KindGuard, KindBrief, KindAudit,
	KindMatrix, KindGates, KindBlocker, KindAttempt}

// KindOf returns the kind and route stem of a document path: the stem is the
// file name without ".md" and without the kind suffix
// ("CTO-X-PRD.md" -> PRD, "CTO-X").
func KindOf(p string) (Kind, string) {
	name := strings.TrimSuffix(path.Base(p), ".md")
	for _, k := range Kinds {
		if stem, ok := strings.CutSuffix(name, "-"+string(k)); ok && stem != "" {
			return k, stem
		}
	}
	return KindOther, name
}

// Doc is one markdown document.
type Doc struct {
	Path string
	File *File
	Kind Kind
	Stem string // route stem: documents sharing it form a route

	FrontmatterState FrontmatterState
	Frontmatter      *Frontmatter // nil unless FrontmatterOK
	BodyStart        token.Pos
	BOM              bool

	Headings    []*Heading
	WorkItems   []*WorkItem
	StatusLines []*Line // every body "Status: ..." line, in order
	Facts       Facts   // "- key: value" list items
	// KeyValues are the facts stated in the other forms of a key and its
	// value: table rows and bold labels (see FactForm). Apart from Facts,
	// whose rules read list items only.
	KeyValues   []*Fact
	PhraseLists []*PhraseList
	Refs        Refs

	blockEnc []byte   // the blocks of the body, encoded (see Blocks)
	summary  bool     // decoded from a summary: no content, no blocks (see Workspace.Content)
	mentions []string // a summary's work ids in any letter case, upper-cased, sorted

	visits   *visitSet     // what the parse's DocChecks found in d (see DocCheck.Each)
	ran      atomic.Uint64 // the DocChecks the parse ran on d and has not handed over, by index
	released bool          // the text went after the DocChecks ran (Stream.Release)
	digest   uint64        // of the released text, to know it again when read back

	memo atomic.Pointer[memoTable] // what checks derived from a summarized document (Memo)

	// The goldmark tree of the body and where the body starts, from the
	// parse to the end of the DocChecks it runs on d (DocPass.Markdown).
	tree     ast.Node
	treeBase int
}

// Summarized reports whether d was decoded from a summary (a session
// keeps it between runs): its text is read back when a check asks for it.
func (d *Doc) Summarized() bool { return d.summary }

// Released reports whether d's text went after the parse's DocChecks
// (Stream.Release): Workspace.Content reads it back from its file.
func (d *Doc) Released() bool { return d.released }

// MayMention reports whether d's text may name the work id (upper case),
// in any letter case: false only when d is a summary whose text certainly
// does not, so that a check can skip reading it back.
func (d *Doc) MayMention(id string) bool {
	if !d.summary {
		return true
	}
	_, found := slices.BinarySearch(d.mentions, id)
	return found
}

// Mentions returns the work ids a summary's text names (upper-cased,
// sorted) and true, or nil and false when d is not a summary and may name
// any: a check indexes the documents that may name an id by this list
// rather than asking each document about each id.
func (d *Doc) Mentions() ([]string, bool) {
	if !d.summary {
		return nil, false
	}
	return d.mentions, true
}

// Heading is an ATX or setext heading.
type Heading struct {
	Level    int
	Text     string
	Pos, End token.Pos
}

// Line is a "Key: value" paragraph line such as "Status: validated.".
type Line struct {
	Key      string // "Status", "Type", "Blocked by", "Validator"
	Value    string // text after the colon, trimmed
	Pos, End token.Pos
	ValuePos token.Pos
	Item     *WorkItem // the work item whose section holds the line, or nil
}

// Word returns the first word of the value, lower-cased, without trailing
// punctuation: "validated." -> "validated".
func (l *Line) Word() string {
	w, _, _ := strings.Cut(l.Value, " ")
	return strings.ToLower(strings.TrimRight(w, ".,;:"))
}

// Checkbox is a GFM task-list item. Its text is not kept: no check reads
// it (Pos to End spans its first line), and a large workspace's model held
// 5 MB of it.
type Checkbox struct {
	Checked  bool
	Pos, End token.Pos
}

// WorkItem is a work item defined by a heading in one of the three styles:
// "### CTO-WORK-009 - Title", "## Issue: CTO-WORK-078 - Title",
// "## CTO-WORK-064: Title".
type WorkItem struct {
	ID       string
	Title    string
	Style    string // "dash", "issue", "colon"
	Level    int
	Pos, End token.Pos // the heading

	Type      *Line
	Status    *Line // the first Status line of the section
	BlockedBy *Line
	Blockers  Refs // CTO-WORK ids on the Blocked by line(s), packed

	Validator  *Line
	Checkboxes []*Checkbox
}

// Fact is a list item of the form "- key: value", or (in KeyValues) a key
// and its value stated in another form.
type Fact struct {
	Key, Value string
	Pos, End   token.Pos
	ValuePos   token.Pos
	Form       FactForm
	// Subject is what a table cell's value is said of: the first cell of
	// its row (FactHeaderCell only).
	Subject string
}

// FactForm is the form a fact is stated in.
type FactForm uint8

const (
	FactListItem   FactForm = iota // "- key: value"
	FactTableRow                   // "| key | value |", a row of a two-column table
	FactHeaderCell                 // a cell under a header naming its key: "| Case | yes |" under "| Lane | Default backend |"
	FactLabel                      // "**Key:** value" or "**Key**: value", a line or a list item's first line
)

// PhraseList is a "Required Phrases", "Required Evidence" or "Validator
// Summary Phrases" section and the phrases it lists.
type PhraseList struct {
	Section string
	Pos     token.Pos // the heading
	Phrases []*Phrase
}

// Phrase is one required phrase.
type Phrase struct {
	Raw      string // as written, code spans and emphasis included
	Text     string // PlainText(Raw)
	Pos, End token.Pos
}

// PhraseSections are the section headings whose list items are phrases.
var PhraseSections = []string{"Required Phrases", "Required Evidence", "Validator Summary Phrases"}

// RefKind classifies a reference.
type RefKind int

const (
	RefWorkID  RefKind = iota + 1 // CTO-WORK-NNN
	RefSOTPath                    // .sot/... path
	RefSource                     // frontmatter source: target
	RefAbsPath                    // absolute path in a code span
	RefCommit                     // commit SHA in a code span
)

func (k RefKind) String() string {
	switch k {
	case RefWorkID:
		return "work-id"
	case RefSOTPath:
		return "sot-path"
	case RefSource:
		return "source"
	case RefAbsPath:
		return "abs-path"
	case RefCommit:
		return "commit"
	}
	return "unknown"
}

// Ref is a reference found in a document.
type Ref struct {
	Kind     RefKind
	Text     string
	Pos, End token.Pos
}
