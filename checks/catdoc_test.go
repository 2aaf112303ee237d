package checks

import (
	"strings"
	"testing"
)

// Every category has a text for 'sotvet explain check/category'.
func TestCategoryDocAll(t *testing.T) {
	for check, cats := range categories {
		for _, c := range cats {
			d := CategoryDoc(check, c)
			if !strings.Contains(d, c) {
				t.Errorf("%s/%s: %q", check, c, d)
			}
		}
	}
	if d := CategoryDoc("refs", "nope"); d != "" {
		t.Errorf("unknown category documented: %q", d)
	}
}
