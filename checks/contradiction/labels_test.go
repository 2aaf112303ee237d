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
// statement, label or command of its own: the fact's key and value (the
// run's table's texts), from which its label, its command and, when a
// mislabeled-command finding quotes it, its statement are read; a
// command written with single spaces is the fact's text, not a copy. A
// quoted statement per command fact held 7 MB on hub at 10,000
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
	facts := map[token.Pos]*sotparse.Fact{}
	for _, f := range d.Facts.All() {
		facts[f.Pos] = f
	}
	for i := range di.commands {
		cf := &di.commands[i]
		f := facts[cf.pos]
		if unsafe.StringData(cf.said) != unsafe.StringData(f.Value) || unsafe.StringData(cf.label) != unsafe.StringData(f.Key) || cf.value != "" {
			t.Fatalf("command %d holds %q, %q, %q: strings of its own", i, cf.label, cf.said, cf.value)
		}
		if got, want := cf.statement(), quote(f.Key+": "+f.Value); got != want {
			t.Fatalf("command %d's statement %q, want %q", i, got, want)
		}
		if got, want := cf.labelText(), strings.Trim(f.Key, "`* "); got != want {
			t.Fatalf("command %d's label %q, want %q", i, got, want)
		}
		if i < 20 && unsafe.StringData(cf.command()) != unsafe.StringData(f.Value[1:]) {
			t.Fatalf("command %d (%q) is a copy of the fact's text", i, cf.command())
		}
	}
	if got := di.commands[20].command(); got != "go test ./..." || di.commands[20].harness || !di.commands[0].harness {
		t.Errorf("a command's words: %q, the harness's: %v (want the target's), the first's: %v (want the harness's)", got, di.commands[20].harness, di.commands[0].harness)
	}
	// Its owner is a flag, not a string: 72 bytes a command, 112 with
	// the fact's texts beside the owner, command, label and statement.
	if size := unsafe.Sizeof(commandFact{}); size > 72 {
		t.Errorf("a command takes %d bytes, want at most 72", size)
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
