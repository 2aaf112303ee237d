package contradiction

import (
	"fmt"
	"go/token"
	"strings"
	"testing"
	"unsafe"

	"github.com/svrnty/sotvet/checks/checktest"
	"github.com/svrnty/sotvet/sotparse"
)

// TestCommandFactsQuotedOnDemand: a command read from a fact holds no
// statement of its own: its key and value are the fact's texts (the
// run's table's), joined only when a mislabeled-command finding quotes
// it; and a command written with single spaces is the fact's text, not a
// copy. A quoted statement per command fact held 7 MB on hub at 10,000
// documents, and most are quoted by no finding.
func TestCommandFactsQuotedOnDemand(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("# E\n\n")
	for i := range 20 {
		fmt.Fprintf(&b, "- Harness command %d: `python3 -m pytest -q tests/t%d.py`\n", i, i)
	}
	b.WriteString("- Tests command:   `go  test ./...`\n")
	checktest.WriteFiles(t, dir, map[string]string{"WORKBOARD.yaml": "items: []\n", ".sot/E-EVIDENCE.md": b.String()})
	ws, err := sotparse.Load(dir, sotparse.Options{NoGit: true})
	if err != nil {
		t.Fatal(err)
	}
	d := ws.Doc(".sot/E-EVIDENCE.md")
	di := extract(d)
	if len(di.commands) != 21 {
		t.Fatalf("%d commands read, want 21", len(di.commands))
	}
	facts := map[token.Pos]string{}
	for _, f := range d.Facts.All() {
		facts[f.Pos] = f.Value
	}
	for i, cf := range di.commands {
		if cf.text != "" {
			t.Fatalf("command %d holds its statement %q", i, cf.text)
		}
		want := quote(cf.factKey + ": " + cf.factV)
		if got := cf.statement(); got != want || !strings.HasPrefix(got, "Harness command") && i < 20 {
			t.Fatalf("command %d's statement %q, want %q", i, got, want)
		}
		v := facts[cf.pos]
		if unsafe.StringData(cf.factV) != unsafe.StringData(v) {
			t.Fatalf("command %d holds a copy of its fact's value", i)
		}
		if i < 20 && unsafe.StringData(cf.value) != unsafe.StringData(v[1:]) {
			t.Fatalf("command %d (%q) is a copy of the fact's text", i, cf.value)
		}
	}
	if got := di.commands[20].value; got != "go test ./..." {
		t.Errorf("a command's words: %q", got)
	}
}

// TestSpacedIsFields: spaced gives what joining strings.Fields does.
func TestSpacedIsFields(t *testing.T) {
	for _, s := range []string{"a b", "a", " a", "a ", "a  b", "a\tb", "a\u00a0b", "a\u3000b", "é b", "a b c", "a\x01b", "", " ", "a \nb", "a\u0085b"} {
		if got, want := spaced(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Errorf("spaced(%q) = %q, want %q", s, got, want)
		}
	}
}
