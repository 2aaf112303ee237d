package secrets

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

// TestNarrowScanSame scans texts dense with the rules' matches and near
// misses (a third of the sweep's one-line shapes at 2 KB, its phrases at
// 8 KB, the filters' texts, the adversarial shapes) with every rule's attempts narrowed from the first
// (whatever its program's size) and with none narrowed: the findings
// and the redacted texts are the same.
func TestNarrowScanSame(t *testing.T) {
	t.Parallel() // see "Parallel tests" in follow_test.go
	s := defaultScanner(t)
	var texts []string
	seen := map[string]bool{}
	for _, r := range s.Rules() {
		for _, k := range r.Keywords {
			shapes := keywordLineShapes(k)
			for _, kind := range []string{"value", "alone", "sep", "lines"} {
				if p := shapes[kind]; !seen[p] {
					seen[p] = true
					if len(seen)%3 == 0 {
						texts = append(texts, strings.Repeat(p, 2<<10/len(p)+1))
					}
				}
			}
		}
	}
	for _, p := range sweepPhrases {
		texts = append(texts, strings.Repeat(p, 8<<10/len(p)+1))
	}
	texts = append(texts, narrowTexts()...)
	texts = append(texts, dfaTexts(40)...)
	if sampledSweeps() {
		texts = texts[:len(texts)/4]
	}
	texts = raceSubset(texts)
	scan := func(after int64, minInsts int) (out [][]Finding, red []string) {
		tune := defaultTuning
		tune.narrowAfter, tune.narrowMinInsts = after, minInsts
		// Fresh, not the process's default scanner (defaultScanner): its
		// rules decide once whether they narrow, and earlier tests' scans
		// may have decided it under other thresholds.
		sc, err := newScannerTuned(DefaultConfig(), tune)
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range texts {
			out = append(out, sc.Scan("notes/x.txt", []byte(text)))
			red = append(red, sc.RedactString(text))
		}
		return out, red
	}
	got, gotRed := scan(0, 0)
	want, wantRed := scan(math.MaxInt64, math.MaxInt)
	n := 0
	for i := range texts {
		n += len(want[i])
		if !reflect.DeepEqual(got[i], want[i]) || gotRed[i] != wantRed[i] {
			t.Fatalf("text %d %.80q: narrowed %v\nwhole %v", i, texts[i], got[i], want[i])
		}
	}
	if n < len(texts) {
		t.Errorf("%d findings in %d texts: the texts hold too few matches to compare", n, len(texts))
	}
	t.Logf("%d texts, %d findings", len(texts), n)
}
