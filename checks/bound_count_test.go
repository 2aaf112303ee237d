package checks

import (
	"cmp"
	"fmt"
	"go/token"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// boundCodes are the codes the dropped findings of the tests below carry:
// two that merge at one place (refs absorbs structure), one that does not.
var boundCodes = []string{"refs/conflicting-definition", "structure/item-status", "hygiene/trailing-spaces"}

// droppedAt is one finding dropMany counted: its file's name, its place
// and what it carries.
type droppedAt struct {
	name string
	d    droppedFinding
}

// dropMany counts n findings at random places of files (two files share a
// name, as a path reached twice does), in the order two workers would
// interleave them, and returns what it counted: the reference the bound's
// own records are not.
func dropMany(b *findingBound, files []*token.File, n int, rng *rand.Rand) []droppedAt {
	var out []droppedAt
	for i := range n {
		tf := files[(i/3+rng.IntN(2))%len(files)]
		off := rng.IntN(tf.Size())
		code := rng.IntN(len(boundCodes))
		cat, _ := b.category(boundCodes[code])
		sev := []Severity{SeverityError, SeverityWarning, SeverityNote}[rng.IntN(3)]
		b.drop(tf, place{tf.Name(), off}, uint16(code), cat, sev)
		out = append(out, droppedAt{tf.Name(), droppedFinding{offset: int32(off), check: uint16(code), cat: cat, sev: uint8(sev.Rank())}})
	}
	return out
}

// TestBoundCountMatchesOneSort holds count to what a sort of every counted
// finding by file name and offset, each place folded, counts: the per-file
// slices, the batched adds and the shortcut for a place alone change
// nothing.
func TestBoundCountMatchesOneSort(t *testing.T) {
	fset := token.NewFileSet()
	var files []*token.File
	for i := range 40 {
		name := fmt.Sprintf("f%02d.md", i)
		if i == 39 {
			name = "f07.md" // a second file of one name
		}
		files = append(files, fset.AddFile(name, -1, 60))
	}
	code := func(check uint16, _ string) string { return boundCodes[check] }
	name := func(check uint16) string { c, _, _ := strings.Cut(boundCodes[check], "/"); return c }
	for seed := range uint64(20) {
		b := newFindingBound(10, 0, fset, nil)
		all := dropMany(b, files, 3000, rand.New(rand.NewPCG(seed, 1)))
		slices.SortStableFunc(all, func(x, y droppedAt) int {
			return cmp.Or(cmp.Compare(x.name, y.name), cmp.Compare(x.d.offset, y.d.offset))
		})
		var want Omitted
		for i := 0; i < len(all); {
			j := i + 1
			for j < len(all) && all[j].name == all[i].name && all[j].d.offset == all[i].d.offset {
				j++
			}
			g := all[i:j]
			into := foldInto(len(g), func(k int) string { return code(g[k].d.check, "") }, func(k int) int { return int(g[k].d.sev) })
			for k := range g {
				if stays(into, k) {
					want.Add(name(g[k].d.check), g[k].name, severityOfRank(int(g[k].d.sev)), 1)
				}
			}
			i = j
		}
		var got Omitted
		b.count(&got, name, code)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("seed %d: counted %v, want %v", seed, got, want)
		}
		if want.Total == 3000 {
			t.Fatalf("seed %d: no place merged two findings: the test proves nothing", seed)
		}
	}
}

// BenchmarkBoundDropCount is the run of a workspace with a finding on
// every line: 1,000 files, 200 counted findings each.
func BenchmarkBoundDropCount(b *testing.B) {
	fset := token.NewFileSet()
	var files []*token.File
	for i := range 1000 {
		files = append(files, fset.AddFile(fmt.Sprintf(".sot/d/D-%05d.md", i), -1, 8000))
	}
	code := func(check uint16, _ string) string { return boundCodes[check] }
	for b.Loop() {
		fb := newFindingBound(10, 0, fset, nil)
		dropMany(fb, files, 200_000, rand.New(rand.NewPCG(1, 2)))
		var o Omitted
		fb.count(&o, func(check uint16) string { return boundCodes[check] }, code)
	}
}
