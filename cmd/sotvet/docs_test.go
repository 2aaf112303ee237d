package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/checks"
)

// TestDocsChecks keeps docs/checks.md equal to the checks' own Docs, so the
// reference never drifts from what `sotvet explain` prints. Run with -update
// to regenerate it.
func TestDocsChecks(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("# sotvet checks\n\n<!-- Generated from each check's doc.go by `go test ./cmd/sotvet -run TestDocsChecks -update`. Do not edit. -->\n\n")
	for _, r := range rules() {
		fmt.Fprintf(&b, "- [`%s`](#%s): %s\n", r.Name, r.Name, r.Short)
	}
	for _, r := range rules() {
		fmt.Fprintf(&b, "\n## %s\n\n", r.Name)
		body := strings.TrimPrefix(r.Doc, r.Name+": ")
		b.WriteString(body)
		b.WriteString("\n")
		if a := checks.Lookup(r.Name); a != nil {
			var flags []string
			a.Flags.VisitAll(func(f *flag.Flag) {
				flags = append(flags, fmt.Sprintf("| `-%s.%s` | %s | `%s` |", r.Name, f.Name, f.Usage, f.DefValue))
			})
			if len(flags) > 0 {
				b.WriteString("\n| flag | meaning | default |\n| --- | --- | --- |\n" + strings.Join(flags, "\n") + "\n")
			}
		}
	}
	const name = "../../docs/checks.md"
	if *update {
		if err := os.WriteFile(name, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, b.Bytes()) {
		t.Errorf("docs/checks.md is stale: run go test ./cmd/sotvet -run TestDocsChecks -update")
	}
}

// TestReadmeChecks keeps the README's list of checks equal to the registry:
// every check (and the suppression findings), each linked to its section of
// docs/checks.md, which gives the one-line summaries; the list stays short
// so the README does. Run with -update to regenerate it.
func TestReadmeChecks(t *testing.T) {
	const name = "../../README.md"
	const begin, end = "<!-- checks:begin", "<!-- checks:end -->"
	readme, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(readme, []byte(begin))
	j := bytes.Index(readme, []byte(end))
	if i < 0 || j < i {
		t.Fatalf("README.md has no %s ... %s block", begin, end)
	}
	i += bytes.IndexByte(readme[i:], '\n') + 1
	var b bytes.Buffer
	line := 0
	for i, r := range rules() {
		item := fmt.Sprintf("[`%s`](docs/checks.md#%s)", r.Name, r.Name)
		if i < len(rules())-1 {
			item += ","
		} else {
			item += "."
		}
		switch {
		case i == 0:
		case line+1+len(item) > 78: // wrap as the rest of the README is
			b.WriteString("\n")
			line = 0
		default:
			b.WriteString(" ")
			line++
		}
		b.WriteString(item)
		line += len(item)
	}
	b.WriteString("\n")
	if *update {
		out := append(append(append([]byte{}, readme[:i]...), b.Bytes()...), readme[j:]...)
		if err := os.WriteFile(name, out, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if got := readme[i:j]; !bytes.Equal(got, b.Bytes()) {
		t.Errorf("the README's list of checks is stale: run go test ./cmd/sotvet -run TestReadmeChecks -update\ngot:\n%s\nwant:\n%s", got, b.Bytes())
	}
}
