package records

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/internal/testcorpus"
	"github.com/svrnty/sotvet/sotparse"
)

// schemaDoc is the part of a JSON Schema the tests read.
type schemaDoc struct {
	Schema               string              `json:"$schema"`
	Type                 string              `json:"type"`
	AdditionalProperties *bool               `json:"additionalProperties"`
	Required             []string            `json:"required"`
	Properties           map[string]property `json:"properties"`
	If                   struct {
		Properties map[string]property `json:"properties"`
		Required   []string            `json:"required"`
	} `json:"if"`
	Then struct {
		Properties map[string]property `json:"properties"`
	} `json:"then"`
}

type property struct {
	Type      string     `json:"type"`
	Enum      []string   `json:"enum"`
	Const     any        `json:"const"`
	MinLength *int       `json:"minLength"`
	MinItems  *int       `json:"minItems"`
	Pattern   string     `json:"pattern"`
	Unique    bool       `json:"uniqueItems"`
	Items     *property  `json:"items"`
	AllOf     []property `json:"allOf"`
	AnyOf     []property `json:"anyOf"`
	Not       *property  `json:"not"`
	Contains  *property  `json:"contains"`
	Format    string     `json:"format"`
}

func loadSchema(t *testing.T, kind string) *schemaDoc {
	t.Helper()
	b, ok := Schema(kind)
	if !ok {
		t.Fatalf("Schema(%q): no schema", kind)
	}
	if !json.Valid(b) {
		t.Fatalf("schema %s is not valid JSON", kind)
	}
	var s schemaDoc
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("schema %s: %v", kind, err)
	}
	return &s
}

// jsonTags returns the json member names of a struct type, in field order.
func jsonTags(typ reflect.Type) []string {
	var out []string
	for f := range typ.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name != "" && name != "-" {
			out = append(out, name)
		}
	}
	return out
}

func TestSchemaKinds(t *testing.T) {
	want := []string{string(sotparse.RecordModelAdmission), string(sotparse.RecordTargetAdmission)}
	if !slices.Equal(SchemaKinds, want) {
		t.Errorf("SchemaKinds = %q, want %q", SchemaKinds, want)
	}
	if _, ok := Schema("unknown"); ok {
		t.Error(`Schema("unknown") reported a schema`)
	}
	if _, ok := Schema("../records"); ok {
		t.Error(`Schema("../records") reported a schema`)
	}
	// The bytes are a copy: changing them does not change the next result.
	b, _ := Schema(SchemaKinds[0])
	b[0] = 'X'
	if c, _ := Schema(SchemaKinds[0]); c[0] != '{' {
		t.Error("Schema returned shared bytes")
	}
}

// TestSchemaMatchesModel checks that each schema lists exactly the members
// of the typed record in sotparse, all required, nothing else allowed, and
// that its types, enums and conditional requirements agree with the rule
// tables the check enforces.
func TestSchemaMatchesModel(t *testing.T) {
	for _, tc := range []struct {
		kind string
		typ  reflect.Type
		rule *kindRule
	}{
		{string(sotparse.RecordModelAdmission), reflect.TypeFor[sotparse.ModelAdmission](), modelRule},
		{string(sotparse.RecordTargetAdmission), reflect.TypeFor[sotparse.TargetAdmission](), targetRule},
	} {
		t.Run(tc.kind, func(t *testing.T) {
			s := loadSchema(t, tc.kind)
			if s.Schema != "https://json-schema.org/draft/2020-12/schema" {
				t.Errorf("$schema = %q, want draft 2020-12", s.Schema)
			}
			if s.Type != "object" || s.AdditionalProperties == nil || *s.AdditionalProperties {
				t.Errorf("want type object with additionalProperties false")
			}
			tags := jsonTags(tc.typ)
			var names []string
			for _, m := range tc.rule.members {
				names = append(names, m.name)
			}
			if !slices.Equal(slices.Sorted(slices.Values(tags)), slices.Sorted(slices.Values(names))) {
				t.Errorf("rule table members %q, typed struct members %q", names, tags)
			}
			props := slices.Sorted(func(yield func(string) bool) {
				for k := range s.Properties {
					if !yield(k) {
						return
					}
				}
			})
			if !slices.Equal(props, slices.Sorted(slices.Values(tags))) {
				t.Errorf("schema properties %q, typed struct members %q", props, tags)
			}
			if !slices.Equal(s.Required, names) {
				t.Errorf("schema required %q, want every member in rule order %q", s.Required, names)
			}
			if c, ok := s.If.Properties[tc.rule.status]; !ok || c.Const != admitted || !slices.Equal(s.If.Required, []string{tc.rule.status}) {
				t.Errorf("schema if: want %s const %q", tc.rule.status, admitted)
			}
			for _, m := range tc.rule.members {
				p := s.Properties[m.name]
				wantType := map[valueType]string{tString: "string", tStrings: "array", tBool: "boolean"}[m.typ]
				if p.Type != wantType {
					t.Errorf("%s: schema type %q, want %q", m.name, p.Type, wantType)
				}
				if !slices.Equal(p.Enum, m.enum) {
					t.Errorf("%s: schema enum %q, rule enum %q", m.name, p.Enum, m.enum)
				}
				if got := p.MinLength != nil && *p.MinLength == 1; got != m.nonEmpty {
					t.Errorf("%s: schema minLength 1 is %v, rule nonEmpty is %v", m.name, got, m.nonEmpty)
				}
				then, inThen := s.Then.Properties[m.name]
				if inThen != m.nonEmptyAdmitted {
					t.Errorf("%s: in schema then is %v, rule nonEmptyAdmitted is %v", m.name, inThen, m.nonEmptyAdmitted)
				}
				if inThen && m.name != "risk_classification" {
					min := then.MinLength
					if m.typ == tStrings {
						min = then.MinItems
					}
					if min == nil || *min != 1 {
						t.Errorf("%s: schema then does not require it to be set", m.name)
					}
				}
				if m.typ == tStrings && !p.Unique {
					t.Errorf("%s: schema lacks uniqueItems (duplicate-entry rule)", m.name)
				}
			}
		})
	}
}

func TestTargetSchemaGates(t *testing.T) {
	s := loadSchema(t, string(sotparse.RecordTargetAdmission))
	var actions []string
	for _, a := range s.Properties["forbidden_actions"].AllOf {
		if a.Contains != nil {
			actions = append(actions, a.Contains.Const.(string))
		}
	}
	if !slices.Equal(actions, RequiredForbiddenActions) {
		t.Errorf("schema requires forbidden actions %q, rule requires %q", actions, RequiredForbiddenActions)
	}
	if c := s.Then.Properties["risk_classification"].Const; c != AdmittedRisk {
		t.Errorf("schema then risk_classification const %v, want %q", c, AdmittedRisk)
	}
	if c := s.Properties["operator_outcome_required"].Const; c != true {
		t.Errorf("operator_outcome_required const %v, want true", c)
	}
	// The item patterns agree with the Go path rules on samples (glob
	// validity is the one rule a pattern cannot express).
	samples := []string{"src/", "README.md", "src/a.go", "/etc/passwd", "~/x", "../x", "a/../b", "a/..",
		"..", "a..b/c", "docs/**/*.md", ".env.*", "x[1]", ".", "./", "././", "", " src", "src ", `a\b`, ".github/workflows/"}
	for _, member := range []string{"allowed_paths", "forbidden_paths"} {
		items := s.Properties[member].Items
		for _, v := range samples {
			schemaOK := len(v) >= *items.MinLength
			for _, c := range items.AllOf {
				if regexp.MustCompile(c.Not.Pattern).MatchString(v) {
					schemaOK = false
				}
			}
			goOK := pathProblem(v, member == "allowed_paths") == ""
			if schemaOK != goOK {
				t.Errorf("%s entry %q: schema accepts it %v, rule accepts it %v", member, v, schemaOK, goOK)
			}
		}
	}
}

// TestCorpusRecordsSatisfySchema checks the corpus records against the
// schemas' required and property lists and enums.
func TestCorpusRecordsSatisfySchema(t *testing.T) {
	dir := filepath.Join(testcorpus.Require(t), ".sot", "03-PROTOCOLS")
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) == 0 {
		t.Fatalf("the corpus has no admission record in %s", dir)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var rec map[string]any
		if err := json.Unmarshal(b, &rec); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		kind := string(sotparse.RecordModelAdmission)
		if _, ok := rec["admission_status"]; ok {
			kind = string(sotparse.RecordTargetAdmission)
		}
		s := loadSchema(t, kind)
		for _, r := range s.Required {
			if _, ok := rec[r]; !ok {
				t.Errorf("%s: required member %q missing", filepath.Base(f), r)
			}
		}
		for k, v := range rec {
			p, ok := s.Properties[k]
			if !ok {
				t.Errorf("%s: member %q is not a schema property", filepath.Base(f), k)
				continue
			}
			if str, isStr := v.(string); isStr && p.Enum != nil && !slices.Contains(p.Enum, str) {
				t.Errorf("%s: %s %q not in enum %q", filepath.Base(f), k, str, p.Enum)
			}
		}
	}
}
