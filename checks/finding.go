package checks

// Severity of a finding.
type Severity string

const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
	// SeverityNote is advice (a Vale suggestion): reported, never failing
	// a run.
	SeverityNote Severity = "note"
	// SeverityOff silences a check or a category: the driver drops its
	// findings (after suppressions are judged, so an ignore comment for
	// it does not turn into "suppresses nothing").
	SeverityOff Severity = "off"
)

// Rank orders severities: a higher rank is more severe.
func (s Severity) Rank() int {
	switch s {
	case SeverityError:
		return 3
	case SeverityWarning:
		return 2
	case SeverityNote:
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
	// Unsafe: the fix asserts a judgement a person must make (a review
	// happened, an item is validated); --fix leaves it to --unsafe-fixes.
	Unsafe bool
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
	// Omitted counts the findings beyond the caps (Options.MaxPerFile,
	// Cap): not kept, but counted, so that every output says how many
	// more exist and the exit code still reflects them.
	Omitted Omitted
}

// Default caps: one document with a finding every other byte would
// otherwise make gigabytes of report.
const (
	DefaultMaxPerFile  = 1000
	DefaultMaxFindings = 10000
)

// Omitted counts findings a run did not keep.
type Omitted struct {
	Total      int              `json:"total"`
	BySeverity map[Severity]int `json:"by_severity,omitempty"`
	ByFile     map[string]int   `json:"by_file,omitempty"`
	// ByCheck counts by check and severity, for a report of counts (the
	// control summary) whose totals must include what it does not list.
	// The driver and Cap fill it; check's scoped runs rebuild Omitted
	// without it (their report does not read it).
	ByCheck map[CheckSeverity]int `json:"-"`
}

// CheckSeverity is a check's name and a severity.
type CheckSeverity struct {
	Check    string
	Severity Severity
}

// Add counts n findings of check in file at severity sev.
func (o *Omitted) Add(check, file string, sev Severity, n int) {
	if n <= 0 {
		return
	}
	o.init()
	o.Total += n
	o.BySeverity[sev] += n
	o.ByFile[file] += n
	o.ByCheck[CheckSeverity{check, sev}] += n
}

func (o *Omitted) init() {
	if o.BySeverity == nil {
		o.BySeverity = map[Severity]int{}
	}
	if o.ByFile == nil {
		o.ByFile = map[string]int{}
	}
	if o.ByCheck == nil {
		o.ByCheck = map[CheckSeverity]int{}
	}
}

// Merge adds what other counted.
func (o *Omitted) Merge(other Omitted) {
	if other.Total == 0 && len(other.ByFile) == 0 {
		return
	}
	o.init()
	for f, n := range other.ByFile {
		o.ByFile[f] += n
	}
	for s, n := range other.BySeverity {
		o.BySeverity[s] += n
	}
	for k, n := range other.ByCheck {
		o.ByCheck[k] += n
	}
	o.Total += other.Total
}

// Fails reports whether the result holds a finding, kept or omitted, at
// failOn or above.
func (r *Result) Fails(failOn Severity) bool {
	for _, f := range r.Findings {
		if f.Severity.Rank() >= failOn.Rank() {
			return true
		}
	}
	for s, n := range r.Omitted.BySeverity {
		if n > 0 && s.Rank() >= failOn.Rank() {
			return true
		}
	}
	return false
}

// Cap keeps at most perFile findings of each file and perRun in all (0:
// no cap), the first in their order (by file, then position), and counts
// the others in r.Omitted.
func (r *Result) Cap(perFile, perRun int) {
	if perFile <= 0 && perRun <= 0 {
		return
	}
	kept := r.Findings[:0]
	n := 0
	for i, f := range r.Findings {
		if i > 0 && f.File != r.Findings[i-1].File {
			n = 0
		}
		n++
		if perFile > 0 && n > perFile || perRun > 0 && len(kept) >= perRun {
			r.Omitted.Add(f.Check, f.File, f.Severity, 1)
			continue
		}
		kept = append(kept, f)
	}
	clear(r.Findings[len(kept):]) // let the dropped findings' strings go
	r.Findings = kept
}
