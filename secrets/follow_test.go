package secrets

import (
	"math/rand/v2"
	"os"
	"reflect"
	"regexp/syntax"
	"strings"
	"testing"
)

// followScanner returns the default rules compiled, every rule prepared.
func followScanner(t *testing.T) *Scanner {
	t.Helper()
	s, err := newScanner(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range s.rules {
		r.prepare()
	}
	return s
}

// continuations are what follows a keyword and its next byte in the
// inputs of TestFollowSetSound: the shapes of the values the rules look
// for, and hostile bytes.
func continuations(rng *rand.Rand) []string {
	const alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	const hostile = "aZ09 \t\n\r=:'\"`;,._-/+\\$%{}[]<>|?!\x00\x7f\xc3\xa9\xe2\x80\xb9\xff"
	run := func(alphabet string, n int) string {
		var b strings.Builder
		for range n {
			b.WriteByte(alphabet[rng.IntN(len(alphabet))])
		}
		return b.String()
	}
	ends := []string{"", " ", "\n", "'", "\"", ";", "`", "\\n", ".", "x"}
	var out []string
	for _, n := range []int{0, 1, 8, 12, 16, 20, 23, 24, 25, 32, 36, 40, 48, 64, 100} {
		for _, e := range ends {
			v := run(alnum, n)
			out = append(out, v+e, "="+v+e, " = \""+v+"\""+e, ": '"+v+"'"+e, "_token: "+v+e, "s."+v+e, "-"+v+e)
		}
	}
	for range 40 {
		out = append(out, run(hostile, rng.IntN(80)))
	}
	return out
}

// TestFollowSetSound: wherever a rule's expression matches at a keyword,
// the byte after the keyword is in the keyword's follow set. The inputs are
// every keyword of every rule anchored at its keywords, in lower, upper and
// mixed case, followed by every byte and then by value-like and hostile
// text; the test counts that matches happened at filtered keywords, so that
// it cannot pass on inputs nothing matches.
func TestFollowSetSound(t *testing.T) {
	t.Parallel() // see "Parallel tests" in follow_test.go
	s := followScanner(t)
	rng := rand.New(rand.NewPCG(7, 11))
	conts := continuations(rng)
	filtered, matched, ruledOut := 0, 0, 0
	const wantMatched = 1000 // inputs that match, to show they are values
	// Continuations tried per keyword and byte: all of them for every byte
	// of every keyword take minutes, and the third-party rules tripled the
	// keywords. A seeded sample in the default run, more with SOTVET_SLOW.
	perByte := 12
	switch {
	case os.Getenv("SOTVET_SLOW") != "":
		perByte = 80
	case raceEnabled:
		perByte = 2
	case sampledSweeps():
		perByte = 6
	}
	for _, r := range s.rules {
		if !r.atHits {
			continue
		}
		r.buildFollow()
		r.followHits.Store(followAfter) // judged by the automaton from the first hit
		for ki, kw := range r.lowerKeywords {
			if r.followStart[ki] == nil {
				continue
			}
			filtered++
			cases := []string{kw, strings.ToUpper(kw), mixedCase(kw, rng)}
			for b := 0; b < 256; b++ {
				// Under the race detector a third of the bytes, a
				// different third for each keyword, in runs of three
				// so that each kept run tries every case form.
				if raceEnabled && (b/3+filtered)%3 != 0 {
					continue
				}
				kc := cases[b%len(cases)]
				for range perByte {
					in := kc + string([]byte{byte(b)}) + conts[rng.IntN(len(conts))]
					// Only an input the automaton rules out can break
					// soundness, and it rules out about a quarter: the
					// expressions run on those, and on the others only
					// until the inputs have shown enough matches (three
					// quarters of the test's CPU went to searching inputs
					// the automaton lets through, which can fail nothing).
					may := r.mayFollow(ki, []byte(in), len(kc))
					if may && matched >= wantMatched {
						continue
					}
					if !may {
						ruledOut++
					}
					// As the scanner tries it: from the byte before the
					// keyword, and at the start of the text.
					m1 := r.anchoredAfterExpr().FindSubmatchIndex([]byte(" " + in))
					m2 := r.anchoredAtStart().FindSubmatchIndex([]byte(in))
					if m1 == nil && m2 == nil {
						continue
					}
					if !may {
						t.Fatalf("rule %s keyword %q: a match starts at %q, but the follow automaton rules it out", r.ID, kw, in)
					}
					matched++
				}
			}
		}
	}
	t.Logf("%d filtered keywords, %d inputs ruled out, %d matches", filtered, ruledOut, matched)
	if filtered < 10 || matched < wantMatched || ruledOut < 10000 {
		t.Fatalf("%d filtered keywords, %d inputs ruled out, %d matches: the test saw too little", filtered, ruledOut, matched)
	}
}

func mixedCase(s string, rng *rand.Rand) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' && rng.IntN(2) == 0 {
			b[i] = c - ('a' - 'A')
		}
	}
	return string(b)
}

// TestFollowSetsFilter: the automata rule out what prose puts after the
// keywords the adoption workloads hit most ("s." ending a sentence, "auth"
// in "authority"), and keep what a secret puts there.
func TestFollowSetsFilter(t *testing.T) {
	s := followScanner(t)
	cases := []struct {
		rule, kw, text string
		may            bool
	}{
		{"vault-service-token", "s.", "s. Next", false},
		{"vault-service-token", "s.", "s.\n", false},
		{"vault-service-token", "s.", "s.abcdefghijklmnopqrstuvwx ", true},
		{"generic-api-key", "auth", "authority.\n\n## Issue: CTO-WORK-00965", false},
		{"generic-api-key", "auth", "authority is local planning; nothing more", false},
		{"generic-api-key", "auth", "auth_token = \"Zm9vYmFyYmF6cXV4\"", true},
		{"generic-api-key", "auth", "AUTH: q1w2e3r4" + "t5y6u7i8o9p0", true}, // split: sotvet scan . reads this file
	}
	for _, c := range cases {
		found := false
		for _, r := range s.rules {
			if r.ID != c.rule {
				continue
			}
			for ki, kw := range r.lowerKeywords {
				if kw != c.kw {
					continue
				}
				found = true
				text := c.text
				r.followHits.Store(followAfter) // past the first hits, which are all tried
				if got := r.mayFollow(ki, []byte(text), len(kw)); got != c.may {
					t.Errorf("%s after %q in %q: may match %v, want %v", c.rule, kw, text, got, c.may)
				}
			}
		}
		if !found {
			t.Errorf("no rule %s with keyword %q", c.rule, c.kw)
		}
	}
}

// TestFollowSetsScanSame: Scan and Redact give the same results with and
// without the follow sets, on the labelled samples, on prose, and on the
// samples cut and spliced at random.
func TestFollowSetsScanSame(t *testing.T) {
	s := followScanner(t)
	rng := rand.New(rand.NewPCG(3, 5))
	var texts []string
	for _, sm := range corpusSamples() {
		texts = append(texts, sm.text)
	}
	texts = append(texts,
		"Sync stage repeatability queue remote budget fixture queue fixtures. Not active Core authority.\n",
		"vault s.abcdefghijklmnopqrstuvwx and s.ABCDEFGHIJKLMNOPQRSTUVWX; hvs."+strings.Repeat("aB3", 33)+"\n",
		"auth=Zm9vYmFy"+"YmF6cXV4MTIzNDU2Nzg5\nAUTH: \"q1w2e3r4"+"t5y6u7i8o9p0\"\n")
	n := len(texts)
	for range 400 {
		a, b := texts[rng.IntN(n)], texts[rng.IntN(n)]
		i, j := rng.IntN(len(a)+1), rng.IntN(len(b)+1)
		texts = append(texts, a[:i]+b[j:], strings.ToUpper(a[i:])+b[:j])
	}
	for _, text := range texts {
		useFollow = true
		got, gotRed := s.Scan("notes/x.md", []byte(text)), s.RedactString(text)
		useFollow = false
		want, wantRed := s.Scan("notes/x.md", []byte(text)), s.RedactString(text)
		useFollow = true
		if !reflect.DeepEqual(got, want) || gotRed != wantRed {
			t.Fatalf("on %q:\nwith follow sets %v\nwithout %v", text, got, want)
		}
	}
}

// TestMaskOfMatchesMatchRune: the mask read off an instruction's ranges is
// the set of ASCII bytes MatchRune takes, for every rune instruction of
// every rule's program, folded and not.
func TestMaskOfMatchesMatchRune(t *testing.T) {
	n := 0
	for _, r := range DefaultRules() {
		for _, src := range []string{ruleSource(r), "(?i)" + ruleSource(r)} {
			re, err := syntax.Parse(src, syntax.Perl)
			if err != nil {
				t.Fatal(err)
			}
			prog, err := syntax.Compile(re.Simplify())
			if err != nil {
				t.Fatal(err)
			}
			for pc := range prog.Inst {
				in := &prog.Inst[pc]
				switch in.Op {
				case syntax.InstRune, syntax.InstRune1, syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
				default:
					continue
				}
				got := maskOf(in)
				for c := rune(0); c < 128; c++ {
					if got.has(byte(c)) != in.MatchRune(c) {
						t.Fatalf("%s: instruction %d (%v) byte %q: mask %v, MatchRune %v", r.ID, pc, in, c, got.has(byte(c)), in.MatchRune(c))
					}
				}
				n++
			}
		}
	}
	if n < 1000 {
		t.Fatalf("only %d instructions checked", n)
	}
}

// ruleSource is the source of a rule's expression.
func ruleSource(r *Rule) string {
	switch {
	case r.lazy != nil:
		return r.lazy.src
	case r.builtinRE != nil:
		return r.builtinRE.src
	}
	return r.Regex.String()
}

// TestProgTableClosures: a table's closures, kept as the span of their
// words that are not zero, are closure's sets, for every rule's program
// (as the follow automata and the filters build them), and advance adds
// exactly them.
func TestProgTableClosures(t *testing.T) {
	n, dense, kept := 0, 0, 0
	for _, r := range DefaultRules() {
		re, err := syntax.Parse(ruleSource(r), syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		prog, err := syntax.Compile(re.Simplify())
		if err != nil {
			t.Fatal(err)
		}
		for _, atEnd := range []bool{false, true} {
			tab, ok := newProgTable(prog, atEnd)
			if !ok {
				t.Fatalf("%s: no table", r.ID)
			}
			for pc := range prog.Inst {
				if !tab.reads.has(uint32(pc)) {
					continue
				}
				want := closure(prog, make(pcSet, tab.words), prog.Inst[pc].Out, atEnd)
				cur, got := make(pcSet, tab.words), make(pcSet, tab.words)
				cur.add(uint32(pc))
				for c := 0; c < 128; c++ {
					if !tab.masks[tab.maskAt[pc]].has(byte(c)) {
						continue
					}
					if !tab.advance(cur, got, byte(c)) || !reflect.DeepEqual(got, want) {
						t.Fatalf("%s: instruction %d on %q: %v, closure %v", r.ID, pc, byte(c), got, want)
					}
					n++ // only a closure compared counts
					dense += tab.words
					break
				}
			}
			kept += len(tab.back)
		}
	}
	if n < 1000 {
		t.Fatalf("only %d instructions checked", n)
	}
	t.Logf("%d closures: %d words kept of %d", n, kept, dense)
}

// Parallel tests: the slowest tests of this package that set no package
// variable (workCounter, useDFA, foldAfter, dfaAfter...) run in parallel
// with each other. Go starts parallel tests only once every sequential
// test has returned, so the tests that set those variables, or count the
// work of every scan in the process (TestScanWorkLinear,
// TestScanCostLinear), still run alone, and a parallel test may read
// them; the slowest of those run alone in a process of their own
// (ownProcess), which waits in parallel with the others. A threshold a test wants of its own is an argument or a
// scanner's tuning instead (the keyword table's 16-bit bound,
// newKWMatcherMax; reachAfter, narrowAfter and narrowMinInsts,
// newScannerTuned): the tests that set those run in parallel too. On
// two cores the package otherwise ends a `go test ./...` on one core for
// half a minute, and took 442 s under -race.
