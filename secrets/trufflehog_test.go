package secrets

import (
	"os"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestTruffleHogPatterns measures the engine on TruffleHog's detector
// pattern tests, a labelled set neither sotvet nor gitleaks wrote (some
// 2,700 cases over 900 detectors; scripts/trufflehog-cases.sh extracts
// them outside the repository, which holds none: TruffleHog is AGPL).
// Each case's input is scanned as a text file; a positive (a case that
// wants a value) counts as found when there is any finding, a negative as
// flagged when there is any. A positive whose every wanted value is a
// placeholder (IsPlaceholder: "shippo_live_aaaa…", "a1b2c3…"; in a value
// joined with its host, its longest field: wantsPlaceholder) is left out
// of the second recall, as sotvet rejects placeholders on purpose (issue
// 33 point 4). It fails below the figures of round thirty, so that a
// change that loses them is seen: recall without placeholders 0.92,
// negatives flagged at most 0.20 (gitleaks v8.30.1 flags 0.397 of them).
func TestTruffleHogPatterns(t *testing.T) {
	type record struct {
		Pkg, Name, Input string
		Want             any
	}
	path, recs := peerRecords[record](t, "SOTVET_TRUFFLEHOG", "run scripts/trufflehog-cases.sh on a TruffleHog source tree and point it at the file")
	var tally peerTally
	seen := map[string]bool{}
	s := defaultScanner(t)
	verbose := os.Getenv("SOTVET_TRUFFLEHOG_VERBOSE") != ""
	for _, r := range recs {
		var wants []string
		switch w := r.Want.(type) {
		case []any:
			for _, v := range w {
				if s, ok := v.(string); ok && s != "" {
					wants = append(wants, s)
				}
			}
		case map[string]any:
			for k := range w {
				wants = append(wants, k)
			}
		}
		positive := len(wants) > 0
		key := r.Pkg + "\x00" + r.Input
		if positive {
			key += "\x00+"
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		hit := len(s.Scan("case.txt", []byte(r.Input))) > 0
		placeholder := positive && !hit && !slices.ContainsFunc(wants, func(w string) bool { return !wantsPlaceholder(w) })
		if tally.add(r.Pkg, positive, hit, placeholder) && verbose {
			t.Logf("missed or flagged (wanted %v) %s %q", positive, r.Pkg, r.Name)
		}
	}
	var names []string
	for n, c := range tally.fam {
		if c.tp >= 5 && float64(c.found) < 0.9*float64(c.tp) {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		c := tally.fam[n]
		t.Logf("detector %s: found %d of %d (%d placeholders)", n, c.found, c.tp, c.placeholders)
	}
	recallReal, flagged := tally.summary(t, path, "detectors")
	if recallReal < 0.92 {
		t.Errorf("recall without placeholders %.3f < 0.92", recallReal)
	}
	if flagged > 0.20 {
		t.Errorf("negatives flagged %.3f > 0.20", flagged)
	}
}

// wantsPlaceholder reports whether a value a TruffleHog case wants is a
// placeholder. Many detectors want the token joined with ':' to where it
// is used ("prod.octopus.app:API-AAAA…", "BBDC-1111…:https://…:7990"):
// then the field that is the credential decides, the longest one that
// is not a host, path or address.
func wantsPlaceholder(want string) bool {
	if IsPlaceholder([]byte(want)) {
		return true
	}
	secret := ""
	for _, f := range strings.Split(want, ":") {
		if !strings.ContainsAny(f, "./@") && len(f) > len(secret) {
			secret = f
		}
	}
	return len(secret) >= 8 && secret != want && IsPlaceholder([]byte(secret))
}
