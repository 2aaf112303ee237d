package stage

import (
	"slices"
	"strings"
	"testing"
)

func TestDefaultLadder(t *testing.T) {
	tb := Default()
	if len(tb.Stages) != 6 {
		t.Fatalf("%d stages, want 6", len(tb.Stages))
	}
	for i, s := range tb.Stages {
		if s.Number != i+1 {
			t.Errorf("stage %d numbered %d", i+1, s.Number)
		}
		if s.ApprovalRequired && !s.HasGate(GateApproval) {
			t.Errorf("stage %d requires approval but has no approval gate", s.Number)
		}
		if i > 0 && !s.HasGate(GateEarlierStage) {
			t.Errorf("stage %d does not gate on the stage before", s.Number)
		}
		if s.NeedsRepo() != (s.Number >= 3) {
			t.Errorf("stage %d NeedsRepo %t", s.Number, s.NeedsRepo())
		}
	}
	if _, err := tb.Lookup(7); err == nil {
		t.Error("stage 7 exists")
	}
}

func TestParseConfig(t *testing.T) {
	tb, err := ParseConfig("sotvet.yaml", []byte("fail-on: error\nharness:\n  stages:\n    3:\n      required_failure_classes: [timeout]\n      approval_required: true\n"))
	if err != nil {
		t.Fatal(err)
	}
	s, _ := tb.Lookup(3)
	if !slices.Equal(s.RequiredFailureClasses, []string{"timeout"}) || !s.ApprovalRequired || !s.HasGate(GateApproval) {
		t.Errorf("stage 3 not overridden: %+v", s)
	}
	if tb.Source != "sotvet.yaml" {
		t.Errorf("source %q", tb.Source)
	}
	if d, _ := Default().Lookup(3); d.ApprovalRequired {
		t.Error("the default table was changed")
	}
	for _, tc := range []struct{ in, want string }{
		{"harness:\n  stages:\n    9: {}\n", "sotvet.yaml:3:5: harness.stages: \"9\" is not a stage"},
		{"harness:\n  stages:\n    2:\n      mutation_scope: wide\n", "sotvet.yaml:4:7: harness.stages.2: unknown key \"mutation_scope\""},
		{"harness:\n  stages:\n    2:\n      entry_gates: [nope]\n", "sotvet.yaml:4:21: unknown value \"nope\""},
		{"harness:\n  stages:\n    2:\n      approval_required: maybe\n", "sotvet.yaml:4:26: want true or false"},
		{"harness:\n  stagez: {}\n", "sotvet.yaml:2:3: harness: unknown key \"stagez\""},
	} {
		_, err := ParseConfig("sotvet.yaml", []byte(tc.in))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want prefix %q", tc.in, err, tc.want)
		}
	}
}
