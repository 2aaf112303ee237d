package authority

import (
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// TestMatcherEqualsDense: the sparse construction builds the automaton the
// dense one did, state for state, on the built-in claims' literals and on
// random literal sets over a small alphabet with spaces (shared prefixes
// and suffixes, the space self-loop), with and without an empty literal.
func TestMatcherEqualsDense(t *testing.T) {
	clauses := newClauseSet()
	for _, c := range DefaultClaims {
		for _, p := range c.Pattern {
			clauses.compile(queryFor(p))
		}
	}
	sets := []map[string]clauseBits{clauses.lits, {}, {"": 1, "ab": 2}}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 300 {
		lits := map[string]clauseBits{}
		for range 1 + rng.IntN(30) {
			b := make([]byte, 1+rng.IntN(7))
			const alphabet = "abAB  -\xe2"
			for i := range b {
				b[i] = alphabet[rng.IntN(len(alphabet))]
			}
			lits[string(b)] |= 1 << rng.IntN(64)
		}
		sets = append(sets, lits)
	}
	for i, lits := range sets {
		if got, want := newMatcher(lits), denseMatcher(lits); !reflect.DeepEqual(got, want) {
			t.Fatalf("set %d (%q): the automaton differs from the dense construction's", i, slices.Sorted(maps.Keys(lits)))
		}
	}
}

// denseMatcher is the construction newMatcher replaced, over a dense trie
// table: the reference its automata must equal.
func denseMatcher(lits map[string]clauseBits) *matcher {
	m := &matcher{}
	// In a fixed order, for a reproducible table; the runes that fold to
	// ASCII letters satisfy every clause.
	keys := slices.Sorted(maps.Keys(lits))
	bits := make([]clauseBits, len(keys))
	for i, l := range keys {
		bits[i] = lits[l]
	}
	for _, r := range poisonRunes {
		keys = append(keys, string(r))
		bits = append(bits, ^markupClause)
	}
	for i := range len(markupBytes) {
		keys = append(keys, markupBytes[i:i+1])
		bits = append(bits, markupClause)
	}
	for _, k := range keys {
		m.reach = max(m.reach, len(k))
	}
	// A column per normalised byte of a literal; column 0 for the rest.
	cols := int32(1)
	var colOf [256]int32
	for _, l := range keys {
		for j := 0; j < len(l); j++ {
			if c := fold(l[j]); colOf[c] == 0 {
				colOf[c] = cols
				cols++
			}
		}
	}
	for c := range 256 {
		m.column[c] = colOf[fold(byte(c))]
	}
	// The trie: next[st*cols+col] is the child, 0 for none (the start
	// state is no one's child).
	// Sized for the states at once: grown a row at a time, the table
	// was copied over and over, ~1 MB allocated for a 0.2 MB table,
	// fresh pages each a cold process pays a fault for.
	states := maxStates(keys)
	next := make([]int32, cols, states*int(cols))
	out := make([]clauseBits, 1, states)
	last := make([]int32, 1, states) // the column of the last byte of each state's string
	for i, l := range keys {
		st := int32(0)
		for j := 0; j < len(l); j++ {
			col := colOf[fold(l[j])]
			nx := next[st*cols+col]
			if nx == 0 {
				nx = int32(len(out))
				next[st*cols+col] = nx
				next = append(next, make([]int32, cols)...)
				out = append(out, 0)
				last = append(last, col)
			}
			st = nx
		}
		out[st] |= bits[i]
	}
	// Breadth first, the failure links complete the transitions.
	fail := make([]int32, len(out))
	var queue []int32
	for col := range cols {
		if nx := next[col]; nx != 0 {
			queue = append(queue, nx)
		}
	}
	for len(queue) > 0 {
		st := queue[0]
		queue = queue[1:]
		out[st] |= out[fail[st]]
		for col := range cols {
			f := next[fail[st]*cols+col]
			if nx := next[st*cols+col]; nx != 0 {
				fail[nx] = f
				queue = append(queue, nx)
			} else {
				next[st*cols+col] = f
			}
		}
	}
	// A space after a space leaves the normalised text as it is.
	if sp := colOf[' ']; sp != 0 {
		for st := int32(1); st < int32(len(out)); st++ {
			if last[st] == sp {
				next[st*cols+sp] = st
			}
		}
	}
	// The states with an output come last, from row outStart on: the
	// scan tests a state number against outStart and reads the outputs
	// only past it, which leaves the table alone in the processor's cache.
	// The start state stays first; were it to have an output (an empty
	// literal), every state is tested.
	nst := len(out)
	order := make([]int32, 0, nst) // new number to old
	for st := range nst {
		if st == 0 || out[st] == 0 {
			order = append(order, int32(st))
		}
	}
	outFrom := len(order)
	if out[0] != 0 {
		outFrom = 0
	}
	for st := 1; st < nst; st++ {
		if out[st] != 0 {
			order = append(order, int32(st))
		}
	}
	renum := make([]int32, nst) // old number to new
	for nw, old := range order {
		renum[old] = int32(nw)
	}
	m.next = make([]int32, len(next))
	for nw, old := range order {
		for col := range cols {
			m.next[int32(nw)*cols+col] = renum[next[old*cols+col]] * cols
		}
	}
	m.outStart = int32(outFrom) * cols
	m.out = make([]clauseBits, len(next)-int(m.outStart))
	for nw := outFrom; nw < nst; nw++ {
		m.out[nw*int(cols)-int(m.outStart)] = out[order[nw]]
	}
	return m
}
