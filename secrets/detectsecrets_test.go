package secrets

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestDetectSecretsCases measures the engine on detect-secrets' plugin
// tests, a labelled set neither sotvet nor gitleaks wrote (some 630
// cases over 25 plugins; scripts/detect-secrets-cases.sh extracts them
// outside the repository). Each case's input is scanned as a file of the
// name its test gives (the keyword plugin's cases are named for a
// language); a positive counts as found when there is any finding, a
// negative as flagged when there is any.
//
// Most of its positives are placeholders ("AKIAZZZZZZZZZZZZZZZZ",
// "abcd1234abcd1234…", "AP6xxxxxxxxxx", "m{{h}o)p${e]nob(ody…"), which
// sotvet rejects on purpose (issue 33 point 4): a positive whose value
// (casePlaceholder) IsPlaceholder rejects is left out of the second
// recall. Its negatives are its plugins' scope, not always no secret:
// "_authToken=<uuid>" without the registry before it is no npm token to
// detect-secrets, and a token to a reader. The floors are this round's
// figures, so that a change that loses them is seen.
func TestDetectSecretsCases(t *testing.T) {
	type record struct {
		Plugin, Name, Input string
		Value               *string
		Positive            bool
	}
	path, recs := peerRecords[record](t, "SOTVET_DETECTSECRETS", "run scripts/detect-secrets-cases.sh on a detect-secrets source tree and point it at the file")
	var tally peerTally
	s := defaultScanner(t)
	verbose := os.Getenv("SOTVET_DETECTSECRETS_VERBOSE") != ""
	for _, r := range recs {
		hit := len(s.Scan(r.Name, []byte(r.Input+"\n"))) > 0
		placeholder := r.Positive && !hit && casePlaceholder(r.Input, r.Value)
		if tally.add(r.Plugin, r.Positive, hit, placeholder) && verbose {
			t.Logf("missed or flagged (wanted %v) %s %q", r.Positive, r.Plugin, r.Input)
		}
	}
	names := make([]string, 0, len(tally.fam))
	for n := range tally.fam {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		c := tally.fam[n]
		t.Logf("%-22s found %3d of %3d (%3d placeholders), flagged %2d of %3d", n, c.found, c.tp, c.placeholders, c.flagged, c.fp)
	}
	tally.summary(t, path, "plugins")
	all := tally.all
	if all.found < detectSecretsMinFound {
		t.Errorf("found %d positives < %d", all.found, detectSecretsMinFound)
	}
	if all.flagged > detectSecretsMaxFlagged {
		t.Errorf("flagged %d negatives > %d", all.flagged, detectSecretsMaxFlagged)
	}
}

// The gate's floor and ceiling (see TestDetectSecretsCases), set on
// detect-secrets 5e14193 (2026-04-02): round forty-four found 35 of 404
// positives (29 before it: the UUID's floor, TestPyPI, Mailchimp and
// Discord were its finds) and flagged 23 of 228 negatives, none of them
// new: 8 GitLab and GitHub tokens its GitLab tests give as malformed
// (glptt- of a length it does not want, a ghp_ token), 4 JWTs it calls
// malformed, 5 passwords its keyword plugin leaves to quotes or calls
// fake ("somefakekey" is one word to sotvet), 4 _authToken lines outside
// an npmrc's registry form, a TestPyPI-shaped PyPI token cut short, a
// Telegram bot token after "bot".
const (
	detectSecretsMinFound   = 35
	detectSecretsMaxFlagged = 23
)

// casePlaceholder reports whether a case's value is a placeholder: the
// value its test names, or, where it names none, the longest run of
// letters, digits, "_" and "-" in the input (a line's value is longer
// than its name in all but a few cases).
func casePlaceholder(input string, value *string) bool {
	if value != nil {
		return IsPlaceholder([]byte(*value))
	}
	longest := ""
	start := -1
	for i := 0; i <= len(input); i++ {
		if i < len(input) && (isAlnumByte(input[i]) || input[i] == '_' || input[i] == '-') {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 && i-start > len(longest) {
			longest = input[start:i]
		}
		start = -1
	}
	return len(longest) >= 8 && IsPlaceholder([]byte(longest))
}

// TestDetectSecretsExtract runs scripts/detect-secrets-cases.sh as the
// measure's documentation gives it, on a tree shaped as detect-secrets'
// (testdata/detect-secrets-tree): parametrize on a class and on its
// method combine, the keyword plugin's cases are named for their file's
// extension and take their expected secret as the value, and
// TestDetectSecretsCases reads what it writes.
func TestDetectSecretsExtract(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not installed: the extractor is a Python script")
	}
	out := filepath.Join(t.TempDir(), "cases.jsonl")
	cmd := exec.Command("bash", "../scripts/detect-secrets-cases.sh", "testdata/detect-secrets-tree", out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	t.Setenv("SOTVET_DETECTSECRETS", out)
	type record struct {
		Plugin, Test, Name, Input string
		Value                     *string
		Positive                  bool
	}
	_, recs := peerRecords[record](t, "SOTVET_DETECTSECRETS", "")
	var got []string
	for _, r := range recs {
		v := "-"
		if r.Value != nil {
			v = *r.Value
		}
		got = append(got, fmt.Sprintf("%s %s %s %q %s %v", r.Plugin, r.Test, r.Name, r.Input, v, r.Positive))
	}
	want := []string{
		`keyword test_analyze config.txt "line one" - true`,
		`keyword test_analyze config.txt "line two" - false`,
		`keyword test_keyword mock_filename.go "name := value" value true`,
		`keyword test_keyword mock_filename "name = nothing" - false`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("extracted:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
