package authority

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/sotparse"
)

// normalised returns s as the scan reads it: ASCII letters in lower case,
// each run of white space as one space.
func normalised(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := fold(s[i])
		if c == ' ' && b.Len() > 0 && b.String()[b.Len()-1] == ' ' {
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// TestPlainBody checks what docCheck.body relies on to skip decoding the
// blocks of a document, on every document of testWorkspaces:
//
//   - in a body without markupBytes, each prose block's Text, normalised,
//     is a stretch of the normalised body, so that the body's scan finds
//     every clause the block's does;
//   - the check reports the same, and finds the same candidates, whether it
//     skips such bodies or reads every body block by block.
func TestPlainBody(t *testing.T) {
	set := claims.load()
	plain, skipped := 0, 0
	for dir, ws := range testWorkspaces(t) {
		for _, d := range ws.Docs {
			body := d.File.Content[d.File.Tok.Offset(d.BodyStart):]
			f := set.matcher.scanBody(body)
			if bytes.ContainsAny(body, markupBytes) != (f&markupClause != 0) {
				t.Fatalf("%s: %s: markup in the body: %v, in its scan: %v", dir, d.Path, bytes.ContainsAny(body, markupBytes), f&markupClause != 0)
			}
			if f&markupClause != 0 {
				continue
			}
			plain++
			if !set.admits(ScopeSentence, f) {
				skipped++
			}
			nb := normalised(string(body))
			for _, bl := range d.Blocks() {
				if !isProse(bl) {
					continue
				}
				if !strings.Contains(nb, normalised(bl.Text)) {
					t.Fatalf("%s: %s: the text of the %s at %s is not a stretch of the body:\n%q\nbody:\n%q", dir, d.Path, bl.Kind, ws.Fset.Position(bl.Pos), bl.Text, body)
				}
				if g := set.matcher.scan(bl.Text); g&^f != 0 {
					t.Fatalf("%s: %s: the %s at %s satisfies clauses %x the body's scan does not (%x)", dir, d.Path, bl.Kind, ws.Fset.Position(bl.Pos), g, f)
				}
			}
		}
		// Ignoring mentions finds more candidates in negating sections.
		for _, mentions := range []bool{false, true} {
			ignoreMentions = mentions
			fast, fastTrace := runTraced(t, ws)
			readEveryBody = true
			full, fullTrace := runTraced(t, ws)
			readEveryBody, ignoreMentions = false, false
			if fast != full || fastTrace != fullTrace {
				t.Fatalf("%s (ignoring mentions: %v): skipping plain bodies changes the findings:\n%s\ncandidates:\n%s\nreading every body:\n%s\ncandidates:\n%s", dir, mentions, fast, fastTrace, full, fullTrace)
			}
		}
	}
	t.Logf("%d bodies without markup, %d of them not decoded", plain, skipped)
	if skipped < 100 || skipped == plain {
		t.Errorf("%d bodies without markup, %d of them not decoded: the test documents do not exercise both ways", plain, skipped)
	}
}

// runTraced runs the Analyzer over ws and returns its findings and the
// candidates it traced, as text.
func runTraced(t *testing.T, ws *sotparse.Workspace) (string, string) {
	t.Helper()
	var diags, cands strings.Builder
	traceCandidates = func(k candidate) {
		fmt.Fprintf(&cands, "%s %s %s %d-%d %q %q %q\n", k.doc.Path, k.claim.ID, k.scope, k.pos, k.end, k.text, k.match, k.why)
	}
	defer func() { traceCandidates = nil }()
	pass := &analysis.Pass{
		Analyzer: Analyzer,
		Fset:     ws.Fset,
		ResultOf: map[*analysis.Analyzer]any{sotparse.Analyzer: ws},
		Report: func(d analysis.Diagnostic) {
			fmt.Fprintf(&diags, "%s %d-%d %s %s\n", ws.Fset.Position(d.Pos), d.Pos, d.End, d.Category, d.Message)
		},
	}
	if _, err := Analyzer.Run(pass); err != nil {
		t.Fatal(err)
	}
	return diags.String(), cands.String()
}

// TestScanBody checks the body's scan, two halves at once, against the
// scan of the whole: the same clauses, whatever straddles the middle
// (literals over runs of white space of any length), and the markup
// clause wherever a byte of markup stands.
func TestScanBody(t *testing.T) {
	m := claims.load().matcher
	pieces := []string{
		"runtime default activation", " is ", "now ", "on", "make ", "Case ", "the ", "default", "approval",
		" was granted", "promote ", "to ", "Core", "core_promotion_status", ": promoted", "x", ".",
		"é", "\u212a", "\n", "\r\n", "\t",
	}
	rng := rand.New(rand.NewPCG(7, 8))
	text := func() []byte {
		var b bytes.Buffer
		for range rng.IntN(60) {
			switch rng.IntN(10) {
			case 0:
				b.WriteString(strings.Repeat(" \n\t"[rng.IntN(3):][:1], rng.IntN(200)))
			case 1:
				if rng.IntN(4) == 0 {
					b.WriteByte(markupBytes[rng.IntN(len(markupBytes))])
				}
			default:
				b.WriteString(pieces[rng.IntN(len(pieces))])
			}
		}
		if rng.IntN(3) == 0 {
			// Past a chunk of the scan.
			b.Write(bytes.Repeat(b.Bytes(), 1+rng.IntN(40)))
		}
		return b.Bytes()
	}
	hits := 0
	for range 20000 {
		s := text()
		got, want := m.scanBody(s), m.scan(string(s))
		if want&markupClause != 0 {
			if got&markupClause == 0 {
				t.Fatalf("scanBody(%q) = %x, without the markup clause", s, got)
			}
			continue
		}
		if got != want {
			t.Fatalf("scanBody(%q) = %x, want %x", s, got, want)
		}
		if want != 0 {
			hits++
		}
	}
	if hits < 2000 {
		t.Errorf("only %d texts satisfy a clause", hits)
	}
	// A literal over the middle, spread by white space.
	for n := 1; n < 300; n += 7 {
		s := []byte(strings.Repeat("x", 40) + "approval" + strings.Repeat(" ", n) + "was" + strings.Repeat("\n", n) + "granted" + strings.Repeat("y", 40))
		for pad := range 2 * len(s) {
			body := append(bytes.Repeat([]byte("z"), pad), s...)
			if got, want := m.scanBody(body), m.scan(string(body)); got != want || want == 0 {
				t.Fatalf("scanBody(%q) = %x, want %x (nonzero)", body, got, want)
			}
		}
	}
}
