package registry

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/checks/internal/doccheck"
	"github.com/svrnty/sotvet/checks/prose"
)

func TestRegistered(t *testing.T) {
	if !slices.Equal(checks.Registered(), All) {
		t.Errorf("checks.Registered() = %v, want the registry's All", checks.Registered())
	}
	if !slices.IsSortedFunc(All, func(a, b *analysis.Analyzer) int { return strings.Compare(a.Name, b.Name) }) {
		t.Error("All is not in name order")
	}
	for _, a := range All {
		if checks.Lookup(a.Name) != a {
			t.Errorf("Lookup(%q) does not find it", a.Name)
		}
	}
	for a := range doccheck.All() {
		if !slices.Contains(All, a) {
			t.Errorf("%s registers a DocCheck but is not in All", a.Name)
		}
	}
	if _, ok := checks.DefaultSeverity["prose/"+prose.SkippedRule]; !ok {
		t.Errorf("checks.DefaultSeverity has no prose/%s", prose.SkippedRule)
	}
}

// TestDriverImportsNoCheck keeps the driver apart from the checks, so that
// a check's tests link that check alone. The secrets check is the
// exception: every run redacts secrets from its findings with its scanner.
func TestDriverImportsNoCheck(t *testing.T) {
	names, err := filepath.Glob("../*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range f.Imports {
			path, _ := strconv.Unquote(im.Path.Value)
			rest, ok := strings.CutPrefix(path, "github.com/svrnty/sotvet/checks/")
			if !ok || strings.HasPrefix(rest, "internal/") || rest == "secrets" {
				continue
			}
			t.Errorf("%s imports %s: the driver must not import a check (register it in checks/registry)", name, path)
		}
	}
}
