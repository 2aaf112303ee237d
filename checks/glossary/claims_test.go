package glossary

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/internal/testcorpus"
	"github.com/svrnty/sotvet/sotparse"
)

func TestClaims(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
	}{
		// The corpus sentences.
		{"- `$grill-with-docs`: accepted. `Core Promotion Decision Packet` is added to `CONTEXT.md`, and the canonical readiness term is `ready_for_core_review`.", []string{"Core Promotion Decision Packet"}},
		{"- `CONTEXT.md` defines Core Promotion Decision Packet.", []string{"Core Promotion Decision Packet"}},
		{"- Add Core Route Admission Guard to `CONTEXT.md`.", []string{"Core Route Admission Guard"}},
		{"- `CONTEXT.md` defines Core Route Admission Guard.", []string{"Core Route Admission Guard"}},
		{"- Add Core Promotion Decision Packet to `CONTEXT.md`.", []string{"Core Promotion Decision Packet"}},
		{"The documents say CONTEXT.md defines two terms: **Core Promotion Decision Packet** (`CTO-CORE-PROMOTION-DECISION-PACKET-PRD.md`) and **Core Route Admission Guard** (`CTO-CORE-ROUTE-ADMISSION-GUARD-PRD.md`).",
			[]string{"Core Promotion Decision Packet", "Core Route Admission Guard"}},
		// Other forms.
		{"CONTEXT.md defines the term \"Fake lane\".", []string{"Fake lane"}},
		{"`CONTEXT.md` now defines `ready_for_core_review`, **Backend** and Harness Evidence Interface.", []string{"ready_for_core_review", "Backend", "Harness Evidence Interface"}},
		{"CONTEXT.md defines Core Route Admission Guard as the guard before any Core PRD route.", []string{"Core Route Admission Guard"}},
		{"Then Target Repository is defined in ../CONTEXT.md.", []string{"Target Repository"}},
		{"Adds the terms `Fake lane` and `Codex lane` to **CONTEXT.md**.", []string{"Fake lane", "Codex lane"}},
		{"The Hermes WebUI and Hermes Control Surface are added to `CONTEXT.md`.", []string{"Hermes WebUI", "Hermes Control Surface"}},
		{"| Core Evidence is defined in `CONTEXT.md` | yes |", []string{"Core Evidence"}},
		{"Add Cortex OS Core to CONTEXT.md glossary", []string{"Cortex OS Core"}},
		{"CONTEXT.md defines Definition of Done.", []string{"Definition of Done"}},
		{"CONTEXT.md defines A Core Protocol as a promoted artifact.", []string{"Core Protocol"}},
		{"CONTEXT.md defines Core Protocol and explains why.", []string{"Core Protocol"}},
		{"CONTEXT.md defines Stage 5 Gate.", []string{"Stage 5 Gate"}},
		{"Add “Target Repository” to CONTEXT.md.", []string{"Target Repository"}},
		// Not claims.
		{"Add the new vocabulary to `CONTEXT.md`.", nil},
		{"CONTEXT.md defines Same-run fake baseline for the fake lane.", nil},
		{"CONTEXT.md defines how terms are written.", nil},
		{"Run `grep 'CONTEXT.md defines Foo'` to find claims.", nil},
		{"Read `CONTEXT.md` before the review.", nil},
		{"Add tests to the harness.", nil},
		{"`CONTEXT.md` is referenced by 3 documents, which say it defines \"Core Promotion Decision Packet\".", nil},
	} {
		var got []string
		for _, c := range claims(tc.text) {
			got = append(got, c.term)
			if c.start < 0 || c.end > len(tc.text) || c.start >= c.end {
				t.Errorf("%q: bad span %d:%d", tc.text, c.start, c.end)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("claims(%q) = %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestCorpusClaims checks the claims read from the corpus: the five
// sentences that say CONTEXT.md defines a term, and nothing else.
func TestCorpusClaims(t *testing.T) {
	ws, err := sotparse.Load(testcorpus.Require(t), sotparse.Options{NoGit: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range ws.Docs {
		for _, b := range blocks(d, ws.Content(d)) {
			for _, c := range claims(b.text) {
				p := ws.Fset.Position(d.File.Pos(b.offset(c.start)))
				got = append(got, fmt.Sprintf("%s:%d: %s", filepath.Base(d.Path), p.Line, c.term))
			}
		}
	}
	want := []string{
		"CTO-CORE-PROMOTION-DECISION-PACKET-ISSUES.md:27: Core Promotion Decision Packet",
		"CTO-CORE-PROMOTION-DECISION-PACKET-PRD.md:92: Core Promotion Decision Packet",
		"CTO-CORE-PROMOTION-DECISION-PACKET-PRD.md:101: Core Promotion Decision Packet",
		"CTO-CORE-ROUTE-ADMISSION-GUARD-PRD.md:29: Core Route Admission Guard",
		"CTO-CORE-ROUTE-ADMISSION-GUARD-PRD.md:99: Core Route Admission Guard",
		"CONTEXT.md:11: Core Promotion Decision Packet",
		"CONTEXT.md:11: Core Route Admission Guard",
	}
	if !slices.Equal(got, want) {
		t.Errorf("corpus claims:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// mentionsGlossaryByName is mentionsGlossary as it was: each ".md", then
// "context" before it.
func mentionsGlossaryByName(b []byte) bool {
	for i := 0; ; {
		j := bytes.Index(b[i:], []byte(".md"))
		if j < 0 {
			return false
		}
		j += i
		if j >= 7 && bytes.EqualFold(b[j-7:j], []byte("context")) {
			return true
		}
		i = j + 3
	}
}

// TestMentionsGlossary holds mentionsGlossary to mentionsGlossaryByName on
// random texts of the name's pieces in every case, runes that fold to
// ASCII letters and invalid bytes, and on every document of the corpus.
func TestMentionsGlossary(t *testing.T) {
	pieces := []string{"context", "CONTEXT", "conteXt", "Context", "contex", "ontext", "x", "X", ".md", ".MD", ".m", "md",
		"c", "t", ".", " ", "\n", "/", "\u212a", "ſ", "\xff", "é", "CONTEXT.md", "context.MD", "xx.md"}
	rng := rand.New(rand.NewPCG(5, 6))
	hits := 0
	for range 100000 {
		var b bytes.Buffer
		for range rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		got, want := mentionsGlossary(b.Bytes()), mentionsGlossaryByName(b.Bytes())
		if got != want {
			t.Fatalf("mentionsGlossary(%q) = %v, want %v", b.Bytes(), got, want)
		}
		if want {
			hits++
		}
	}
	if hits < 5000 {
		t.Errorf("only %d texts name the glossary", hits)
	}
	if c := testcorpus.Optional(t); c != "" {
		ws, err := sotparse.Load(c, sotparse.Options{NoGit: true})
		if err != nil {
			t.Fatal(err)
		}
		named := 0
		for _, d := range ws.Docs {
			got, want := mentionsGlossary(d.File.Content), mentionsGlossaryByName(d.File.Content)
			if got != want {
				t.Errorf("%s: mentionsGlossary = %v, want %v", d.Path, got, want)
			}
			if want {
				named++
			}
		}
		if named == 0 {
			t.Error("no document of the corpus names the glossary")
		}
	}
}
