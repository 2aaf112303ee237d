package secrets

import (
	"math/rand/v2"
	"os"
	"reflect"
	"regexp/syntax"
	"strings"
	"testing"
)

// TestPrepareAgreesWithCompiled: what prepare works out from the parse of
// a rule's source (whether it runs at its keyword hits, which groups hold
// the secret and the key) is what the compiled expression says.
func TestPrepareAgreesWithCompiled(t *testing.T) {
	s, err := newScanner(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	atHits := 0
	for _, r := range s.rules {
		r.prepare()
		var re *ruleRegexp
		if r.atHits {
			atHits++
			re = r.anchoredAfterExpr()
		} else {
			re = r.searchExpr()
		}
		var secret, key []int
		for i, n := range re.SubexpNames() {
			switch n {
			case "secret":
				secret = append(secret, i)
			case "key":
				key = append(key, i)
			}
		}
		if !reflect.DeepEqual(secret, r.secretIdx) || !reflect.DeepEqual(key, r.keyIdx) {
			t.Errorf("%s: groups secret %v key %v, the compiled expression has %v %v", r.ID, r.secretIdx, r.keyIdx, secret, key)
		}
		if r.atHits {
			// prepare judges the start of the text from its own parse
			p, err := syntax.Parse(r.anchoredSrc, syntax.Perl)
			if want := err != nil || readsTextStart(p); want != r.readsTextStart() {
				t.Errorf("%s: reads the start of the text %v from the parse, %v from the source", r.ID, r.readsTextStart(), want)
			}
		}
		if r.lazy != nil && r.Regex == nil {
			src := r.searchSrc
			if r.atHits {
				src = r.anchoredSrc
			}
			if want := r.After <= 256 && beginsWithKeyword(src, r.Keywords); want != r.atHits {
				t.Errorf("%s: at hits %v from the parse, %v from the source", r.ID, r.atHits, want)
			}
		}
	}
	if atHits < 50 {
		t.Fatalf("only %d rules run at their keyword hits", atHits)
	}
}

// TestWakingCompilesOnlyWhatMayMatch: prose that wakes many rules by their
// keywords but holds nothing they report compiles the expressions of few
// of them (their filters rule the windows of the others out; a filter
// drops the upper bounds of repetitions, so that it lets some prose
// through), and a text with a secret compiles the expression of the rule
// that reports it.
func TestWakingCompilesOnlyWhatMayMatch(t *testing.T) {
	if !useDFA {
		t.Skip("filters off")
	}
	s, err := newScanner(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	// filters past the budget add no state and let everything through:
	// room for these
	s.filters.limit = 8 << 20
	prose := strings.Repeat("The api key rotation policy says a token, a secret or a password is never written down; "+
		"the AWS credentials, the GitHub app, the Slack webhook, the Stripe account and the Twilio auth flow are described in the runbook. "+
		"Our Kubernetes secrets, the Vault tokens, the Heroku and Azure storage accounts, the npm and Docker registries, the OpenAI "+
		"and Anthropic keys, the Datadog agent, the Sentry DSN and the private key of the deploy user follow the same policy; "+
		"curl examples use a bearer header, the square and box integrations a client secret.\n", 3)
	if got := s.Scan("notes.md", []byte(prose)); len(got) != 0 {
		t.Fatalf("findings in prose: %v", got)
	}
	woken, compiled := 0, 0
	for _, r := range s.rules {
		if len(r.searchSrc)+len(r.anchoredSrc) > 0 {
			woken++
		}
		if r.compiled.Load() && r.Regex == nil {
			compiled++
		}
	}
	if woken < 15 || compiled*4 > woken {
		t.Fatalf("the prose woke %d rules and compiled the expressions of %d", woken, compiled)
	}
	t.Logf("woke %d rules, compiled %d", woken, compiled)
	text := []byte("GITHUB_TOKEN=ghp_" + "x7Kq9mP2vL4nR8sT1wY6zB3cD5fG0hJ2aE4i\n")
	fs := s.Scan("a.env", text)
	if len(fs) == 0 {
		t.Fatal("no finding")
	}
	for _, r := range s.rules {
		if r.ID == fs[0].RuleID && !r.compiled.Load() {
			t.Errorf("%s reported a secret, its expression not compiled", r.ID)
		}
	}
}

// TestNFAReadsAsStates: a filter read on sets of instructions, as a woken
// rule's is before its expression is compiled, answers what its states
// answer, on every rule and the filters' texts (cut at random points too).
func TestNFAReadsAsStates(t *testing.T) {
	sequentialSweep(t)
	if !ownProcess(t) { // alone, in a process of its own: see ownProcess
		return
	}
	s := followScanner(t)
	texts := dfaTexts(10)
	rng := rand.New(rand.NewPCG(3, 5))
	for range 100 {
		a := texts[rng.IntN(len(texts))]
		i := rng.IntN(len(a) + 1)
		texts = append(texts, a[i:], a[:i])
	}
	every := 16
	switch {
	case os.Getenv("SOTVET_SLOW") != "":
		every = 1
	case sampledSweeps():
		every = 32
	}
	compared, ruledOut, untold := 0, 0, 0
	for i, r := range s.rules {
		if i%every != 0 && !strings.Contains(r.ID, "generic") {
			continue
		}
		// States past the budget answer "may match" whatever the text:
		// room for these.
		d := newPrefilterDFA(r.filterSrc(), &filterBudget{limit: 64 << 20})
		if d == nil {
			t.Fatalf("%s: no filter", r.ID)
		}
		for j, text := range texts {
			// Under the race detector a third of the rule-text pairs
			// (this test starts no goroutine), every rule and text still
			// among them.
			if raceEnabled && (i+j)%3 != 0 {
				continue
			}
			b := []byte(text)
			for _, cut := range []bool{false, true} {
				// Past dfaMaxStates the states cannot tell, and say "may
				// match" (scan's ok is false): nothing to compare. The
				// encoded shapes' base64 lines fill a counted
				// repetition's states (discord-bot-token's {22,26}).
				want, _, told := d.scan(b, false, cut, 0, nil)
				if !told {
					untold++
					continue
				}
				if got := d.nfaMayMatch(b, cut); got != want {
					t.Fatalf("%s on %q (cut %v): sets say %v, states %v", r.ID, text, cut, got, want)
				}
				if !want {
					ruledOut++
				}
			}
			m1, e1, ok1 := d.reach(b)
			m2, e2, ok2 := d.nfaReach(b)
			if ok1 && (m1 != m2 || e1 != e2 || ok1 != ok2) {
				t.Fatalf("%s on %q: reach on sets %v %d %v, on states %v %d %v", r.ID, text, m2, e2, ok2, m1, e1, ok1)
			}
			compared++
		}
	}
	if ruledOut < compared/4 {
		t.Fatalf("%d texts compared, %d ruled out", compared, ruledOut)
	}
	// the states must tell nearly always, or nothing is compared
	if untold > compared/20 {
		t.Fatalf("%d texts compared, the states could not tell on %d", compared, untold)
	}
	t.Logf("%d texts compared, %d ruled out, %d the states could not tell", compared, ruledOut, untold)
}

// TestFoldedTierSame: a rule's expressions compiled as written (its first
// foldAfter bytes) and with their folded literals as classes find the same
// secrets, on the filters' texts.
func TestFoldedTierSame(t *testing.T) {
	sequentialSweep(t)
	if !ownProcess(t) { // alone, in a process of its own: see ownProcess
		return
	}
	defer func(f int64) { foldAfter = f }(foldAfter)
	defer func(b bool) { plainTakesFolded = b }(plainTakesFolded)
	plainTakesFolded = false // the form as written, even where an earlier test folded the source
	plain, err := newScanner(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	folded, err := newScanner(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	n := 100
	if sampledSweeps() {
		n = 20
	}
	for _, text := range dfaTexts(n) {
		foldAfter = 1 << 62
		want, wantRed := plain.Scan("notes/x.md", []byte(text)), plain.RedactString(text)
		foldAfter = 0
		got, gotRed := folded.Scan("notes/x.md", []byte(text)), folded.RedactString(text)
		if !reflect.DeepEqual(got, want) || gotRed != wantRed {
			t.Fatalf("on %q:\nfolded %v\nas written %v", text, got, want)
		}
	}
	tiers := [2]int{}
	for i := range plain.rules {
		p, f := plain.rules[i], folded.rules[i]
		for _, x := range []*tieredExpr{&p.searchT, &p.anchoredAfterT, &p.searchAllT, &p.anchoredT} {
			if x.folded.Load() != nil {
				t.Fatalf("%s: folded under a foldAfter never reached", p.ID)
			}
			if x.plain.Load() != nil {
				tiers[0]++
			}
		}
		for _, x := range []*tieredExpr{&f.searchT, &f.anchoredAfterT, &f.searchAllT, &f.anchoredT} {
			if x.plain.Load() != nil {
				t.Fatalf("%s: compiled as written under a foldAfter of 0", f.ID)
			}
			if x.folded.Load() != nil {
				tiers[1]++
			}
		}
	}
	if tiers[0] < 50 || tiers[1] < 50 {
		t.Fatalf("expressions compiled: %d as written, %d folded", tiers[0], tiers[1])
	}
}

// TestEndTextSet: the instructions endTextSet finds are those from which
// a closure with the end of the text holding reaches a match, for every
// rule's filter program.
func TestEndTextSet(t *testing.T) {
	n := 0
	for _, r := range DefaultRules() {
		re, err := syntax.Parse(ruleSource(r), syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		prog, err := syntax.Compile(dfaLoosen(re).Simplify())
		if err != nil {
			t.Fatal(err)
		}
		words := (len(prog.Inst) + 63) / 64
		match := make(pcSet, words)
		for pc := range prog.Inst {
			if prog.Inst[pc].Op == syntax.InstMatch {
				match.add(uint32(pc))
			}
		}
		got := endTextSet(prog, words)
		for pc := range prog.Inst {
			want := closure(prog, make(pcSet, words), uint32(pc), true).meets(match)
			if got.has(uint32(pc)) != want {
				t.Fatalf("%s: instruction %d: %v, a closure says %v", r.ID, pc, got.has(uint32(pc)), want)
			}
			if want {
				n++
			}
		}
	}
	if n < 1000 {
		t.Fatalf("only %d instructions reach a match", n)
	}
}

// TestFoldingLetsPlainGo: once a rule's expression is compiled folded,
// the form as written is let go, by the rule and by the process (a tree
// that wakes every rule on long lines held both), and a scanner that asks
// for it later is handed the folded one.
func TestFoldingLetsPlainGo(t *testing.T) {
	sequentialSweep(t)
	defer func(f int64) { foldAfter = f }(foldAfter)
	s, err := newScanner(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	// Under the race detector a quarter of the texts: enough that rules
	// fold while the six goroutines scan (the check below).
	texts := raceSubset(dfaTexts(20))
	foldAfter = 1 << 62
	for _, text := range texts {
		s.Scan("notes/x.md", []byte(text))
	}
	foldAfter = 0
	for _, text := range texts {
		s.Scan("notes/x.md", []byte(text))
	}
	folded := 0
	for _, r := range s.rules {
		for _, e := range []struct {
			x   *tieredExpr
			src string
		}{{&r.searchT, r.searchSrc}, {&r.anchoredAfterT, r.afterSrc}, {&r.searchAllT, r.anchoredSrc}, {&r.anchoredT, `^(?:` + r.anchoredSrc + `)`}} {
			f := e.x.folded.Load()
			if f == nil {
				continue
			}
			folded++
			if e.x.plain.Load() != nil {
				t.Fatalf("%s: keeps its expression as written beside the folded one", r.ID)
			}
			if _, ok := sharedPlain.Load(e.src); ok {
				t.Fatalf("%s: the process keeps its expression as written", r.ID)
			}
			if compilePlain(e.src) != f {
				t.Fatalf("%s: compiled as written again", r.ID)
			}
			// a goroutine that looked before the fold is handed the folded one
			if got := e.x.asWritten(r, e.src); got != f {
				t.Fatalf("%s: after the fold, as written is %v", r.ID, got)
			}
		}
	}
	if folded < 20 {
		t.Fatalf("only %d expressions folded", folded)
	}
}

// TestFoldingWhileScanning: goroutines that scan while their rules cross
// foldAfter (one folds and lets the form as written go while another
// still holds or asks for it) find what one scan as written finds (run
// with -race).
func TestFoldingWhileScanning(t *testing.T) {
	if !ownProcess(t) { // alone, in a process of its own: see ownProcess
		return
	}
	defer func(f int64) { foldAfter = f }(foldAfter)
	defer func(b bool) { plainTakesFolded = b }(plainTakesFolded)
	plainTakesFolded = false // earlier tests folded these sources: start from the form as written
	// Under the race detector a quarter of the texts: enough that rules
	// fold while the six goroutines scan (the check below).
	texts := raceSubset(dfaTexts(20))
	foldAfter = 1 << 62
	want := scanEach(t, texts)
	foldAfter = 1 << 10
	s, err := newScanner(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	scanConcurrently(t, s, texts, want, 6)
	folded := 0
	for _, r := range s.rules {
		if r.anchoredAfterT.folded.Load() != nil || r.searchT.folded.Load() != nil {
			folded++
		}
	}
	if folded == 0 {
		t.Fatal("no rule folded")
	}
}
