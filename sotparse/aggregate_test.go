package sotparse

import (
	"testing"
	"testing/fstest"
)

// TestAggregateNotKeptAfterFailedReadBack: what a check gathers from a
// session's kept documents is kept for the next runs that keep the same
// ones, unless a kept text could not be read back in the run that
// gathered it (blanks stood for it): the next run gathers again.
func TestAggregateNotKeptAfterFailedReadBack(t *testing.T) {
	a, b, fsys := twoPRDs()
	parse := keptRuns(t, fsys, a)
	var textKey, aggKey MemoKey
	gathered := 0
	gather := func(ws *Workspace) string {
		return Aggregate(ws, &aggKey, func(kept []*Doc) string {
			gathered++
			out := ""
			for _, d := range kept {
				out += MemoText(ws, d, &textKey, func(_ *Doc, text []byte) string { return string(text) })
			}
			return out
		})
	}
	good := fsys[b].Data
	ws := parse()
	if !ws.Doc(b).Summarized() {
		t.Fatal("the document out of focus is not kept from its summary")
	}
	fsys[b] = &fstest.MapFile{Data: []byte("# B\n\nBETA, longer\n")} // changed since its summary
	if got := gather(ws); got != "          " || ws.ReadBackErr() == nil {
		t.Fatalf("gathered %q, error %v; want the blanks standing for the changed text, and an error", got, ws.ReadBackErr())
	}
	fsys[b] = &fstest.MapFile{Data: good}
	ws = parse()
	for range 2 {
		if got := gather(ws); got != "# B\n\nbeta\n" {
			t.Fatalf("the next run gathered %q, want the text read back", got)
		}
	}
	if gathered != 2 {
		t.Errorf("gathered %d times, want twice: once in the failed run, once after, then kept", gathered)
	}
}
