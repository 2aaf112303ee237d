package sotparse

import (
	"hash/maphash"
	"unsafe"
)

// modelSlabs cuts the small objects of the documents' model, and their
// text, from larger blocks, for one goroutine of a parse at a time.
//
// The parse of a document allocates tens of kilobytes that it drops at
// once (the markdown and YAML trees) and a few hundred bytes it keeps
// (the model), in the same sizes: a Frontmatter is the size of a
// goldmark text segment, a WorkItem the size of a goldmark paragraph. Cut
// from the same pages as those, the model kept one or two objects in
// almost every page they took, and a large workspace's model of 48 MB
// held 35-45 MB more of such pages after the parse, every one resident
// until the run ended. From blocks of its own the model takes only its
// size. A block lives as long as any object cut from it: the model is
// kept and let go as a whole (Workspace.ForgetModel).
//
// A nil *modelSlabs allocates each object on its own, as a parse of a few
// documents does.
type modelSlabs struct {
	fms      slab[Frontmatter]
	items    slab[WorkItem]
	headings slab[Heading]
	lines    slab[Line]
	text     []byte // the rest of the current block of text
	textLen  int    // the length of the next block of text

	// The rest of the current block of text a parse that lets each
	// document's text go drops once the document's DocChecks have read
	// it (the values of unknown frontmatter keys, Workspace.keepFields),
	// and the length of its next block: apart from the model's other
	// text, so that its blocks go with what is dropped.
	loose    []byte
	looseLen int
	// releasing says whether the document being parsed will have its
	// text let go: only then are unknown keys' values apart (loose);
	// a parse that keeps every model (--fix, a session, a cached
	// summary) shares them through intern as before.
	releasing bool

	// The strings intern gave out, by a hash of their text: the ids,
	// paths, keys and short values that documents repeat (a work id is
	// named in ~8 documents on average, a fact's key in thousands) are
	// held once a slab instead of once a mention. A fixed table whose
	// slot the last text of its hash holds, not a map: a workspace of
	// millions of distinct short strings would grow a map without bound
	// (and pay for it), while what repeats stays in its slot. Dropped
	// with the slabs at the end of the parse.
	interned *[internSlots]string

	// The table of reference texts the run's documents share (see Refs),
	// and a builder whose buffer the next document reuses.
	refTexts *Texts
	builder  *refsBuilder
}

// internSlots is the size of intern's table: 64 KB of string headers.
const internSlots = 4096

// slab is a block of Ts, the rest of which new cuts the next ones from.
type slab[T any] struct {
	free []T
	n    int // the length of the next block
}

// Blocks grow from a few objects (or bytes of text), for a parse of a few
// documents, to a size that the runtime gives pages of its own (over 32
// KB).
const (
	slabFirst = 8
	slabMax   = 256
	textFirst = 512
	textMax   = 64 << 10
)

func (s *slab[T]) new() *T {
	if len(s.free) == 0 {
		s.n = min(max(2*s.n, slabFirst), slabMax)
		s.free = make([]T, s.n)
	}
	p := &s.free[0]
	s.free = s.free[1:]
	return p
}

func (m *modelSlabs) frontmatter() *Frontmatter {
	if m == nil {
		return new(Frontmatter)
	}
	return m.fms.new()
}

func (m *modelSlabs) workItem() *WorkItem {
	if m == nil {
		return new(WorkItem)
	}
	return m.items.new()
}

func (m *modelSlabs) heading() *Heading {
	if m == nil {
		return new(Heading)
	}
	return m.headings.new()
}

// refsBuilder returns a builder of a document's references, their texts
// in the run's table (a table of its own for a nil m).
func (m *modelSlabs) refsBuilder() *refsBuilder {
	if m == nil {
		return &refsBuilder{texts: NewTexts()}
	}
	if m.refTexts == nil {
		m.refTexts = NewTexts()
	}
	b := m.builder
	if b == nil {
		b = new(refsBuilder)
	}
	m.builder = nil
	*b = refsBuilder{texts: m.refTexts, packed: b.packed[:0]}
	return b
}

// keepRefsBuilder keeps b for the next document's references, once its
// own are packed (refsBuilder.refs copies them).
func (m *modelSlabs) keepRefsBuilder(b *refsBuilder) {
	if m != nil {
		m.builder = b
	}
}

func (m *modelSlabs) line() *Line {
	if m == nil {
		return new(Line)
	}
	return m.lines.new()
}

// str returns a copy of b.
func (m *modelSlabs) str(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	t := m.bytes(len(b))
	copy(t, b)
	return unsafe.String(&t[0], len(t))
}

// internMax is the longest text intern shares: ids, paths, keys and
// enumerated values are shorter; longer text (a title, a sentence) is
// rarely repeated verbatim and would only grow the table.
const internMax = 64

// intern returns b as a string, the same one for the same text every
// time (up to internMax bytes; a longer b is copied, as by str).
func (m *modelSlabs) intern(b []byte) string {
	if m == nil {
		return string(b)
	}
	if len(b) == 0 || len(b) > internMax {
		return m.str(b)
	}
	if m.interned == nil {
		m.interned = new([internSlots]string)
	}
	slot := &m.interned[maphash.Bytes(internSeed, b)%internSlots]
	if *slot == string(b) {
		return *slot
	}
	s := m.str(b)
	*slot = s
	return s
}

var internSeed = maphash.MakeSeed()

// internLoose is intern for a text the model may drop (see loose): the
// string intern holds for it if there is one, else a copy in the loose
// blocks, which intern's table never gives out.
func (m *modelSlabs) internLoose(b []byte) string {
	if m == nil {
		return string(b)
	}
	if !m.releasing {
		return m.intern(b)
	}
	if len(b) > 0 && len(b) <= internMax && m.interned != nil {
		if s := m.interned[maphash.Bytes(internSeed, b)%internSlots]; s == string(b) {
			return s
		}
	}
	if len(b) == 0 {
		return ""
	}
	t := cut(&m.loose, &m.looseLen, len(b))
	copy(t, b)
	return unsafe.String(&t[0], len(t))
}

// bytes returns n bytes for text that nothing writes once it is written:
// the text of the model's strings, which share blocks.
func (m *modelSlabs) bytes(n int) []byte {
	if m == nil {
		return make([]byte, n)
	}
	return cut(&m.text, &m.textLen, n)
}

// cut returns n bytes from the rest of a block of text (free), taking a
// new block, of the next length (*next), when they do not fit.
func cut(free *[]byte, next *int, n int) []byte {
	if n > textMax/8 {
		return make([]byte, n)
	}
	if len(*free) < n {
		*next = min(max(2**next, textFirst), textMax)
		*free = make([]byte, max(*next, n))
	}
	t := (*free)[:n:n]
	*free = (*free)[n:]
	return t
}
