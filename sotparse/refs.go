package sotparse

import (
	"encoding/binary"
	"go/token"
	"iter"
	"math/bits"
	"slices"
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
// takes ~7 bytes, and a text named by many documents is held once.
type Refs struct {
	texts  *refTexts
	packed []byte // per ref: kind, text id, Pos - previous Pos (zigzag), End - Pos (zigzag)
	n      int
}

// Len returns the number of references.
func (rs Refs) Len() int { return rs.n }

// All yields the references in the order the parse found them, with
// their index.
func (rs Refs) All() iter.Seq2[int, Ref] {
	return func(yield func(int, Ref) bool) {
		b, prev := rs.packed, token.Pos(0)
		for i := range rs.n {
			var r Ref
			r.Kind = RefKind(b[0])
			id, k := binary.Uvarint(b[1:])
			b = b[1+k:]
			dp, k := binary.Varint(b)
			b = b[k:]
			de, k := binary.Varint(b)
			b = b[k:]
			r.Text = rs.texts.text(uint32(id))
			r.Pos = prev + token.Pos(dp)
			r.End = r.Pos + token.Pos(de)
			prev = r.Pos
			if !yield(i, r) {
				return
			}
		}
	}
}

// refsBuilder packs a document's references as the parse finds them.
type refsBuilder struct {
	texts  *refTexts
	packed []byte
	n      int
	prev   token.Pos
}

func (b *refsBuilder) add(kind RefKind, text string, pos, end token.Pos) {
	b.addID(kind, b.texts.id(text), pos, end)
}

func (b *refsBuilder) addBytes(kind RefKind, text []byte, pos, end token.Pos) {
	b.addID(kind, b.texts.idBytes(text), pos, end)
}

func (b *refsBuilder) addID(kind RefKind, id uint32, pos, end token.Pos) {
	b.packed = append(b.packed, byte(kind))
	b.packed = binary.AppendUvarint(b.packed, uint64(id))
	b.packed = binary.AppendVarint(b.packed, int64(pos-b.prev))
	b.packed = binary.AppendVarint(b.packed, int64(end-pos))
	b.prev = pos
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

// refTexts is the table of reference texts a run's documents share, each
// text by an id. It is written under mu as documents are parsed, by
// several goroutines, and read without a lock: a text never moves once
// its id is given out (its block is never reallocated), and a reader has
// the id from a document whose parse happened before it read it.
type refTexts struct {
	mu     sync.Mutex
	ids    map[string]uint32
	n      uint32
	blocks [refTextBlocks]atomic.Pointer[[]string]
	text1  []byte // the rest of the current block of text (under mu)
	text1n int    // the size of the next block of text
}

// Block b holds ids [refTextFirst<<(b-1), refTextFirst<<b) (block 0 the
// first refTextFirst): a table of a few texts is small, and a large one
// grows by doubling without moving a text.
const (
	refTextFirst  = 64
	refTextBlocks = 27 // 64<<26 ids: more than a uint32 counts
)

func newRefTexts() *refTexts {
	return &refTexts{ids: make(map[string]uint32)}
}

func refTextPlace(id uint32) (block, off int) {
	if id < refTextFirst {
		return 0, int(id)
	}
	b := bits.Len32(id / refTextFirst)
	return b, int(id) - refTextFirst<<(b-1)
}

func (t *refTexts) text(id uint32) string {
	b, off := refTextPlace(id)
	return (*t.blocks[b].Load())[off]
}

func (t *refTexts) id(s string) uint32 {
	t.mu.Lock()
	defer t.mu.Unlock()
	if id, ok := t.ids[s]; ok {
		return id
	}
	return t.addLocked(t.copyLocked([]byte(s)))
}

func (t *refTexts) idBytes(s []byte) uint32 {
	t.mu.Lock()
	defer t.mu.Unlock()
	if id, ok := t.ids[string(s)]; ok {
		return id
	}
	return t.addLocked(t.copyLocked(s))
}

// copyLocked copies a new text into blocks of text the table's texts
// share.
func (t *refTexts) copyLocked(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if len(b) > 1<<10 {
		return string(b)
	}
	if len(t.text1) < len(b) {
		// From a few texts' worth, for a parse of one document, to
		// blocks the runtime gives pages of their own.
		t.text1n = min(max(2*t.text1n, 256), 64<<10)
		t.text1 = make([]byte, max(t.text1n, len(b)))
	}
	s := t.text1[:len(b):len(b)]
	copy(s, b)
	t.text1 = t.text1[len(b):]
	return unsafe.String(&s[0], len(s))
}

func (t *refTexts) addLocked(s string) uint32 {
	id := t.n
	b, off := refTextPlace(id)
	blk := t.blocks[b].Load()
	if blk == nil {
		size := refTextFirst
		if b > 0 {
			size = refTextFirst << (b - 1)
		}
		s := make([]string, size)
		blk = &s
		t.blocks[b].Store(blk)
	}
	(*blk)[off] = s
	t.ids[s] = id
	t.n++
	return id
}

// TextSet is a set of reference texts, held as ids in their run's table:
// 4 bytes a text where a map of them took ~25 and its strings.
type TextSet struct {
	texts *refTexts
	ids   []uint32 // sorted
}

// TextSet returns the texts of the references of kind k, each as fix
// returns it (nil: as it is).
func (rs Refs) TextSet(k RefKind, fix func(string) string) TextSet {
	var ids []uint32
	for _, r := range rs.All() {
		if r.Kind != k {
			continue
		}
		t := r.Text
		if fix != nil {
			t = fix(t)
		}
		ids = append(ids, rs.texts.id(t))
	}
	if len(ids) == 0 {
		return TextSet{}
	}
	slices.Sort(ids)
	return TextSet{texts: rs.texts, ids: slices.Clip(slices.Compact(ids))}
}

// Has reports whether text is in s.
func (s TextSet) Has(text string) bool {
	if len(s.ids) == 0 {
		return false
	}
	id, ok := s.texts.lookup(text)
	if !ok {
		return false
	}
	_, ok = slices.BinarySearch(s.ids, id)
	return ok
}

func (t *refTexts) lookup(s string) (uint32, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	id, ok := t.ids[s]
	return id, ok
}
