package sotparse

import (
	"fmt"
	"go/token"
	"hash/maphash"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/internal/parallel"
	"github.com/svrnty/sotvet/sotparse/internal/gfm"
)

// A DocCheck is the part of a check that reads one document at a time, on
// its own: its text, its frontmatter, its blocks, never another document.
//
// A driver may hand the parse the DocChecks of the checks it is about to
// run (Stream): the parse then runs them on each document right after
// parsing it, while its text is in memory, and can let the text go at once
// (Stream.Release). A check's Run collects what they found with Each (the
// documents in focus) or Some (those it asks for), which run the DocCheck
// itself on the documents the parse did not: the check finds the same
// whatever the driver did. What the Run then reports from those results
// the DocCheck names with DocPass.Flag, so that the text it flags is kept.
type DocCheck struct {
	// Prepare, when set, is called once per run before Run, from the
	// check's flags as they are then: what it returns is DocPass.Prepared.
	Prepare func() any
	// Run inspects one document; it may report diagnostics through the
	// DocPass and returns a value that Each hands back to the check's Run.
	// It returns nil, not a nil slice or pointer in an interface, when it
	// found nothing: the parse then keeps nothing for the document. It is
	// called concurrently for different documents. The DocPass is Run's
	// only until it returns: the parse reuses it for the next check.
	Run func(*DocPass) any
	// KeepsKeyValue, when set, says which of a document's KeyValues the
	// check's analyzer reads once the parse is done (prepared: what
	// Prepare returned). A parse that lets each text go (Stream.Release)
	// keeps of KeyValues only the facts some DocCheck of the run keeps:
	// a table is a fact per cell, which the DocChecks read while the
	// document is parsed and few rules read after. Nil: the analyzer
	// reads no KeyValues after the parse.
	KeepsKeyValue func(prepared any, d *Doc, f *Fact) bool
	// KeepsField, when set, says which of a document's frontmatter
	// fields of an unknown key (Frontmatter.Unknown) the check's analyzer
	// reads once the parse is done. A parse that lets each text go keeps
	// of those only the fields some DocCheck of the run keeps; the fields
	// of KnownKeys it keeps all. Nil: the analyzer reads no unknown key's
	// field after the parse.
	KeepsField func(prepared any, d *Doc, f *Field) bool
}

// A DocPass is one document as a DocCheck sees it.
type DocPass struct {
	Doc      *Doc
	Content  []byte // the document's text; offsets in it are offsets of Doc's positions
	Prepared any    // what the DocCheck's Prepare returned for this run
	ws       *Workspace
	diags    []analysis.Diagnostic
	flagged  []analysis.Diagnostic // spans a finding of the check's Run may flag (Flag)
	check    *DocCheck             // the check running (for the count of dropped diagnostics)
	n        int                   // diagnostics reported, held or not
	parse    bool                  // the parse runs the check (Stream.Keep applies)
}

// Texts returns the run's table of texts (Workspace.Texts): what a check
// keeps of the document past its text, it may name there.
func (p *DocPass) Texts() *Texts { return p.ws.Texts() }

func (c *DocCheck) prepare() any {
	if c.Prepare == nil {
		return nil
	}
	return c.Prepare()
}

// Report records a diagnostic about the document.
// Beyond Stream.MaxPerDoc diagnostics of the check on the document, one is
// counted (Workspace.Dropped), not kept.
func (p *DocPass) Report(d analysis.Diagnostic) {
	if m := p.ws.maxPerDoc; m > 0 {
		act := CapCounted
		if p.ws.capping != nil {
			act = p.ws.capping(p.check, p.Doc, p.Content, d)
		}
		switch act {
		case CapIgnored:
			return
		case CapCounted:
			if p.n >= m {
				p.ws.drop(p.Doc.Path, p.check, d.Category)
				return
			}
			p.n++
		}
	}
	if p.parse && p.ws.keep != nil && !p.ws.keep(p.check, p.Doc, p.Content, d) {
		return // the driver counted it
	}
	if p.ws.dropFixes {
		d.SuggestedFixes = nil
	}
	p.diags = append(p.diags, d)
}

// CapAction is what Stream.MaxPerDoc does with a diagnostic.
type CapAction uint8

const (
	// CapCounted counts toward the cap; past it, the diagnostic is
	// counted (Workspace.Dropped), not kept.
	CapCounted CapAction = iota
	// CapHeld is kept, whatever the count: the driver counts it as the
	// report does.
	CapHeld
	// CapIgnored is neither kept nor counted: no report shows it.
	CapIgnored
)

// Dropped is a count of diagnostics a DocCheck reported on a document
// beyond Stream.MaxPerDoc.
type Dropped struct {
	Path     string
	Check    *DocCheck
	Category string
	N        int
}

type dropKey struct {
	path     string
	check    *DocCheck
	category string
}

func (ws *Workspace) drop(path string, c *DocCheck, category string) {
	ws.dropMu.Lock()
	defer ws.dropMu.Unlock()
	if ws.dropped == nil {
		ws.dropped = map[dropKey]int{}
	}
	ws.dropped[dropKey{path, c, category}]++
}

// Dropped returns the diagnostics counted and not kept, sorted by path.
func (ws *Workspace) Dropped() []Dropped {
	ws.dropMu.Lock()
	defer ws.dropMu.Unlock()
	out := make([]Dropped, 0, len(ws.dropped))
	for k, n := range ws.dropped {
		out = append(out, Dropped{k.path, k.check, k.category, n})
	}
	slices.SortFunc(out, func(a, b Dropped) int {
		if a.Path != b.Path {
			return strings.Compare(a.Path, b.Path)
		}
		return strings.Compare(a.Category, b.Category)
	})
	return out
}

// Flag tells the driver that the check's Run may report a finding that
// flags [pos, end) of the document, from what the DocCheck returned: the
// driver keeps what it needs of that text (Stream.AfterDoc) as for a
// diagnostic reported here, and need not read the text back for it.
func (p *DocPass) Flag(pos, end token.Pos) {
	p.flagged = append(p.flagged, analysis.Diagnostic{Pos: pos, End: end})
}

// Exists is Workspace.Exists: the workspace's paths are known, from its
// discovery, before any document is parsed.
func (p *DocPass) Exists(path string) bool { return p.ws.Exists(path) }

// Fixes reports whether the run wants suggested fixes: Report drops them
// otherwise (Stream.DropFixes), and a check may spare building them.
func (p *DocPass) Fixes() bool { return p.ws.Fixes() }

// Fixes reports whether the run wants suggested fixes (not
// Stream.DropFixes): a check's Run may spare building those it drops, and
// reading a text back for them.
func (ws *Workspace) Fixes() bool { return !ws.dropFixes }

// Markdown returns the goldmark tree the parse built of the document's
// body, and the offset in Content where the body starts: its segments are
// offsets in Content[base:]. The body is parsed with MarkdownExtensions
// and without the frontmatter. The tree is there while the parse runs its
// DocChecks on the document, not when a check's Run runs one itself (Each,
// Some), nor for a body whose nesting the parse bounded: then root is
// nil. A DocCheck reads the tree and keeps nothing of it.
//
// A table's body rows are not goldmark's TableRows: each is a row whose
// plain cells have no node (gfm.LeanRow), which LeanRowCells reads.
func (p *DocPass) Markdown() (root ast.Node, base int) {
	if p.Doc == nil {
		return nil, 0
	}
	return p.Doc.tree, p.Doc.treeBase
}

// LeanRowCells reports whether row, a node of a tree Markdown returns, is
// a table body row whose plain cells have no node; if it is, it calls
// cell with each of the row's cells, in order, as goldmark's TableRow
// would hold them: node is the cell's TableCell, or nil for a plain cell,
// whose TableCell would hold only Text nodes, covering seg (of body, the
// source the tree was parsed from) without gaps. An empty plain cell has
// an empty seg.
func LeanRowCells(row ast.Node, body []byte, cell func(node ast.Node, seg text.Segment)) bool {
	r, ok := row.(*gfm.LeanRow)
	if !ok {
		return false
	}
	r.Cells(body, func(node *east.TableCell, _ int, seg text.Segment) {
		if node != nil {
			cell(node, seg)
			return
		}
		cell(nil, seg)
	})
	return true
}

// Focused reports whether the run reports on the document (Workspace.Focused).
func (p *DocPass) Focused() bool { return p.ws.Focused(p.Doc.Path) }

// docVisit is what one DocCheck did on one document during the parse, kept
// only when it returned or reported something: most checks find nothing
// in most documents, and a large workspace has many of both.
type docVisit struct {
	result any    // what the DocCheck returned, or a visitPanic
	end    uint32 // its diagnostics are its set's held[the previous visit's end:end]
	k      uint8  // the DocCheck's index in the run's Stream.Checks
}

// visitSet is what the parse's DocChecks found in one document, until
// their checks' Runs take it (handOver): then it goes. A large workspace
// holds one for each document with a finding, until the checks run, so it
// is kept small: the diagnostics of all the visits in one list, and what
// they say in another, once for the diagnostics that say the same.
type visitSet struct {
	kept    uint64 // the DocChecks with a visit in list, by index; set in the parse
	pending atomic.Int32
	list    []docVisit
	held    []heldDiag
	texts   []heldText
}

// visitPanic is the result of a DocCheck that panicked: handing it over
// panics again, in the check's Run.
type visitPanic string

// heldDiag is a diagnostic a DocCheck reported, held from the parse to
// its check's Run: a run with many findings holds them all at once, most
// of them a span of their document with a category and a message shared
// with others (heldText).
type heldDiag struct {
	pos, end uint32 // offsets of Pos and End from the document's base
	text     uint32 // what it says: its set's texts[text]
}

// heldText is the category and message of held diagnostics, or a
// diagnostic held whole: one with a fix, a URL, related locations or a
// position outside its document.
type heldText struct {
	category, message string
	whole             *analysis.Diagnostic // when set, the diagnostic, and the rest is unset
}

// sameTexts is how many of the last texts of a set hold looks through
// for one a diagnostic shares: a document's diagnostics that say the same
// mostly come together, and a long search for each of many that do not
// would cost more than their texts.
const sameTexts = 4

// hold adds diag, a diagnostic about tf, to vs's held diagnostics.
func (vs *visitSet) hold(tf *token.File, diag analysis.Diagnostic) {
	base, size := tf.Base(), tf.Size()
	pos, end := int(diag.Pos)-base, int(diag.End)-base
	if !diag.Pos.IsValid() || pos < 0 || pos > size || end < 0 || end > size || diag.URL != "" || diag.SuggestedFixes != nil || diag.Related != nil {
		// A copy: taking diag's address would move every diagnostic
		// held, compact ones too, to the heap.
		whole := diag
		vs.texts = append(vs.texts, heldText{whole: &whole})
		vs.held = append(vs.held, heldDiag{text: uint32(len(vs.texts) - 1)})
		return
	}
	text := -1
	for i := len(vs.texts) - 1; i >= 0 && i >= len(vs.texts)-sameTexts; i-- {
		if t := &vs.texts[i]; t.whole == nil && t.category == diag.Category && t.message == diag.Message {
			text = i
			break
		}
	}
	if text < 0 {
		vs.texts = append(vs.texts, heldText{category: diag.Category, message: diag.Message})
		text = len(vs.texts) - 1
	}
	vs.held = append(vs.held, heldDiag{pos: uint32(pos), end: uint32(end), text: uint32(text)})
}

// diagnostic returns the diagnostic h holds, about tf, with texts its
// set's.
func (h *heldDiag) diagnostic(tf *token.File, texts []heldText) analysis.Diagnostic {
	t := &texts[h.text]
	if t.whole != nil {
		return *t.whole
	}
	base := tf.Base()
	return analysis.Diagnostic{Pos: token.Pos(base + int(h.pos)), End: token.Pos(base + int(h.end)), Category: t.category, Message: t.message}
}

// visit runs c, the run's DocCheck k, on p's document and returns what it
// did, its diagnostics not yet held, and the spans it flagged, both
// appended to sc's.
func (ws *Workspace) visit(k int, c *DocCheck, p *DocPass, sc *checkScratch) (v docVisit, diags, flagged []analysis.Diagnostic) {
	// The pass reports into the rest of the document's scratch lists.
	nd, nf := len(sc.diags), len(sc.flagged)
	p.Prepared, p.diags, p.flagged, p.check, p.n, p.parse = ws.prepared[k], sc.diags[nd:nd], sc.flagged[nf:nf], c, 0, true
	v.k = uint8(k)
	func() {
		defer func() {
			if r := recover(); r != nil {
				v.result = visitPanic(fmt.Sprintf("%v\n%s", r, debug.Stack()))
			}
		}()
		v.result = c.Run(p)
	}()
	p.Doc.ran.Or(1 << k)
	// In place, unless a list outgrew its room; then copied onto its end.
	sc.diags = append(sc.diags, p.diags...)
	sc.flagged = append(sc.flagged, p.flagged...)
	p.Prepared, p.diags, p.flagged = nil, nil, nil
	return v, sc.diags[nd:len(sc.diags):len(sc.diags)], sc.flagged[nf:len(sc.flagged):len(sc.flagged)]
}

// checkScratch is the memory one parsing goroutine checks a document in,
// reused from document to document: the pass its DocChecks run with, what
// they report, the visits to keep. Nothing of it outlives Workspace.check.
type checkScratch struct {
	pass               DocPass
	visits             []docVisit
	diags              []analysis.Diagnostic // the DocChecks' diagnostics, one check's after another's
	flagged            []analysis.Diagnostic // their flagged spans, likewise
	byCheck, flgd, all [][]analysis.Diagnostic
	texts              []heldText // the texts of a document's held diagnostics, being built
	lastTexts          []heldText // the last document's, kept (shareTexts)
}

// shareTexts returns the texts of a document's held diagnostics to keep:
// those of the last document checked with sc when they are the same, else
// a copy of texts. The documents of a workspace that miss the same keys
// or sections say the same things, in the same order: they then hold one
// list of texts between them, not one each.
func (sc *checkScratch) shareTexts(texts []heldText) []heldText {
	if len(texts) == 0 {
		return nil
	}
	if len(texts) == len(sc.lastTexts) {
		same := true
		for i := range texts {
			a, b := &texts[i], &sc.lastTexts[i]
			if a.whole != nil || b.whole != nil || a.category != b.category || a.message != b.message {
				same = false
				break
			}
		}
		if same {
			return sc.lastTexts
		}
	}
	kept := slices.Clone(texts)
	sc.lastTexts = kept
	return kept
}

var checkScratchPool = sync.Pool{New: func() any { return new(checkScratch) }}

// maxScratch bounds the diagnostics a checkScratch keeps room for between
// documents: a document with more has lists of its own.
const maxScratch = 1 << 10

// release empties sc for the next document, letting go of what it
// pointed to, and puts it back in the pool.
func (sc *checkScratch) release() {
	sc.pass = DocPass{}
	clear(sc.diags)
	clear(sc.flagged)
	clear(sc.byCheck)
	clear(sc.flgd)
	clear(sc.all)
	clear(sc.texts)
	if cap(sc.diags) > maxScratch || cap(sc.flagged) > maxScratch || cap(sc.texts) > maxScratch {
		*sc = checkScratch{}
	}
	sc.visits, sc.diags, sc.flagged = sc.visits[:0], sc.diags[:0], sc.flagged[:0]
	checkScratchPool.Put(sc)
}

// lists returns l cleared, with room for n lists.
func lists(l [][]analysis.Diagnostic, n int) [][]analysis.Diagnostic {
	if cap(l) < n {
		return make([][]analysis.Diagnostic, n)
	}
	l = l[:n]
	clear(l)
	return l
}

// handedOver is what one DocCheck did on one document, handed over to its
// check's Run: what it returned, and its diagnostics, held.
type handedOver struct {
	result any
	diags  []heldDiag
	texts  []heldText // the texts of diags
}

// handOver returns what the run's DocCheck k did on d, if the parse ran it
// and it was not handed over yet, and forgets it. Checks hand over their
// own DocCheck's visits concurrently: each clears its own bit, and its own
// element of d.visits, which no one appends to after the parse.
func (d *Doc) handOver(k int) (handedOver, bool) {
	if k < 0 || k >= 64 || d.ran.And(^(uint64(1)<<k))&(1<<k) == 0 {
		return handedOver{}, false
	}
	vs := d.visits
	if vs == nil || vs.kept&(1<<k) == 0 {
		return handedOver{}, true
	}
	// Only the checks with a visit in the list read it, each before it
	// counts itself out: the last one lets the list go.
	var h handedOver
	start := uint32(0)
	for i := range vs.list {
		// Only k and end are read of another check's element: they are
		// written once, in the parse.
		e := &vs.list[i]
		if int(e.k) == k {
			h = handedOver{result: e.result, diags: vs.held[start:e.end:e.end], texts: vs.texts}
			e.result = nil // the pass holds it now
			break
		}
		start = e.end
	}
	if vs.pending.Add(-1) == 0 {
		vs.list, vs.held, vs.texts = nil, nil, nil
	}
	if p, ok := h.result.(visitPanic); ok {
		panic(string(p))
	}
	return h, true
}

// visited reports whether the parse ran the run's DocCheck k on d and has
// not handed over what it did.
func (d *Doc) visited(k int) bool {
	return k >= 0 && k < 64 && d.ran.Load()&(1<<k) != 0
}

// check runs stream's DocChecks on d, then its AfterDoc, and lets d's text
// go when release is set. What the checks found is kept in d.visits, in
// one allocation for the visits and one for their diagnostics, held; the
// rest is scratch, reused for the next document.
func (ws *Workspace) check(d *Doc, stream *Stream, release bool) {
	content := d.File.Content
	sc := checkScratchPool.Get().(*checkScratch)
	defer sc.release()
	sc.pass = DocPass{Doc: d, Content: content, ws: ws}
	var (
		diags, flagged [][]analysis.Diagnostic // by check, as reported; nil when none
		n              int
	)
	for k, c := range ws.docChecks {
		v, ds, f := ws.visit(k, c, &sc.pass, sc)
		if len(ds) > 0 {
			if diags == nil {
				sc.byCheck = lists(sc.byCheck, len(ws.docChecks))
				diags = sc.byCheck
			}
			diags[k] = ds
			n += len(ds)
		}
		if len(f) > 0 {
			if flagged == nil {
				sc.flgd = lists(sc.flgd, len(ws.docChecks))
				flagged = sc.flgd
			}
			flagged[k] = f
		}
		if v.result != nil || len(ds) > 0 {
			sc.visits = append(sc.visits, v)
		}
	}
	ws.docDiags.Add(int64(n))
	if stream.AfterDoc != nil {
		sc.all = lists(sc.all, len(ws.docChecks))
		all := sc.all
		copy(all, diags)
		for k, f := range flagged {
			if len(f) > 0 {
				all[k] = append(f, all[k]...)
			}
		}
		stream.AfterDoc(d, content, all)
	}
	if len(sc.visits) > 0 {
		vs := &visitSet{list: slices.Clip(slices.Clone(sc.visits))}
		vs.pending.Store(int32(len(sc.visits)))
		if n > 0 {
			vs.held = make([]heldDiag, 0, n)
		}
		vs.texts = sc.texts[:0] // scratch: shareTexts keeps them
		for i := range vs.list {
			v := &vs.list[i]
			vs.kept |= 1 << v.k
			if diags != nil {
				for _, diag := range diags[v.k] {
					vs.hold(d.File.Tok, diag)
				}
			}
			v.end = uint32(len(vs.held))
		}
		sc.texts = vs.texts
		vs.texts = sc.shareTexts(vs.texts)
		d.visits = vs
	}
	if release {
		// The blocks go with the text: a check that reads the text back
		// for its blocks has them parsed again (BlocksIn).
		d.digest = maphash.Bytes(ws.seed, content)
		d.File.Content, d.blockEnc = nil, nil
		d.released = true
		ws.keepFields(d)
		d.File.packLines()
	}
}

// Each returns what c's Run returned for each document of ws the run
// reports on (Workspace.Focused), in the order of ws.Docs, after reporting
// through pass every diagnostic it reported, document by document; it is
// nil for the documents out of focus, which are not read. The documents the
// parse ran c on are not read again; the others are read (Content) and c
// runs on them now, in parallel.
func (c *DocCheck) Each(pass *analysis.Pass, ws *Workspace) []any {
	return c.someAt(pass, ws, ws.focusedAt())
}

// FocusedDocs returns the documents in focus, in path order (every
// document when the run has no focus): a check that reports on those
// only visits them instead of asking Focused of every document. The
// slice is built once per run and shared by every caller (it may be Docs
// itself): it must not be modified.
func (ws *Workspace) FocusedDocs() []*Doc {
	ws.focusedAt()
	return ws.focusDocs
}

// focusedAt returns the indexes in Docs of the documents in focus, found
// once per run: each check's Each visits those, not every document.
func (ws *Workspace) focusedAt() []int {
	ws.focusOnce.Do(func() {
		ws.focusAt = make([]int, 0, len(ws.Docs))
		for i, d := range ws.Docs {
			if ws.Focused(d.Path) {
				ws.focusAt = append(ws.focusAt, i)
			}
		}
		ws.focusAt = slices.Clip(ws.focusAt)
		if len(ws.focusAt) == len(ws.Docs) {
			ws.focusDocs = ws.Docs
			return
		}
		ws.focusDocs = make([]*Doc, len(ws.focusAt))
		for j, i := range ws.focusAt {
			ws.focusDocs[j] = ws.Docs[i]
		}
	})
	return ws.focusAt
}

// Some is Each for the documents want selects, in or out of focus: a check
// that compares documents by what they say gets what c read of those out
// of focus only when it needs them. A document out of focus whose result
// Some returns counts as read (Workspace.TextRead). What c returned for a
// document is handed over once: ask Some for each document at most once.
func (c *DocCheck) Some(pass *analysis.Pass, ws *Workspace, want func(*Doc) bool) []any {
	var at []int
	for i, d := range ws.Docs {
		if want(d) {
			at = append(at, i)
		}
	}
	return c.someAt(pass, ws, at)
}

// someAt is Some for the documents at those indexes in ws.Docs, in order.
func (c *DocCheck) someAt(pass *analysis.Pass, ws *Workspace, at []int) []any {
	k := -1
	for i, dc := range ws.docChecks {
		if dc == c {
			k = i
		}
	}
	results := make([]any, len(ws.Docs))
	// The documents the parse did not visit are checked first, in
	// parallel; then every document's diagnostics are reported in order,
	// each visit's as it is handed over, so that they are never all held
	// twice (as diagnostics and as the driver's findings).
	var todo []*Doc
	var todoAt []int
	for _, i := range at {
		if d := ws.Docs[i]; !d.visited(k) {
			todo = append(todo, d)
			todoAt = append(todoAt, i)
		}
	}
	later := map[int][]analysis.Diagnostic{}
	if len(todo) > 0 {
		var prepared any
		if k >= 0 {
			prepared = ws.prepared[k]
		} else {
			prepared = c.prepare()
		}
		ws.Prefetch(todo)
		diags := make([][]analysis.Diagnostic, len(todo))
		parallel.For(len(todo), func(j int) {
			d := todo[j]
			p := &DocPass{Doc: d, Content: ws.Content(d), Prepared: prepared, ws: ws, check: c}
			results[todoAt[j]] = c.Run(p)
			diags[j] = p.diags
		})
		for j, i := range todoAt {
			later[i] = diags[j]
		}
	}
	for _, i := range at {
		d := ws.Docs[i]
		ds, ok := later[i]
		if !ok {
			h, _ := d.handOver(k)
			results[i] = h.result
			ws.noteRead(d)
			for j := range h.diags {
				pass.Report(h.diags[j].diagnostic(d.File.Tok, h.texts))
			}
		}
		for _, diag := range ds {
			pass.Report(diag)
		}
	}
	return results
}

// Visited hands over what c's Run returned for d when the parse ran c on
// it, for a check that reads documents only as its rules need them (Each
// reads every one). c must report nothing: Visited drops what it reported.
// A second call for d reports false.
func (c *DocCheck) Visited(ws *Workspace, d *Doc) (any, bool) {
	for k, dc := range ws.docChecks {
		if dc == c {
			if h, ok := d.handOver(k); ok {
				return h.result, true
			}
		}
	}
	return nil, false
}

// DocDiagnostics returns how many diagnostics the parse's DocChecks
// reported: a driver sizes its findings by them.
func (ws *Workspace) DocDiagnostics() int {
	if ws == nil {
		return 0
	}
	return int(ws.docDiags.Load())
}

// Stream is how a driver has the parse run DocChecks document by document
// (ParseStreaming).
type Stream struct {
	// Checks run on each document right after it is parsed, in order.
	Checks []*DocCheck
	// AfterDoc, when set, is called after Checks with the document's text
	// and what each check reported on it (diags[i] from Checks[i], with
	// the spans it flagged: DocPass.Flag), before the text may go: the
	// driver keeps what it needs of the text for those findings. The
	// lists in diags are the parse's scratch: they change after the call.
	AfterDoc func(d *Doc, content []byte, diags [][]analysis.Diagnostic)
	// DropFixes drops the suggested fixes of the DocChecks' diagnostics:
	// the run only reports.
	DropFixes bool
	// Keep, when set, is asked about each diagnostic a DocCheck reports
	// during the parse (within MaxPerDoc): when it returns false, the
	// driver has counted the diagnostic, and the parse does not hold it.
	// It is called concurrently.
	Keep func(c *DocCheck, doc *Doc, content []byte, d analysis.Diagnostic) bool
	// MaxPerDoc, when positive, keeps at most this many diagnostics of
	// one DocCheck on one document; the others are counted
	// (Workspace.Dropped): memory stays bounded whatever a document holds.
	MaxPerDoc int
	// Capping, when set, says what MaxPerDoc does with each diagnostic
	// (nil: each counts): one the report never shows is ignored, one the
	// report may count otherwise (suppressed, folded into another) is
	// kept outside the cap. It is called concurrently.
	Capping func(c *DocCheck, doc *Doc, content []byte, d analysis.Diagnostic) CapAction
	// Release lets each document's text go once AfterDoc has run: the run
	// keeps the typed model, and Content reads a text back from its file
	// when a check asks for it, checking that it did not change.
	Release bool
}

// keepKeyValues drops the KeyValues of d that no DocCheck of the run
// reads after the parse (DocCheck.KeepsKeyValue), and gives the kept ones
// a slice of their own.
func (ws *Workspace) keepKeyValues(d *Doc) {
	var kept []*Fact
	for _, f := range d.KeyValues {
		for k, c := range ws.docChecks {
			if c.KeepsKeyValue != nil && c.KeepsKeyValue(ws.prepared[k], d, f) {
				kept = append(kept, f)
				break
			}
		}
	}
	d.KeyValues = slices.Clip(kept)
}

// keepFields drops the frontmatter fields of unknown keys of d that no
// DocCheck of the run reads after the parse (DocCheck.KeepsField), once
// every DocCheck has read them all, and gives the fields kept an array
// of their own: a workspace whose documents carry tens of keys of their
// own (an extra key per team habit, lists, nested maps) held them all,
// value and field, until the run's end. The kept unknown values are
// copied off the parse's loose text (modelSlabs.internLoose), whose
// blocks then go with the rest.
func (ws *Workspace) keepFields(d *Doc) {
	fm := d.Frontmatter
	if fm == nil || len(fm.Unknown) == 0 {
		return
	}
	kept := func(f *Field) bool {
		if fm.slot(f.Key) != nil {
			return true
		}
		for k, c := range ws.docChecks {
			if c.KeepsField != nil && c.KeepsField(ws.prepared[k], d, f) {
				return true
			}
		}
		return false
	}
	n := 0
	at := make([]int, len(fm.Fields)) // each field's place among the kept, or -1
	for i, f := range fm.Fields {
		at[i] = -1
		if kept(f) {
			at[i] = n
			n++
		}
	}
	fields := make([]Field, 0, n)
	all := make([]*Field, 0, n)
	var unknown []*Field
	for i, f := range fm.Fields {
		if at[i] < 0 {
			continue
		}
		fields = append(fields, *f)
		nf := &fields[len(fields)-1]
		all = append(all, nf)
		if fm.slot(f.Key) == nil {
			nf.Value = strings.Clone(nf.Value)
			unknown = append(unknown, nf)
		}
	}
	for _, k := range KnownKeys {
		slot := fm.slot(k)
		if *slot == nil {
			continue
		}
		i := slices.Index(fm.Fields, *slot)
		*slot = all[at[i]]
	}
	fm.Fields, fm.Unknown = all, unknown
}

// ForgetModel lets the typed model of ws go: each document's frontmatter,
// headings, work items, lines, facts, phrase lists and references, and
// what its DocChecks found that no check took; the workboard, the records
// and the glossary. What reads files stays: Files, the documents' paths
// and files, File, Content and FileContent. A driver calls it once the
// checks are done with the model and it only reports their findings.
func (ws *Workspace) ForgetModel() {
	for _, d := range ws.Docs {
		d.Frontmatter, d.Headings, d.WorkItems, d.StatusLines = nil, nil, nil, nil
		d.Facts, d.KeyValues, d.PhraseLists, d.Refs, d.visits = Facts{}, nil, nil, Refs{}, nil
	}
	ws.Workboard, ws.Records, ws.Glossary = nil, nil, nil
	ws.prepared = nil
}

// Root is the directory the workspace's paths are relative to ("" for an
// fs.FS): a check that reads configuration beside the workspace finds it
// from here.
func (p *DocPass) Root() string { return p.ws.Root }
