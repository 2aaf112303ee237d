package status

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/checks/internal/bodylines"
)

// TestLinesWith checks that linesWith, and linesWithEach for two needles,
// find the lines needle.in accepts, on random documents of lines that hold
// the needles in any case, cut by fences, quotes and line endings.
func TestLinesWith(t *testing.T) {
	pieces := []string{
		"remain", "Remains", "REMAIN", "ReMAIN", "rEMAIN", "emain", "EMAIN", "remai",
		"blocked", "Blocked", "BLOCKED", "BlOcKeD", "locked", "block", "k", "K",
		"CTO-WORK-001", "cto-work-2", "Cto-Work-3", "TO-WORK-", "to-work-", "CTO-WORK",
		"```", "~~~", "> ", "    ", " ", "x", "\r", "-", ".",
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 3000 {
		var b strings.Builder
		for range rng.IntN(40) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
			if rng.IntN(4) == 0 {
				b.WriteByte('\n')
			}
		}
		content := []byte(b.String())
		start := rng.IntN(len(content) + 1)
		var lines []bodylines.Line
		for _, l := range bodylines.Lines(content, start, len(content)) {
			if !l.Quoted {
				lines = append(lines, l)
			}
		}
		both := linesWithEach(lines, content, blockedNeedle, workIDNeedle)
		for k, n := range []needle{blockedNeedle, workIDNeedle} {
			var want []bodylines.Line
			for _, l := range lines {
				if n.in(l.Text) {
					want = append(want, l)
				}
			}
			got := linesWith(lines, content, n)
			if !slices.Equal(both[k], got) {
				t.Fatalf("%q, needle %q: linesWithEach found %+v, linesWith %+v", content, n.word, both[k], got)
			}
			if len(got) != len(want) {
				t.Fatalf("%q, needle %q: got %d lines, want %d", content, n.word, len(got), len(want))
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("%q, needle %q: line %d = %+v, want %+v", content, n.word, i, got[i], want[i])
				}
			}
		}
	}
}

// TestLastLinesNaming holds lastLinesNaming, one pass over the occurrences
// of the ids' common prefix, to lastLineNaming for each id, on random
// documents dense in ids, longer ids, prefixes and line breaks, and on
// ids without a common prefix.
func TestLastLinesNaming(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	pieces := []string{"CTO-WORK-", "CTO-WORK-1", "CTO-WORK-12", "CTO-WORK-123", "CTO-", "1", "2", "\n", " ", "x", "CTO-WORK-CTO-WORK-1", "OPS-9"}
	idSets := [][]string{
		{"CTO-WORK-1", "CTO-WORK-12", "CTO-WORK-123"},
		{"CTO-WORK-1", "CTO-WORK-2"},
		{"CTO-WORK-12"},
		{"CTO-WORK-1", "OPS-9"},
		{"CTO-WORK-123", "CTO-WORK-1", "CTO-WORK-12", "CTO-WORK-9"},
	}
	for range 2000 {
		var b strings.Builder
		for range rng.IntN(40) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		content := []byte(b.String())
		for _, ids := range idSets {
			got := lastLinesNaming(content, ids)
			di := &docInfo{lastNaming: sortedByID(got)}
			for _, id := range ids {
				if want := lastLineNaming(content, id); got[id] != want {
					t.Fatalf("lastLinesNaming(%q, %q)[%s] = %d, want %d", content, ids, id, got[id], want)
				}
				if off, ok := di.lastLineOf(id); !ok || off != got[id] {
					t.Fatalf("lastLineOf(%s) = %d, %v; want %d", id, off, ok, got[id])
				}
			}
			if len(got) != len(ids) {
				t.Fatalf("lastLinesNaming(%q, %q) = %v: %d ids", content, ids, got, len(got))
			}
		}
	}
}
