package checks_test

import (
	"path/filepath"
	"testing"

	"github.com/svrnty/sotvet/checks/checktest"
	"github.com/svrnty/sotvet/checks/registry"
)

// TestCleanCorpus runs every check over testdata/clean-corpus, a workspace
// built like the user's (issue sequences with dated evidence journals that
// record an item as blocked and later validated, a closeout, an admission
// record the issue document describes, one frontmatter schema) in which
// every statement agrees with every other: any finding is a false alarm.
func TestCleanCorpus(t *testing.T) {
	dir := filepath.Join("..", "testdata", "clean-corpus")
	res, _ := checktest.Result(t, dir, registry.All...)
	for _, f := range res.Findings {
		t.Errorf("false alarm: %s:%d:%d: [%s/%s] %s", f.File, f.Line, f.Col, f.Check, f.Category, f.Message)
	}
	if res.Files != 7 {
		t.Errorf("read %d files; the clean corpus has 7", res.Files)
	}
}
