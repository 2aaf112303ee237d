//go:build devtools

// Command thirdpartygen converts the Nosey Parker and Kingfisher rule files
// checked in under secrets/rules/third_party into Go data the secrets
// package compiles in, and writes the import report: every rule not taken
// and why, every translation of an expression to RE2.
//
// A rule whose positive examples the existing engine (built-in and gitleaks
// rules) already finds, every one, is not taken: it would only add cost;
// unless it also finds its secret standing alone, on a line of its own,
// and none of sotvet's and gitleaks' rules does.
//
// Usage (from secrets/, see the go:generate line in gitleaks.go):
//
//	go run -tags devtools ./internal/thirdpartygen -o thirdparty_rules.go -report rules/third_party/IMPORT.md
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/svrnty/sotvet/secrets"
	"github.com/svrnty/sotvet/secrets/internal/thirdparty"
)

func main() {
	out := flag.String("o", "thirdparty_rules.go", "output `file`")
	report := flag.String("report", "rules/third_party/IMPORT.md", "import report `file`")
	root := flag.String("root", "rules/third_party", "`directory` of the vendored rule files")
	flag.Parse()
	cov, err := secrets.CoveredBy(secrets.BaseRules())
	var alone thirdparty.Covered
	if err == nil {
		alone, err = secrets.CoveredBy(secrets.OwnRules())
	}
	if err == nil {
		var src, rep []byte
		src, rep, err = thirdparty.Generate(*root, cov, alone)
		if err == nil {
			err = os.WriteFile(*out, src, 0o644)
		}
		if err == nil {
			err = os.WriteFile(*report, rep, 0o644)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "thirdpartygen:", err)
		os.Exit(1)
	}
}
