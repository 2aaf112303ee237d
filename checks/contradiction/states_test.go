package contradiction

import (
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/checks/internal/bodylines"
	"github.com/svrnty/sotvet/internal/testcorpus"
	"github.com/svrnty/sotvet/sotparse"
)

// TestMayHoldStateNecessary: every line whose words hold a state word is
// one mayHoldState lets through, on lines of state words in any case,
// their pieces, markup and runes that lower to ASCII letters.
func TestMayHoldStateNecessary(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	parts := []string{"Current", "ADMITTED", "resolved", "fResh", "cur", "rent", "admit", "is", "not", "source",
		"the", "**", "`", ":", "-", "|", " ", " ", "\u212aelvin", "\u0130", "ADM\u0130TTED", "fre", "é", "re-solved", "current_x", "2"}
	held, checked := 0, 0
	for range 20000 {
		text := randomLine(r, parts)
		state := false
		for _, w := range lineWords(text) {
			state = state || stateWords[w]
		}
		checked++
		if state {
			held++
			if !mayHoldState(text, lineKeys.Mask(text)) {
				t.Fatalf("%q holds a state word; mayHoldState says no", text)
			}
		}
	}
	if held < 1000 || held == checked {
		t.Fatalf("%d of %d lines hold a state word: the test saw too little", held, checked)
	}
}

// TestStatesPlainlyAgrees: statesPlainly answers as readState's loop over
// lineWords does (a state word and no hedge), or defers (true) on a line
// with other runes, on lines of state words, hedges, their pieces in any
// case, markup, digits and runes.
func TestStatesPlainlyAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	parts := []string{"Current", "ADMITTED", "resolved", "fResh", "cur", "rent", "not", "NOT", "Must", "if", "pending",
		"requires", "whether", "source", "the", "**", "`", ":", "-", "|", " ", " ", "é", "current_x", "2", "current2",
		"isn't", "AdMiTtEd", "averyveryverylongword", "K", "x"}
	said, deferred := 0, 0
	for range 20000 {
		text := randomLine(r, parts)
		want, hedged := false, false
		for _, w := range lineWords(text) {
			hedged = hedged || hedgeWords[w]
			want = want || stateWords[w]
		}
		want = want && !hedged
		got := statesPlainly(text)
		ascii := strings.IndexFunc(text, func(r rune) bool { return r >= 0x80 }) < 0
		switch {
		case ascii && got != want:
			t.Fatalf("statesPlainly(%q) = %v, want %v", text, got, want)
		case !ascii && want && !got:
			t.Fatalf("statesPlainly(%q) = false on a line that states", text)
		case !ascii:
			deferred++
		case got:
			said++
		}
	}
	if said < 500 || deferred < 500 {
		t.Fatalf("%d ASCII lines state, %d lines deferred: the test saw too little", said, deferred)
	}
}

// randomLine joins one to eight of parts, picked by r, some with a space
// after them.
func randomLine(r *rand.Rand, parts []string) string {
	var b strings.Builder
	for range 1 + r.IntN(8) {
		b.WriteString(parts[r.IntN(len(parts))])
		if r.IntN(2) == 0 {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// BenchmarkStateLines reads every line of the corpus's documents as
// readState does before it makes a statement: the filter, then the words.
func BenchmarkStateLines(b *testing.B) {
	dir, ok := testcorpus.Dir()
	if !ok {
		b.Skip("no corpus beside the checkout")
	}
	var lines []string
	filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".md") {
			data, _ := os.ReadFile(path)
			lines = append(lines, strings.Split(string(data), "\n")...)
		}
		return nil
	})
	held := 0
	for b.Loop() {
		held = 0
		for _, l := range lines {
			if !mayHoldState(l, lineKeys.Mask(l)) {
				continue
			}
			for _, w := range lineWords(l) {
				if stateWords[w] {
					held++
					break
				}
			}
		}
	}
	b.ReportMetric(float64(len(lines)), "lines")
	b.ReportMetric(float64(held), "held")
}

// TestHasStateWord: hasStateWord finds a state word, lower-case or
// capitalised, wherever it stands (at the start of the body, inside
// another word), as a search for each form would, and nothing else.
func TestHasStateWord(t *testing.T) {
	ref := func(body string) bool {
		for w := range stateWords {
			if strings.Contains(body, w) || strings.Contains(body, strings.ToUpper(w[:1])+w[1:]) {
				return true
			}
		}
		return false
	}
	parts := []string{"current", "Current", "CURRENT", "urrent", "xurrent", "admitted", "Admitted", "dmitted", "resolved", "Resolved",
		"esolved", "fresh", "Fresh", "FRESH", "resh", "refresh", "recurrent", " ", "\n", "text", "`x`", "c", "a", "f", "r"}
	rng := rand.New(rand.NewPCG(5, 6))
	found := 0
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(6) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		body := b.String()
		want := ref(body)
		if got := hasStateWord([]byte(body)); got != want {
			t.Fatalf("hasStateWord(%q) = %v, want %v", body, got, want)
		}
		if want {
			found++
		}
	}
	if found < 1000 || found > 19000 {
		t.Fatalf("%d of 20000 bodies hold a state word: the test reads too little of one side", found)
	}
}

// TestDetachStateWordsOneString: what detach keeps of a state statement's
// words is one string, whatever their number: not a list of them and a
// copy of each word (held for every document until the rules run, that
// was three to four times the words themselves). A statement of 15
// words is detached in as many allocations as one of 5.
func TestDetachStateWordsOneString(t *testing.T) {
	dir := t.TempDir()
	body := "---\nname: r\nstatus: validated\n---\n\n# R\n\n" +
		"- Source Admission status remained current\n\n" +
		"- The Case source admission status remained current after the second rerun of the harness today\n"
	p := filepath.Join(dir, ".sot", "CTO-R-EVIDENCE.md")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := sotparse.Load(dir, sotparse.Options{NoGit: true})
	if err != nil {
		t.Fatal(err)
	}
	d := ws.Docs[0]
	var states []stateStatement
	for _, l := range bodylines.Lines(d.File.Content, 0, len(d.File.Content)) {
		if st, ok := readState(d, l); ok {
			states = append(states, st)
		}
	}
	if len(states) != 2 {
		t.Fatalf("read %d state statements, want 2", len(states))
	}
	// The allocations of detaching a docText holding st, less those of
	// making one to detach.
	allocs := func(st stateStatement) float64 {
		newText := func() *docText { return &docText{states: []stateStatement{st}} }
		base := testing.AllocsPerRun(50, func() { _ = newText() })
		return testing.AllocsPerRun(50, func() { newText().detach() }) - base
	}
	short, long := allocs(states[0]), allocs(states[1])
	if long > short {
		t.Errorf("detaching a state of 15 words costs %v allocations, one of 5 words %v: its words are not one string", long, short)
	}
}
