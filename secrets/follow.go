package secrets

import (
	"regexp/syntax"
	"slices"
)

// A rule anchored at its keywords (compiledRule.anchoredAfter) runs its
// expression at every keyword hit, and most hits in prose are words that
// merely contain the keyword ("s." ends every sentence whose last word ends
// in s). The byte right after the keyword rules most of them out: a
// follow set holds the bytes that can come right after a keyword at the
// start of a match, and a hit followed by any other byte is not tried.

// followSet returns the set of bytes that may follow kw (ASCII, lower
// case, matched in any ASCII case as the scanner does) at the start of a
// match of expr, or nil when any byte may or the analysis cannot tell: a
// match may end with kw, or kw holds a non-ASCII byte.
//
// The set over-approximates: every zero-width assertion is taken to hold,
// and every byte of 0x80 and above is in it (the analysis stays in ASCII).
// A byte outside the set therefore proves that no match starts at the hit.
func followSet(expr, kw string) *[256]bool {
	for i := 0; i < len(kw); i++ {
		if kw[i] >= 0x80 {
			return nil
		}
	}
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return nil
	}
	cur := closure(prog, []uint32{uint32(prog.Start)})
	for i := 0; i < len(kw); i++ {
		c := rune(kw[i])
		var next []uint32
		for _, pc := range cur {
			in := &prog.Inst[pc]
			if consumes(in.Op) && (in.MatchRune(c) || in.MatchRune(upperASCII(c))) {
				next = append(next, in.Out)
			}
		}
		if cur = closure(prog, next); len(cur) == 0 {
			return nil // no match starts with kw: not a case worth a set
		}
	}
	set := new([256]bool)
	for b := 0x80; b < 256; b++ {
		set[b] = true
	}
	for _, pc := range cur {
		in := &prog.Inst[pc]
		switch {
		case in.Op == syntax.InstMatch:
			return nil // a match may end with the keyword
		case consumes(in.Op):
			for b := rune(0); b < 0x80; b++ {
				if in.MatchRune(b) {
					set[b] = true
				}
			}
		}
	}
	return set
}

// closure returns the instructions reachable from pcs without consuming
// input, zero-width assertions taken to hold, sorted and without repeats.
func closure(prog *syntax.Prog, pcs []uint32) []uint32 {
	seen := make(map[uint32]bool)
	var out []uint32
	var visit func(pc uint32)
	visit = func(pc uint32) {
		if seen[pc] {
			return
		}
		seen[pc] = true
		in := &prog.Inst[pc]
		switch in.Op {
		case syntax.InstAlt, syntax.InstAltMatch:
			visit(in.Out)
			visit(in.Arg)
		case syntax.InstCapture, syntax.InstNop, syntax.InstEmptyWidth:
			visit(in.Out)
		case syntax.InstFail:
		default: // InstMatch and the rune instructions
			out = append(out, pc)
		}
	}
	for _, pc := range pcs {
		visit(pc)
	}
	slices.Sort(out)
	return out
}

func consumes(op syntax.InstOp) bool {
	switch op {
	case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
		return true
	}
	return false
}

func upperASCII(c rune) rune {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// useFollow turns the follow sets on; the tests turn them off to compare.
var useFollow = true

// mayFollow reports whether a match may start at the hit of the rule's
// ki-th keyword that ends just before data[next].
func (cr *compiledRule) mayFollow(ki int, data []byte, next int) bool {
	f := cr.follow[ki]
	return f == nil || next >= len(data) || !useFollow || f[data[next]]
}
