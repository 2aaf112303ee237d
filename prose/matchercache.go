package prose

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash/crc32"
	"os"
	"path/filepath"
	"sync"
	"unsafe"

	"github.com/svrnty/sotvet/internal/atomicfile"
	"github.com/svrnty/sotvet/internal/safefs"
)

// Building the literal table of four style packages (~11,000 states) was
// ~12 ms of every run. It is kept beside the style cache, in a file named
// by a hash of the build's key and of the literals, in their order: the
// same literals make the same table. What is read back is checked (its
// magic, its key, a CRC-32C of the rest) and every move, span and literal
// id against the table's bounds; a file that fails is built again and
// written over.

const matcherCacheMagic = "sotvet prose filter 3\n"

// maxMatcherCache bounds a table file read.
const maxMatcherCache = 256 << 20

func matcherCacheName(key string, lits []string) string {
	h := sha256.New()
	var n [binary.MaxVarintLen64]byte
	field := func(s string) {
		h.Write(n[:binary.PutUvarint(n[:], uint64(len(s)))])
		h.Write([]byte(s))
	}
	field(matcherCacheMagic)
	field(key)
	for _, l := range lits {
		field(l)
	}
	return hex.EncodeToString(h.Sum(nil)) + ".filter"
}

// cachedMatcher is newMatcher(lits), read from the style cache when it
// holds the table, else built and kept there.
func cachedMatcher(lits []string) *matcher {
	c := styleCache.Load()
	if c == nil {
		return newMatcher(lits)
	}
	name := filepath.Join(c.Dir, matcherCacheName(c.Key, lits))
	// Read into memory, not mapped: a file written in place or cut short
	// by another process after the check would change findings under the
	// run, or fault (SIGBUS) where a read merely fails.
	if data, err := safefs.ReadNoFollow(name, maxMatcherCache); err == nil {
		m := &matcher{}
		if decodeMatcher(m, data, c.Key, len(lits)) == nil {
			markUsed(name)
			return m
		}
	}
	m := newMatcher(lits)
	if err := os.MkdirAll(c.Dir, 0o700); err == nil {
		_ = atomicfile.Write(name, encodeMatcher(c.Key, m), 0o600)
	}
	return m
}

// A table file is its magic, its key, a CRC-32C of the rest, padding to a
// multiple of 8 bytes, then fixed-width little-endian fields, each array
// starting at a multiple of 8: the counts (count, width, cell bits, cells,
// states, literal ids), the byte classes, the moves, the states' spans,
// the literal ids. On a little-endian machine the arrays are used where
// they lie in the buffer read.

const matcherHeader = 6 * 8

func pad8(b []byte) []byte {
	for len(b)%8 != 0 {
		b = append(b, 0)
	}
	return b
}

func encodeMatcher(key string, m *matcher) []byte {
	var p []byte
	bits, cells := 16, len(m.delta16)
	if m.delta16 == nil {
		bits, cells = 32, len(m.delta)
	}
	for _, v := range []int{m.count, m.width, bits, cells, len(m.out), len(m.ids)} {
		p = binary.LittleEndian.AppendUint64(p, uint64(v))
	}
	for _, c := range m.class {
		p = binary.LittleEndian.AppendUint16(p, c)
	}
	for _, s := range m.delta16 {
		p = binary.LittleEndian.AppendUint16(p, s)
	}
	for _, s := range m.delta {
		p = binary.LittleEndian.AppendUint32(p, uint32(s))
	}
	p = pad8(p)
	for _, o := range m.out {
		p = binary.LittleEndian.AppendUint32(p, uint32(o.lo))
		p = binary.LittleEndian.AppendUint32(p, uint32(o.hi))
	}
	for _, id := range m.ids {
		p = binary.LittleEndian.AppendUint32(p, uint32(id))
	}
	out := append([]byte(matcherCacheMagic), binary.AppendUvarint(nil, uint64(len(key)))...)
	out = append(out, key...)
	out = pad8(binary.LittleEndian.AppendUint32(out, crc32.Checksum(p, castagnoli())))
	return append(out, p...)
}

// castagnoli is the table's checksum: the file's name already holds a
// SHA-256 of what built it, and CRC-32C (in hardware) finds damage in a
// megabyte many times faster than a second SHA-256 of it. The table is
// made on first use: making it at init cost every sotvet process 0.3 ms.
var castagnoli = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

// nativeLE says whether the machine is little-endian, so that a table's
// arrays can be used in place.
var nativeLE = binary.NativeEndian.Uint16([]byte{1, 0}) == 1

// view returns the n elements of type T at the start of b, in place when
// the machine is little-endian and b aligned, else copied.
func view[T uint16 | uint32 | int32](b []byte, n int) []T {
	var zero T
	size := int(unsafe.Sizeof(zero))
	if n == 0 {
		return nil
	}
	if nativeLE && uintptr(unsafe.Pointer(&b[0]))%unsafe.Alignof(zero) == 0 {
		return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), n)
	}
	out := make([]T, n)
	for i := range out {
		switch size {
		case 2:
			out[i] = T(binary.LittleEndian.Uint16(b[2*i:]))
		default:
			out[i] = T(binary.LittleEndian.Uint32(b[4*i:]))
		}
	}
	return out
}

// decodeMatcher fills m from what encodeMatcher wrote for a table of count
// literals, and checks that every move, span and id stays inside the
// table: a damaged file is refused, never scanned.
func decodeMatcher(m *matcher, data []byte, key string, count int) error {
	rest, ok := bytes.CutPrefix(data, []byte(matcherCacheMagic))
	if !ok {
		return errStyleCache
	}
	d := decoder{b: rest}
	if d.str() != key || d.bad || len(d.b) < 4 {
		return errStyleCache
	}
	sum := binary.LittleEndian.Uint32(d.b)
	at := len(data) - len(d.b) + 4
	at += (8 - at%8) % 8
	if at > len(data) {
		return errStyleCache
	}
	payload := data[at:]
	if crc32.Checksum(payload, castagnoli()) != sum || len(payload) < matcherHeader+512 {
		return errStyleCache
	}
	var h [6]uint64
	for i := range h {
		h[i] = binary.LittleEndian.Uint64(payload[8*i:])
	}
	width, bits, cells, states, nIDs := h[1], h[2], h[3], h[4], h[5]
	if cells > uint64(len(payload)) || states > uint64(len(payload)) || nIDs > uint64(len(payload)) {
		return errStyleCache // and the sums below cannot wrap
	}
	if h[0] != uint64(count) || width == 0 || width > 257 || (bits != 16 && bits != 32) ||
		states == 0 || cells/width != states || cells%width != 0 || bits == 16 && states > uint64(maxStates16) {
		return errStyleCache
	}
	size := uint64(bits / 8)
	body := payload[matcherHeader+512:]
	deltaLen := (cells*size + 7) / 8 * 8
	if uint64(len(body)) != deltaLen+8*states+4*nIDs {
		return errStyleCache
	}
	m.count, m.width = count, int(width)
	for i := range m.class {
		if m.class[i] = binary.LittleEndian.Uint16(payload[matcherHeader+2*i:]); int(m.class[i]) >= m.width {
			return errStyleCache
		}
	}
	n := int(states)
	if bits == 16 {
		m.delta16 = view[uint16](body, int(cells))
		// A move's flag (flagMoves) is held by the checksum; its state
		// must be in the table.
		for _, v := range m.delta16 {
			if int(v&^flag16) >= n {
				return errStyleCache
			}
		}
	} else {
		m.delta = view[int32](body, int(cells))
		for _, v := range m.delta {
			if v < 0 || int(v&^flag32) >= n {
				return errStyleCache
			}
		}
	}
	raw := view[int32](body[deltaLen:], 2*n)
	m.out = unsafe.Slice((*span32)(unsafe.Pointer(&raw[0])), n)
	for _, o := range m.out {
		if o.lo < 0 || o.lo > o.hi || uint64(o.hi) > nIDs {
			return errStyleCache
		}
	}
	m.ids = view[int32](body[deltaLen+8*states:], int(nIDs))
	for _, id := range m.ids {
		if id < 0 || int(id) >= count {
			return errStyleCache
		}
	}
	return nil
}
