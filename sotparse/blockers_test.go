package sotparse

import (
	"fmt"
	"strings"
	"testing"
)

// TestBlockersPacked: a work item's blockers are held packed, a few bytes
// each, their ids in the run's table of texts, every "Blocked by:" line of
// its section in order; an item's are packed once the parse leaves its
// section, so the next item's start afresh. As a *Ref each (48 bytes and
// a pointer) they were 12 MB of the live heap on a workspace of long
// dependency chains.
func TestBlockersPacked(t *testing.T) {
	const items, per = 50, 12
	var b strings.Builder
	b.WriteString("# Issues\n\n")
	want := map[string][]string{}
	for i := range items {
		id := fmt.Sprintf("CTO-WORK-%03d", 500+i)
		fmt.Fprintf(&b, "### %s - Item %d\n\nStatus: candidate.\n\n", id, i)
		var ids []string
		for k := range per {
			ids = append(ids, fmt.Sprintf("CTO-WORK-%03d", (i*7+k)%400))
		}
		// Two lines: both are the item's.
		fmt.Fprintf(&b, "Blocked by: %s\n\nSome prose.\n\nBlocked by: `%s`\n\n", strings.Join(ids[:per/2], ", "), strings.Join(ids[per/2:], "`, `"))
		want[id] = ids
	}
	ws := load(t, map[string]string{"A-ISSUES.md": b.String(), "WORKBOARD.yaml": "items: []\n"})
	d := ws.Doc("A-ISSUES.md")
	if len(d.WorkItems) != items {
		t.Fatalf("%d items, want %d", len(d.WorkItems), items)
	}
	tf := d.File.Tok
	content := d.File.Content
	total := 0
	for _, it := range d.WorkItems {
		var got []string
		for _, r := range it.Blockers.All() {
			if r.Kind != RefWorkID || string(content[tf.Offset(r.Pos):tf.Offset(r.End)]) != r.Text {
				t.Fatalf("%s: blocker %+v is not its text's place", it.ID, r)
			}
			got = append(got, r.Text)
		}
		if fmt.Sprint(got) != fmt.Sprint(want[it.ID]) {
			t.Errorf("%s blocked by %v, want %v", it.ID, got, want[it.ID])
		}
		total += len(it.Blockers.packed)
	}
	if perRef := float64(total) / (items * per); perRef > 6 {
		t.Errorf("%.1f bytes a blocker packed, want at most 6", perRef)
	}
}
