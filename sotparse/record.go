package sotparse

import (
	"bytes"
	"errors"
	"fmt"
	"go/token"
	"io"
	"reflect"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// RecordKind is the kind of a JSON record, recognised by its keys.
type RecordKind string

const (
	RecordModelAdmission  RecordKind = "model-provider-admission"
	RecordTargetAdmission RecordKind = "target-repository-admission"
	RecordUnknown         RecordKind = "unknown"
)

// ModelAdmission is a model-provider admission record.
type ModelAdmission struct {
	Status                string `json:"status"`
	Provider              string `json:"provider"`
	Model                 string `json:"model"`
	CredentialSourceClass string `json:"credential_source_class"`
	AllowedNetworkClass   string `json:"allowed_network_class"`
	ApprovalSource        string `json:"approval_source"`
	AdmissionTimestamp    string `json:"admission_timestamp"`
	ReviewTrigger         string `json:"review_trigger"`
}

// TargetAdmission is a target-repository admission record.
type TargetAdmission struct {
	AdmissionStatus         string   `json:"admission_status"`
	TargetRepositoryPath    string   `json:"target_repository_path"`
	RepositoryOwner         string   `json:"repository_owner"`
	OwnershipEvidence       string   `json:"ownership_evidence"`
	RiskClassification      string   `json:"risk_classification"`
	NoncriticalRationale    string   `json:"noncritical_rationale"`
	AllowedPaths            []string `json:"allowed_paths"`
	ForbiddenPaths          []string `json:"forbidden_paths"`
	ForbiddenActions        []string `json:"forbidden_actions"`
	OperatorOutcomeRequired *bool    `json:"operator_outcome_required"`
	ApprovalSource          string   `json:"approval_source"`
	ApprovalTimestamp       string   `json:"approval_timestamp"`
	ReviewTrigger           string   `json:"review_trigger"`
}

// Record is one JSON record file.
type Record struct {
	Path    string
	File    *File
	Kind    RecordKind
	Members []*Member // top-level members in file order
	Model   *ModelAdmission
	Target  *TargetAdmission
}

// Member is a top-level JSON object member.
type Member struct {
	Name     string
	Pos, End token.Pos      // the name, quotes included
	Value    jsontext.Value // a slice of the record's text (File.Content): read-only
	ValuePos token.Pos
}

// Member returns the top-level member with the given name, or nil.
func (r *Record) Member(name string) *Member {
	for _, m := range r.Members {
		if m.Name == name {
			return m
		}
	}
	return nil
}

// maxJSONDepth bounds nesting in records; real records are two levels deep.
const maxJSONDepth = 64

// DecodeRecord reads a JSON record: it must be one object, with no duplicate
// member names at any depth; its kind is recognised by its keys and it is then
// decoded strictly into the typed form (unknown members rejected).
func DecodeRecord(f *File, report func(pos, end token.Pos, msg string)) *Record {
	r := &Record{Path: f.Path, File: f, Kind: RecordUnknown}
	content := f.Content
	dec := jsontext.NewDecoder(bytes.NewReader(content))
	fail := func(err error) *Record {
		off := int(dec.InputOffset())
		var se *jsontext.SyntacticError
		if errors.As(err, &se) {
			off = int(se.ByteOffset)
			err = se.Err
		}
		report(f.Pos(off), f.Pos(off), "malformed JSON: "+errText(err))
		return r
	}
	tok, err := dec.ReadToken()
	if err != nil {
		return fail(err)
	}
	if tok.Kind() != '{' {
		report(f.Pos(0), f.Pos(0), "record must be a JSON object")
		return r
	}
	for dec.PeekKind() != '}' {
		nameOff := int(dec.InputOffset())
		// Skip white space and the comma before the name.
		for nameOff < len(content) && (content[nameOff] == ' ' || content[nameOff] == '\n' || content[nameOff] == '\r' || content[nameOff] == '\t' || content[nameOff] == ',') {
			nameOff++
		}
		tok, err := dec.ReadToken()
		if err != nil {
			return fail(err)
		}
		name := tok.String() // tok is voided by the next read
		valOff := int(dec.InputOffset())
		val, err := dec.ReadValue()
		if err != nil {
			return fail(err)
		}
		valEnd := int(dec.InputOffset())
		for valOff < len(content) && (content[valOff] == ' ' || content[valOff] == '\n' || content[valOff] == '\r' || content[valOff] == '\t' || content[valOff] == ':') {
			valOff++
		}
		if depth(val) > maxJSONDepth {
			report(f.Pos(valOff), f.Pos(valOff), "JSON value nested too deeply")
			return r
		}
		// The value is a slice of the record's text, which the record
		// keeps (File.Content), not a copy: the decoder's view of it is
		// voided by the next read, and a copy held each record's text
		// twice until the rules ran.
		r.Members = append(r.Members, &Member{Name: name, Pos: f.Pos(nameOff), End: f.Pos(valEnd), Value: jsontext.Value(content[valOff:valEnd:valEnd]), ValuePos: f.Pos(valOff)})
	}
	if _, err := dec.ReadToken(); err != nil {
		return fail(err)
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		if err == nil {
			err = errors.New("unexpected data after the top-level object")
		}
		return fail(err)
	}
	switch {
	case r.Member("admission_status") != nil || r.Member("target_repository_path") != nil:
		r.Kind = RecordTargetAdmission
		r.Target = new(TargetAdmission)
		r.strict(content, r.Target, report)
	case r.Member("provider") != nil && r.Member("model") != nil:
		r.Kind = RecordModelAdmission
		r.Model = new(ModelAdmission)
		r.strict(content, r.Model, report)
	}
	return r
}

func (r *Record) strict(content []byte, v any, report func(pos, end token.Pos, msg string)) {
	err := json.Unmarshal(content, v, json.RejectUnknownMembers(true))
	if err == nil {
		return
	}
	var se *json.SemanticError
	if errors.As(err, &se) {
		pos := r.File.Pos(int(se.ByteOffset))
		name := strings.TrimPrefix(string(se.JSONPointer), "/")
		if m := r.Member(name); m != nil && !strings.Contains(name, "/") {
			pos = m.Pos
		}
		var msg string
		switch {
		case errors.Is(err, json.ErrUnknownName):
			msg = fmt.Sprintf("unknown member %q for a %s record", name, r.Kind)
		case se.GoType != nil && se.JSONKind != 0:
			msg = fmt.Sprintf("member %q must be %s, not %s", name, jsonTypeName(se.GoType), kindName(se.JSONKind))
		default:
			msg = fmt.Sprintf("member %q: %s", name, errText(se.Err))
		}
		report(pos, pos, msg)
		return
	}
	report(r.File.Pos(0), r.File.Pos(0), "cannot decode "+string(r.Kind)+" record: "+errText(err))
}

func depth(v jsontext.Value) int {
	d, maxd := 0, 0
	inStr, esc := false, false
	for _, c := range v {
		switch {
		case esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case c == '"':
			inStr = !inStr
		case !inStr && (c == '{' || c == '['):
			d++
			maxd = max(maxd, d)
		case !inStr && (c == '}' || c == ']'):
			d--
		}
	}
	return maxd
}

func errText(err error) string {
	if err == nil {
		return "invalid value"
	}
	s := err.Error()
	s = strings.TrimPrefix(s, "jsontext: ")
	s = strings.TrimPrefix(s, "json: ")
	return s
}

// jsonTypeName names the JSON type a Go field accepts.
func jsonTypeName(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice:
		return "a list of " + strings.TrimPrefix(jsonTypeName(t.Elem()), "a ") + "s"
	case reflect.Int, reflect.Int64, reflect.Float64:
		return "a number"
	}
	return "an object"
}

func kindName(k jsontext.Kind) string {
	switch k {
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	case '0':
		return "a number"
	case '{':
		return "an object"
	case '[':
		return "a list"
	}
	return "invalid"
}
