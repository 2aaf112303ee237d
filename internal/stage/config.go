package stage

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"

	yaml "go.yaml.in/yaml/v4"
)

// ConfigError is a problem in sotvet.yaml's harness.stages, at a position.
type ConfigError struct {
	Path      string
	Line, Col int
	Msg       string
}

func (e *ConfigError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Col, e.Msg)
}

// LoadConfig reads the ladder from the sotvet.yaml at path: the default
// table with harness.stages applied. A missing file is the default table.
func LoadConfig(path string) (*Table, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return Default(), nil
	}
	if err != nil {
		return nil, err
	}
	return ParseConfig(path, data)
}

// ParseConfig applies sotvet.yaml's harness.stages to the default table:
//
//	harness:
//	  stages:
//	    5:
//	      entry_gates: [mutation_scope, earlier_stage_validated, approval]
//	      required_artifacts: [source-non-mutation.json]
//	      required_failure_classes: [failed-tests]
//	      approval_required: true
//	      operator_outcome_required: false
//
// Only these keys may be set; a stage's mutation scope is fixed. Unknown
// keys, stages, gates and artifacts are errors with their position.
func ParseConfig(path string, data []byte) (*Table, error) {
	t := Default()
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if doc.Kind == 0 || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return t, nil
	}
	errAt := func(n *yaml.Node, format string, args ...any) error {
		return &ConfigError{Path: path, Line: n.Line, Col: n.Column, Msg: fmt.Sprintf(format, args...)}
	}
	harness := lookup(doc.Content[0], "harness")
	if harness == nil {
		return t, nil
	}
	if harness.Kind != yaml.MappingNode {
		return nil, errAt(harness, "harness: want a mapping")
	}
	for i := 0; i+1 < len(harness.Content); i += 2 {
		switch k := harness.Content[i]; k.Value {
		case "stages":
		case "provider_env":
			if err := providerEnv(harness.Content[i+1], t, errAt); err != nil {
				return nil, err
			}
		default:
			return nil, errAt(k, "harness: unknown key %q (want stages or provider_env)", k.Value)
		}
	}
	stages := lookup(harness, "stages")
	if stages == nil {
		return t, nil
	}
	if stages.Kind != yaml.MappingNode {
		return nil, errAt(stages, "harness.stages: want a mapping of stage number to settings")
	}
	t.Source = path
	for i := 0; i+1 < len(stages.Content); i += 2 {
		k, v := stages.Content[i], stages.Content[i+1]
		n, err := strconv.Atoi(k.Value)
		if err != nil || n < 1 || n > len(t.Stages) {
			return nil, errAt(k, "harness.stages: %q is not a stage (want 1 to %d)", k.Value, len(t.Stages))
		}
		if v.Kind != yaml.MappingNode {
			return nil, errAt(v, "harness.stages.%d: want a mapping", n)
		}
		s := &t.Stages[n-1]
		for j := 0; j+1 < len(v.Content); j += 2 {
			fk, fv := v.Content[j], v.Content[j+1]
			var err error
			switch fk.Value {
			case "entry_gates":
				s.EntryGates, err = list(fv, Gates, errAt)
			case "required_artifacts":
				s.RequiredArtifacts, err = list(fv, Artifacts, errAt)
			case "required_failure_classes":
				s.RequiredFailureClasses, err = list(fv, nil, errAt)
			case "approval_required":
				s.ApprovalRequired, err = boolean(fv, errAt)
			case "operator_outcome_required":
				s.OperatorOutcomeRequired, err = boolean(fv, errAt)
			default:
				err = errAt(fk, "harness.stages.%d: unknown key %q (want entry_gates, required_artifacts, required_failure_classes, approval_required or operator_outcome_required)", n, fk.Value)
			}
			if err != nil {
				return nil, err
			}
		}
		// A stage that requires approval always checks for it.
		if s.ApprovalRequired && !s.HasGate(GateApproval) {
			s.EntryGates = append(s.EntryGates, GateApproval)
		}
	}
	return t, nil
}

func lookup(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func list(n *yaml.Node, known []string, errAt func(*yaml.Node, string, ...any) error) ([]string, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, errAt(n, "want a list")
	}
	out := []string{}
	for _, e := range n.Content {
		if e.Kind != yaml.ScalarNode || e.Value == "" {
			return nil, errAt(e, "want a non-empty string")
		}
		if known != nil && !slices.Contains(known, e.Value) {
			return nil, errAt(e, "unknown value %q (want one of %v)", e.Value, known)
		}
		if !slices.Contains(out, e.Value) {
			out = append(out, e.Value)
		}
	}
	return out, nil
}

func boolean(n *yaml.Node, errAt func(*yaml.Node, string, ...any) error) (bool, error) {
	if n.Kind == yaml.ScalarNode {
		switch n.Value {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
	}
	return false, errAt(n, "want true or false")
}

// envName is an environment variable name provider_env may give.
var envName = regexp.MustCompile(`^[A-Z_][A-Z0-9_]*$`)

// providerEnv reads harness.provider_env: the names (never the values) of
// the variables holding the provider's base URL and API key.
func providerEnv(n *yaml.Node, t *Table, errAt func(*yaml.Node, string, ...any) error) error {
	if n.Kind != yaml.MappingNode {
		return errAt(n, "harness.provider_env: want a mapping of base_url and api_key variable names")
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		var dst *string
		switch k.Value {
		case "base_url":
			dst = &t.BaseURLEnv
		case "api_key":
			dst = &t.APIKeyEnv
		default:
			return errAt(k, "harness.provider_env: unknown key %q (want base_url or api_key)", k.Value)
		}
		if v.Kind != yaml.ScalarNode || !envName.MatchString(v.Value) {
			return errAt(v, "harness.provider_env.%s: want an environment variable name such as SOTVET_PROVIDER_BASE_URL", k.Value)
		}
		*dst = v.Value
	}
	return nil
}
