package secrets

// kwMatcher is an Aho-Corasick automaton compiled to a dense DFA over a
// reduced, ASCII-case-folded byte alphabet. It finds every position at which
// some keyword ends, in a single left-to-right pass with one table lookup per
// input byte.
//
// States are renumbered so that every state with an output (some keyword ends
// there) sorts after every state without one; the hot loop then needs a single
// comparison per byte to notice a hit. Among each group states are in
// breadth-first order, so the shallow states most text keeps returning to
// share cache lines. A stored transition t addresses the row starting at
// t<<shift, so a step is trans[t<<shift+class[b]].
//
// The table is 16-bit whenever the row starts fit (the default rules' 5,293
// states x 56 classes do with shift 3): the ~270 rows planning prose keeps
// visiting then take ~25 KB and stay in L1, where with 32-bit entries they
// took ~50 KB, spilled to L2, and the scan was bound by its latency.
type kwMatcher struct {
	class      [256]uint8 // byte -> alphabet class (0 = not in any keyword)
	width      uint32     // row width: classes, padded to a multiple of 1<<shift
	shift      uint32     // a stored state t starts its row at t<<shift
	rowStep    uint32     // width>>shift: one row, in stored form
	t16        []uint16   // transitions, when every stored state fits 16 bits
	t32        []uint32   // transitions otherwise
	matchStart uint32     // first output state, stored form
	maxLen     int        // longest keyword
	out        [][]uint16
	// out[(state-matchStart)/rowStep] lists the rule indices whose
	// keywords end in that state.
}

// transition is the type of a stored DFA state.
type transition interface{ ~uint16 | ~uint32 }

// max16 is the largest stored state the 16-bit table holds.
const max16 = uint32(0xffff)

// newKWMatcher builds the automaton. kws[i] is a keyword, rules[i] the rule
// index it belongs to. Keywords are matched case-insensitively (ASCII).
func newKWMatcher(kws []string, rules []int) *kwMatcher {
	return newKWMatcherMax(kws, rules, max16)
}

// newKWMatcherMax is newKWMatcher with the 16-bit table bounded by limit
// (at most max16): tests lower it to exercise the wider shifts and the
// 32-bit table, each with a bound of its own, in parallel.
func newKWMatcherMax(kws []string, rules []int, limit uint32) *kwMatcher {
	m := &kwMatcher{maxLen: 1}
	for _, kw := range kws {
		if len(kw) > m.maxLen {
			m.maxLen = len(kw)
		}
	}
	// Alphabet: one class per distinct lower-case byte used by a keyword.
	next := uint8(1)
	for _, kw := range kws {
		for i := 0; i < len(kw); i++ {
			c := lower(kw[i])
			if m.class[c] == 0 {
				if next == 255 {
					// More than 254 distinct bytes cannot happen with
					// sensible keywords; fold the rest together (the
					// matcher stays sound as a prefilter: it may report
					// extra hits, never miss one).
					m.class[c] = 255
					continue
				}
				m.class[c] = next
				next++
			}
		}
	}
	for c := 'A'; c <= 'Z'; c++ {
		m.class[c] = m.class[c+'a'-'A']
	}
	nc := int(next)
	if nc < 2 || next == 255 {
		nc = 256
	}

	// The trie, sparse: each state's children in a list sorted by class.
	// A dense trie table (states x classes of int32, ~300 KB for the
	// default rules) cost a cold process more in page faults than all
	// the rest of the build: the only dense table built is the final one,
	// written row by row.
	size := 1 // an upper bound on the states: the root, a state per byte
	for _, kw := range kws {
		size += len(kw)
	}
	t := newSparseTrie(size)
	for i, kw := range kws {
		if kw == "" {
			continue
		}
		s := int32(0)
		for j := 0; j < len(kw); j++ {
			s = t.child(s, m.class[lower(kw[j])], true)
		}
		t.out[s] = appendUnique(t.out[s], rules[i])
	}
	states := len(t.out)

	// Breadth first, children in class order: the failure links and the
	// outputs, which a state inherits from its failure state (shallower,
	// so done already).
	bfs := make([]int32, 1, states)
	for qi := 0; qi < len(bfs); qi++ {
		for c := t.first[bfs[qi]]; c >= 0; c = t.sibling[c] {
			bfs = append(bfs, c)
		}
	}
	fail := make([]int32, states)
	for _, s := range bfs[1:] {
		f := fail[s]
		for _, r := range t.out[f] {
			t.out[s] = appendUnique(t.out[s], r)
		}
		for c := t.first[s]; c >= 0; c = t.sibling[c] {
			fail[c] = t.next(f, t.label[c], fail)
		}
	}

	// Renumber: states without output first (root stays 0), then the rest,
	// each group in breadth-first order.
	order := make([]int, 0, states)
	for _, i := range bfs {
		if len(t.out[i]) == 0 {
			order = append(order, int(i))
		}
	}
	firstMatch := len(order)
	for _, i := range bfs {
		if len(t.out[i]) != 0 {
			order = append(order, int(i))
		}
	}
	m.layout(states, nc, limit)
	newID := make([]uint32, states)
	rowOf := make([]int, states) // by old state: the index of its row
	for ni, oi := range order {
		newID[oi] = uint32(ni) * m.rowStep
		rowOf[oi] = ni
	}
	w := int(m.width)
	if m.t16 != nil {
		fill(m.t16, w, nc, bfs, fail, rowOf, newID, t)
	} else {
		fill(m.t32, w, nc, bfs, fail, rowOf, newID, t)
	}
	out := t.out
	m.matchStart = uint32(firstMatch) * m.rowStep
	m.out = make([][]uint16, len(out)-firstMatch)
	for ni := firstMatch; ni < len(order); ni++ {
		rs := out[order[ni]]
		o := make([]uint16, len(rs))
		for i, r := range rs {
			o[i] = uint16(r)
		}
		m.out[ni-firstMatch] = o
	}
	return m
}

// layout picks the table: 16-bit with the least padding that makes every
// stored state fit under limit, else 32-bit, unpadded.
func (m *kwMatcher) layout(states, nc int, limit uint32) {
	for sh := uint32(0); sh <= 8; sh++ {
		w := (uint32(nc) + 1<<sh - 1) &^ (1<<sh - 1)
		if uint64(states-1)*uint64(w)>>sh <= uint64(limit) {
			m.width, m.shift, m.rowStep = w, sh, w>>sh
			m.t16 = make([]uint16, states*int(w))
			return
		}
	}
	m.width, m.shift, m.rowStep = uint32(nc), 0, uint32(nc)
	m.t32 = make([]uint32, states*nc)
}

// fill writes the DFA's rows in breadth-first order: a state's row is its
// failure state's (written already) with its own children in place.
func fill[T transition](tr []T, w, nc int, bfs, fail []int32, rowOf []int, newID []uint32, t *sparseTrie) {
	for _, s := range bfs {
		row := tr[rowOf[s]*w : rowOf[s]*w+nc]
		if s != 0 {
			f := rowOf[fail[s]] * w
			copy(row, tr[f:f+nc])
		}
		for c := t.first[s]; c >= 0; c = t.sibling[c] {
			row[t.label[c]] = T(newID[c])
		}
	}
}

// sparseTrie is a trie over alphabet classes: each state's children are a
// list linked by sibling, in increasing class order.
type sparseTrie struct {
	first, sibling []int32 // first child, next sibling; -1 for none
	label          []uint8 // the class on the edge into the state
	out            [][]int // the rules whose keywords end at the state
}

// newSparseTrie returns a trie of the root alone, with room for size
// states (at least 1).
func newSparseTrie(size int) *sparseTrie {
	t := &sparseTrie{
		first:   make([]int32, 1, size),
		sibling: make([]int32, 1, size),
		label:   make([]uint8, 1, size),
		out:     make([][]int, 1, size),
	}
	t.first[0], t.sibling[0] = -1, -1
	return t
}

// child returns the child of s on class c; a new one when add is set and
// there is none, else -1.
func (t *sparseTrie) child(s int32, c uint8, add bool) int32 {
	prev := int32(-1)
	x := t.first[s]
	for x >= 0 && t.label[x] < c {
		prev, x = x, t.sibling[x]
	}
	if x >= 0 && t.label[x] == c {
		return x
	}
	if !add {
		return -1
	}
	n := int32(len(t.out))
	t.first = append(t.first, -1)
	t.sibling = append(t.sibling, x)
	t.label = append(t.label, c)
	t.out = append(t.out, nil)
	if prev < 0 {
		t.first[s] = n
	} else {
		t.sibling[prev] = n
	}
	return n
}

// next is the DFA's transition from s on class c: its child, else its
// failure state's transition (fail is set for every state shallower than
// the one being linked); the root's missing children lead back to it.
func (t *sparseTrie) next(s int32, c uint8, fail []int32) int32 {
	for {
		if x := t.child(s, c, false); x >= 0 {
			return x
		}
		if s == 0 {
			return 0
		}
		s = fail[s]
	}
}

// scan calls hit(i, rules) for every index i at which a keyword ends, in
// increasing order of i.
//
// A DFA step is a load that depends on the previous one, so a single stream
// is bound by load latency. scan therefore cuts each block of input into
// four parts and runs four independent DFA streams over them in one
// interleaved loop; each stream first replays the maxLen-1 bytes before its
// part (without reporting) so that keywords crossing a cut are found once.
func (m *kwMatcher) scan(data []byte, hit func(i int, rules []uint16)) {
	var buf [4][]hitRec // allocated by append when a block is long enough to split
	m.scanWith(data, &buf, hit)
}

// scanWith is scan holding the hits of each block in buf, which a caller
// that scans text after text keeps for reuse.
func (m *kwMatcher) scanWith(data []byte, buf *[4][]hitRec, hit func(i int, rules []uint16)) {
	const block = 64 << 10
	s := uint32(0)
	for bs := 0; bs < len(data); bs += block {
		be := bs + block
		if be > len(data) {
			be = len(data)
		}
		if be-bs < 4*256 {
			s = m.run(data, bs, be, s, hit)
			continue
		}
		s = m.scan4(data, bs, be, buf, hit)
	}
}

type hitRec struct {
	i int
	s uint32
}

// run steps the DFA from state s over data[from:to], reporting hits.
func (m *kwMatcher) run(data []byte, from, to int, s uint32, hit func(int, []uint16)) uint32 {
	if m.t16 != nil {
		return run(m, m.t16, data, from, to, s, hit)
	}
	return run(m, m.t32, data, from, to, s, hit)
}

func run[T transition](m *kwMatcher, tr []T, data []byte, from, to int, s uint32, hit func(int, []uint16)) uint32 {
	cls := &m.class
	ms, sh := m.matchStart, m.shift&31
	for i := from; i < to; i++ {
		s = uint32(tr[s<<sh+uint32(cls[data[i]])])
		if s >= ms {
			hit(i, m.out[(s-ms)/m.rowStep])
		}
	}
	return s
}

// warm returns the state after data[from:to] started from the root,
// ignoring hits.
func warm[T transition](m *kwMatcher, tr []T, data []byte, from, to int) uint32 {
	if from < 0 {
		from = 0
	}
	cls := &m.class
	sh := m.shift & 31
	s := uint32(0)
	for i := from; i < to; i++ {
		s = uint32(tr[s<<sh+uint32(cls[data[i]])])
	}
	return s
}

// warm3 is warm over three texts of one length at once: three streams'
// warming, interleaved, take little longer than one.
func warm3[T transition](m *kwMatcher, tr []T, d1, d2, d3 []byte) (s1, s2, s3 uint32) {
	cls := &m.class
	sh := m.shift & 31
	for j := 0; j < len(d1) && j < len(d2) && j < len(d3); j++ {
		s1 = uint32(tr[s1<<sh+uint32(cls[d1[j]])])
		s2 = uint32(tr[s2<<sh+uint32(cls[d2[j]])])
		s3 = uint32(tr[s3<<sh+uint32(cls[d3[j]])])
	}
	return s1, s2, s3
}

func (m *kwMatcher) scan4(data []byte, bs, be int, buf *[4][]hitRec, hit func(int, []uint16)) uint32 {
	if m.t16 != nil {
		return scan4(m, m.t16, data, bs, be, buf, hit)
	}
	return scan4(m, m.t32, data, bs, be, buf, hit)
}

func scan4[T transition](m *kwMatcher, tr []T, data []byte, bs, be int, buf *[4][]hitRec, hit func(int, []uint16)) uint32 {
	q := (be - bs) / 4
	b0, b1, b2, b3 := bs, bs+q, bs+2*q, bs+3*q
	w := m.maxLen - 1
	s0 := warm(m, tr, data, b0-w, b0)
	var s1, s2, s3 uint32
	if w <= q {
		s1, s2, s3 = warm3(m, tr, data[b1-w:b1], data[b2-w:b2], data[b3-w:b3])
	} else {
		s1 = warm(m, tr, data, b1-w, b1)
		s2 = warm(m, tr, data, b2-w, b2)
		s3 = warm(m, tr, data, b3-w, b3)
	}
	d0, d1, d2, d3 := data[b0:b0+q], data[b1:b1+q], data[b2:b2+q], data[b3:b3+q]
	for k := range buf {
		buf[k] = buf[k][:0]
	}
	cls := &m.class
	ms, sh := m.matchStart, m.shift&31
	for j := 0; j < q && j < len(d0) && j < len(d1) && j < len(d2) && j < len(d3); j++ {
		s0 = uint32(tr[s0<<sh+uint32(cls[d0[j]])])
		s1 = uint32(tr[s1<<sh+uint32(cls[d1[j]])])
		s2 = uint32(tr[s2<<sh+uint32(cls[d2[j]])])
		s3 = uint32(tr[s3<<sh+uint32(cls[d3[j]])])
		if s0|s1|s2|s3 >= ms {
			if s0 >= ms {
				buf[0] = append(buf[0], hitRec{b0 + j, s0})
			}
			if s1 >= ms {
				buf[1] = append(buf[1], hitRec{b1 + j, s1})
			}
			if s2 >= ms {
				buf[2] = append(buf[2], hitRec{b2 + j, s2})
			}
			if s3 >= ms {
				buf[3] = append(buf[3], hitRec{b3 + j, s3})
			}
		}
	}
	for k := range buf {
		for _, h := range buf[k] {
			hit(h.i, m.out[(h.s-ms)/m.rowStep])
		}
	}
	return run(m, tr, data, b3+q, be, s3, hit)
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func appendUnique(s []int, v int) []int {
	for _, x := range s {
		if x == v {
			return s
		}
	}
	return append(s, v)
}

// hitMask returns the set of rule indices (all under 64) with a keyword
// in data, as a bit mask.
func (m *kwMatcher) hitMask(data []byte) uint64 {
	var mask uint64
	m.run(data, 0, len(data), 0, func(_ int, rules []uint16) {
		for _, r := range rules {
			mask |= 1 << (r & 63)
		}
	})
	return mask
}

// any reports whether some keyword occurs in data.
func (m *kwMatcher) any(data []byte) bool {
	if len(m.out) == 0 {
		return false
	}
	if m.t16 != nil {
		return anyHit(m, m.t16, data)
	}
	return anyHit(m, m.t32, data)
}

func anyHit[T transition](m *kwMatcher, tr []T, data []byte) bool {
	cls := &m.class
	ms, sh := m.matchStart, m.shift&31
	s := uint32(0)
	for _, c := range data {
		s = uint32(tr[s<<sh+uint32(cls[c])])
		if s >= ms {
			return true
		}
	}
	return false
}
