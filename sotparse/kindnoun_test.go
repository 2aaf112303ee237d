package sotparse

import "testing"

func TestKindNoun(t *testing.T) {
	for k, want := range map[Kind]string{KindPRD: "PRD", KindOther: "document", KindIssues: "issues document",
		KindEvidence: "evidence document", KindCloseout: "closeout", KindAudit: "audit"} {
		if got := k.Noun(); got != want {
			t.Errorf("%s.Noun() = %q, want %q", k, got, want)
		}
	}
}
