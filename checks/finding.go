package checks

// Severity of a finding.
type Severity string

const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
	// SeverityOff silences a check or a category: the driver drops its
	// findings (after suppressions are judged, so an ignore comment for
	// it does not turn into "suppresses nothing").
	SeverityOff Severity = "off"
)

// Rank orders severities: a higher rank is more severe.
func (s Severity) Rank() int {
	switch s {
	case SeverityError:
		return 2
	case SeverityWarning:
		return 1
	}
	return 0
}

// Finding is one diagnostic, resolved to a file position. Paths are
// slash-separated and relative to the workspace root. Lines and columns are
// 1-based; columns count bytes, as go/token does.
type Finding struct {
	Check       string   `json:"check"`
	Category    string   `json:"category,omitempty"` // sub-rule within the check
	Severity    Severity `json:"severity"`
	File        string   `json:"file"`
	Line        int      `json:"line"`
	Col         int      `json:"col"`
	EndLine     int      `json:"end_line"`
	EndCol      int      `json:"end_col"`
	Message     string   `json:"message"`
	Fingerprint string   `json:"fingerprint"`

	// Related are the other places the finding exists because of: the
	// contradicting document, the workboard entry, the record. They are
	// not part of the fingerprint.
	Related []Related `json:"related,omitempty"`

	Offset int   `json:"-"` // byte offset of the start, for sorting
	Fixes  []Fix `json:"-"`
}

// Code is the finding's rule code, "check/category" ("check" for a
// finding without a category): what every output shows and every setting
// (enable, disable, severity, sotvet:ignore) accepts.
func (f *Finding) Code() string {
	if f.Category == "" {
		return f.Check
	}
	return f.Check + "/" + f.Category
}

// Related is a place a finding points at as its evidence, resolved like the
// finding's own position.
type Related struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Message string `json:"message"`
}

// Fix is a suggested fix resolved to byte offsets in one file.
type Fix struct {
	Message string
	Edits   []Edit
}

// Edit replaces Content[Start:End] of File with New.
type Edit struct {
	File       string
	Start, End int
	New        string
}

// Result is the outcome of one run of the checks.
type Result struct {
	Checked  []string  // names of the checks that ran, sorted
	Findings []Finding // sorted by file, then offset, then check
	Files    int       // number of workspace files read
}
