package secrets

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
)

// peerRecords reads the JSON-lines file the environment variable env
// names (a labelled set a script extracts outside the repository) into
// records of type T, or skips the test with how to make one.
func peerRecords[T any](t *testing.T, env, how string) (string, []T) {
	t.Helper()
	path := os.Getenv(env)
	if path == "" {
		t.Skip(env + " unset: " + how)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var r T
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return path, out
}

// peerCounts counts a peer set's cases: positives (tp) found or left out
// as placeholders, negatives (fp) flagged.
type peerCounts struct{ tp, found, placeholders, fp, flagged int }

// peerTally counts a peer set's cases by family and in all.
type peerTally struct {
	fam map[string]*peerCounts
	all peerCounts
}

// add counts a case of family: a positive is found when hit, left out
// when a placeholder, else missed; a negative is flagged when hit. It
// reports whether the case is a miss or a flag.
func (pt *peerTally) add(family string, positive, hit, placeholder bool) bool {
	if pt.fam == nil {
		pt.fam = map[string]*peerCounts{}
	}
	c := pt.fam[family]
	if c == nil {
		c = &peerCounts{}
		pt.fam[family] = c
	}
	for _, c := range []*peerCounts{c, &pt.all} {
		switch {
		case !positive:
			c.fp++
			if hit {
				c.flagged++
			}
		case hit:
			c.tp++
			c.found++
		case placeholder:
			c.tp++
			c.placeholders++
		default:
			c.tp++
		}
	}
	return positive != hit && !(positive && placeholder)
}

// summary logs the recall, the recall without placeholders and the rate
// of negatives flagged, and returns the last two; it fails the test when
// the set holds no positive or no negative (not the extracted cases).
func (pt *peerTally) summary(t *testing.T, path, families string) (recallReal, flagged float64) {
	t.Helper()
	a := pt.all
	if a.tp == 0 || a.fp == 0 {
		t.Fatalf("%s holds %d positives and %d negatives: not the extracted cases", path, a.tp, a.fp)
	}
	recall := float64(a.found) / float64(a.tp)
	recallReal = float64(a.found) / float64(a.tp-a.placeholders)
	flagged = float64(a.flagged) / float64(a.fp)
	t.Logf("%d %s: recall %.3f (%d/%d), %.3f without %d placeholders; negatives flagged %.3f (%d/%d)",
		len(pt.fam), families, recall, a.found, a.tp, recallReal, a.placeholders, flagged, a.flagged, a.fp)
	return recallReal, flagged
}
