package sotparse

import (
	"fmt"
	"strings"
	"testing"
)

// TestFactsPacked: a document's facts are held packed, a few bytes each,
// their keys and values as ids in the run's table of texts, which holds
// each distinct text once; All gives them back as parsed. As a *Fact each
// (88 bytes with its pointer, and a value longer than intern shares copied
// again for every fact) they were 70 MB of the live heap on a workspace of
// evidence journals naming the same few runs in every section.
func TestFactsPacked(t *testing.T) {
	const n = 2000
	runs := []string{
		"/home/u/.hermes/profiles/cto-planb/harness-runs/20260601T010203Z-r1-string-slugify-1800000/report.json",
		"/home/u/.hermes/profiles/cto-planb/harness-runs/20260602T040506Z-r2-title-case-1807919/report.json",
	}
	var b strings.Builder
	b.WriteString("# Evidence\n\n")
	for i := range n {
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, "- Harness report: `%s`\n", runs[i%len(runs)])
		case 1:
			b.WriteString("- report status: pass\n")
		case 2:
			fmt.Fprintf(&b, "- backend exit code: %d\n", i%2)
		case 3:
			fmt.Fprintf(&b, "- target commit: `%040x`\n", i)
		}
	}
	ws := load(t, map[string]string{"A-EVIDENCE.md": b.String(), "WORKBOARD.yaml": "items: []\n"})
	d := ws.Doc("A-EVIDENCE.md")
	if d.Facts.Len() != n {
		t.Fatalf("%d facts, want %d", d.Facts.Len(), n)
	}
	if per := float64(len(d.Facts.packed)) / n; per > 8 {
		t.Errorf("%.1f bytes a fact packed, want at most 8", per)
	}
	tf := d.File.Tok
	lines := strings.Split(b.String(), "\n")[2:]
	for i, f := range d.Facts.All() {
		k, v, _ := strings.Cut(strings.TrimPrefix(lines[i], "- "), ": ")
		if f.Key != k || f.Value != v {
			t.Fatalf("fact %d is %q: %q, want %q: %q", i, f.Key, f.Value, k, v)
		}
		p := tf.Position(f.Pos)
		// From the key (after the marker) to the line's end.
		if p.Line != i+3 || p.Column != 3 || tf.Offset(f.End)-tf.Offset(f.Pos) != len(lines[i])-2 || tf.Offset(f.ValuePos)-tf.Offset(f.Pos) != len(lines[i])-2-len(v) {
			t.Fatalf("fact %d spans %v..%v (value at %v), want line %d column 3, %d bytes", i, p, tf.Position(f.End), tf.Position(f.ValuePos), i+3, len(lines[i])-2)
		}
	}
	// The keys, the two runs, two results and the commits (as values and
	// as the references the parse finds in them): each once.
	if got, want := int(d.Facts.texts.n), 4+2+1+2+2*(n/4); got > want+20 {
		t.Errorf("the table holds %d texts, want about %d (the document's distinct ones)", got, want)
	}
}
