package secrets

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// TestKWMatcherEqualsDense: the sparse construction builds the automaton
// the dense one did, state for state, on the default rules' keywords, the
// gitleaks path allowlist's literals, and random keyword sets over a small
// alphabet (many shared prefixes and suffixes), in both table widths.
func TestKWMatcherEqualsDense(t *testing.T) {
	type set struct {
		kws   []string
		rules []int
	}
	var sets []set
	var def set
	for i, r := range DefaultRules() {
		for _, k := range r.Keywords {
			def.kws = append(def.kws, k)
			def.rules = append(def.rules, i)
		}
	}
	sets = append(sets, def, set{[]string{"he", "she", "his", "hers", "SK-", ""}, []int{0, 1, 2, 3, 4, 5}}, set{})
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		var s set
		for range 1 + rng.IntN(40) {
			b := make([]byte, 1+rng.IntN(8))
			for i := range b {
				b[i] = "abcAB-_x"[rng.IntN(8)]
			}
			s.kws = append(s.kws, string(b))
			s.rules = append(s.rules, rng.IntN(10))
		}
		sets = append(sets, s)
	}
	for _, limit := range []uint32{max16, 300, 40} {
		saved := max16
		max16 = limit
		for i, s := range sets {
			got, want := newKWMatcher(s.kws, s.rules), denseKWMatcher(s.kws, s.rules)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("max16 %d, set %d (%q): the automaton differs from the dense construction's", limit, i, s.kws)
			}
		}
		max16 = saved
	}
}

// denseKWMatcher is the construction newKWMatcher replaced, over a dense
// trie table: the reference its automata must equal. kws[i] is a keyword, rules[i] the rule
// index it belongs to. Keywords are matched case-insensitively (ASCII).
func denseKWMatcher(kws []string, rules []int) *kwMatcher {
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

	// Trie, as a dense table: child[s*nc+c] is the child of state s on
	// class c, or 0 (the root is nobody's child). The breadth-first pass
	// below turns it in place into the DFA's transition function: flat
	// arrays, no maps, since the default scanner builds this for some 400
	// keywords at every process start.
	child := make([]int32, trieSizeDense(kws, &m.class)*nc)
	out := make([][]int, 1, len(child)/nc)
	for i, kw := range kws {
		if kw == "" {
			continue
		}
		s := 0
		for j := 0; j < len(kw); j++ {
			c := int(m.class[lower(kw[j])])
			t := int(child[s*nc+c])
			if t == 0 {
				t = len(out)
				out = append(out, nil)
				child[s*nc+c] = int32(t)
			}
			s = t
		}
		out[s] = appendUnique(out[s], rules[i])
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
			out[s] = appendUnique(out[s], r)
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

	// Renumber: states without output first (root stays 0), then the rest,
	// each group in breadth-first order.
	bfs := append([]int32{0}, queue...)
	order := make([]int, 0, len(out))
	for _, i := range bfs {
		if len(out[i]) == 0 {
			order = append(order, int(i))
		}
	}
	firstMatch := len(order)
	for _, i := range bfs {
		if len(out[i]) != 0 {
			order = append(order, int(i))
		}
	}
	m.layout(len(out), nc)
	newID := make([]uint32, len(out))
	for ni, oi := range order {
		newID[oi] = uint32(ni) * m.rowStep
	}
	w := int(m.width)
	if m.t16 != nil {
		fillDense(m.t16, w, nc, order, delta, newID)
	} else {
		fillDense(m.t32, w, nc, order, delta, newID)
	}
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

// fillDense writes the renumbered rows: row ni of tr is old state order[ni],
// whose transitions delta gives over nc classes.
func fillDense[T transition](tr []T, w, nc int, order []int, delta []int32, newID []uint32) {
	for ni, oi := range order {
		row := tr[ni*w : ni*w+nc]
		for c, t := range delta[oi*nc : (oi+1)*nc] {
			row[c] = T(newID[t])
		}
	}
}

// trieSizeDense returns the number of states of the trie of kws over the
// alphabet class: the root and one state per distinct non-empty prefix.
func trieSizeDense(kws []string, class *[256]uint8) int {
	keys := make([]string, 0, len(kws))
	for _, kw := range kws {
		b := make([]byte, len(kw))
		for i := 0; i < len(kw); i++ {
			b[i] = class[lower(kw[i])]
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
