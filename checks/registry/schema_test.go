package registry

import (
	"slices"
	"testing"

	"github.com/svrnty/sotvet/checks/workboard"
)

func TestCurrentSchema(t *testing.T) {
	s := CurrentSchema()
	if !slices.Equal(s.Statuses, []string{"draft", "candidate", "validated", "blocked"}) {
		t.Errorf("statuses: %v", s.Statuses)
	}
	if !slices.Equal(s.AllowedPromotion, []string{"not-promoted"}) {
		t.Errorf("allowed promotion: %v", s.AllowedPromotion)
	}
	if !slices.Contains(s.RequiredKeys, "name|title") || !slices.Contains(s.RequiredKeys, "lifecycle_classification") {
		t.Errorf("required keys: %v", s.RequiredKeys)
	}
	f := workboard.Analyzer.Flags.Lookup("extra-statuses")
	old := f.Value.String()
	t.Cleanup(func() { _ = f.Value.Set(old) })
	if err := f.Value.Set("parked"); err != nil {
		t.Fatal(err)
	}
	if s := CurrentSchema(); !slices.Contains(s.Statuses, "parked") {
		t.Errorf("a configured status is not in the schema: %v", s.Statuses)
	}
}
