package structure

import "testing"

// TestMentionsAcceptance: the prefilter passes every line either pattern
// matches, in any letter case, and drops lines without the word.
func TestMentionsAcceptance(t *testing.T) {
	for _, s := range []string{"Acceptance:", "**ACCEPTANCE CRITERIA**: x", "### acceptance evidence", "  AcCePtAnCe: - a"} {
		if !mentionsAcceptance(s) {
			t.Errorf("%q: dropped", s)
		}
		if !acceptanceLabel.MatchString(s) && !acceptanceHeading.MatchString(s) {
			t.Errorf("%q: the test line matches neither pattern", s)
		}
	}
	for _, s := range []string{"", "Accept", "accep tance", "Status: validated.", "ACCEPTANC"} {
		if mentionsAcceptance(s) {
			t.Errorf("%q: kept", s)
		}
	}
}
