package status

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/svrnty/sotvet/sotparse"
)

// TestInnermostIdx checks the parent walk of innermostIdx against a
// reading of every section, on random nested sections (headings of random
// levels, each section ending at the next of its level or above), on
// sections that overlap without nesting, and out of order.
func TestInnermostIdx(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for round := range 2000 {
		n := rng.IntN(12)
		d := &sotparse.Doc{}
		var secs []span
		levels := make([]int, n)
		starts := make([]int, n)
		off := 0
		for i := range n {
			off += 1 + rng.IntN(20)
			starts[i], levels[i] = off, 1+rng.IntN(4)
		}
		size := off + 1 + rng.IntN(20)
		for i := range n {
			end := size
			for j := i + 1; j < n; j++ {
				if levels[j] <= levels[i] {
					end = starts[j]
					break
				}
			}
			secs = append(secs, span{starts[i], end})
			d.WorkItems = append(d.WorkItems, &sotparse.WorkItem{ID: fmt.Sprint(i)})
		}
		broken := round%5 == 0 && n > 1
		if broken {
			// Sections that overlap without nesting.
			// the second starts inside the first and ends after it.
			k := rng.IntN(n - 1)
			secs[k].end = secs[k+1].start + 1
			secs[k+1].end = secs[k].end + 1 + rng.IntN(5)
		}
		if round%7 == 0 && n > 1 {
			k := rng.IntN(n - 1)
			secs[k], secs[k+1] = secs[k+1], secs[k]
		}
		di := &docInfo{d: d, sections: secs}
		for o := 0; o <= size; o++ {
			want := -1
			for i, s := range secs {
				if s.start <= o && o < s.end {
					want = i
				}
			}
			if got := di.innermostIdx(o); got != want {
				t.Fatalf("round %d: sections %v, offset %d: innermostIdx %d, want %d", round, secs, o, got, want)
			}
		}
	}
}
