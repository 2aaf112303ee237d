package contradiction

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/svrnty/sotvet/internal/testcorpus"
)

// TestPrerequisiteKeysImplied: every line prerequisiteWord matches passes
// mayNamePrerequisite, and every line roleWord matches passes mayNameRole,
// so the plain tests spare the expressions only lines they could not
// match: the lines of the paraphrase sets and of the corpus, lines each
// test's words need, and random sentences over the expressions' own words
// with letters that fold to ASCII ones ("ſ", the Kelvin sign) inside them.
func TestPrerequisiteKeysImplied(t *testing.T) {
	files, err := filepath.Glob("testdata/paraphrase/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no paraphrase sets (%v)", err)
	}
	if c := testcorpus.Optional(t); c != "" {
		docs, err := filepath.Glob(filepath.Join(c, ".sot", "*", "*.md"))
		if err != nil || len(docs) == 0 {
			t.Fatalf("no documents in the corpus %s (%v)", c, err)
		}
		files = append(files, docs...)
	}
	var lines []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, strings.Split(string(b), "\n")...)
	}
	// Each passes one pre-test by one of its terms only: the negation
	// "can't", the non-ASCII bytes a folded letter brings.
	fixed := []string{
		"X can't start before Y",
		"X can't proceed until Y",
		"X is a prerequi\u017fite of Y",
		"X depend\u017f on Y until Z",
		"`p` with model `m` as bac\u212aup",
		"p with model m, fall\u017f back to q",
	}
	lines = append(lines, fixed...)
	words := []string{"Readiness", "prerequisite", "prerequisites", "must", "exist", "be", "done", "before", "Needed", "first", "needs",
		"need", "requires", "depends", "on", "cannot", "can't", "can", "not", "may", "start", "begin", "PROCEED", "run", "execute",
		"until", "the", "item", "Primary", "default", "fallback", "fall", "falls", "falling", "fell", "back", "BACKUP", "secondary",
		"CTO-WORK-001", "`x`", "with", "model", ".", ";"}
	// fold writes a letter of w as one that (?i) reads as it: ſ for s,
	// the Kelvin sign for k.
	fold := strings.NewReplacer("s", "\u017f", "S", "\u017f", "k", "\u212a", "K", "\u212a")
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		n := 1 + rng.IntN(8)
		parts := make([]string, n)
		for i := range parts {
			parts[i] = words[rng.IntN(len(words))]
			if rng.IntN(8) == 0 {
				parts[i] = fold.Replace(parts[i])
			}
		}
		lines = append(lines, strings.Join(parts, " "))
	}
	matched, roles, folded := 0, 0, 0
	for _, l := range lines {
		m := lineKeys.Mask(l)
		p, r := prerequisiteWord.MatchString(l), roleWord.MatchString(l)
		if r {
			roles++
			if !mayNameRole(m) {
				t.Errorf("roleWord matches %q; mayNameRole says no", l)
			}
		}
		if p {
			matched++
			if !mayNamePrerequisite(m) {
				t.Errorf("prerequisiteWord matches %q; mayNamePrerequisite says no", l)
			}
		}
		if (p || r) && strings.ContainsAny(l, "\u017f\u212a") {
			folded++
		}
	}
	for _, l := range fixed {
		if !prerequisiteWord.MatchString(l) && !roleWord.MatchString(l) {
			t.Errorf("%q: neither expression matches it, so it tests nothing", l)
		}
	}
	if matched < 100 || roles < 100 || folded < 100 {
		t.Fatalf("only %d, %d and %d (folded) lines match: the test reads too little", matched, roles, folded)
	}
}

// TestSkipGateImplied: maySaySkippedIn refuses no line that skipWord
// matches and that the stems alone (skipKeys) would have let through, on
// random sentences over the expression's words and their look-alikes
// ("focused", "caused", "cannot"), some with letters that fold to ASCII
// ones; and it refuses lines that say "used" in another word only.
func TestSkipGateImplied(t *testing.T) {
	words := []string{"skipped", "unused", "Reserved", "withdrawn", "retired", "intentionally", "deliberately", "on", "purpose",
		"never", "NOT", "not", "be", "used", "assigned", "focused", "caused", "cannot", "reassigned", "the", "CTO-WORK-001", "`x`", "."}
	fold := strings.NewReplacer("s", "\u017f", "k", "\u212a")
	rng := rand.New(rand.NewPCG(7, 8))
	matched := 0
	for range 20000 {
		parts := make([]string, 1+rng.IntN(6))
		for i := range parts {
			parts[i] = words[rng.IntN(len(words))]
			if rng.IntN(10) == 0 {
				parts[i] = fold.Replace(parts[i])
			}
		}
		l := strings.Join(parts, " ")
		m := lineKeys.Mask(l)
		if m&skipKeys != 0 && skipWord.MatchString(l) {
			matched++
			if !maySaySkippedIn(l, m) {
				t.Fatalf("skipWord matches %q; maySaySkippedIn says no", l)
			}
		}
	}
	if matched < 1000 {
		t.Fatalf("only %d random lines matched skipWord", matched)
	}
	for _, l := range []string{"The focused test suite records it.", "The change caused CTO-WORK-001 to be reassigned."} {
		if maySaySkippedIn(l, lineKeys.Mask(l)) {
			t.Errorf("maySaySkippedIn(%q) = true, want false", l)
		}
	}
}

// TestCommitMatchesIsFindAll: commitMatches, which tries commitAt only
// where the word "commit" starts, finds what commitInText's FindAll does,
// on random lines over its words, hashes, marks and non-ASCII letters; and
// no letter of "commit" has a case fold beyond ASCII, which its search
// relies on.
func TestCommitMatchesIsFindAll(t *testing.T) {
	for _, c := range "commit" {
		for f := unicode.SimpleFold(c); f != c; f = unicode.SimpleFold(f) {
			if f >= utf8.RuneSelf {
				t.Fatalf("%q folds to %q", c, f)
			}
		}
	}
	parts := []string{"commit", "Commit", "COMMIT", "commits", "recommit", "_commit", "commit:", "commit`", "`", " ", ", ", "(",
		"154d835", "A109448", "abcdef0123", "abc", "xyz", "\u212a", "é", "commitment", "1234567890abcdef1234567890abcdef12345678901"}
	randomLinesAgree(t, 9, 10, parts, "commitMatches", commitMatches, func(text string) [][]int {
		return commitInText.FindAllStringSubmatchIndex(text, -1)
	})
}

// randomLinesAgree checks got against want, which FindAll answers, on
// 20,000 random lines of up to eleven parts, and that want finds at least
// 200 matches in them.
func randomLinesAgree(t *testing.T, seed1, seed2 uint64, parts []string, name string, got, want func(string) [][]int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed1, seed2))
	found := 0
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		text := b.String()
		w := want(text)
		if g := got(text); !reflect.DeepEqual(g, w) {
			t.Fatalf("%s(%q) = %v, want %v", name, text, g, w)
		}
		found += len(w)
	}
	if found < 200 {
		t.Fatalf("only %d matches in the random lines", found)
	}
}

// TestCountMatchesIsFindAll: countMatches, which tries testCountAt only
// at the digits before " passed", finds what testCount's FindAll does, on
// random lines over its words, digits, separators and look-alikes.
func TestCountMatchesIsFindAll(t *testing.T) {
	parts := []string{"passed", " passed", "xpassed", " xpassed", "1", "23", "0", " ", ",", ", ", "skipped", "failed", "errors",
		"error", "warnings", "deselected", "x", "_", "v2", "é", "`", "|", " in 0.41s", "passed,"}
	randomLinesAgree(t, 11, 12, parts, "countMatches", countMatches, func(text string) [][]int {
		return testCount.FindAllStringIndex(text, -1)
	})
}

// randomPhrase joins 1 to most words drawn from words, one in foldOneIn
// of them with fold's letters put in.
func randomPhrase(rng *rand.Rand, words []string, most, foldOneIn int, fold *strings.Replacer) string {
	parts := make([]string, 1+rng.IntN(most))
	for i := range parts {
		parts[i] = words[rng.IntN(len(words))]
		if rng.IntN(foldOneIn) == 0 {
			parts[i] = fold.Replace(parts[i])
		}
	}
	return strings.Join(parts, " ")
}

// TestRoleHedgeGatesImplied: a sentence that hedged, history or
// hedgedWhen matches holds one of its words as hedgeWordsIn reads them
// (a byte beyond ASCII counts as any: ſ folds to s, the Kelvin sign to
// k), which roleClaims relies on to skip the expressions; on random
// sentences over the words, their look-alikes and folded letters.
func TestRoleHedgeGatesImplied(t *testing.T) {
	words := []string{"may", "May", "mayor", "might", "could", "would", "Should", "if", "IF", "iff", "unless", "?", "before", "Before", "until",
		"2026-05-31", "31", "May", "2026", "June", "previously", "formerly", "Originally", "earlier", "at", "first", "superseded",
		"used", "to", "when", "When", "whenever", "the", "primary", "path", code, code + "if", "may" + code, ",", ".", "_if", "if_", "may2", "(before"}
	fold := strings.NewReplacer("s", "\u017f", "k", "\u212a")
	rng := rand.New(rand.NewPCG(13, 14))
	var hedges, histories, whens, skipped int
	for range 20000 {
		l := randomPhrase(rng, words, 8, 20, fold)
		hedge, hist, when := hedgeWordsIn(l)
		if !hedge || !hist || !when {
			skipped++
		}
		for _, c := range []struct {
			match, gate bool
			n           *int
			name        string
		}{{hedged.MatchString(l), hedge, &hedges, "hedged"}, {history.MatchString(l), hist, &histories, "history"}, {hedgedWhen.MatchString(l), when, &whens, "hedgedWhen"}} {
			if !c.match {
				continue
			}
			*c.n++
			if !c.gate {
				t.Fatalf("%s matches %q, which hedgeWordsIn says holds none of its words", c.name, l)
			}
		}
	}
	if hedges < 1000 || histories < 500 || whens < 500 || skipped < 5000 {
		t.Fatalf("only %d, %d and %d sentences matched, %d gated: the test reads too little", hedges, histories, whens, skipped)
	}
}

// TestLabelGatesImplied: readLabel and commandKey, which run their
// expressions only on text holding one of their words, answer as the
// expressions do on random labels over the expressions' words and their
// look-alikes ("failure", "contextual", "commander"), some with letters
// that fold to ASCII ones (ſ, the Kelvin sign), which the gates must let
// through.
func TestLabelGatesImplied(t *testing.T) {
	words := []string{"fail", "Fails", "FAILED", "fail-closed", "failure", "blocked", "Blocker", "aborted", "rejected", "context", "contextual",
		"not", "the", "evidence", "command", "commands", "Commander", "validator", "validators", "self-test", "run", "by", "runs", "running",
		"report", "0:", "-", "only,", "for", "this", "request:", "`x`", "."}
	fold := strings.NewReplacer("s", "\u017f", "k", "\u212a", "K", "\u212a")
	rng := rand.New(rand.NewPCG(9, 10))
	var failed, context, command, folded int
	for range 20000 {
		l := randomPhrase(rng, words, 6, 10, fold)
		f, c := readLabel(l)
		wf, wc, wk := failedLabel.MatchString(l), contextLabel.MatchString(l), commandLabel.MatchString(l)
		if f != wf || c != wc {
			t.Fatalf("readLabel(%q) = %v, %v; the expressions say %v, %v", l, f, c, wf, wc)
		}
		if k := commandKey(l); k != wk {
			t.Fatalf("commandKey(%q) = %v; commandLabel says %v", l, k, wk)
		}
		if wf || wc || wk {
			failed, context, command = failed+b2i(wf), context+b2i(wc), command+b2i(wk)
			if strings.ContainsAny(l, "\u017f\u212a") {
				folded++
			}
		}
	}
	if failed < 1000 || context < 1000 || command < 1000 || folded < 100 {
		t.Fatalf("only %d, %d, %d and %d (folded) labels matched: the test reads too little", failed, context, command, folded)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
