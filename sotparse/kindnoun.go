package sotparse

import "strings"

// Noun names the kind in a message: "PRD", "issues document", "evidence
// document", "closeout", "record"; "document" for KindOther.
func (k Kind) Noun() string {
	switch k {
	case KindPRD:
		return "PRD"
	case KindOther:
		return "document"
	case KindIssues:
		return "issues document"
	case KindEvidence:
		return "evidence document"
	}
	return strings.ToLower(string(k))
}
