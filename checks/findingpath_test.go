package checks

import (
	"go/token"
	"math/rand/v2"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	proseengine "github.com/svrnty/sotvet/prose"
)

// TestResolverSpan checks the resolver's span, which reads positions from
// the last file it saw, against span on random positions in a file set,
// file after file and mixed, ends in other files and no end included; and
// its severities, remembered for the last check and category, against
// severityOf; a prose finding's severity is its own alert's level, one
// rule at two levels in turn included, unless a severity is configured.
func TestResolverSpan(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 6))
	fset, files := randomFileSet(rng, 12)
	in := func(tf *token.File) token.Pos { return token.Pos(tf.Base() + rng.IntN(tf.Size()+1)) }
	sev := map[string]Severity{"hygiene": SeverityError, "structure/item-acceptance": SeverityWarning, "status/": SeverityWarning, "authority": "",
		"prose/My.Set": SeverityNote}
	checks := []string{"hygiene", "structure", "status", "authority", "secrets", "x", "prose"}
	categories := []string{"", "item-acceptance", "blank-lines", "forbidden-claim", "My.Foo", "skipped-rule"}
	for _, rule := range []string{"My.Foo", "My.Set"} {
		for _, l := range []proseengine.Level{proseengine.Suggestion, proseengine.Warning, proseengine.Error} {
			categories = append(categories, proseengine.LeveledCategory(rule, l))
		}
	}
	rs := resolver{fset: fset, sevs: &severities{sev: sev}}
	tf := files[0]
	for range 100000 {
		if rng.IntN(8) == 0 {
			tf = files[rng.IntN(len(files))]
		}
		p, end := in(tf), token.NoPos
		switch rng.IntN(4) {
		case 0:
			end = in(tf)
		case 1:
			end = in(files[rng.IntN(len(files))])
		case 2:
			end = p + token.Pos(rng.IntN(5))
		}
		wf, wl, wc, wo, wel, wec := span(fset, p, end)
		f, l, c, o, el, ec := rs.span(p, end)
		if f != wf || l != wl || c != wc || o != wo || el != wel || ec != wec {
			t.Fatalf("resolver span(%d, %d) = %s %d:%d @%d to %d:%d, span gives %s %d:%d @%d to %d:%d", p, end, f, l, c, o, el, ec, wf, wl, wc, wo, wel, wec)
		}
		check, category := checks[rng.IntN(len(checks))], categories[rng.IntN(len(categories))]
		if got, want := rs.severityOf(check, category), severityOf(check, category, sev); got != want {
			t.Fatalf("severity of %s/%s: %q, want %q", check, category, got, want)
		}
	}
	// One rule at its levels in turn, as files with their own levels come.
	for range 3 {
		for _, tc := range []struct {
			category string
			want     Severity
		}{
			{proseengine.LeveledCategory("My.Foo", proseengine.Warning), SeverityWarning},
			{proseengine.LeveledCategory("My.Foo", proseengine.Error), SeverityError},
			{proseengine.LeveledCategory("My.Foo", proseengine.Suggestion), SeverityNote},
			{proseengine.LeveledCategory("My.Set", proseengine.Error), SeverityNote},
		} {
			if got := rs.severityOf("prose", tc.category); got != tc.want {
				t.Fatalf("severity of prose/%q: %q, want %q", tc.category, got, tc.want)
			}
			if got := rs.resolve("prose", analysis.Diagnostic{Category: tc.category}); got.Severity != tc.want || got.Category != tc.category[:len("My.Foo")] {
				t.Fatalf("finding of prose/%q: %s/%s %q", tc.category, got.Check, got.Category, got.Severity)
			}
		}
	}
}

// TestAppendNormalisedMessage checks the digit-dropping fast path against
// normaliseMessage, on messages with digits, runes of many bytes and
// invalid UTF-8.
func TestAppendNormalisedMessage(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 20))
	pieces := []string{"a", "0", "9", "12", " ", "é", "\u0660", "\U0001F600", "\xff", "\xc3", "\x80", ":"}
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		m := b.String()
		prefix := []byte("prefix\x00")
		if got, want := string(appendNormalisedMessage(prefix, m)), "prefix\x00"+normaliseMessage(m); got != want {
			t.Fatalf("appendNormalisedMessage(%q) = %q, want %q", m, got, want)
		}
	}
}
