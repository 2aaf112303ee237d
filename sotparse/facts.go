package sotparse

import (
	"encoding/binary"
	"go/token"
	"iter"
)

// Facts are a document's "- key: value" list items, packed as its
// references are: each fact's key and value are ids in the run's table
// of texts (Texts), its positions differences, a few bytes a fact. Held
// for every document until the checks are done: as a *Fact each (80
// bytes, a pointer, and its value copied into the model's text when
// longer than intern shares) they were the larger part of the live heap
// on a workspace of evidence journals (~500,000 facts, 70 MB, on the hub
// shape at 10,000 documents), whose values name the same few runs and
// commands again and again.
type Facts struct {
	texts  *Texts
	packed []byte // per fact, zigzag: key id and value id, each less the previous fact's; Pos less the previous Pos; End and ValuePos less Pos
	n      int
}

// Len returns the number of facts.
func (fs Facts) Len() int { return fs.n }

// All yields the facts in the order the parse found them, with their
// index; each *Fact is the caller's own (a copy made for it).
func (fs Facts) All() iter.Seq2[int, *Fact] {
	return func(yield func(int, *Fact) bool) {
		for i, f := range fs.Each() {
			if !yield(i, &f) {
				return
			}
		}
	}
}

// Each yields the facts as All does, by value: a reader that keeps none
// of them makes no copy on the heap (on the hub shape at 10,000
// documents, a loop over every fact of every document made 2.5 million).
func (fs Facts) Each() iter.Seq2[int, Fact] {
	return func(yield func(int, Fact) bool) {
		b, prev := fs.packed, token.Pos(0)
		var key, value int64
		for i := range fs.n {
			dk, k := binary.Varint(b)
			b = b[k:]
			dv, k := binary.Varint(b)
			b = b[k:]
			dp, k := binary.Varint(b)
			b = b[k:]
			de, k := binary.Varint(b)
			b = b[k:]
			dvp, k := binary.Varint(b)
			b = b[k:]
			key, value = key+dk, value+dv
			pos := prev + token.Pos(dp)
			prev = pos
			f := Fact{Key: fs.texts.Text(TextID(key)), Value: fs.texts.Text(TextID(value)), Pos: pos, End: pos + token.Pos(de), ValuePos: pos + token.Pos(dvp)}
			if !yield(i, f) {
				return
			}
		}
	}
}

// factsBuilder packs a document's facts as the parse finds them.
type factsBuilder struct {
	texts        *Texts
	packed       []byte
	n            int
	prev         token.Pos
	prevK, prevV TextID
}

// add adds a fact.
func (b *factsBuilder) add(key, value []byte, pos, end, valuePos token.Pos) {
	k, v := b.texts.IDBytes(key), b.texts.IDBytes(value)
	b.addID(k, v, pos, end, valuePos)
}

func (b *factsBuilder) addID(k, v TextID, pos, end, valuePos token.Pos) {
	b.packed = binary.AppendVarint(b.packed, int64(k)-int64(b.prevK))
	b.packed = binary.AppendVarint(b.packed, int64(v)-int64(b.prevV))
	b.packed = binary.AppendVarint(b.packed, int64(pos-b.prev))
	b.packed = binary.AppendVarint(b.packed, int64(end-pos))
	b.packed = binary.AppendVarint(b.packed, int64(valuePos-pos))
	b.prev, b.prevK, b.prevV = pos, k, v
	b.n++
}

// facts returns what was added, its bytes cut from slabs to their size.
func (b *factsBuilder) facts(slabs *modelSlabs) Facts {
	if b.n == 0 {
		return Facts{}
	}
	var packed []byte
	if slabs != nil {
		packed = slabs.bytes(len(b.packed))
	} else {
		packed = make([]byte, len(b.packed))
	}
	copy(packed, b.packed)
	return Facts{texts: b.texts, packed: packed, n: b.n}
}
