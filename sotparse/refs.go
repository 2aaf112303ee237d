package sotparse

import (
	"bytes"
	"encoding/binary"
	"go/token"
	"hash/maphash"
	"iter"
	"math/bits"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"
)

// Refs are a document's references, packed: per reference its kind, the
// id of its text in a table the run's documents share, and its place, as
// varints. A document of a workspace that names every other by path holds
// hundreds of references; as a *Ref each (a string, two positions, a kind
// and a pointer: ~52 bytes) they were most of the model (2.7 million of
// them, ~110 MB on manyids at 10,000 documents); packed, a reference
// takes ~6 bytes, and a text named by many documents is held once.
//
// A text's id is packed as the difference from the id of the reference
// before it: the texts a document names first are given ids in the order
// the parse finds them, so a run of new texts (a line of ids no other
// document names) is a run of small differences, a byte each where the
// id itself took 3-4 (2.2 million ids on distinct at 10,000 documents).
type Refs struct {
	texts  *Texts
	packed []byte // per ref: kind (| refSpansText), text id - previous text id (zigzag), Pos - previous Pos (zigzag), End - Pos (zigzag) unless refSpansText
	n      int
}

// refSpansText marks, in a packed reference's kind, one whose End is Pos
// plus the length of its text, as the parse finds most of them: its End
// is not packed (2.2 MB less on distinct-10000).
const refSpansText = 0x80

// every RefKind has a bit in the uint32 mask Of selects kinds with (a
// compile error otherwise: a kind of 32 or more would be skipped by every
// Of), which also keeps it below refSpansText
var _ [31 - RefCommit]struct{}

// Len returns the number of references.
func (rs Refs) Len() int { return rs.n }

// All yields the references in the order the parse found them, with
// their index.
func (rs Refs) All() iter.Seq2[int, Ref] {
	return rs.of(^uint32(0))
}

// Of yields the references of the kinds given, in the order the parse
// found them, with their index among all of them (that All gives). It
// reads the text of no other reference: a check that reads a document's
// paths skips its work ids unread, where All looked each up in the table
// of texts (two million on distinct at 10,000 documents, for every check
// that reads paths).
func (rs Refs) Of(kinds ...RefKind) iter.Seq2[int, Ref] {
	var want uint32
	for _, k := range kinds {
		want |= 1 << k
	}
	return rs.of(want)
}

// of yields the references whose kind's bit is set in want.
func (rs Refs) of(want uint32) iter.Seq2[int, Ref] {
	return func(yield func(int, Ref) bool) {
		b, prev, id := rs.packed, token.Pos(0), int64(0)
		for i := range rs.n {
			kind := b[0]
			did, k := binary.Varint(b[1:])
			b = b[1+k:]
			id += did
			dp, k := binary.Varint(b)
			b = b[k:]
			pos := prev + token.Pos(dp)
			prev = pos
			var de int64
			if kind&refSpansText == 0 {
				de, k = binary.Varint(b)
				b = b[k:]
			}
			r := Ref{Kind: RefKind(kind &^ refSpansText)}
			if want != ^uint32(0) && want&(1<<r.Kind) == 0 {
				continue
			}
			r.Text = rs.texts.Text(TextID(id))
			r.Pos = pos
			if kind&refSpansText != 0 {
				r.End = pos + token.Pos(len(r.Text))
			} else {
				r.End = pos + token.Pos(de)
			}
			if !yield(i, r) {
				return
			}
		}
	}
}

// ids yields each reference's kind and the id of its text, in order,
// reading no text.
func (rs Refs) ids(yield func(kind RefKind, id TextID) bool) {
	b, id := rs.packed, int64(0)
	for range rs.n {
		kind := b[0]
		did, k := binary.Varint(b[1:])
		b = b[1+k:]
		id += did
		_, k = binary.Varint(b)
		b = b[k:]
		if kind&refSpansText == 0 {
			_, k = binary.Varint(b)
			b = b[k:]
		}
		if !yield(RefKind(kind&^refSpansText), TextID(id)) {
			return
		}
	}
}

// RefCursor reads a document's references of one kind in the order the
// parse found them (for work ids, the order of the text), to find the id
// the run's table of texts gave the text at a place without hashing it
// and looking it up under the table's lock again (a check that names in
// the table each id a sentence names, 2 million on distinct at 10,000
// documents, did so for each).
type RefCursor struct {
	rs   Refs
	kind RefKind
	b    []byte // the references not read yet
	left int
	prev token.Pos
	id   int64
}

// Cursor returns a cursor at the first of rs's references of kind k.
func (rs Refs) Cursor(k RefKind) RefCursor {
	return RefCursor{rs: rs, kind: k, b: rs.packed, left: rs.n}
}

// At returns the id in texts of text, the text of a reference of the
// cursor's kind at pos, if rs has one there and texts is its table,
// moving past the references before pos; else false (a caller asks
// texts.ID). Asked for places in order, it reads each reference once.
func (c *RefCursor) At(texts *Texts, pos token.Pos, text string) (TextID, bool) {
	if texts == nil || c.rs.texts != texts {
		return 0, false
	}
	for c.left > 0 {
		kind := c.b[0]
		did, k := binary.Varint(c.b[1:])
		dp, k2 := binary.Varint(c.b[1+k:])
		n := 1 + k + k2
		if kind&refSpansText == 0 {
			_, k3 := binary.Varint(c.b[n:])
			n += k3
		}
		rpos, rid := c.prev+token.Pos(dp), c.id+did
		if RefKind(kind&^refSpansText) == c.kind && rpos >= pos {
			if rpos == pos && texts.equal(TextID(rid), text) {
				return TextID(rid), true
			}
			if rpos > pos {
				return 0, false // read again for a later place
			}
		}
		c.b, c.left, c.prev, c.id = c.b[n:], c.left-1, rpos, rid
	}
	return 0, false
}

// refsBuilder packs a document's references as the parse finds them.
type refsBuilder struct {
	texts  *Texts
	packed []byte
	n      int
	prev   token.Pos
	prevID TextID
}

func (b *refsBuilder) add(kind RefKind, text string, pos, end token.Pos) {
	b.addID(kind, b.texts.ID(text), len(text), pos, end)
}

func (b *refsBuilder) addBytes(kind RefKind, text []byte, pos, end token.Pos) {
	b.addID(kind, b.texts.IDBytes(text), len(text), pos, end)
}

// addID adds a reference to the text id, of size bytes.
func (b *refsBuilder) addID(kind RefKind, id TextID, size int, pos, end token.Pos) {
	spans := end == pos+token.Pos(size)
	if spans {
		b.packed = append(b.packed, byte(kind)|refSpansText)
	} else {
		b.packed = append(b.packed, byte(kind))
	}
	b.packed = binary.AppendVarint(b.packed, int64(id)-int64(b.prevID))
	b.packed = binary.AppendVarint(b.packed, int64(pos-b.prev))
	if !spans {
		b.packed = binary.AppendVarint(b.packed, int64(end-pos))
	}
	b.prev, b.prevID = pos, id
	b.n++
}

// refs returns what was added, its bytes cut from slabs to their size.
func (b *refsBuilder) refs(slabs *modelSlabs) Refs {
	if b.n == 0 {
		return Refs{}
	}
	packed := slabs.bytes(len(b.packed))
	copy(packed, b.packed)
	return Refs{texts: b.texts, packed: packed, n: b.n}
}

// Texts is a table of texts, each held once and named by a TextID (only
// NewTexts makes a usable one: a zero Texts has no hash seed): a
// run's documents share one for their references' texts, and a check
// names in it what it keeps of a document once its text is gone (the ids
// a sentence names) rather than keeping a copy of each. It is written
// under mu, by several goroutines, and read without a lock: a text never
// moves once its id is given out, nor changes its place (a block of
// places that grows is copied, and the old one still holds it), and a
// reader has the id from a document whose parse happened before it read
// it.
//
// The texts are copied into chunks of bytes they share, each as a record:
// its length, then the text. The records of textGroup ids in a row are
// written one after the other in one chunk, and only the first one's
// place is kept (4 bytes a group): Text reads past the records before its
// id's. A text that does not go in its group's chunk (longer than
// textShared, or past the chunk's room) is held whole on its own and its
// record says which (a forward record). The ids are found again by an
// open-addressing index (4 bytes a slot, some bits of the text's hash
// among them): a map of strings and a string header an id held ~80 bytes
// a text more, which a workspace naming millions of distinct ids (each
// reference a text of its own) paid in full; a place for each id, 4 bytes
// more (8.5 MB on distinct at 10,000 documents, 2.2 million texts).
type Texts struct {
	mu     sync.Mutex
	index  []uint32 // slot -> 0 when free, else id+1 | hash tag<<idBits (see slotLocked)
	idBits uint     // log2(len(index)): the bits of id+1 in a slot
	seed   maphash.Seed
	n      uint32
	places atomic.Pointer[[][]textPlace] // by group of ids, in blocks (see addLocked); copied to change
	chunks atomic.Pointer[[][]byte]      // shared chunks; copied to grow: a reader's copy stays valid
	longs  atomic.Pointer[[][]byte]      // texts held whole; copied to grow
	// The shared chunk records are written into (under mu): its rest,
	// where that starts, its number.
	free      []byte
	freeAt    int
	freeChunk textPlace
	nextN     int  // the size of the next shared chunk
	groupLong bool // the group being written is held whole, text by text (see groupPlaceLocked)
	// last is the text of the record written last, when it has at most
	// textFrontMax bytes (lastOK): the next of its group may share its start.
	last    []byte
	lastOK  bool
	scratch [textFrontMax]byte // where textLocked makes a text
}

// TextID names a text in its Texts.
type TextID uint32

// textPlace is where a group's records start: chunk<<16 | offset in a
// shared chunk; or, once the shared chunks are full (2 GB of texts),
// textLong | the number of the group's first text among those held whole,
// the others after it.
//
// A record is a uvarint h, then:
//   - h&1 == 0: a text of h>>1 bytes;
//   - h&3 == 1: the text is the one held whole numbered h>>2;
//   - h&3 == 3: a uvarint p and h>>2 bytes: the text is the first p bytes
//     of the text of the record before it in its group, then those bytes
//     (front coding).
//
// The texts a document names first are given ids one after the other,
// and the ids and paths of one document share their start with the one
// before (CTO-WORK-0298800, CTO-WORK-0298801; the runs of one harness
// directory): a record of such a text holds what differs, 3-4 bytes where
// the text took 17 (2.2 million texts on distinct at 10,000 documents,
// 37 MB of records). Such a text is made again when it is read (Text
// copies it), so only a shared start of textFrontMin bytes or more is
// worth one, and only a text of at most textFrontMax bytes is one, made
// on the stack when it is compared.
type textPlace uint32

const textLong textPlace = 1 << 31

// Texts up to textShared bytes share chunks of up to textChunk bytes
// (offsets fit 16 bits), from a few texts' worth, for a parse of one
// document, to chunks the runtime gives pages of their own. The shared
// chunks are at most maxTextChunks (textLong>>16: 2 GB of texts; a
// variable for the test of what comes after).
const (
	textShared = 1 << 10
	textChunk  = 64 << 10
)

var maxTextChunks = int(textLong >> 16)

// textGroup ids share a place: Text reads past at most textGroup-1
// records (1.5 on average, a byte each for a text of under 64 bytes) for
// 3 bytes less a text. A forward record takes at most textForward bytes;
// a group's chunk keeps room for one for each of its records to come.
const (
	textGroup   = 4
	textForward = binary.MaxVarintLen32
)

const (
	textFrontMin = 8
	textFrontMax = 256
)

// The places are in blocks of textPlaceBlock groups (64 KB), the first
// of which grows from textFirstGroups by doubling: a table of a few texts
// is small, and a large one wastes at most a block (doubling blocks
// wasted up to half of them).
const (
	textFirstGroups = 16
	textPlaceBlock  = 1 << 14
)

// NewTexts returns an empty table.
func NewTexts() *Texts {
	return &Texts{seed: maphash.MakeSeed()}
}

// Text returns the text of id, which t gave out.
func (t *Texts) Text(id TextID) string {
	v, n, front := t.lookup(id)
	if !front {
		return v
	}
	b := make([]byte, n)
	t.build(id, b)
	return unsafe.String(&b[0], n)
}

// equal reports whether the text of id is s, copying nothing.
func (t *Texts) equal(id TextID, s string) bool {
	v, n, front := t.lookup(id)
	if !front {
		return v == s
	}
	if n != len(s) {
		return false
	}
	var buf [textFrontMax]byte // zeroed here only, not for a text held whole
	t.build(id, buf[:])
	return string(buf[:n]) == s
}

// compare compares the texts of a and b, each less the suffix trim,
// copying nothing.
func (t *Texts) compare(a, b TextID, trim string) int {
	v, n, front := t.lookup(a)
	if !front {
		return -t.compareText(b, trim, strings.TrimSuffix(v, trim))
	}
	var buf [textFrontMax]byte
	t.build(a, buf[:])
	return -t.compareText(b, trim, strings.TrimSuffix(unsafe.String(&buf[0], n), trim))
}

// compareText compares the text of id, less the suffix trim, with s,
// copying nothing.
func (t *Texts) compareText(id TextID, trim, s string) int {
	v, n, front := t.lookup(id)
	if !front {
		return compareStrings(strings.TrimSuffix(v, trim), s)
	}
	var buf [textFrontMax]byte
	t.build(id, buf[:])
	return compareStrings(strings.TrimSuffix(unsafe.String(&buf[0], n), trim), s)
}

// compareStrings is strings.Compare by the language's operators, which
// let a view of a buffer on the stack stay there (strings.Compare's
// call does not).
func compareStrings(a, b string) int {
	switch {
	case a == b:
		return 0
	case a < b:
		return -1
	}
	return 1
}

// textLocked returns the text of id, made in t.scratch when its record
// does not hold it whole: valid until the next call, under mu.
func (t *Texts) textLocked(id TextID) string {
	v, n, front := t.lookup(id)
	if !front {
		return v
	}
	t.build(id, t.scratch[:])
	return unsafe.String(&t.scratch[0], n)
}

// lookup returns the text of id as a view of the table's bytes when a
// record holds it whole; else (front) its length, for build to make it.
func (t *Texts) lookup(id TextID) (v string, n int, front bool) {
	g := id / textGroup
	p := (*t.places.Load())[g/textPlaceBlock][g%textPlaceBlock]
	if p&textLong != 0 {
		c := (*t.longs.Load())[int(p&^textLong)+int(id%textGroup)]
		return unsafe.String(unsafe.SliceData(c), len(c)), 0, false
	}
	c := (*t.chunks.Load())[p>>16]
	off := int(p & 0xffff)
	for k := id % textGroup; k > 0; k-- {
		off = readRecord(c, off).end()
	}
	switch r := readRecord(c, off); r.kind {
	case recordWhole:
		return unsafe.String(unsafe.SliceData(c[r.body:]), r.n), 0, false
	case recordForward:
		l := (*t.longs.Load())[r.n]
		return unsafe.String(unsafe.SliceData(l), len(l)), 0, false
	default:
		return "", r.shared + r.n, true
	}
}

// build makes in dst the text of id, whose record is front coded, from
// its group's first record on (lookup gives its length; dst holds at
// least that): of the texts before it, only their first len(dst) bytes,
// the most its own takes of them.
func (t *Texts) build(id TextID, dst []byte) {
	g := id / textGroup
	p := (*t.places.Load())[g/textPlaceBlock][g%textPlaceBlock]
	c := (*t.chunks.Load())[p>>16]
	off := int(p & 0xffff)
	for k := id % textGroup; ; k-- {
		r := readRecord(c, off)
		switch r.kind {
		case recordWhole:
			copy(dst, c[r.body:r.end()])
		case recordForward:
			copy(dst, (*t.longs.Load())[r.n])
		default:
			if r.shared < len(dst) { // what a text before id's holds past dst, id's does not
				copy(dst[r.shared:], c[r.body:r.end()])
			}
		}
		if k == 0 {
			return
		}
		off = r.end()
	}
}

// textRecord is a record of a chunk, read (see textPlace).
type textRecord struct {
	kind   uint8
	body   int // where the bytes after its header start in the chunk
	n      int // how many; a forward record's: the number of its text held whole
	shared int // a front record's: the length of the start it shares with the text before
}

// The kinds of textRecord.
const (
	recordWhole   = iota // the text, n bytes
	recordForward        // the text is held whole, numbered n
	recordFront          // the text before's first shared bytes, then n bytes
)

// readRecord reads the record at off in c.
func readRecord(c []byte, off int) textRecord {
	h, m := uint64(c[off]), 1
	if h >= 0x80 {
		h, m = binary.Uvarint(c[off:])
	}
	off += m
	switch {
	case h&1 == 0:
		return textRecord{kind: recordWhole, body: off, n: int(h >> 1)}
	case h&3 == 1:
		return textRecord{kind: recordForward, body: off, n: int(h >> 2)}
	}
	q, m := binary.Uvarint(c[off:])
	return textRecord{kind: recordFront, body: off + m, n: int(h >> 2), shared: int(q)}
}

// end returns where the record after r starts.
func (r textRecord) end() int {
	if r.kind == recordForward {
		return r.body
	}
	return r.body + r.n
}

// ID returns the id of s, adding it if t does not hold it.
func (t *Texts) ID(s string) TextID {
	h := maphash.String(t.seed, s)
	t.mu.Lock()
	defer t.mu.Unlock()
	slot, id, ok := t.findLocked(h, s)
	if ok {
		return id
	}
	return t.addLocked(slot, h, unsafe.Slice(unsafe.StringData(s), len(s)))
}

// IDBytes is ID of a text given as bytes, which t copies if it adds it.
func (t *Texts) IDBytes(s []byte) TextID {
	h := maphash.Bytes(t.seed, s)
	t.mu.Lock()
	defer t.mu.Unlock()
	slot, id, ok := t.findLocked(h, unsafe.String(unsafe.SliceData(s), len(s)))
	if ok {
		return id
	}
	return t.addLocked(slot, h, s)
}

// Lookup returns the id of s, if t holds it.
func (t *Texts) Lookup(s string) (TextID, bool) {
	h := maphash.String(t.seed, s)
	t.mu.Lock()
	defer t.mu.Unlock()
	_, id, ok := t.findLocked(h, s)
	return id, ok
}

// tag returns the bits of hash h a slot holds beside an id, for an index
// of idBits: the top ones, where the low ones choose the slot. A slot of
// another tag is passed over without reading its text, which most of the
// probes for a text the table does not hold did (a third of the CPU of a
// workspace whose references are all distinct).
func tag(h uint64, idBits uint) uint32 {
	return uint32(h>>(32+idBits)) << idBits
}

// findLocked returns the id of s (of hash h), or the free slot it would
// take.
func (t *Texts) findLocked(h uint64, s string) (slot int, id TextID, ok bool) {
	if len(t.index) == 0 {
		if t.n == 0 {
			return -1, 0, false
		}
		t.indexLocked(indexSize(int(t.n) + 1)) // let go by DropIndex; room for the text being added
	}
	mask := uint32(len(t.index) - 1)
	tg := tag(h, t.idBits)
	for i := uint32(h) & mask; ; i = (i + 1) & mask {
		e := t.index[i]
		if e == 0 {
			return int(i), 0, false
		}
		if e&^mask == tg && t.textLocked(TextID(e&mask-1)) == s {
			return int(i), TextID(e&mask - 1), true
		}
	}
}

// recordSize is the size of the record of a text of n bytes in a chunk.
func recordSize(n int) int {
	return (bits.Len(uint(n)<<1|1)+6)/7 + n
}

// groupPlaceLocked starts a group whose first text is first: in the
// chunk being written if it has room for first's record and a forward
// record for each of the group's others, else in a new chunk, or, once
// the shared chunks are full, among the texts held whole.
func (t *Texts) groupPlaceLocked(first []byte) textPlace {
	t.groupLong = false
	need := textForward
	if len(first) <= textShared {
		need = max(need, recordSize(len(first)))
	}
	need += (textGroup - 1) * textForward
	if len(t.free) < need {
		var cs [][]byte
		if p := t.chunks.Load(); p != nil {
			cs = *p
		}
		if len(cs) >= maxTextChunks {
			var ls [][]byte
			if p := t.longs.Load(); p != nil {
				ls = *p
			}
			t.groupLong = true
			return textLong | textPlace(len(ls))
		}
		t.nextN = min(max(2*t.nextN, 256), textChunk)
		t.free = make([]byte, max(t.nextN, need))
		t.freeAt, t.freeChunk = 0, appendChunk(&t.chunks, cs, t.free)
	}
	return t.freeChunk<<16 | textPlace(t.freeAt)
}

// recordLocked writes the record of text b, the k-th of its group, in the
// group's chunk (groupPlaceLocked left room for a forward record for each
// of the group's texts): what differs from the text before it when they
// share enough of their start, else the text itself, if it fits with
// that room for the group's texts after it; else a forward to a copy
// held whole.
func (t *Texts) recordLocked(b []byte, k TextID) {
	t.writeRecordLocked(b, k)
	t.keepLastLocked(b)
}

// writeRecordLocked writes the record recordLocked describes.
func (t *Texts) writeRecordLocked(b []byte, k TextID) {
	var ls [][]byte
	if p := t.longs.Load(); p != nil {
		ls = *p
	}
	if t.groupLong {
		appendChunk(&t.longs, ls, bytes.Clone(b))
		return
	}
	rest := int(textGroup-1-k) * textForward
	if k > 0 && t.lastOK && len(b) <= textFrontMax {
		if p := commonPrefix(t.last, b); p >= textFrontMin {
			h := uint64(len(b)-p)<<2 | 3
			need := uvarintLen(h) + uvarintLen(uint64(p)) + len(b) - p
			if len(t.free)-need >= rest {
				n := binary.PutUvarint(t.free, h)
				n += binary.PutUvarint(t.free[n:], uint64(p))
				copy(t.free[n:], b[p:])
				t.free = t.free[need:]
				t.freeAt += need
				return
			}
		}
	}
	if len(b) <= textShared {
		if need := recordSize(len(b)); len(t.free)-need >= rest {
			n := binary.PutUvarint(t.free, uint64(len(b))<<1)
			copy(t.free[n:], b)
			t.free = t.free[need:]
			t.freeAt += need
			return
		}
	}
	l := appendChunk(&t.longs, ls, bytes.Clone(b))
	n := binary.PutUvarint(t.free, uint64(l)<<2|1)
	t.free = t.free[n:]
	t.freeAt += n
}

// keepLastLocked keeps b, the text just recorded, for the next record to
// share its start with.
func (t *Texts) keepLastLocked(b []byte) {
	t.lastOK = len(b) <= textFrontMax
	if t.lastOK {
		t.last = append(t.last[:0], b...)
	}
}

// commonPrefix returns the length of the start a and b share.
func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// appendChunk stores cs with c appended in list and returns c's number.
func appendChunk(list *atomic.Pointer[[][]byte], cs [][]byte, c []byte) textPlace {
	if len(cs) < cap(cs) {
		// A reader's copy is shorter: the slot past its length is not
		// one it reads.
		cs = append(cs, c)
	} else {
		cs = append(make([][]byte, 0, max(2*len(cs), 8)), cs...)
		cs = append(cs, c)
	}
	list.Store(&cs)
	return textPlace(len(cs) - 1)
}

// addLocked gives s (of hash h) the next id and files it in slot of the
// index (-1: the index must grow first).
func (t *Texts) addLocked(slot int, h uint64, s []byte) TextID {
	id := TextID(t.n)
	if id%textGroup == 0 {
		var dir [][]textPlace
		if p := t.places.Load(); p != nil {
			dir = *p
		}
		g := id / textGroup
		b, i := int(g/textPlaceBlock), int(g%textPlaceBlock)
		if b == len(dir) || i == len(dir[b]) {
			dir = t.growPlacesLocked(dir, b)
		}
		dir[b][i] = t.groupPlaceLocked(s)
	}
	t.recordLocked(s, id%textGroup)
	t.n++
	if slot < 0 || 4*int(t.n) > 3*len(t.index) {
		t.growLocked()
		return id
	}
	t.index[slot] = uint32(id+1) | tag(h, t.idBits)
	return id
}

// growPlacesLocked makes room in the places for block b: a new block, or
// the first one twice as large (a copy: a reader may hold the old one).
func (t *Texts) growPlacesLocked(dir [][]textPlace, b int) [][]textPlace {
	if b == len(dir) {
		size := textPlaceBlock
		if b == 0 {
			size = textFirstGroups
		}
		dir = append(slices.Clip(dir), make([]textPlace, size))
	} else {
		blk := make([]textPlace, min(2*len(dir[b]), textPlaceBlock))
		copy(blk, dir[b])
		dir = slices.Clone(dir)
		dir[b] = blk
	}
	t.places.Store(&dir)
	return dir
}

// growLocked doubles the index (from 64 slots) and files every id in it
// again, the last one given out included.
func (t *Texts) growLocked() {
	t.indexLocked(max(2*len(t.index), indexSize(int(t.n))))
}

// indexSize is the size of an index of n ids: a power of two, at least
// 64, at most 3/4 full.
func indexSize(n int) int {
	size := 64
	for 4*n > 3*size {
		size *= 2
	}
	return size
}

// indexLocked makes an index of size slots (a power of two) and files
// every id in it. A slot holds id+1, at most 3/4 of the slots, in idBits:
// the bits above are the hash's tag.
func (t *Texts) indexLocked(size int) {
	index := make([]uint32, size)
	idBits := uint(bits.TrailingZeros(uint(size)))
	mask := uint32(size - 1)
	t.eachLocked(func(id TextID, s []byte) {
		h := maphash.Bytes(t.seed, s)
		i := uint32(h) & mask
		for index[i] != 0 {
			i = (i + 1) & mask
		}
		index[i] = uint32(id+1) | tag(h, idBits)
	})
	t.index, t.idBits = index, idBits
}

// eachLocked calls f with each id and its text, in the order of the ids,
// reading each group's records once: a front-coded text is made from the
// one before it (in t.scratch), not again from its group's first. The
// text is valid only during the call.
func (t *Texts) eachLocked(f func(id TextID, s []byte)) {
	dir := *t.places.Load()
	var chunks, longs [][]byte
	if p := t.chunks.Load(); p != nil {
		chunks = *p
	}
	if p := t.longs.Load(); p != nil {
		longs = *p
	}
	for first := TextID(0); first < TextID(t.n); first += textGroup {
		g := first / textGroup
		p := dir[g/textPlaceBlock][g%textPlaceBlock]
		end := min(first+textGroup, TextID(t.n))
		if p&textLong != 0 {
			for id := first; id < end; id++ {
				f(id, longs[int(p&^textLong)+int(id-first)])
			}
			continue
		}
		c, off := chunks[p>>16], int(p&0xffff)
		for id := first; id < end; id++ {
			r := readRecord(c, off)
			off = r.end()
			var s []byte
			switch r.kind {
			case recordWhole:
				s = c[r.body:r.end()]
			case recordForward:
				s = longs[r.n]
			default: // the text before it is in t.scratch: its start is this one's
				s = t.scratch[:r.shared+copy(t.scratch[r.shared:], c[r.body:r.end()])]
			}
			if r.kind != recordFront && len(s) <= textFrontMax {
				copy(t.scratch[:], s) // the start of a front-coded text after it
			}
			f(id, s)
		}
	}
}

// DropIndex lets the index of the texts go (4 bytes a slot, 16 MB at two
// million texts) once no more are expected: the parse of a run that only
// reports has named every text its documents hold, and its checks read
// texts by id and compare sets by text (TextSet). ID and Lookup still
// work after it: the first to come makes the index again.
func (t *Texts) DropIndex() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.index, t.idBits = nil, 0
}

// TextSet is a set of reference texts, held as ids in their run's table
// sorted by their texts: 4 bytes a text where a map of them took ~25 and
// its strings, and Has reads no index of the table, which a run that only
// reports lets go before its checks run (Texts.DropIndex).
type TextSet struct {
	texts *Texts
	ids   []TextID // sorted by their texts less trim, one id a text
	trim  string
}

// TextSet returns the texts of the references of kind k, each less the
// suffix trim.
func (rs Refs) TextSet(k RefKind, trim string) TextSet {
	var ids []TextID
	rs.ids(func(kind RefKind, id TextID) bool {
		if kind == k {
			ids = append(ids, id)
		}
		return true
	})
	if len(ids) == 0 {
		return TextSet{}
	}
	s := TextSet{texts: rs.texts, trim: trim}
	slices.SortFunc(ids, func(a, b TextID) int { return s.texts.compare(a, b, trim) })
	s.ids = slices.Clip(slices.CompactFunc(ids, func(a, b TextID) bool { return s.texts.compare(a, b, trim) == 0 }))
	return s
}

// Has reports whether text is in s.
func (s TextSet) Has(text string) bool {
	_, ok := slices.BinarySearchFunc(s.ids, text, func(id TextID, text string) int { return s.texts.compareText(id, s.trim, text) })
	return ok
}
