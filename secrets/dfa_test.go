package secrets

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"regexp"
	"regexp/syntax"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// dfaTexts are the texts the filter tests run on: the labelled samples,
// the adversarial shapes (small), prose, and the samples cut and spliced
// at random.
func dfaTexts(n int) []string {
	rng := rand.New(rand.NewPCG(7, 11))
	var texts []string
	for _, sm := range corpusSamples() {
		texts = append(texts, sm.text)
	}
	for _, name := range caseNames(adversarial()) {
		texts = append(texts, string(adversarial()[name](3000)))
	}
	texts = append(texts,
		"Sync stage repeatability queue remote budget fixture queue fixtures. Not active Core authority.\n",
		// split so that the source holds no password-shaped line
		"password = \"a\" pass"+"word='Zx9!kq' api_key: \"q1w2e3r4"+"t5y6u7i8o9p0\" token=\n",
		"db_pass"+"word=hunter2 # café\nsec"+"ret: \"ünïcödé-välüé-123\"\n",
		// bytes outside ASCII inside and around values: ſ and K, which
		// (?i) s and k take, an emoji, CJK, a BOM, bytes that are not
		// UTF-8 (a lone lead byte, lone continuations)
		"\uFEFFpaſſword = \"Zx9!kq-été\" api_\u212aey: \"q1w2e3r4"+"t5y6😀u7i8o9p0\" tok\u212aen=日本語abc123XYZ\n",
		"secret=\xc3abc\x80\x80def123456789 token: \"\xffq1w2e3r4"+"t5y6u7i8\xe2\x82\" 鍵=AKIA"+"QWERTYUIOP\xc3ASDFGH\n")
	m := len(texts)
	for range n {
		a, b := texts[rng.IntN(m)], texts[rng.IntN(m)]
		i, j := rng.IntN(len(a)+1), rng.IntN(len(b)+1)
		texts = append(texts, a[:i]+b[j:], strings.ToUpper(a[i:])+b[:j])
	}
	return texts
}

// TestDFAFilterSound: where a rule's filter says no match, the rule's
// expression has none (anywhere, from the start, or short of a cut end),
// and a search in parts cut at the filter's split points finds what a
// search of the whole text finds, for every rule.
func TestDFAFilterSound(t *testing.T) {
	// In parallel: the filters' states take their room from their
	// scanner's budget (the MinLen filters') or their own (the others),
	// which no other test's filters fill (when all shared the process's,
	// this test's built no state once the parallel tests' had filled it,
	// and ruled nothing out: "MinLen ruled out 0").
	t.Parallel() // see "Parallel tests" in follow_test.go
	s := followScanner(t)
	// A sample of the rules (the generic ones, which the dense shapes
	// wake, and every eighth) and of spliced texts; all with SOTVET_SLOW.
	n, every := 10, 8
	switch {
	case os.Getenv("SOTVET_SLOW") != "":
		n, every = 300, 1
	case sampledSweeps():
		n = 4
	}
	pairStride := 1
	switch {
	case raceEnabled:
		pairStride = 36
	case sampledSweeps():
		pairStride = 6
	}
	texts := dfaTexts(n)
	ruledOut, splitRuns, reachCut, minRuledOut, boundedCut, partsSkipped := 0, 0, 0, 0, 0, 0
	for i, r := range s.rules {
		if i%every != 0 && !strings.Contains(r.ID, "generic") && !strings.Contains(r.ID, "password") {
			continue
		}
		var src string
		var compiled *ruleRegexp
		switch {
		case r.atHits:
			src, compiled = r.anchoredSrc, r.searchAll()
		case r.searchSrc != "":
			src, compiled = r.searchSrc, r.searchExpr()
		default:
			continue
		}
		exact := regexp.MustCompile(src) // as written, nothing loosened
		d := newPrefilterDFA(src, nil)
		if d == nil {
			t.Errorf("%s: no filter", r.ID)
			continue
		}
		// the reach filter of the expression with its repetitions
		// bounded (reachFilter)
		bounded := newBoundedFilter(src, nil)
		if bounded == nil {
			t.Fatalf("%s: no bounded filter", r.ID)
		}
		anchored := regexp.MustCompile(`^(?:` + src + `)`)
		for j, text := range texts {
			// Under the race detector (ten times dearer, and this test
			// starts no goroutine) a 36th of the pairs, every rule and
			// every text still among them (the plain run, whole in CI,
			// checks every pair); a sixth where otherwise sampled.
			if (i+j)%pairStride != 0 {
				continue
			}
			b := []byte(text)
			// Every match of the expression in the whole text, searched
			// for once: the checks below each compare with it (a third
			// of the test's CPU went to searching the same text again).
			var all [][]int
			allDone := false
			wholeMatches := func() [][]int {
				if !allDone {
					all, allDone = exact.FindAllSubmatchIndex(b, -1), true
				}
				return all
			}
			if !d.mayMatch(b, false, false) {
				ruledOut++
				if ms := wholeMatches(); ms != nil {
					m := ms[0]
					t.Fatalf("%s: filter rules out %q, the rule matches %q", r.ID, text, text[m[0]:m[1]])
				}
			}
			if !d.mayMatch(b, true, false) {
				if m := anchored.FindIndex(b); m != nil {
					t.Fatalf("%s: anchored filter rules out %q, the rule matches %q", r.ID, text, text[m[0]:m[1]])
				}
			}
			// The filter with secrets of MinLen: where it rules a text
			// out, every match's secret is shorter.
			if r.atHits {
				if md := r.minLenFilter(); md != nil && !md.mayMatch(b, false, false) {
					minRuledOut++
					for _, m := range wholeMatches() {
						if ss, se := r.secretSpan(m); se-ss >= r.MinLen {
							t.Fatalf("%s: the MinLen filter rules out %q, the rule's secret %q is %d long", r.ID, text, text[ss:se], se-ss)
						}
					}
				}
			}
			// reach: the anchored match on the text up to where the
			// filter's threads die (and a byte more) is the whole
			// text's, groups and all.
			var want []int
			wantDone := false
			for _, f := range []*prefilterDFA{d, bounded} {
				may, end, ok := f.reach(b)
				if !ok {
					continue
				}
				if !wantDone {
					want, wantDone = anchored.FindSubmatchIndex(b), true
				}
				if got := anchored.FindSubmatchIndex(b[:min(len(b), end+1)]); !reflect.DeepEqual(got, want) || !may && want != nil {
					t.Fatalf("%s: on %q cut at %d (may %v, bounded %v) the anchored match is %v, on the whole %v", r.ID, text, end+1, may, f == bounded, got, want)
				}
				if end < len(b) && f == d {
					reachCut++
				}
				if f == bounded && (end < len(b) || !may) {
					boundedCut++
				}
			}
			if _, splits, ok := d.scan(b, false, false, 64, nil); ok && len(splits) > 0 {
				splitRuns++
				want := wholeMatches()
				var got [][]int
				searchSplit(compiled, b, splits, func(m []int) { got = append(got, m) })
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s: searched in parts at %v, %q gives %v, whole %v", r.ID, splits, text, got, want)
				}
			}
			if !r.atHits {
				// a window searched in the parts that may match finds
				// what the whole window's search finds (short of a cut
				// end, where the scanner drops a match)
				ruleMatches := r.matches(b)
				for _, cut := range []bool{false, true} {
					parts, ok := d.parts(b, cut, 64, nil)
					if !ok {
						continue
					}
					var got [][]int
					r.searchParts(b, parts, func(m []int) {
						if !cut || m[1] != len(b) {
							got = append(got, m)
						}
					})
					var want [][]int
					for _, m := range ruleMatches {
						if !cut || m[1] != len(b) {
							want = append(want, m)
						}
					}
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("%s: searched in parts %v (cut %v), %q gives %v, whole %v", r.ID, parts, cut, text, got, want)
					}
					if n := partsLen(parts); n < len(b) {
						partsSkipped++
					}
				}
			}
			if !d.mayMatch(b, false, true) {
				for _, m := range wholeMatches() {
					if m[1] != len(b) {
						t.Fatalf("%s: filter (cut) rules out %q, the rule matches %q", r.ID, text, text[m[0]:m[1]])
					}
				}
			}
		}
	}
	t.Logf("ruled out %d, split %d, cut %d (bounded %d), MinLen ruled out %d, parts skipped in %d, of %d texts", ruledOut, splitRuns, reachCut, boundedCut, minRuledOut, partsSkipped, len(texts))
	// A filter that rules nothing out would pass the checks above.
	if ruledOut < len(texts) || splitRuns < len(texts) || reachCut < len(texts) || boundedCut < reachCut || minRuledOut == 0 || partsSkipped < len(texts) {
		t.Errorf("the filters ruled out %d texts of %d rules × %d, split %d, cut %d, with MinLen ruled out %d, and skipped parts in %d", ruledOut, len(s.rules), len(texts), splitRuns, reachCut, minRuledOut, partsSkipped)
	}
}

// TestDFAScanSame: Scan and Redact give the same results with and without
// the filters.
func TestDFAScanSame(t *testing.T) {
	sequentialSweep(t)
	if !ownProcess(t) { // alone, in a process of its own: see ownProcess
		return
	}
	s := followScanner(t)
	defer func(a int64, m, w int) { dfaAfter, dfaMinText, partsMinWindow = a, m, w }(dfaAfter, dfaMinText, partsMinWindow)
	dfaAfter, dfaMinText = 0, 0
	n := 300
	if sampledSweeps() {
		n = 40
	}
	for i, text := range dfaTexts(n) {
		// every other text with each window searched in parts
		partsMinWindow = 4 * splitEvery
		if i%2 == 1 {
			partsMinWindow = 0
		}
		useDFA = true
		got, gotRed := s.Scan("notes/x.md", []byte(text)), s.RedactString(text)
		useDFA = false
		want, wantRed := s.Scan("notes/x.md", []byte(text)), s.RedactString(text)
		useDFA = true
		if !reflect.DeepEqual(got, want) || gotRed != wantRed {
			t.Fatalf("on %q:\nwith the filters %v\nwithout %v", text, got, want)
		}
	}
}

// partsLen is how many bytes of a window parts cover.
func partsLen(parts []span) int {
	n := 0
	for _, p := range parts {
		n += p.end - p.start
	}
	return n
}

// TestWindowPartsScanSame: texts whose windows are long (a JSON report of
// keys, escaped, each of whose BEGIN lines opens a window of 16 KB, and
// the filter texts joined into documents of ~20 KB) give the same
// results at the default thresholds, where such a window is searched in
// the parts that may match, as without the filters; and the parts leave
// out most of the report.
func TestWindowPartsScanSame(t *testing.T) {
	sequentialSweep(t)
	s, err := newScanner(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	var report strings.Builder
	report.WriteString("[\n")
	g := newFakeGen("window-parts")
	for i := range 40 { // past dfaAfter: the first window builds the filter's states
		body := g.from(base64std, 64) + "\\n" + g.from(base64std, 64) + "\\n" + g.from(base64std, 20)
		key := "-----BEGIN RSA PRIVATE KEY-----\\nMIIEowIBAAKCAQEA" + body + "\\n-----END RSA PRIVATE KEY-----"
		fmt.Fprintf(&report, " {\n  \"RuleID\": \"private-key\",\n  \"Line\": %d,\n  \"Match\": \"%s\",\n  \"File\": \"tree/tp/%04d.json\"\n },\n", i, key, i)
		for j := range 4 {
			fmt.Fprintf(&report, " {\n  \"RuleID\": \"generic-api-key\",\n  \"Description\": \"%s\",\n  \"File\": \"tree/fp/%04d.env\"\n },\n", strings.Repeat("Detected a Generic API Key, potentially exposing access. ", 8), 4*i+j)
		}
	}
	report.WriteString("]\n")
	texts := []string{report.String()}
	small := dfaTexts(40)
	rng := rand.New(rand.NewPCG(3, 5))
	for range 6 {
		var doc strings.Builder
		for doc.Len() < 20<<10 {
			doc.WriteString(small[rng.IntN(len(small))])
			doc.WriteByte('\n')
		}
		texts = append(texts, doc.String())
	}
	var km *compiledRule
	for _, r := range s.rules {
		if r.ID == RuleKeyMaterial {
			km = r
		}
	}
	for i, text := range texts {
		before := km.searched.Load()
		useDFA = true
		got, gotRed := s.Scan("notes/x.json", []byte(text)), s.RedactString(text)
		read := km.searched.Load() - before
		useDFA = false
		want, wantRed := s.Scan("notes/x.json", []byte(text)), s.RedactString(text)
		whole := km.searched.Load() - before - read
		useDFA = true
		if !reflect.DeepEqual(got, want) || gotRed != wantRed {
			t.Fatalf("text %d: with the filters %v\nwithout %v", i, got, want)
		}
		if i == 0 && (len(got) == 0 || read*4 > whole) {
			t.Errorf("the report of keys: %d findings; %s read %d bytes of it, %d without the filters", len(got), km.ID, read, whole)
		}
	}
}

// TestEarlyFilterScanSame: a fresh scanner at the default thresholds
// reads each rule's filter on sets until it compiles the rule (the early
// filter), and finds what a scanner without filters finds, from several
// goroutines at once (the early filters are made and published lazily).
func TestEarlyFilterScanSame(t *testing.T) {
	if !ownProcess(t) { // alone, in a process of its own: see ownProcess
		return
	}
	texts := raceSubset(dfaTexts(40))
	useDFA = false
	want := scanEach(t, texts)
	useDFA = true
	s, err := newScanner(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	scanConcurrently(t, s, texts, want, 4)
}

// scanEach scans each of texts with a fresh scanner of the default
// configuration: the reference the concurrent tests compare with.
func scanEach(t *testing.T, texts []string) [][]Finding {
	t.Helper()
	ref, err := newScanner(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	want := make([][]Finding, len(texts))
	for i, text := range texts {
		want[i] = ref.Scan("notes/x.md", []byte(text))
	}
	return want
}

// scanConcurrently scans texts with s from workers goroutines at once,
// each in an order of its own, and fails on any scan that differs from
// want.
func scanConcurrently(t *testing.T, s *Scanner, texts []string, want [][]Finding, workers int) {
	t.Helper()
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for k := range texts {
				k = (k * 7) % len(texts)
				i := (k + w*len(texts)/workers) % len(texts)
				if got := s.Scan("notes/x.md", []byte(texts[i])); !reflect.DeepEqual(got, want[i]) {
					t.Errorf("on %q:\ngot %v\nwant %v", texts[i], got, want[i])
					return
				}
			}
		})
	}
	wg.Wait()
}

// TestDFALoosen: the filter keeps a repetition's minimum and drops its
// maximum and the captures.
func TestDFALoosen(t *testing.T) {
	d := newPrefilterDFA(`key=(?P<v>[a-z]{3,5})(?:;|$)`, nil)
	for text, want := range map[string]bool{
		"key=ab;": false, "key=abc;": true, "key=abcdefgh;": true, "key=abcdefgh": true,
		"key=abcdefgh x": false, "x key=abcd;": true, "": false,
	} {
		if got := d.mayMatch([]byte(text), false, false); got != want {
			t.Errorf("%q: may match %v, want %v", text, got, want)
		}
	}
	if d.mayMatch([]byte("key=abcdefgh"), false, true) {
		t.Errorf("a match ending at a cut end counted")
	}
	if d.mayMatch([]byte("x key=abcd;"), true, false) {
		t.Errorf("anchored: a match not at the start counted")
	}
	// Bytes outside ASCII are read too: é is no [a-z], but a match may
	// come before or after it, and (?i) s and k take ſ and the Kelvin
	// sign. Where the filter says no, the expression has no match; it
	// may say yes for none (a class that takes runes outside ASCII takes
	// a rune's every byte as a rune of its own).
	for _, c := range []struct {
		expr, text string
		may        bool
	}{
		{`key=(?P<v>[a-z]{3,5})(?:;|$)`, "key=abé;", false},
		{`key=(?P<v>[a-z]{3,5})(?:;|$)`, "key=abcé;", false},
		{`key=(?P<v>[a-z]{3,5})(?:;|$)`, "key=a\xffbc;", false},
		{`key=(?P<v>[a-z]{3,5})(?:;|$)`, "é key=abcd;", true},
		{`key=(?P<v>[a-z]{3,5})(?:;|$)`, "日本 key=abc;😀", true},
		{`key=(?P<v>[^;]{3,5})(?:;|$)`, "key=a\xffbc;", true},
		{`key=(?P<v>[^;]{3,5})(?:;|$)`, "key=日本語;", true},
		{`key=(?P<v>[^;]{3,5})(?:;|$)`, "key=日本;", true}, // two runes, six bytes
		{`key=(?P<v>[^;]{3,5})(?:;|$)`, "key=\x80\x80\x80;", true},
		{`(?i)pass=(?P<v>[a-z]{3})`, "paſſ=abc", true},
		{`(?i)key=(?P<v>[a-z]{3})`, "\u212aey=abc", true},
		{`key=(?P<v>[a-z]{3})`, "key=abé", false},
		{`(?i)key=(?P<v>[a-z]{3})`, "\u212aey=abé", true}, // (?i)[a-z] takes ſ and K
		{`(?i)key=(?P<v>\w{3})`, "\u212aey=abé", true},
		{`(?i)key=(?P<v>.{3})`, "\u212aey=abé", true},
	} {
		d := newPrefilterDFA(c.expr, nil)
		for _, anchored := range []bool{false, true} {
			expr := c.expr
			if anchored {
				expr = `^(?:` + expr + `)`
			}
			got, match := d.mayMatch([]byte(c.text), anchored, false), regexp.MustCompile(expr).MatchString(c.text)
			if !got && match || !anchored && got != c.may {
				t.Errorf("%s (anchored %v) on %q: may match %v, the expression matches %v", c.expr, anchored, c.text, got, match)
			}
		}
	}
}

// TestDFAKeepsValueRun: a counted run of one character class keeps its
// minimum up to dfaKeepRunMin, so a line of a provider's bare prefix,
// with no value of the run's length after it, is refused by the filter
// rather than read by the expression; longer runs are loosened, and the
// filter stays sound either way.
func TestDFAKeepsValueRun(t *testing.T) {
	prefixes := strings.Repeat("AKIA ", 200)
	value := "AKIA " + strings.Repeat("Q7", 20) + " "
	for _, c := range []struct {
		expr, text string
		may        bool
	}{
		{`(?i)\bAKIA.{0,32}?\b([A-Za-z0-9/+=]{40})\b`, prefixes, false},
		{`(?i)\bAKIA.{0,32}?\b([A-Za-z0-9/+=]{40})\b`, prefixes + value, true},
		{`key=(?P<v>[a-z]{64})`, "key=" + strings.Repeat("a", 63), false},
		{`key=(?P<v>[a-z]{64})`, "key=" + strings.Repeat("a", 64), true},
		{`key=(?P<v>x{64})`, "key=" + strings.Repeat("x", 63), false},
		// over the bound, or not one character: loosened to a word
		{`key=(?P<v>[a-z]{65})`, "key=" + strings.Repeat("a", 63), true},
		{`key=(?P<v>(?:ab){40})`, "key=ab", true},
	} {
		d := newPrefilterDFA(c.expr, nil)
		got, match := d.mayMatch([]byte(c.text), false, false), regexp.MustCompile(c.expr).MatchString(c.text)
		if got != c.may || !got && match {
			t.Errorf("%s on %.40q…: may match %v, want %v (the expression matches: %v)", c.expr, c.text, got, c.may, match)
		}
	}
}

// TestDFAMayMatchAllocs: once its states are built, an unanchored ask
// allocates nothing (an allow-list expression is asked once a candidate).
func TestDFAMayMatchAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	d := newPrefilterDFA(`key=(?P<v>[a-z]{3,5})(?:;|$)`, nil)
	text := []byte("x key=abcd; y")
	d.mayMatch(text, false, false)
	if n := testing.AllocsPerRun(20, func() { d.mayMatch(text, false, false) }); n != 0 {
		t.Errorf("%v allocations an unanchored ask, want none", n)
	}
}

// TestSearchSplit: a search in parts never starts a part after a word
// byte (\b would hold there), nor inside a match.
func TestSearchSplit(t *testing.T) {
	re := regexp.MustCompile(`\bkey=[a-z]+;`)
	d := newPrefilterDFA(re.String(), nil)
	text := []byte(strings.Repeat("aa; xkey=ab; key=cd;", 20))
	_, splits, ok := d.scan(text, false, false, 1, nil)
	if !ok || len(splits) < 20 {
		t.Fatalf("splits %v (ok %v)", splits, ok)
	}
	var got [][]int
	searchSplit(wrapRegexp(re), text, splits, func(m []int) { got = append(got, m) })
	if want := re.FindAllSubmatchIndex(text, -1); !reflect.DeepEqual(got, want) {
		t.Errorf("in parts at %v: %v, whole: %v", splits, got, want)
	}
}

// TestNewlineStandsForTextStart: a rule's expression run after a newline
// finds at the start of a text what the expression anchored at the start
// finds, for every rule that does not read the start of the text, on
// the samples cut at each of the rule's keywords.
func TestNewlineStandsForTextStart(t *testing.T) {
	t.Parallel() // see "Parallel tests" in follow_test.go
	s := followScanner(t)
	texts := raceSubset(dfaTexts(0))
	lows := make([]string, len(texts)) // once, not per rule: most of the test's CPU
	for i, text := range texts {
		lows[i] = strings.ToLower(text)
	}
	tried := 0
	for _, r := range s.rules {
		if !r.atHits || r.readsTextStart() {
			continue
		}
		for ti, text := range texts {
			low := lows[ti]
			for _, k := range r.lowerKeywords {
				i := strings.Index(low, k)
				if i < 0 {
					continue
				}
				b := []byte(text[i:])
				want := r.anchoredAtStart().FindSubmatchIndex(b)
				got := r.anchoredAfterExpr().FindSubmatchIndex(append([]byte{'\n'}, b...))
				if got != nil {
					for k := range got {
						if got[k] >= 0 {
							got[k]--
						}
					}
					got[0] = 0
					tried++
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s on %q: after a newline %v, at the start %v", r.ID, b, got, want)
				}
			}
		}
	}
	if tried == 0 {
		t.Fatal("no match tried")
	}
}

// TestDFAConcurrent: scans sharing the filters' caches from several
// goroutines find what one scan without the filters finds (run with
// -race).
func TestDFAConcurrent(t *testing.T) {
	s := followScanner(t)
	var texts [][]byte
	for _, name := range []string{"line:password=", "every20:token=", "quotes:token", "every20:mixed", "lines:xoxb-"} {
		texts = append(texts, adversarial()[name](6000))
	}
	useDFA = false
	want := make([][]Finding, len(texts))
	for i, b := range texts {
		want[i] = s.Scan("x.md", b)
	}
	useDFA = true
	defer func(a int64, m int) { dfaAfter, dfaMinText = a, m }(dfaAfter, dfaMinText)
	dfaAfter, dfaMinText = 0, 0
	var wg sync.WaitGroup
	for w := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range texts {
				i := (k + w) % len(texts)
				if got := s.Scan("x.md", texts[i]); !reflect.DeepEqual(got, want[i]) {
					t.Errorf("text %d: %d findings, want %d", i, len(got), len(want[i]))
				}
			}
		}()
	}
	wg.Wait()
}

// TestKeywordsEndingAt: the keywords a rule's tail index offers at a
// position are every keyword that matches there.
func TestKeywordsEndingAt(t *testing.T) {
	s := followScanner(t)
	indexed := 0
	for _, r := range s.rules {
		if r.kwTail == nil {
			continue
		}
		indexed++
		for _, k := range r.lowerKeywords {
			for _, text := range []string{k, "x" + strings.ToUpper(k), "a " + k + "b"} {
				b := []byte(text)
				for i := range b {
					offered := map[int]bool{}
					for _, ki := range r.keywordsEndingAt(b, i) {
						offered[ki] = true
					}
					for ki, kw := range r.lowerKeywords {
						if st := i + 1 - len(kw); st >= 0 && equalFoldASCII(b[st:i+1], kw) && !offered[ki] {
							t.Fatalf("%s: keyword %q ends at %d of %q, not offered", r.ID, kw, i, text)
						}
					}
				}
			}
		}
	}
	if indexed == 0 {
		t.Fatal("no rule has a tail index")
	}
}

// TestDFABudget: with room for only a few states in the scanner, the
// filters add no more, never hold more than the budget, and the scans
// find what they find without filters.
func TestDFABudget(t *testing.T) {
	sequentialSweep(t)
	if !ownProcess(t) { // alone, in a process of its own: see ownProcess
		return
	}
	s := followScanner(t)
	defer func(a int64, m int) { dfaAfter, dfaMinText = a, m }(dfaAfter, dfaMinText)
	dfaAfter, dfaMinText = 0, 0
	s.filters.limit = 64 << 10 // about a hundred states
	n := 60
	if sampledSweeps() {
		n = 15
	}
	for _, text := range dfaTexts(n) {
		useDFA = true
		got, gotRed := s.Scan("notes/x.md", []byte(text)), s.RedactString(text)
		if h := s.filters.held.Load(); h > s.filters.limit {
			t.Fatalf("the filters hold %d bytes of states, over the budget of %d", h, s.filters.limit)
		}
		useDFA = false
		want, wantRed := s.Scan("notes/x.md", []byte(text)), s.RedactString(text)
		useDFA = true
		if !reflect.DeepEqual(got, want) || gotRed != wantRed {
			t.Fatalf("on %q:\nwith the filters %v\nwithout %v", text, got, want)
		}
	}
}

// TestDFAHeldReturned: a filter that is collected gives its states' bytes
// back to its budget, so that the filters a scanner lets go (a rule's
// early filter, replaced by its dense one) leave their room to the others.
func TestDFAHeldReturned(t *testing.T) {
	b := newFilterBudget()
	func() {
		d := newPrefilterDFA(`(?i)key\s*=\s*([a-z0-9]{8,40})\b`, b)
		d.mayMatch([]byte("key = abcdefgh1234 and key=zz"), false, false)
		if d.held.Load() == 0 || b.held.Load() != d.held.Load() {
			t.Fatalf("the filter built no state (held %d, budget %d)", d.held.Load(), b.held.Load())
		}
	}()
	for deadline := time.Now().Add(10 * time.Second); b.held.Load() != 0; {
		if time.Now().After(deadline) {
			t.Fatalf("a collected filter's states stay counted: %d bytes held", b.held.Load())
		}
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
}

// TestDFAHeldHonest: the bytes a filter's states are counted at are at
// least the bytes they take on the heap, short of a tenth (the
// allocator's size classes), room the slices grew into and the index
// included, and not twice as many: a count
// of the states alone let the filters of a scan hold twice their budget.
// Not in parallel: it reads the process's heap.
func TestDFAHeldHonest(t *testing.T) {
	// runs of the expression's pieces in random order wake many states
	pieces := []string{"key", "token", "pass", "=", " ", "x", "x", "7", "_", "a", "b"}
	rng := rand.New(rand.NewPCG(5, 9))
	var texts [][]byte
	for range 200 {
		var text []byte
		for range 200 {
			text = append(text, pieces[rng.IntN(len(pieces))]...)
		}
		texts = append(texts, text)
	}
	b := newFilterBudget()
	// an x twelve characters back: a state for each set of places an x
	// was at, up to dfaMaxStates
	d := newPrefilterDFA(`(?i)(?:key|token|secret|pass(?:word)?)[\w.-]*x[a-z0-9_]{12}\s*[:=]`, b)
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	for _, text := range texts {
		d.mayMatch(text, false, false)
		d.mayMatch(text, true, false)
		d.parts(text, false, 64, nil)
	}
	runtime.GC()
	runtime.ReadMemStats(&m1)
	runtime.KeepAlive(d)
	runtime.KeepAlive(texts) // live at both counts
	real, held := int64(m1.HeapAlloc)-int64(m0.HeapAlloc), b.held.Load()
	if held != d.held.Load() || held < 64<<10 {
		t.Fatalf("the filter holds %d bytes, its budget %d: too few states to tell", d.held.Load(), held)
	}
	// The count is the slices' room, not their states: the room doubles,
	// so a count by state (the old one) falls under it whenever a cache's
	// states stop short of a doubling (the heap check below cannot tell:
	// at 2048 states, a power of two, the two counts meet).
	var room int64
	for i := range d.caches {
		c := &d.caches[i]
		for m := range 2 {
			room += int64(cap(c.trans[m]))*4 + int64(cap(c.sets[m]))*8 + int64(cap(c.accept[m])) + int64(cap(c.quiet[m])) + int64(len(c.index[m]))*4
		}
	}
	if held != room {
		t.Errorf("the filter's caches have room for %d bytes, counted %d", room, held)
	}
	// Under the count by a tenth at most; over it by less than half (the
	// heap measured here was ~17 % under the slices' capacities, not
	// explained: a count that errs that way still bounds the memory).
	if real > held+held/10 || real < held/2 {
		t.Errorf("the filter's states take %d bytes of heap, counted %d", real, held)
	}
	t.Logf("%d bytes counted, %d on the heap", held, real)
}

// TestScannersOwnFilterBudgets: the filters of a scanner take their
// states' room from its budget only: a scanner whose budget is spent
// leaves another's filters all theirs (when the process had one budget, a
// test's filters built no state once other tests' had spent it).
func TestScannersOwnFilterBudgets(t *testing.T) {
	defer func(a int64, m int) { dfaAfter, dfaMinText = a, m }(dfaAfter, dfaMinText)
	dfaAfter, dfaMinText = 0, 0
	full, err := newScanner(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	full.filters.limit = 0 // spent
	other, err := newScanner(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	text := []byte(strings.Repeat("password = hunter and api_key: short, token=tiny\n", 40))
	want := full.Scan("x.env", text)
	if h := full.filters.held.Load(); h != 0 {
		t.Fatalf("a spent budget holds %d bytes", h)
	}
	if got := other.Scan("x.env", text); !reflect.DeepEqual(got, want) {
		t.Fatalf("found %v, with no filter state %v", got, want)
	}
	if other.filters.held.Load() == 0 {
		t.Fatal("the other scanner's filters built no state")
	}
}

// TestSecretMinLen: the secret runs are lengthened, and an expression in
// which one match may pass two secret groups is left alone.
func TestSecretMinLen(t *testing.T) {
	for src, want := range map[string]string{
		`k=(?P<secret>[a-z]+);`:                          `k=(?P<secret>[a-z]{5,});`,
		`k=(?:"(?P<secret>[^"]+)"|(?P<secret>[^\s]*\w))`: `k=(?:"(?P<secret>[^"]{5,})"|(?P<secret>[^\s]{4,}\w))`,
		`k=(?P<secret>[a-z]+)(?P<secret>[0-9]+)`:         ``,
		`(?:k=(?P<secret>[a-z]+))+`:                      ``,
		`k=(?P<secret>ab+)`:                              ``,
	} {
		got := withSecretMinLen(src, 5)
		if got == "" || want == "" {
			if got != want {
				t.Errorf("%s: %q, want %q", src, got, want)
			}
			continue
		}
		g, err1 := syntax.Parse(got, syntax.Perl)
		w, err2 := syntax.Parse(want, syntax.Perl)
		if err1 != nil || err2 != nil || !g.Equal(w) {
			t.Errorf("%s: %q, want %q (%v, %v)", src, got, want, err1, err2)
		}
	}
}

// TestByteClasses checks the partition the filters' transitions are kept
// by: two bytes share a class exactly when every mask of the program
// takes both or neither.
func TestByteClasses(t *testing.T) {
	g := newFakeGen("byte classes")
	for round := range 200 {
		masks := make([]asciiMask, 1+round%12)
		for i := range masks {
			for range 1 + g.next()%40 {
				masks[i].add(rune(g.next() % 128))
			}
		}
		class, n := byteClasses(masks)
		used := map[uint8]bool{}
		for a := range 128 {
			used[class[a]] = true
			for b := range 128 {
				alike := true
				for _, m := range masks {
					alike = alike && m.has(byte(a)) == m.has(byte(b))
				}
				if alike != (class[a] == class[b]) {
					t.Fatalf("round %d: bytes %d and %d: alike %v, classes %d and %d", round, a, b, alike, class[a], class[b])
				}
			}
		}
		if len(used) != n {
			t.Fatalf("round %d: %d classes in use, %d counted", round, len(used), n)
		}
	}
}

// TestLongWindowScanSame: a line of short sentences that each name a
// token and of assignments (a name before the key), long enough that its windows merge into one
// past partsMinWindow (searched in parts), gives what the scanner without
// filters gives, which searches the window whole.
func TestLongWindowScanSame(t *testing.T) {
	sequentialSweep(t)
	g := newFakeGen("long window")
	var b strings.Builder
	for b.Len() < 96<<10 {
		switch g.next() % 4 {
		case 0:
			fmt.Fprintf(&b, "The token is %s. ", g.from(base62, 14))
		case 1:
			// a name before the key: the generic rules' stripped prefix
			fmt.Fprintf(&b, "svc.%s_api_key=%s ", g.from(alphaLower, 5), g.from(base62, 32))
		case 2:
			fmt.Fprintf(&b, "password: %s; ", g.from(base62, 12))
		default:
			fmt.Fprintf(&b, "AKIA%s and the rest ", strings.ToUpper(g.from(base62, 16)))
		}
	}
	text := []byte(b.String())
	s, err := newScanner(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	got := s.Scan("notes/x.md", text)
	useDFA = false
	want := s.Scan("notes/x.md", text)
	useDFA = true
	if len(want) < 100 {
		t.Fatalf("only %d findings: the text does not test the long window", len(want))
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("with the window in parts: %d findings, searched whole: %d", len(got), len(want))
	}
	// Bytes outside ASCII (accents, CJK, an emoji, a BOM, bytes that are
	// not UTF-8, ſ and K that (?i) s and k take) spread over the window,
	// and one at its start: the filter reads on over them, so the window
	// is still searched a part at a time (the matches held at once stay
	// bounded), and finds what the search of the whole window finds.
	wide := []string{"é", "日本語", "😀", "\uFEFF", "\xff", "\xc3", "\x80\x80", "ſ", "\u212a"}
	mixed := []byte("Café ")
	for i, k := 0, 0; i < len(text); k++ {
		j := min(len(text), i+1500)
		if sp := bytes.IndexByte(text[j:], ' '); sp >= 0 {
			j += sp + 1
		} else {
			j = len(text)
		}
		mixed = append(append(append(mixed, text[i:j]...), wide[k%len(wide)]...), ' ')
		i = j
	}
	got = s.Scan("notes/x.md", mixed)
	useDFA = false
	want = s.Scan("notes/x.md", mixed)
	useDFA = true
	if len(want) < 100 || !reflect.DeepEqual(got, want) {
		t.Fatalf("with bytes outside ASCII, with the window in parts: %d findings, searched whole: %d", len(got), len(want))
	}
	for _, r := range s.rules {
		if r.ID != RuleGenericSecret {
			continue
		}
		d, nfa := r.filterFor(len(mixed))
		if d == nil || nfa {
			t.Skip("no set filter for generic-secret at this size")
		}
		parts, ok := d.parts(mixed, false, splitEvery, nil)
		if !ok || len(parts) < 2 {
			t.Fatalf("parts of a window with bytes outside ASCII: %v, %v", ok, parts)
		}
		for _, p := range parts {
			if p.end-p.start > len(mixed)/8 {
				t.Fatalf("a part of %d bytes of %d in a window with bytes outside ASCII: %v", p.end-p.start, len(mixed), p)
			}
		}
	}
}

// TestEarlyFilterScanSame: a fresh scanner at the default thresholds
// reads each rule's filter on sets until it compiles the rule (the early
// filter), and finds what a scanner without filters finds, from several

// TestSplitsNotInsideRunes: a window is never split after a byte of a
// multi-byte rune. A part that began with a rune's continuation byte would
// read it as a rune of its own (U+FFFD), which \S or [^ ] match: searched
// in parts, a text would have matches it does not have whole.
func TestSplitsNotInsideRunes(t *testing.T) {
	text := []byte("a é b 日本 c ſK 🙂 d")
	for _, expr := range []string{`\S`, `[^ ]{1,2}`, `[^a-z ]+`} {
		d := newPrefilterDFA(expr, nil)
		if d == nil {
			t.Fatalf("%s: no filter", expr)
		}
		_, splits, ok := d.scan(text, false, false, 1, nil)
		if !ok {
			t.Fatalf("%s: the filter did not read the text", expr)
		}
		for _, q := range splits {
			if q > 0 && text[q-1] >= 0x80 {
				t.Errorf("%s: split at %d, after the byte %#x of a rune", expr, q, text[q-1])
			}
		}
		re := regexp.MustCompile(expr)
		var got [][]int
		searchSplit(wrapRegexp(re), text, splits, func(m []int) { got = append(got, append([]int(nil), m...)) })
		if want := re.FindAllSubmatchIndex(text, -1); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: in parts %v, whole %v", expr, got, want)
		}
	}
}
