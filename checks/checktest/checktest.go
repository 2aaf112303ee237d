// Package checktest runs checks over testdata workspaces and compares their
// findings with the expectations written in the workspace's WANT file.
//
// Each non-blank, non-# line of WANT is
//
//	path:line: check: regexp
//
// Every finding must match one expectation on its file and line, and every
// expectation must be matched by exactly one finding.
package checktest

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks"
)

type want struct {
	file  string
	line  int
	check string
	re    *regexp.Regexp
	text  string
	hit   bool
}

// Run runs the analyzers over the workspace in dir and checks the findings
// against dir/WANT. It returns the findings for further assertions.
func Run(t *testing.T, dir string, as ...*analysis.Analyzer) []checks.Finding {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	res, _, err := checks.Run(checks.Options{Root: abs, FS: os.DirFS(abs), Analyzers: as})
	if err != nil {
		t.Fatalf("checks.Run(%s): %v", dir, err)
	}
	wants := readWant(t, filepath.Join(abs, "WANT"))
	for _, f := range res.Findings {
		matched := false
		for _, w := range wants {
			if !w.hit && w.file == f.File && w.line == f.Line && w.check == f.Check && w.re.MatchString(f.Message) {
				w.hit, matched = true, true
				break
			}
		}
		if !matched {
			t.Errorf("%s: unexpected finding %s:%d:%d: [%s] %s", dir, f.File, f.Line, f.Col, f.Check, f.Message)
		}
	}
	for _, w := range wants {
		if !w.hit {
			t.Errorf("%s: no finding matched WANT %s:%d: %s: %s", dir, w.file, w.line, w.check, w.text)
		}
	}
	return res.Findings
}

func readWant(t *testing.T, name string) []*want {
	t.Helper()
	f, err := os.Open(name)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []*want
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.SplitN(line, ": ", 3)
		loc := strings.Split(parts[0], ":")
		if len(parts) != 3 || len(loc) != 2 {
			t.Fatalf("%s:%d: want path:line: check: regexp", name, n)
		}
		ln, err := strconv.Atoi(loc[1])
		if err != nil {
			t.Fatalf("%s:%d: bad line number", name, n)
		}
		re, err := regexp.Compile(parts[2])
		if err != nil {
			t.Fatalf("%s:%d: %v", name, n, err)
		}
		out = append(out, &want{file: loc[0], line: ln, check: parts[1], re: re, text: parts[2]})
	}
	return out
}
