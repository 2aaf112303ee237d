package consistency

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/sotparse"
)

// nounLinesRef is how counts found its lines at first: a search per noun.
func nounLinesRef(content []byte, body int) []int {
	var out []int
	for _, noun := range countNouns {
		for off := body; off < len(content); {
			k := bytes.Index(content[off:], []byte(noun))
			if k < 0 {
				break
			}
			at := off + k
			off = at + len(noun)
			out = append(out, bytes.LastIndexByte(content[:at], '\n')+1)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TestNounLines checks nounLines against a search per noun on random
// texts of nouns, their pieces and near misses, from random body offsets.
func TestNounLines(t *testing.T) {
	for _, noun := range countNouns {
		found := false
		for _, a := range nounAnchors {
			found = found || a.At([]byte(noun), a.back)
		}
		if !found {
			t.Fatalf("count noun %q holds no anchor at its offset", noun)
		}
	}
	pieces := []string{"slice", "Slice", "SLICE", "lice", "issue", "Issue", "ssue", "tissue", "work item", "Work item", "Work Item",
		"work Item", "work", "k item", "k ", " ", "\n", "\r\n", "this is 3 ", "s", "i", "w"}
	rng := rand.New(rand.NewPCG(1, 2))
	hits := 0
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(16) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		content := []byte(b.String())
		body := rng.IntN(len(content) + 1)
		got, want := nounLines(content, body, nil), nounLinesRef(content, body)
		if !slices.Equal(got, want) {
			t.Fatalf("nounLines(%q, %d) = %v, want %v", content, body, got, want)
		}
		hits += len(got)
	}
	if hits < 10000 {
		t.Errorf("only %d lines found: the texts hold too few nouns", hits)
	}
}

// nounProse is a document of prose that mostly names no count noun.
func nounProse() []byte {
	var doc bytes.Buffer
	for i := range 200 {
		doc.WriteString("The harness records every command it runs, with its exit status and the time it took.\n")
		if i%40 == 0 {
			doc.WriteString("This is intentionally two slices; see the issue tracker for the work item list.\n")
		}
	}
	return doc.Bytes()
}

// BenchmarkNounLines measures finding the lines that name a count noun in
// a document of prose that mostly names none.
func BenchmarkNounLines(b *testing.B) {
	content := nounProse()
	b.SetBytes(int64(len(content)))
	var buf [16]int
	for b.Loop() {
		nounLines(content, 0, buf[:0])
	}
}

// BenchmarkNounLinesRef is BenchmarkNounLines with a search per noun, for
// comparison.
func BenchmarkNounLinesRef(b *testing.B) {
	content := nounProse()
	b.SetBytes(int64(len(content)))
	for b.Loop() {
		nounLinesRef(content, 0)
	}
}

// TestMayCount: wherever countPattern matches a line, mayCount admits it,
// on random lines of the pattern's pieces in random case and spacing, near
// misses, and the long s that (?i) folds to s.
func TestMayCount(t *testing.T) {
	pieces := []string{
		"this is", "This Is", "THIS IS", "these are", "These ARE", "split into", "Split Into",
		"sequence is", "Sequence has", "SEQUENCE HAS", "thiſ iſ", "ſequence iſ", "ſplit into",
		"this", "is", "these", "are", "split", "into", "sequence", "has",
		"intentionally", "exactly", "only", "two", "Three", "12", "999", "1234", "twelve",
		"slice", "slices", "Slices", "issue", "issues", "ISSUES", "work item", "work items", "Work Items",
		"small", "cross-repo", "-", "`", ".", ",", ":",
	}
	seps := []string{" ", "  ", "\t", "", " \t "}
	rng := rand.New(rand.NewPCG(1, 2))
	matched := 0
	for range 200000 {
		var b strings.Builder
		for range 1 + rng.IntN(8) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
			b.WriteString(seps[rng.IntN(len(seps))])
		}
		line := b.String()
		if countPattern.FindAllStringSubmatchIndex(line, -1) == nil {
			continue
		}
		matched++
		if !mayCount(line) {
			t.Fatalf("countPattern matches %q, mayCount says no", line)
		}
	}
	if matched < 500 {
		t.Fatalf("only %d lines matched: the test saw too little", matched)
	}
}

// TestDistinctIDs checks distinctIDs against a map, on random lists of
// items with repeated ids, short and long.
func TestDistinctIDs(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for range 2000 {
		var items []*sotparse.WorkItem
		want := map[string]bool{}
		for range rng.IntN(40) {
			id := fmt.Sprintf("CTO-WORK-%03d", rng.IntN(20))
			items = append(items, &sotparse.WorkItem{ID: id})
			want[id] = true
		}
		if got := distinctIDs(items); got != len(want) {
			t.Fatalf("distinctIDs of %d items = %d, want %d", len(items), got, len(want))
		}
	}
}
