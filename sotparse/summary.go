package sotparse

import (
	"unsafe"

	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"go/token"
	"slices"
)

// A summary is the part of a parsed document that checks read when they
// look at a document they do not report on: kind, frontmatter, headings,
// work items, Status lines, facts, phrase lists and references, with the
// file's line table so positions still resolve. It leaves out the content
// and the blocks, which only the checks of the document itself read;
// Workspace.Content reads the text back when another document's check
// needs it. The workboard has one too: its
// items, and whether it was read in full.
//
// The encoding is a versioned sequence of uvarints and length-prefixed
// strings; positions are stored as file offsets plus one (0 is NoPos).
// Decoding is bounds-checked throughout: a damaged summary is an error,
// never a wrong document.

// summaryVersion changes whenever the encoding or the parser's output does.
const summaryVersion = 6

// What a summary summarizes.
const (
	summaryDoc       = 1
	summaryWorkboard = 2
)

// header encodes the version, the kind of summary, and the file's size and
// line table.
func (e *summaryEncoder) header(kind uint64) {
	e.uint(summaryVersion)
	e.uint(kind)
	e.uint(uint64(e.tf.Size()))
	lines := e.tf.Lines()
	e.uint(uint64(len(lines)))
	prev := 0
	for _, l := range lines {
		e.uint(uint64(l - prev))
		prev = l
	}
}

// AppendSummary appends d's summary encoding to b.
func (d *Doc) AppendSummary(b []byte) []byte {
	e := summaryEncoder{b: b, tf: d.File.Lines()}
	e.header(summaryDoc)
	e.bool(d.BOM)
	e.pos(d.BodyStart)
	e.uint(uint64(d.FrontmatterState))
	e.bool(d.Frontmatter != nil)
	if fm := d.Frontmatter; fm != nil {
		e.pos(fm.Pos)
		e.pos(fm.End)
		e.pos(fm.Close)
		e.uint(uint64(len(fm.Fields)))
		for _, f := range fm.Fields {
			e.field(f)
		}
	}
	e.uint(uint64(len(d.Headings)))
	for _, h := range d.Headings {
		e.uint(uint64(h.Level))
		e.str(h.Text)
		e.pos(h.Pos)
		e.pos(h.End)
	}
	status := make(map[*Line]int, len(d.StatusLines))
	for i, l := range d.StatusLines {
		status[l] = i
	}
	items := make(map[*WorkItem]int, len(d.WorkItems))
	for i, it := range d.WorkItems {
		items[it] = i
	}
	e.uint(uint64(len(d.WorkItems)))
	for _, it := range d.WorkItems {
		e.str(it.ID)
		e.str(it.Title)
		e.str(it.Style)
		e.uint(uint64(it.Level))
		e.pos(it.Pos)
		e.pos(it.End)
		e.line(it.Type, items)
		// The Status line is one of d.StatusLines: stored as its index + 1.
		if i, ok := status[it.Status]; ok {
			e.uint(uint64(i) + 1)
		} else {
			e.uint(0)
		}
		e.line(it.BlockedBy, items)
		e.line(it.Validator, items)
		e.refs(it.Blockers)
		e.uint(uint64(len(it.Checkboxes)))
		for _, c := range it.Checkboxes {
			e.bool(c.Checked)
			e.pos(c.Pos)
			e.pos(c.End)
		}
	}
	e.uint(uint64(len(d.StatusLines)))
	for _, l := range d.StatusLines {
		e.line(l, items)
	}
	e.uint(uint64(d.Facts.Len()))
	for _, f := range d.Facts.Each() {
		e.str(f.Key)
		e.str(f.Value)
		e.pos(f.Pos)
		e.pos(f.End)
		e.pos(f.ValuePos)
	}
	e.uint(uint64(len(d.KeyValues)))
	for _, f := range d.KeyValues {
		e.str(f.Key)
		e.str(f.Value)
		e.pos(f.Pos)
		e.pos(f.End)
		e.pos(f.ValuePos)
		e.uint(uint64(f.Form))
		e.str(f.Subject)
	}
	e.uint(uint64(len(d.PhraseLists)))
	for _, pl := range d.PhraseLists {
		e.str(pl.Section)
		e.pos(pl.Pos)
		e.uint(uint64(len(pl.Phrases)))
		for _, p := range pl.Phrases {
			e.str(p.Raw)
			e.str(p.Text)
			e.pos(p.Pos)
			e.pos(p.End)
		}
	}
	e.uint(uint64(d.Refs.Len()))
	for _, r := range d.Refs.All() {
		e.ref(r)
	}
	mentions := d.mentions
	if !d.summary {
		mentions = foldedWorkIDs(d.File.Content)
	}
	e.uint(uint64(len(mentions)))
	for _, id := range mentions {
		e.str(id)
	}
	return e.b
}

// foldedWorkIDs returns the work ids b names in any letter case, as words
// of their own, upper-cased, sorted and unique.
func foldedWorkIDs(b []byte) []string {
	const prefix = "CTO-WORK-"
	var out []string
	for i := 0; i+len(prefix) < len(b); i++ {
		if c := b[i]; c != 'C' && c != 'c' || (i > 0 && isWordByte(b[i-1])) || !bytes.EqualFold(b[i:i+len(prefix)], []byte(prefix)) {
			continue
		}
		end := i + len(prefix)
		for end < len(b) && b[end] >= '0' && b[end] <= '9' {
			end++
		}
		if end > i+len(prefix) && (end == len(b) || !isWordByte(b[end])) {
			out = append(out, prefix+string(b[i+len(prefix):end]))
		}
		i = end - 1
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// AppendSummary appends the workboard's summary encoding to b: its items,
// and whether it was read in full.
func (wb *Workboard) AppendSummary(b []byte) []byte {
	e := summaryEncoder{b: b, tf: wb.File.Tok}
	e.header(summaryWorkboard)
	e.bool(wb.Complete)
	e.uint(uint64(len(wb.Items)))
	for _, it := range wb.Items {
		e.pos(it.Pos)
		e.pos(it.End)
		for _, f := range []*Field{it.ID, it.Title, it.Status, it.Source} {
			e.bool(f != nil)
			if f != nil {
				e.field(f)
			}
		}
		for _, fs := range [][]*Field{it.BlockedBy, it.Unknown} {
			e.uint(uint64(len(fs)))
			for _, f := range fs {
				e.field(f)
			}
		}
		e.uint(uint64(len(it.Missing)))
		for _, m := range it.Missing {
			e.str(m)
		}
	}
	return e.b
}

type summaryEncoder struct {
	b  []byte
	tf *token.File
	// held numbers the strings of at least minHeld bytes written so far,
	// in order: a string written again is its number. A document names
	// the same paths and values in its facts, its key-value lines and its
	// references (on hub at 10,000 documents, 115 MB of strings of which
	// 65 MB distinct within their document).
	held map[string]uint64
	next uint64
}

// minHeld is the length from which a string written twice in a summary
// is written once: a shorter one costs about what its number does.
const minHeld = 4

func (e *summaryEncoder) uint(v uint64) { e.b = binary.AppendUvarint(e.b, v) }

func (e *summaryEncoder) bool(v bool) {
	if v {
		e.b = append(e.b, 1)
	} else {
		e.b = append(e.b, 0)
	}
}

// str writes s: its length and bytes (length<<1), or the number of the
// same string written before (number<<1 | 1).
func (e *summaryEncoder) str(s string) {
	if len(s) < minHeld {
		e.uint(uint64(len(s)) << 1)
		e.b = append(e.b, s...)
		return
	}
	if i, ok := e.held[s]; ok {
		e.uint(i<<1 | 1)
		return
	}
	if e.held == nil {
		e.held = map[string]uint64{}
	}
	e.held[s] = e.next
	e.next++
	e.uint(uint64(len(s)) << 1)
	e.b = append(e.b, s...)
}

func (e *summaryEncoder) field(f *Field) {
	e.str(f.Key)
	e.str(f.Value)
	e.bool(f.Scalar)
	e.bool(f.Duplicate)
	e.pos(f.KeyPos)
	e.pos(f.ValuePos)
	e.pos(f.ValueEnd)
}

func (e *summaryEncoder) pos(p token.Pos) {
	if !p.IsValid() {
		e.uint(0)
		return
	}
	e.uint(uint64(e.tf.Offset(p)) + 1)
}

// line encodes a Line; nil is a single 0. Its Item is stored as an index
// into the document's work items (+1, 0 for none).
func (e *summaryEncoder) line(l *Line, items map[*WorkItem]int) {
	if l == nil {
		e.bool(false)
		return
	}
	e.bool(true)
	e.str(l.Key)
	e.str(l.Value)
	e.pos(l.Pos)
	e.pos(l.End)
	e.pos(l.ValuePos)
	if i, ok := items[l.Item]; ok {
		e.uint(uint64(i) + 1)
	} else {
		e.uint(0)
	}
}

func (e *summaryEncoder) refs(rs Refs) {
	e.uint(uint64(rs.Len()))
	for _, r := range rs.All() {
		e.ref(r)
	}
}

func (e *summaryEncoder) ref(r Ref) {
	e.uint(uint64(r.Kind))
	e.str(r.Text)
	e.pos(r.Pos)
	e.pos(r.End)
}

// errSummary is returned for any summary that does not decode.
var errSummary = errors.New("damaged document summary")

// SummarySize returns the file size recorded in a summary, so that the
// caller can add the file to a FileSet before decoding it.
func SummarySize(data []byte) (int, error) {
	d := summaryDecoder{b: data}
	if v := d.uint(); v != summaryVersion || d.err != nil {
		return 0, fmt.Errorf("%w: version %d, want %d", errSummary, v, summaryVersion)
	}
	d.uint() // kind
	size := d.count(1 << 40)
	return size, d.err
}

// newSummaryDecoder checks the header of the summary in data against the
// kind wanted and f, whose token file was added with the size SummarySize
// returned and has no lines yet, and sets f's line table.
func newSummaryDecoder(f *File, data []byte, kind uint64) (*summaryDecoder, error) {
	// The summary's strings are slices of data itself, not copies: a warm
	// run over 10,000 documents copied 23 MB for them. SummaryStore
	// promises the bytes do not change once handed out.
	d := &summaryDecoder{b: data, s: unsafe.String(unsafe.SliceData(data), len(data)), tf: f.Tok}
	if v := d.uint(); v != summaryVersion {
		return nil, fmt.Errorf("%w: version %d, want %d", errSummary, v, summaryVersion)
	}
	if k := d.uint(); k != kind {
		return nil, fmt.Errorf("%w: kind %d, want %d", errSummary, k, kind)
	}
	size := d.count(1 << 40)
	if d.err == nil && size != f.Tok.Size() {
		return nil, fmt.Errorf("%w: size %d, file has %d", errSummary, size, f.Tok.Size())
	}
	n := d.count(size + 1)
	lines := make([]int, 0, n)
	prev := 0
	for i := 0; i < n && d.err == nil; i++ {
		l := prev + d.count(size)
		if (i > 0 && l <= prev) || l >= max(size, 1) {
			d.fail()
			break
		}
		lines = append(lines, l)
		prev = l
	}
	if d.err != nil {
		return nil, d.err
	}
	if !f.Tok.SetLines(lines) {
		return nil, fmt.Errorf("%w: bad line table", errSummary)
	}
	return d, nil
}

// decodeWorkboardSummary rebuilds the workboard summarized in data for f
// (see newSummaryDecoder).
func decodeWorkboardSummary(f *File, data []byte) (*Workboard, error) {
	d, err := newSummaryDecoder(f, data, summaryWorkboard)
	if err != nil {
		return nil, err
	}
	wb := &Workboard{File: f, Complete: d.bool()}
	wb.Items = sized[*WorkboardItem](d.count(len(data)))
	for i := range wb.Items {
		it := &WorkboardItem{Pos: d.pos(), End: d.pos()}
		for _, slot := range []**Field{&it.ID, &it.Title, &it.Status, &it.Source} {
			if d.bool() {
				*slot = d.field()
			}
		}
		for _, list := range []*[]*Field{&it.BlockedBy, &it.Unknown} {
			*list = sized[*Field](d.count(len(data)))
			for j := range *list {
				(*list)[j] = d.field()
			}
		}
		it.Missing = sized[string](d.count(len(data)))
		for j := range it.Missing {
			it.Missing[j] = d.str()
		}
		wb.Items[i] = it
	}
	if d.err == nil && len(d.b) != 0 {
		d.fail()
	}
	if d.err != nil {
		return nil, d.err
	}
	wb.index()
	return wb, nil
}

// decodeSummary rebuilds the document summarized in data for f (see
// newSummaryDecoder).
func decodeSummary(f *File, data []byte, texts *Texts) (doc *Doc, err error) {
	d, err := newSummaryDecoder(f, data, summaryDoc)
	if err != nil {
		return nil, err
	}
	kind, stem := KindOf(f.Path)
	doc = &Doc{Path: f.Path, File: f, Kind: kind, Stem: stem, summary: true}
	doc.BOM = d.bool()
	doc.BodyStart = d.pos()
	doc.FrontmatterState = FrontmatterState(d.count(int(FrontmatterMalformed)))
	if d.bool() {
		fm := &Frontmatter{Pos: d.pos(), End: d.pos(), Close: d.pos()}
		fm.Fields = sized[*Field](d.count(len(data)))
		for i := range fm.Fields {
			fld := d.field()
			fm.Fields[i] = fld
			// As typedFrontmatter assigns them: the first occurrence of a
			// known key fills its slot; unknown keys are listed.
			if slot := fm.slot(fld.Key); slot != nil {
				if *slot == nil {
					*slot = fld
				}
			} else {
				fm.Unknown = append(fm.Unknown, fld)
			}
		}
		doc.Frontmatter = fm
	}
	doc.Headings = sized[*Heading](d.count(len(data)))
	for i := range doc.Headings {
		doc.Headings[i] = &Heading{Level: d.count(6), Text: d.str(), Pos: d.pos(), End: d.pos()}
	}
	doc.WorkItems = sized[*WorkItem](d.count(len(data)))
	var pending []pendingLine
	statusIdx := make([]int, len(doc.WorkItems))
	for i := range doc.WorkItems {
		it := &WorkItem{ID: d.str(), Title: d.str(), Style: d.str(), Level: d.count(6), Pos: d.pos(), End: d.pos()}
		doc.WorkItems[i] = it
		it.Type = d.line(&pending)
		statusIdx[i] = d.count(len(data))
		it.BlockedBy = d.line(&pending)
		it.Validator = d.line(&pending)
		it.Blockers = d.packedRefs(texts)
		it.Checkboxes = sized[*Checkbox](d.count(len(data)))
		for j := range it.Checkboxes {
			it.Checkboxes[j] = &Checkbox{Checked: d.bool(), Pos: d.pos(), End: d.pos()}
		}
	}
	doc.StatusLines = sized[*Line](d.count(len(data)))
	for i := range doc.StatusLines {
		doc.StatusLines[i] = d.line(&pending)
		if doc.StatusLines[i] == nil {
			d.fail()
		}
	}
	for i, si := range statusIdx {
		if si > len(doc.StatusLines) {
			d.fail()
			break
		}
		if si > 0 {
			doc.WorkItems[i].Status = doc.StatusLines[si-1]
		}
	}
	doc.Facts = d.packedFacts(d.count(len(data)), texts)
	doc.KeyValues = sized[*Fact](d.count(len(data)))
	for i := range doc.KeyValues {
		doc.KeyValues[i] = &Fact{Key: d.str(), Value: d.str(), Pos: d.pos(), End: d.pos(), ValuePos: d.pos(), Form: FactForm(d.uint())}
		doc.KeyValues[i].Subject = d.str()
	}
	doc.PhraseLists = sized[*PhraseList](d.count(len(data)))
	for i := range doc.PhraseLists {
		pl := &PhraseList{Section: d.str(), Pos: d.pos()}
		pl.Phrases = sized[*Phrase](d.count(len(data)))
		for j := range pl.Phrases {
			pl.Phrases[j] = &Phrase{Raw: d.str(), Text: d.str(), Pos: d.pos(), End: d.pos()}
		}
		doc.PhraseLists[i] = pl
	}
	doc.Refs = d.packedRefs(texts)
	doc.mentions = sized[string](d.count(len(data)))
	for i := range doc.mentions {
		doc.mentions[i] = d.str()
		if i > 0 && doc.mentions[i] <= doc.mentions[i-1] {
			d.fail() // MayMention searches them
		}
	}
	if d.err == nil && len(d.b) != 0 {
		d.fail()
	}
	// Lines name their work item by index, resolved now that all exist.
	for _, p := range pending {
		if p.item > len(doc.WorkItems) {
			d.fail()
			break
		}
		if p.item > 0 {
			p.line.Item = doc.WorkItems[p.item-1]
		}
	}
	if d.err != nil {
		return nil, d.err
	}
	return doc, nil
}

type summaryDecoder struct {
	b    []byte // what is left to decode
	s    string // all of it, as a string: b is its suffix
	tf   *token.File
	err  error
	held []string // the strings of at least minHeld bytes read, by number
}

func (d *summaryDecoder) fail() {
	if d.err == nil {
		d.err = errSummary
	}
	d.b = nil
}

func (d *summaryDecoder) uint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

// count reads a uvarint that must be at most limit: a length, a level or an
// enum. Lengths are bounded by the data size, so a damaged summary cannot
// make the decoder allocate more than the data could describe.
func (d *summaryDecoder) count(limit int) int {
	v := d.uint()
	if v > uint64(limit) {
		d.fail()
		return 0
	}
	return int(v)
}

func (d *summaryDecoder) bool() bool {
	switch d.uint() {
	case 0:
		return false
	case 1:
		return true
	}
	d.fail()
	return false
}

func (d *summaryDecoder) str() string {
	v := d.uint()
	if v&1 == 1 { // a string read before, by its number
		if i := v >> 1; i < uint64(len(d.held)) && d.err == nil {
			return d.held[i]
		}
		d.fail()
		return ""
	}
	v >>= 1
	if v > uint64(len(d.b)) { // checked after the length is consumed
		d.fail()
	}
	if d.err != nil {
		return ""
	}
	n := int(v)
	off := len(d.s) - len(d.b)
	d.b = d.b[n:]
	s := d.s[off : off+n]
	if n >= minHeld {
		d.held = append(d.held, s)
	}
	return s
}

func (d *summaryDecoder) field() *Field {
	return &Field{Key: d.str(), Value: d.str(), Scalar: d.bool(), Duplicate: d.bool(), KeyPos: d.pos(), ValuePos: d.pos(), ValueEnd: d.pos()}
}

func (d *summaryDecoder) pos() token.Pos {
	v := d.count(d.tf.Size() + 1)
	if v == 0 || d.err != nil {
		return token.NoPos
	}
	return d.tf.Pos(v - 1)
}

// pendingLine is a decoded Line whose work item (index + 1) is resolved
// once every item is decoded.
type pendingLine struct {
	line *Line
	item int
}

func (d *summaryDecoder) line(pending *[]pendingLine) *Line {
	if !d.bool() {
		return nil
	}
	l := &Line{Key: d.str(), Value: d.str(), Pos: d.pos(), End: d.pos(), ValuePos: d.pos()}
	*pending = append(*pending, pendingLine{l, d.count(1 << 30)})
	return l
}

func (d *summaryDecoder) refs() []*Ref {
	n := d.count(len(d.b)) // each ref takes at least one byte
	if n == 0 {
		return nil
	}
	rs := sized[*Ref](n)
	for i := range rs {
		rs[i] = &Ref{Kind: RefKind(d.count(int(RefCommit))), Text: d.str(), Pos: d.pos(), End: d.pos()}
	}
	return rs
}

// packedFacts decodes a document's facts into Facts, their texts in
// texts (a table of their own if nil).
func (d *summaryDecoder) packedFacts(n int, texts *Texts) Facts {
	if texts == nil {
		texts = NewTexts()
	}
	b := factsBuilder{texts: texts}
	for range n {
		key, value := d.str(), d.str()
		pos, end, valuePos := d.pos(), d.pos(), d.pos()
		if d.err != nil {
			return Facts{}
		}
		b.addID(texts.ID(key), texts.ID(value), pos, end, valuePos)
	}
	return b.facts(nil)
}

// packedRefs decodes a document's references into Refs, their texts in
// texts (a table of their own if nil).
func (d *summaryDecoder) packedRefs(texts *Texts) Refs {
	n := d.count(len(d.b)) // each ref takes at least one byte
	if texts == nil {
		texts = NewTexts()
	}
	b := refsBuilder{texts: texts}
	for range n {
		kind, text, pos, end := RefKind(d.count(int(RefCommit))), d.str(), d.pos(), d.pos()
		if d.err != nil {
			return Refs{}
		}
		b.add(kind, text, pos, end)
	}
	return b.refs(nil)
}

// sized returns a slice of length n, nil for 0 as the parser leaves it.
func sized[T any](n int) []T {
	if n == 0 {
		return nil
	}
	return make([]T, n)
}
