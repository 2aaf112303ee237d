package ledger

// OutcomeFile is the operator outcome's file name inside a run directory.
const OutcomeFile = "outcome.json"

// Outcome decisions.
const (
	Accepted = "accepted"
	Rejected = "rejected"
)

// Outcome is the operator's accept or reject of a verified run, written by
// sotvet harness outcome as RUN/outcome.json. ReportSHA256 binds it to the
// report it judged.
type Outcome struct {
	SchemaVersion int    `json:"schema_version"`
	RunID         string `json:"run_id"`
	Decision      string `json:"decision"`
	Actor         string `json:"actor"`
	Reason        string `json:"reason"`
	RecordedAt    string `json:"recorded_at"`
	ReportSHA256  string `json:"report_sha256"`
	Seal
}
