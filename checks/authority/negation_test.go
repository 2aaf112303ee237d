package authority

import (
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

func TestSentences(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"One. Two! Three? Four", []string{"One.", "Two!", "Three?", "Four"}},
		{"Write report.json first. Then stop.", []string{"Write report.json first.", "Then stop."}},
		{"Use e.g. this one. ‹code› is next.", []string{"Use e.g. this one.", "‹code› is next."}},
		{`He said "No." Then left.`, []string{`He said "No."`, "Then left."}},
		{"Trailing space.  ", []string{"Trailing space."}},
		{"", nil},
	} {
		var got []string
		for _, s := range sentences(tc.in) {
			got = append(got, tc.in[s[0]:s[1]])
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("sentences(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestJudge checks every built-in negation form on one broad pattern, so
// that the form, not the pattern, decides.
func TestJudge(t *testing.T) {
	re := regexp.MustCompile(`(?i)case is the default backend|default backend|runtime default activation|promoted into core`)
	for _, tc := range []struct {
		sentence string
		claim    bool
		why      string
	}{
		{"Case is the default backend.", true, ""},
		{"Runtime default activation is enabled.", true, ""},
		{"Case is the default backend, not a fixture.", true, ""},
		{"Runtime default activation is enabled; Core promotion is not.", true, ""},
		{"Runtime default activation is enabled, but fake stays the default lane.", true, ""},
		{"Runtime default activation is enabled while nothing else is.", true, ""},
		{"Case is the default backend (not Codex).", true, ""},
		{"Case is the default backend — never mind the rest.", true, ""},
		// negations before the match
		{"Case is not the default backend.", false, "governed by not"},
		{"Do not activate Case as default backend.", false, "governed by not"},
		{"Case must not become the default backend.", false, "governed by must"},
		{"Case does not become the default backend.", false, "governed by not"},
		{"Case is never the default backend.", false, "governed by never"},
		{"No default backend claim exists.", false, "governed by no"},
		{"None of the lanes is the default backend.", false, "governed by none"},
		{"Nothing was promoted into Core.", false, "governed by nothing"},
		{"Case cannot be the default backend.", false, "governed by cannot"},
		{"Case can't be the default backend.", false, "governed by can't"},
		{"Case isn’t the default backend.", false, "governed by isn’t"},
		{"Codex and Pi aren't the default backend.", false, "governed by aren't"},
		{"Record evidence without making Case the default backend.", false, "governed by without"},
		{"Keep fake until Case is the default backend.", false, "governed by until"},
		{"Stage 6 passes before the default backend changes.", false, "governed by before"},
		{"Unless Core decides, Case is the default backend of nothing.", false, "governed by unless"},
		{"If Stage 6 passes, Case is the default backend.", false, "governed by if"},
		{"Whether Case is the default backend is Core's call.", false, "governed by whether"},
		{"The packet must not claim Case is the default backend.", false, "governed by must"},
		{"The validator rejects Case is the default backend as wording.", false, "governed by rejects"},
		{"Rejected feedback: make Case the default backend now.", false, "governed by rejected"},
		{"The PRD forbids promoted into Core wording.", false, "governed by forbids"},
		{"Case may become the default backend.", false, "governed by may"},
		{"A reader could misread Case as the default backend.", false, "governed by could"},
		{"Repeatability evidence can be misread as the default backend.", false, "governed by can"},
		{"`local_provider_required` means JP approved the default backend.", false, "governed by means"},
		{"Default activation requires the runtime default activation route.", false, "governed by requires"},
		// negations inside or after the match (same clause)
		{"Runtime default activation remains false.", false, "negated by false"},
		{"Runtime default activation stays false.", false, "negated by false"},
		{"Runtime default activation is false.", false, "negated by false"},
		{"Runtime default activation is not enabled.", false, "negated by not"},
		{"Runtime default activation is not yet approved.", false, "negated by not"},
		{"Runtime default activation is no longer planned.", false, "negated by no longer"},
		{"Runtime default activation and Core promotion are not granted.", false, "negated by not"},
		{"Runtime default activation happens only after Stage 6.", false, "negated by only"},
		{"Runtime default activation happens once Core approves.", false, "negated by once"},
		{"Runtime default activation happens when Core approves.", false, "negated by when"},
		{"Runtime default activation is pending.", false, "negated by pending"},
		{"Runtime default activation is recorded before mutation.", false, "negated by before"},
		{"Runtime default activation is enabled if Core approves.", false, "negated by if"},
		{"Runtime default activation is enabled unless Core objects.", false, "negated by unless"},
		{"Runtime default activation is enabled until review.", false, "negated by until"},
		{"Runtime default activation is never enabled.", false, "negated by never"},
		{"Runtime default activation is enabled yet unused.", false, "negated by yet"},
		// questions and quotations
		{"Is Case the default backend?", false, "question"},
		{"Is Case the default backend?)", false, "question"},
		{`The rule forbids "Case is the default backend" as wording.`, false, "quoted"},
		{`Write “Case is the default backend” nowhere.`, false, "quoted"},
	} {
		loc := re.FindStringIndex(tc.sentence)
		if loc == nil {
			t.Errorf("%q: the test pattern does not match", tc.sentence)
			continue
		}
		claim, why := judge(tc.sentence, loc[0], loc[1])
		if claim != tc.claim || why != tc.why {
			t.Errorf("judge(%q) = %v, %q; want %v, %q", tc.sentence, claim, why, tc.claim, tc.why)
		}
	}
}

// TestNegationForms checks why each line of testdata/negation is not a
// claim, so that a form does not pass for the wrong reason (or by matching
// nothing at all).
func TestNegationForms(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("testdata", "negation"))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{} // source line text -> reasons
	traceCandidates = func(k candidate) {
		p := k.doc.File.Tok.Position(k.pos)
		lines := strings.Split(string(k.doc.File.Content), "\n")
		why := k.why
		if why == "" {
			why = "claim"
		}
		got[strings.TrimSpace(lines[p.Line-1])] = append(got[strings.TrimSpace(lines[p.Line-1])], why)
	}
	defer func() { traceCandidates = nil }()
	runOn(t, dir)
	for line, want := range map[string]string{
		"- Do not activate Case as default backend.":                                    "governed by not",
		"- Case must not be the default backend.":                                       "governed by must",
		"- Case never became the default backend.":                                      "governed by never",
		"- No Core promotion occurs.":                                                   "governed by no",
		"- Nothing was promoted into Core.":                                             "governed by nothing",
		"- Case does not become the default backend.":                                   "governed by not",
		"- Case cannot become the default backend.":                                     "governed by cannot",
		"- Case isn't the default backend and Codex wasn't promoted into Core.":         "governed by isn't",
		"- Record evidence without saying Case is the default backend.":                 "governed by without",
		"- Keep Codex until Case becomes the default backend through a governed route.": "governed by until",
		"- Stage 6 runs before Case becomes the default backend.":                       "governed by before",
		"- Unless JP decides, Case is the default backend of nothing.":                  "governed by unless",
		"- Is it true that Case is the default backend?":                                "question",
		`- The validator rejects "Case is the default backend" as a claim.`:             "quoted",
		"- The validator rejects “Core promotion is complete” as a claim.":              "quoted",
		"- The packet must not claim Case is the default backend.":                      "governed by must",
		"- Case may be the default backend later.":                                      "governed by may",
		"- Case could become the default backend if Stage 6 passes.":                    "governed by could",
		"- Rejected feedback: activate Case as runtime default now.":                    "governed by rejected",
		"- Case becomes the default backend only after Stage 6.":                        "negated by only",
		"- Case becomes the default backend when Core decides.":                         "negated by when",
		"- Case is the default backend not yet.":                                        "negated by not",
		"- Case becomes the default backend pending review.":                            "negated by pending",
		"- Runtime default activation is on once Core approves.":                        "negated by once",
		"- Fake is the default backend of the validation lane.":                         `unless "Fake"`,
		"- Core promotion is complete by wording alone.":                                `mentioned (phrase list or negating section "Risks")`,
		"Case is the default backend, not a fixture.":                                   "claim",
		"- runtime_default_activation: true":                                            "mentioned",
		"- `Case is the default backend` is quoted code.":                               "",
		"- Promoting any CTO artifact into Core.":                                       "",
		"- CTO still needs a second run without activating Case as default.":            "",
		"- ~~Case is the default backend.~~":                                            "",
		"> Case is the default backend.":                                                "",
		"- Case is the default backend.":                                                "mentioned",
		"Case is the default backend.":                                                  "",
		"## Case is the default backend":                                                "",
		"- Runtime default activation is false, so Case is not activated as default.":   "",
		"- Case is the leading candidate default backend.":                              "",
	} {
		reasons := got[line]
		if want == "" {
			if len(reasons) > 0 {
				t.Errorf("%q: matched (%v), want no match at all", line, reasons)
			}
			continue
		}
		if len(reasons) == 0 {
			t.Errorf("%q: no match, want %q", line, want)
			continue
		}
		for _, r := range reasons {
			if !strings.HasPrefix(r, want) {
				t.Errorf("%q: %q, want %q", line, r, want)
			}
		}
	}
}

func TestNegatingHeadings(t *testing.T) {
	for h, want := range map[string]bool{
		"Non-Goals":                  true,
		"Non-goals":                  true,
		"Out of Scope":               true,
		"Forbidden Claims":           true,
		"Blocked Actions":            true,
		"Risks And Dependencies":     true,
		"Non-Admission Rules":        true,
		"Don'ts":                     true,
		"Failure-Mode Matrix":        true,
		"Rejected Alternatives":      true,
		"Guardrails":                 false,
		"Goals":                      false,
		"Scope":                      false,
		"Acceptance Criteria":        false,
		"Riskless plan":              false,
		"Unforbidden":                false,
		"`CTO-WORK-001` - Do Things": false,
		"ÉCHECS — OUT   OF\tSCOPE":   true,
		"out\xffof scope":            true,
		"NON-GOALS (v2)":             true,
		"  ":                         false,
		"":                           false,
		"A heading far longer than the buffer negating starts with, so that the buffer grows, and then: Out of Scope": true,
	} {
		if got := negating(h); got != want {
			t.Errorf("negating(%q) = %v, want %v", h, got, want)
		}
	}
}

// TestNegatingIsWholeWords: negating agrees with its definition, a
// negating phrase as whole words of the heading lower-cased with every run
// of other runes made one space, on random headings over the phrases'
// words, upper case, non-ASCII letters and separators.
func TestNegatingIsWholeWords(t *testing.T) {
	norm := func(h string) string {
		words := strings.FieldsFunc(strings.ToLower(h), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		return " " + strings.Join(words, " ") + " "
	}
	parts := []string{"non", "Goal", "goals", "OUT", "of", "scope", "risk", "Risks", "don", "t", "do", "not", "é", "Ü", "K", "\u017f", "-", " ", "'", "\t", "\xff", "2", "x"}
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(8) {
			b.WriteString(parts[rng.IntN(len(parts))])
			if rng.IntN(2) == 0 {
				b.WriteByte(' ')
			}
		}
		h := b.String()
		want := slices.ContainsFunc(negatingWords, func(w string) bool { return strings.Contains(norm(h), " "+w+" ") })
		if got := negating(h); got != want {
			t.Fatalf("negating(%q) = %v, want %v", h, got, want)
		}
	}
}
