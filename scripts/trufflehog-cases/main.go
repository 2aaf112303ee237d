//go:build devtools

// Command trufflehog-cases makes TruffleHog's detector pattern tests write
// their cases: in each Test*_Pattern function of DIR/pkg/detectors whose
// table has name, input and want fields, it inserts a call that appends
// the case as a JSON line to $TH_DUMP, and it adds that function to the
// detectors package. scripts/trufflehog-cases.sh runs it on a copy of a
// TruffleHog source tree and then runs the tests; the cases are a
// labelled set sotvet did not write (a positive wants a value, a negative
// none), measured by TestTruffleHogPatterns in secrets/. TruffleHog is
// AGPL-3.0: nothing of it is kept in this repository, only this program
// that edits a copy outside it.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/ast/astutil"
)

const detectorsPkg = "github.com/trufflesecurity/trufflehog/v3/pkg/detectors"

// dumpFunc is the function the edited tests call; one line per case, under
// a lock (the cases of a package's tests may run in parallel) and with
// O_APPEND (the packages' test binaries run at once).
const dumpFunc = `package detectors

import (
	"encoding/json"
	"os"
	"sync"
)

var dumpMu sync.Mutex

// DumpCase appends one pattern-test case to $TH_DUMP as a JSON line.
func DumpCase(pkg, test, name, input string, want any) {
	path := os.Getenv("TH_DUMP")
	if path == "" {
		return
	}
	dumpMu.Lock()
	defer dumpMu.Unlock()
	b, err := json.Marshal(map[string]any{"pkg": pkg, "test": test, "name": name, "input": input, "want": want})
	if err != nil {
		return
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	f.Write(append(b, '\n'))
}
`

func main() {
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: trufflehog-cases DIR (a copy of TruffleHog's source; edited in place)")
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	det := filepath.Join(flag.Arg(0), "pkg", "detectors")
	if _, err := os.Stat(filepath.Join(det, "detectors.go")); err != nil {
		fmt.Fprintf(os.Stderr, "trufflehog-cases: %s is not TruffleHog's detectors package: %v\n", det, err)
		os.Exit(1)
	}
	n := 0
	err := filepath.WalkDir(det, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, "_test.go") || strings.HasSuffix(p, "_integration_test.go") {
			return err
		}
		ok, err := rewrite(p)
		if ok {
			n++
		}
		return err
	})
	if err == nil {
		err = os.WriteFile(filepath.Join(det, "zz_dump_case.go"), []byte(dumpFunc), 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "trufflehog-cases:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "trufflehog-cases: %d test files edited\n", n)
}

// caseTable reports whether fn assigns tests a slice of structs with
// name, input and want fields (the pattern tests' shape).
func caseTable(fn *ast.FuncDecl) bool {
	found := false
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 {
			return true
		}
		if id, ok := as.Lhs[0].(*ast.Ident); !ok || id.Name != "tests" {
			return true
		}
		cl, ok := as.Rhs[0].(*ast.CompositeLit)
		if !ok {
			return true
		}
		at, ok := cl.Type.(*ast.ArrayType)
		if !ok {
			return true
		}
		st, ok := at.Elt.(*ast.StructType)
		if !ok {
			return true
		}
		fields := map[string]bool{}
		for _, f := range st.Fields.List {
			for _, nm := range f.Names {
				fields[nm.Name] = true
			}
		}
		if fields["name"] && fields["input"] && fields["want"] {
			found = true
		}
		return true
	})
	return found
}

func rewrite(path string) (bool, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
	if err != nil {
		return false, fmt.Errorf("%s: %w", path, err)
	}
	changed := false
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Body == nil || !strings.HasPrefix(fn.Name.Name, "Test") || !strings.Contains(fn.Name.Name, "Pattern") || !caseTable(fn) {
			continue
		}
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			rs, ok := n.(*ast.RangeStmt)
			if !ok {
				return true
			}
			x, okX := rs.X.(*ast.Ident)
			v, okV := rs.Value.(*ast.Ident)
			if !okX || x.Name != "tests" || !okV {
				return true
			}
			field := func(name string) ast.Expr {
				return &ast.SelectorExpr{X: ast.NewIdent(v.Name), Sel: ast.NewIdent(name)}
			}
			call := &ast.ExprStmt{X: &ast.CallExpr{
				Fun: &ast.SelectorExpr{X: ast.NewIdent("detectors"), Sel: ast.NewIdent("DumpCase")},
				Args: []ast.Expr{
					&ast.BasicLit{Kind: token.STRING, Value: fmt.Sprintf("%q", f.Name.Name)},
					&ast.BasicLit{Kind: token.STRING, Value: fmt.Sprintf("%q", fn.Name.Name)},
					field("name"), field("input"), field("want"),
				},
			}}
			rs.Body.List = append([]ast.Stmt{call}, rs.Body.List...)
			changed = true
			return true
		})
	}
	if !changed {
		return false, nil
	}
	astutil.AddImport(fset, f, detectorsPkg)
	var buf bytes.Buffer
	if err := printer.Fprint(&buf, fset, f); err != nil {
		return false, fmt.Errorf("%s: %w", path, err)
	}
	return true, os.WriteFile(path, buf.Bytes(), 0o644)
}
