package secrets

// The keyword matcher as it was before its transitions became 16-bit: the
// reference the differential tests compare the current one against.

import "slices"

// refKWMatcher is an Aho-Corasick automaton compiled to a dense DFA over a
// reduced, ASCII-case-folded byte alphabet. It finds every position at which
// some keyword ends, in a single left-to-right pass with one table lookup per
// input byte.
//
// States are renumbered so that every state with an output (some keyword ends
// there) sorts after every state without one; the hot loop then needs a single
// comparison per byte to notice a hit. Transition targets are stored
// pre-multiplied by the alphabet size, so a step is trans[state+class[b]].
type refKWMatcher struct {
	class      [256]uint8 // byte -> alphabet class (0 = not in any keyword)
	nclass     uint32
	trans      []uint32 // [state*nclass + class] -> next state*nclass
	matchStart uint32   // first output state, pre-multiplied
	maxLen     int      // longest keyword
	out        [][]uint16
	// out[(state-matchStart)/nclass] lists the rule indices whose keywords
	// end in that state.
}

// newRefKWMatcher builds the automaton. kws[i] is a keyword, rules[i] the rule
// index it belongs to. Keywords are matched case-insensitively (ASCII).
func newRefKWMatcher(kws []string, rules []int) *refKWMatcher {
	m := &refKWMatcher{maxLen: 1}
	for _, kw := range kws {
		if len(kw) > m.maxLen {
			m.maxLen = len(kw)
		}
	}
	// Alphabet: one class per distinct lower-case byte used by a keyword.
	next := uint8(1)
	for _, kw := range kws {
		for i := 0; i < len(kw); i++ {
			c := refLower(kw[i])
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
	m.nclass = uint32(next)
	if m.nclass < 2 || next == 255 {
		m.nclass = 256
	}
	nc := int(m.nclass)

	// Trie, as a dense table: child[s*nc+c] is the child of state s on
	// class c, or 0 (the root is nobody's child). The breadth-first pass
	// below turns it in place into the DFA's transition function: flat
	// arrays, no maps, since the default scanner builds this for some 400
	// keywords at every process start.
	child := make([]int32, refTrieSize(kws, &m.class)*nc)
	out := make([][]int, 1, len(child)/nc)
	for i, kw := range kws {
		if kw == "" {
			continue
		}
		s := 0
		for j := 0; j < len(kw); j++ {
			c := int(m.class[refLower(kw[j])])
			t := int(child[s*nc+c])
			if t == 0 {
				t = len(out)
				out = append(out, nil)
				child[s*nc+c] = int32(t)
			}
			s = t
		}
		out[s] = refAppendUnique(out[s], rules[i])
	}

	// BFS for failure links and the full DFA transition function: a state's
	// missing transitions are its failure state's, whose row (shallower)
	// is already complete.
	delta := child
	fail := make([]int32, len(out))
	queue := make([]int32, 0, len(out))
	for c := 1; c < nc; c++ {
		if t := delta[c]; t != 0 {
			queue = append(queue, t)
		}
	}
	for qi := 0; qi < len(queue); qi++ {
		s := int(queue[qi])
		f := int(fail[s])
		for _, r := range out[f] {
			out[s] = refAppendUnique(out[s], r)
		}
		row, frow := delta[s*nc:(s+1)*nc], delta[f*nc:(f+1)*nc]
		for c := 0; c < nc; c++ {
			if t := row[c]; t != 0 && c != 0 {
				fail[t] = frow[c]
				queue = append(queue, t)
			} else {
				row[c] = frow[c]
			}
		}
	}

	// Renumber: states without output first (root stays 0), then the rest.
	order := make([]int, 0, len(out))
	for i, rs := range out {
		if len(rs) == 0 {
			order = append(order, i)
		}
	}
	firstMatch := len(order)
	for i, rs := range out {
		if len(rs) != 0 {
			order = append(order, i)
		}
	}
	newID := make([]uint32, len(out))
	for ni, oi := range order {
		newID[oi] = uint32(ni * nc)
	}
	m.trans = make([]uint32, len(out)*nc)
	for ni, oi := range order {
		row := m.trans[ni*nc : (ni+1)*nc]
		for c, t := range delta[oi*nc : (oi+1)*nc] {
			row[c] = newID[t]
		}
	}
	m.matchStart = uint32(firstMatch * nc)
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

// trieSize returns the number of states of the trie of kws over the
// alphabet class: the root and one state per distinct non-empty prefix.
func refTrieSize(kws []string, class *[256]uint8) int {
	keys := make([]string, 0, len(kws))
	for _, kw := range kws {
		b := make([]byte, len(kw))
		for i := 0; i < len(kw); i++ {
			b[i] = class[refLower(kw[i])]
		}
		keys = append(keys, string(b))
	}
	slices.Sort(keys)
	n, prev := 1, ""
	for _, k := range keys {
		common := 0
		for common < len(k) && common < len(prev) && k[common] == prev[common] {
			common++
		}
		n += len(k) - common
		prev = k
	}
	return n
}

// scan calls hit(i, rules) for every index i at which a keyword ends, in
// increasing order of i.
//
// A DFA step is a load that depends on the previous one, so a single stream
// is bound by load latency. scan therefore cuts each block of input into
// four parts and runs four independent DFA streams over them in one
// interleaved loop; each stream first replays the maxLen-1 bytes before its
// part (without reporting) so that keywords crossing a cut are found once.
func (m *refKWMatcher) scan(data []byte, hit func(i int, rules []uint16)) {
	const block = 64 << 10
	var buf [4][]refHitRec // allocated by append when a block is long enough to split
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
		s = m.scan4(data, bs, be, &buf, hit)
	}
}

type refHitRec struct {
	i int
	s uint32
}

// run steps the DFA from state s over data[from:to], reporting hits.
func (m *refKWMatcher) run(data []byte, from, to int, s uint32, hit func(int, []uint16)) uint32 {
	tr := m.trans
	cls := &m.class
	ms := m.matchStart
	for i := from; i < to; i++ {
		s = tr[s+uint32(cls[data[i]])]
		if s >= ms {
			hit(i, m.out[(s-ms)/m.nclass])
		}
	}
	return s
}

// warm returns the state after data[from:to] started from the root,
// ignoring hits.
func (m *refKWMatcher) warm(data []byte, from, to int) uint32 {
	if from < 0 {
		from = 0
	}
	tr := m.trans
	cls := &m.class
	s := uint32(0)
	for i := from; i < to; i++ {
		s = tr[s+uint32(cls[data[i]])]
	}
	return s
}

func (m *refKWMatcher) scan4(data []byte, bs, be int, buf *[4][]refHitRec, hit func(int, []uint16)) uint32 {
	q := (be - bs) / 4
	b0, b1, b2, b3 := bs, bs+q, bs+2*q, bs+3*q
	w := m.maxLen - 1
	s0 := m.warm(data, b0-w, b0)
	s1 := m.warm(data, b1-w, b1)
	s2 := m.warm(data, b2-w, b2)
	s3 := m.warm(data, b3-w, b3)
	d0, d1, d2, d3 := data[b0:b0+q], data[b1:b1+q], data[b2:b2+q], data[b3:b3+q]
	for k := range buf {
		buf[k] = buf[k][:0]
	}
	tr := m.trans
	cls := &m.class
	ms := m.matchStart
	for j := 0; j < q && j < len(d0) && j < len(d1) && j < len(d2) && j < len(d3); j++ {
		s0 = tr[s0+uint32(cls[d0[j]])]
		s1 = tr[s1+uint32(cls[d1[j]])]
		s2 = tr[s2+uint32(cls[d2[j]])]
		s3 = tr[s3+uint32(cls[d3[j]])]
		if s0|s1|s2|s3 >= ms {
			if s0 >= ms {
				buf[0] = append(buf[0], refHitRec{b0 + j, s0})
			}
			if s1 >= ms {
				buf[1] = append(buf[1], refHitRec{b1 + j, s1})
			}
			if s2 >= ms {
				buf[2] = append(buf[2], refHitRec{b2 + j, s2})
			}
			if s3 >= ms {
				buf[3] = append(buf[3], refHitRec{b3 + j, s3})
			}
		}
	}
	for k := range buf {
		for _, h := range buf[k] {
			hit(h.i, m.out[(h.s-ms)/m.nclass])
		}
	}
	return m.run(data, b3+q, be, s3, hit)
}

func refLower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func refAppendUnique(s []int, v int) []int {
	for _, x := range s {
		if x == v {
			return s
		}
	}
	return append(s, v)
}

// any reports whether some keyword occurs in data.
// hitMask returns the set of rule indices (all under 64) with a keyword
// in data, as a bit mask.
func (m *refKWMatcher) hitMask(data []byte) uint64 {
	var mask uint64
	s := uint32(0)
	for _, c := range data {
		s = m.trans[s+uint32(m.class[c])]
		if s >= m.matchStart {
			for _, r := range m.out[(s-m.matchStart)/m.nclass] {
				mask |= 1 << (r & 63)
			}
		}
	}
	return mask
}

func (m *refKWMatcher) any(data []byte) bool {
	if len(m.out) == 0 {
		return false
	}
	s := uint32(0)
	for _, c := range data {
		s = m.trans[s+uint32(m.class[c])]
		if s >= m.matchStart {
			return true
		}
	}
	return false
}
