package authority

import (
	"os"
	"testing"

	"github.com/svrnty/sotvet/internal/testcorpus"
)

// TestCorpusCandidates lists every pattern match over the corpus with the
// reason it is or is not a claim, to review the negation rules:
//
//	SOTVET_TRACE=1 go test ./checks/authority -run TestCorpusCandidates -v
//
// SOTVET_SCOPE sets -scope ("**" includes CONTEXT.md), SOTVET_NOMENTION=1
// judges phrase lists and negating sections as if they were stated, and
// SOTVET_CLAIMS names a YAML file of rules replacing the built-in ones.
func TestCorpusCandidates(t *testing.T) {
	if os.Getenv("SOTVET_TRACE") == "" {
		t.Skip("set SOTVET_TRACE=1 to list the candidates")
	}
	dir := testcorpus.Require(t)
	if s := os.Getenv("SOTVET_SCOPE"); s != "" {
		old := scope.String()
		_ = scope.Set(s)
		defer func() { _ = scope.Set(old) }()
	}
	ignoreMentions = os.Getenv("SOTVET_NOMENTION") != ""
	defer func() { ignoreMentions = false }()
	if f := os.Getenv("SOTVET_CLAIMS"); f != "" {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		old := claims.String()
		if err := claims.Set(string(b)); err != nil {
			t.Fatal(err)
		}
		defer func() { _ = claims.Set(old) }()
	}
	var ks []candidate
	traceCandidates = func(k candidate) { ks = append(ks, k) }
	defer func() { traceCandidates = nil }()
	ws, diags := runOn(t, dir)
	for _, k := range ks {
		p := k.doc.File.Tok.Position(k.pos)
		why := k.why
		if why == "" {
			why = "CLAIM"
		}
		t.Logf("%s:%d: [%s/%s] %s | match %q | %s", k.doc.Path, p.Line, k.claim.ID, k.scope, why, k.match, k.text)
	}
	for _, d := range diags {
		t.Logf("FINDING %s: [%s] %s", ws.Fset.Position(d.Pos), d.Category, d.Message)
	}
}
