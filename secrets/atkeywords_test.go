package secrets

import (
	"bytes"
	"reflect"
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"
)

// TestSearchAtKeywords: the anchored attempts at a dense run's keywords,
// with the rest searched in parts where they stop, find the matches an
// unanchored search of the whole run finds, groups and all: without a
// filter, with the loose reach filter, and with the bounded one; on runs
// of keywords (some spelt with ſ or K, which (?i) takes for s and k),
// values, separators, corpus text and non-ASCII bytes.
func TestSearchAtKeywords(t *testing.T) {
	t.Parallel() // see "Parallel tests" in follow_test.go
	g := newFakeGen("search at keywords")
	samples := corpusSamples()
	odd := []string{"é", "€", "\u00a0", "𝔸", "İ", "ſ", "\u212a"} // the last two only where spelt
	seps := []string{"=", ": ", " = ", "=\"", "='", ":\"", " ", "_", "-", ".", "\"", "'", "\t", ",", "\n", "/", "@", "://"}
	every, texts := 7, 8
	if sampledSweeps() {
		every, texts = 23, 6
	}
	var runs, matched, byAttempts, budgetFallbacks, foldFallbacks, foldFound int
	for mode, name := range []string{"no filter", "loose filter", "bounded filter"} {
		// a scanner of its own: a rule keeps the bounded filter it built
		tune := defaultTuning
		tune.reachAfter = 1 << 62
		if mode == 2 {
			tune.reachAfter = 0
		}
		s, err := newScannerTuned(DefaultConfig(), tune)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range s.rules {
			r.prepare()
			if r.anchoredSrc == "" || r.tokenAtKeyword || len(r.lowerKeywords) == 0 {
				continue
			}
			// the rule's own samples with their first keyword spelt
			// with ſ or K, in a dense run of its keywords
			var respelt []string
			for _, sm := range samples {
				if sm.rule != r.ID || sm.secret == "" {
					continue
				}
				for _, k := range r.lowerKeywords {
					i := strings.Index(strings.ToLower(sm.text), k)
					if i < 0 || !strings.ContainsAny(k, "sk") {
						continue
					}
					odd := strings.NewReplacer("s", "ſ", "k", "\u212a").Replace(k)
					run := strings.Repeat(k+" ", 2) + sm.text[:i] + odd + sm.text[i+len(k):] + " " + strings.Repeat(k+" ", 40)
					respelt = append(respelt, run)
					break
				}
			}
			if i%every != 0 && len(respelt) == 0 {
				continue
			}
			var d *prefilterDFA
			if mode > 0 {
				if d = newPrefilterDFA(r.filterSrc(), nil); d == nil {
					t.Fatalf("%s: no filter", r.ID)
				}
			}
			all := r.searchAll()
			for j := range texts + len(respelt) {
				spelt := j%3 == 0 // keywords spelt with ſ, K
				var b strings.Builder
				if j >= texts {
					b.WriteString(respelt[j-texts])
				}
				for size := 200 + int(g.next()%3000); b.Len() < size; {
					switch c := g.next() % 20; {
					case c < 9:
						k := r.Keywords[g.next()%uint64(len(r.Keywords))]
						switch g.next() % 6 {
						case 0:
							k = strings.ToUpper(k)
						case 1:
							if spelt {
								k = strings.Replace(strings.Replace(k, "s", "ſ", 1), "k", "\u212a", 1)
							}
						case 2:
							if len(k) > 3 {
								k = k[:3+int(g.next()%uint64(len(k)-3))]
							}
						}
						b.WriteString(k)
					case c < 12:
						b.WriteString(g.from(base62, []int{1, 4, 8, 16, 20, 32, 40, 64}[g.next()%8]))
					case c < 15:
						b.WriteString(seps[g.next()%uint64(len(seps))])
					case c < 17:
						tx := samples[g.next()%uint64(len(samples))].text
						b.WriteString(tx[:min(len(tx), 1+int(g.next()%200))])
					case c < 18:
						b.WriteString(odd[g.next()%uint64(len(odd)-2*b2i(!spelt))])
					default:
						b.WriteString(g.from(base62, 40))
					}
				}
				ctx := []byte(b.String())
				runs++
				want := all.FindAllSubmatchIndex(ctx, -1)
				var got [][]int
				var head []byte
				pos, done := r.searchAtKeywords(d, ctx, &head, func(m []int) { got = append(got, append([]int(nil), m...)) })
				folds := r.kwFoldsS && bytes.Contains(ctx, longS) || r.kwFoldsK && bytes.Contains(ctx, kelvinK)
				if folds && (done || pos != 0) {
					t.Fatalf("%s: a run with ſ or K searched by attempts (done %v, from %d)", r.ID, done, pos)
				}
				if !done {
					if folds {
						foldFallbacks++
					} else {
						budgetFallbacks++
					}
					// as the scanner does
					var splits []int
					if d != nil {
						_, splits, _ = d.scan(ctx, false, false, splitEvery, nil)
					}
					searchSplit(all, ctx, splits, func(m []int) {
						if m[0] >= pos {
							got = append(got, append([]int(nil), m...))
						}
					})
				}
				if len(got) == 0 && len(want) == 0 {
					continue
				}
				matched++
				if done {
					byAttempts++
				}
				if folds && !done {
					for _, m := range want {
						if w := ctx[m[0]:m[1]]; bytes.Contains(w, longS) || bytes.Contains(w, kelvinK) {
							foldFound++
							break
						}
					}
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s, %s (done %v, from %d): on %q\nattempts %v\nsearch   %v", name, r.ID, done, pos, ctx, got, want)
				}
			}
		}
	}
	t.Logf("%d runs, %d with matches (%d by attempts alone); fell back on the budget %d, on ſ or K %d (%d with a match spelt so)", runs, matched, byAttempts, budgetFallbacks, foldFallbacks, foldFound)
	if matched < runs/20 || byAttempts < matched/4 || budgetFallbacks == 0 || foldFallbacks == 0 || foldFound == 0 {
		t.Fatalf("too little tried: %d runs, %d with matches, fallbacks %d and %d, %d matches with ſ or K", runs, matched, budgetFallbacks, foldFallbacks, foldFound)
	}
}

// TestBoundedReachAtBounds: the bounded filter read from a keyword,
// over values whose lengths are each counted repetition's bounds, one
// less and one more, cuts the text no shorter than the anchored match
// needs, and rules out no text the rule matches.
func TestBoundedReachAtBounds(t *testing.T) {
	t.Parallel() // see "Parallel tests" in follow_test.go
	s := defaultScanner(t)
	g := newFakeGen("bounded reach at bounds")
	seps := []string{"=", ": ", " = ", "=\"", "='", ":\"", " ", "_", "-", ".", "\"", "'", "\t", ",", "\n", "/", "@", "://", "", "\":\"", "\\\""}
	alphabets := []string{base62, hexLower, "0123456789", base62 + "+/=", base62 + "-_", alphaLower, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"}
	tries := 40
	if sampledSweeps() {
		tries = 8
	}
	rules, checked, cut, matched := 0, 0, 0, 0
	for _, r := range s.rules {
		r.prepare()
		if r.anchoredSrc == "" || len(r.lowerKeywords) == 0 {
			continue
		}
		bf := newBoundedFilter(r.filterSrc(), nil)
		if bf == nil {
			t.Fatalf("%s: no bounded filter", r.ID)
		}
		rules++
		tree, err := syntax.Parse(r.filterSrc(), syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		lens := map[int]bool{}
		repeatBounds(tree, lens)
		var sizes []int
		for v := range lens {
			if v <= 300 {
				sizes = append(sizes, v)
			}
		}
		if len(sizes) == 0 {
			sizes = []int{8, 16, 32}
		}
		anchored := regexp.MustCompile(`^(?:` + r.anchoredSrc + `)`)
		for range tries {
			var b strings.Builder
			b.WriteString(r.Keywords[g.next()%uint64(len(r.Keywords))])
			for range 1 + g.next()%4 {
				b.WriteString(seps[g.next()%uint64(len(seps))])
				b.WriteString(g.from(alphabets[g.next()%uint64(len(alphabets))], sizes[g.next()%uint64(len(sizes))]))
				if g.next()%3 == 0 {
					b.WriteString(r.Keywords[g.next()%uint64(len(r.Keywords))])
				}
			}
			b.WriteString(seps[g.next()%uint64(len(seps))])
			text := []byte(b.String())
			may, end, ok := bf.reach(text)
			if !ok {
				continue
			}
			checked++
			if end < len(text) || !may {
				cut++
			}
			want := anchored.FindSubmatchIndex(text)
			if want != nil {
				matched++
			}
			if got := anchored.FindSubmatchIndex(text[:min(len(text), end+1)]); !reflect.DeepEqual(got, want) || !may && want != nil {
				t.Fatalf("%s: on %q cut at %d (may %v) the anchored match is %v, on the whole %v", r.ID, text, end+1, may, got, want)
			}
		}
	}
	t.Logf("%d rules, %d texts told, %d cut or ruled out, %d matched", rules, checked, cut, matched)
	if checked == 0 || cut < checked/2 || matched == 0 {
		t.Fatalf("%d texts told, %d cut, %d matched", checked, cut, matched)
	}
}

// repeatBounds adds to out each counted repetition's bounds in re, one
// less and one more.
func repeatBounds(re *syntax.Regexp, out map[int]bool) {
	if re.Op == syntax.OpRepeat {
		for _, v := range []int{re.Min, re.Max} {
			if v > 0 {
				out[v-1], out[v], out[v+1] = true, true, true
			}
		}
	}
	for _, sub := range re.Sub {
		repeatBounds(sub, out)
	}
}

// TestReachTierSame: a scanner whose rules read keyword hits with their
// loose filters (before reachAfter bytes) and one that reads them with
// the bounded filters from the first hit find the same secrets, on the
// filters' texts and on dense lines of keywords.
func TestReachTierSame(t *testing.T) {
	t.Parallel() // see "Parallel tests" in follow_test.go
	tune := defaultTuning
	tune.reachAfter = 1 << 62
	loose, err := newScannerTuned(DefaultConfig(), tune)
	if err != nil {
		t.Fatal(err)
	}
	tune.reachAfter = 0
	bounded, err := newScannerTuned(DefaultConfig(), tune)
	if err != nil {
		t.Fatal(err)
	}
	n := 60
	if sampledSweeps() {
		n = 15
	}
	// Every text under -race too: whether a bounded filter is built (the
	// check at the end) depends on which rules the texts wake, and a
	// quarter of them, drawn, woke none once the rules or the shapes moved.
	texts := dfaTexts(n)
	g := newFakeGen("reach tiers")
	for i := range n {
		r := loose.rules[(i*13)%len(loose.rules)]
		if len(r.Keywords) == 0 {
			continue
		}
		var b strings.Builder
		for range 40 {
			b.WriteString(r.Keywords[g.next()%uint64(len(r.Keywords))] + []string{"=", " ", "_", ": \""}[g.next()%4] + g.from(base62, 8+int(g.next()%40)) + " ")
		}
		texts = append(texts, b.String())
	}
	// the reviewer's run: a match at clojarſ_ inside a dense run of clojars_
	texts = append(texts, strings.Repeat("clojars_ ", 2)+"clojarſ_"+g.from(base62, 60)+" "+strings.Repeat("clojars_ ", 40))
	for _, text := range texts {
		want := loose.Scan("notes/x.md", []byte(text))
		got := bounded.Scan("notes/x.md", []byte(text))
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("on %q:\nbounded %v\nloose   %v", text, got, want)
		}
	}
	if f := loose.Scan("notes/x.md", []byte(texts[len(texts)-1])); len(f) == 0 || f[0].RuleID != "clojars-api-token" {
		t.Fatalf("the token after clojarſ_ in a run of clojars_: %v", f)
	}
	built := [2]int{}
	for i := range loose.rules {
		if loose.rules[i].reachDFA.Load() != nil {
			built[0]++
		}
		if bounded.rules[i].reachDFA.Load() != nil {
			built[1]++
		}
	}
	if built[0] != 0 || built[1] == 0 {
		t.Fatalf("bounded filters built: %d under a reachAfter never reached, %d under 0", built[0], built[1])
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestSearchAtKeywordsInWord: a rule whose matches begin at \b tries no
// attempt at a keyword inside a word, so that a run of its keyword glued
// to itself (AKIAAKIA…, whose filter's threads after each hit read on
// for kingfisher.aws.2's .{0,96}?; a keyword of word bytes) is read by
// its attempts, not searched
// whole, and they find what the whole run's search finds.
func TestSearchAtKeywordsInWord(t *testing.T) {
	t.Parallel() // see "Parallel tests" in follow_test.go
	s := defaultScanner(t)
	rules := 0
	// Under the race detector a quarter of the rules (of ~500), drawn:
	// each search is sequential, on a filter built here.
	for _, r := range raceSubset(s.rules) {
		r.prepare()
		if r.anchoredSrc == "" || r.tokenAtKeyword || len(r.lowerKeywords) == 0 || !r.kwAtWord {
			continue
		}
		d := newPrefilterDFA(r.filterSrc(), nil)
		for _, k := range r.lowerKeywords[:1] {
			if strings.IndexFunc(k, func(c rune) bool { return c > 0x7f || !isWordByte(byte(c)) }) >= 0 {
				continue // glued, it begins a word again (sq0atp-sq0atp-)
			}
			ctx := []byte(strings.Repeat(strings.ToUpper(k), 4<<10/len(k)) + " " + strings.Repeat(k, 64))
			var got [][]int
			var head []byte
			_, done := r.searchAtKeywords(d, ctx, &head, func(m []int) { got = append(got, append([]int(nil), m...)) })
			if !done {
				t.Errorf("%s: a run of %q glued spent the attempts' budget", r.ID, k)
				continue
			}
			if want := r.searchAll().FindAllSubmatchIndex(ctx, -1); !reflect.DeepEqual(got, want) && len(got)+len(want) > 0 {
				t.Errorf("%s on a run of %q: attempts %v, search %v", r.ID, k, got, want)
			}
			rules++
		}
	}
	if rules < 10 {
		t.Errorf("%d rules begin at \\b: the test reads too few", rules)
	}
	t.Logf("%d rules", rules)
}
