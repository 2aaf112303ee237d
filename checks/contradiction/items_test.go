package contradiction

import (
	"fmt"
	"go/token"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/sotparse"
)

// TestItemSpansAt holds the cursor of itemSpans.at to a search of every
// span, on random nested and flat sections asked in order, and out of
// order.
func TestItemSpansAt(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 7))
	linear := func(spans []itemSpan, p token.Pos) string {
		for _, s := range spans {
			if s.start <= p && p < s.end {
				return s.id
			}
		}
		return ""
	}
	for round := range 3000 {
		var spans []itemSpan
		start := token.Pos(1 + rng.IntN(5))
		for i := range rng.IntN(12) {
			end := start + token.Pos(rng.IntN(40))
			spans = append(spans, itemSpan{fmt.Sprint("W", i), start, end})
			start += token.Pos(rng.IntN(10))
		}
		if round%5 == 0 && len(spans) > 1 {
			rng.Shuffle(len(spans), func(i, j int) { spans[i], spans[j] = spans[j], spans[i] })
		}
		sorted := slices.IsSortedFunc(spans, func(a, b itemSpan) int { return int(a.start - b.start) })
		s := &itemSpans{spans: spans, sorted: sorted}
		p := token.Pos(0)
		for range 30 {
			if round%7 == 0 && rng.IntN(4) == 0 {
				p -= token.Pos(rng.IntN(8)) // out of order: answered by the search
			} else {
				p += token.Pos(rng.IntN(6))
			}
			if got, want := s.at(p), linear(spans, p); got != want {
				t.Fatalf("round %d, spans %v: at(%d) = %q, want %q", round, spans, p, got, want)
			}
		}
	}
}

// TestItemSections holds itemSections to a search of every heading for
// every work item, on documents of work items at several levels among
// other headings.
func TestItemSections(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(5, 9))
	for i := range 200 {
		var b strings.Builder
		b.WriteString("---\nname: r\nstatus: candidate\n---\n\n# R\n\n")
		for range rng.IntN(30) {
			level := strings.Repeat("#", 2+rng.IntN(3))
			if rng.IntN(3) == 0 {
				fmt.Fprintf(&b, "%s Notes\n\ntext\n\n", level)
			} else {
				fmt.Fprintf(&b, "%s Issue: CTO-WORK-%05d - Work\n\n`x` is here.\n\n", level, rng.IntN(100))
			}
		}
		p := filepath.Join(dir, ".sot", fmt.Sprintf("CTO-R%03d-ISSUES.md", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	items := 0
	for _, root := range []string{dir, filepath.Join("..", "..", "testdata", "workspace")} {
		ws, err := sotparse.Load(root, sotparse.Options{NoGit: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range ws.Docs {
			var want []itemSpan
			for _, it := range d.WorkItems {
				for i, h := range d.Headings {
					if h.Pos == it.Pos {
						want = append(want, itemSpan{it.ID, it.End, secEnd(d, i)})
						break
					}
				}
			}
			if got := itemSections(d).spans; !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: sections %v, want %v", d.Path, got, want)
			}
			items += len(want)
		}
	}
	if items < 1000 {
		t.Errorf("only %d work items: the documents do not exercise itemSections", items)
	}
}
