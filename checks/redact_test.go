package checks_test

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks"
	"github.com/svrnty/sotvet/sotparse"
)

// quoter is a check that quotes a shortened piece of the token on its
// line, as a check shortening a long quote would.
var quoter = &analysis.Analyzer{
	Name:     "quoter",
	Doc:      "quotes the first 20 bytes of every line holding ghp_",
	Requires: []*analysis.Analyzer{sotparse.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		ws := pass.ResultOf[sotparse.Analyzer].(*sotparse.Workspace)
		for _, f := range ws.Files {
			if i := bytes.Index(f.Content, []byte("ghp_")); i >= 0 {
				pass.Reportf(f.Pos(i), "quoted %q", f.Content[i:i+20])
			}
		}
		return nil, nil
	},
}

// A piece of a secret quoted on its own line is masked whether the secrets
// check ran (the redactor reuses its scans) or not (the redactor scans).
func TestRedactionWithAndWithoutTheSecretsCheck(t *testing.T) {
	token := "gh" + "p_" + "u8jzQ2mXv7LpR4tN9bWc3YhK6sDf1GaE5oZi" // a fake
	fsys := fstest.MapFS{
		".sot/A-EVIDENCE.md": {Data: []byte("---\nname: a\n---\n\n# A\n\n- token used: `" + token + "`\n")},
	}
	messages := func(analyzers ...*analysis.Analyzer) []string {
		res, _, err := checks.Run(checks.Options{Root: "/ws", FS: fsys, Analyzers: analyzers})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, f := range res.Findings {
			if f.Check == "quoter" {
				out = append(out, f.Message)
			}
		}
		return out
	}
	alone := messages(quoter)
	with := messages(quoter, checks.Lookup("secrets"))
	if len(alone) != 1 {
		t.Fatalf("quoter findings: %q, want one", alone)
	}
	if strings.Contains(alone[0], token[:minQuoted]) {
		t.Errorf("without the secrets check, the quote is not masked: %q", alone[0])
	}
	if !reflect.DeepEqual(alone, with) {
		t.Errorf("with the secrets check: %q, without: %q", with, alone)
	}
}

const minQuoted = 8

// TestMaskMiddles: a quote of the middle of a secret (a line of a key's
// body) is masked; a quote of its start is left to maskPieces, and text
// that is not the secret's stays.
func TestMaskMiddles(t *testing.T) {
	secret := "-----BEGIN KEY-----\nQUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo\nMTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1ub3A\n-----END KEY-----"
	for _, c := range []struct{ msg, want string }{
		{`line repeats the line before it: "MTIzNDU2Nzg5MGFi..."`, `line repeats the line before it: "****..."`},
		{`quotes "QUJDREVGR0hJSktM" and "MTIzNDU2"`, `quotes "****" and "****"`},
		{`the header "-----BEGIN KEY-----" is its start`, `the header "-----BEGIN KEY-----" is its start`},
		{`nothing of it here`, `nothing of it here`},
		{`a short "QUJDREV" piece`, `a short "QUJDREV" piece`},
	} {
		if got := checks.MaskMiddles(c.msg, secret); got != c.want {
			t.Errorf("maskMiddles(%q) = %q, want %q", c.msg, got, c.want)
		}
	}
}
