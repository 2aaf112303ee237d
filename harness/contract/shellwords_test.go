package contract

import (
	"slices"
	"strings"
	"testing"
)

func TestSplitWords(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		want []string
	}{
		{"go test ./...", []string{"go", "test", "./..."}},
		{"grep -qx 'hello, world' hello.txt", []string{"grep", "-qx", "hello, world", "hello.txt"}},
		{`grep -qx "hello, world" hello.txt`, []string{"grep", "-qx", "hello, world", "hello.txt"}},
		{`printf "say \"hi\" \\ now"`, []string{"printf", `say "hi" \ now`}},
		{`echo it\'s a\ b`, []string{"echo", "it's", "a b"}},
		{`echo 'a'"b"c ""`, []string{"echo", "abc", ""}},
		{`go test -run 'Test[AB]*' ./x`, []string{"go", "test", "-run", "Test[AB]*", "./x"}},
		{`echo \*.go '{a,b}' "$"`, []string{"echo", "*.go", "{a,b}", "$"}},
		{"go \\\n  vet", []string{"go", "vet"}},
	} {
		got, need, err := splitWords(tc.cmd)
		if err != nil || need != nil || !slices.Equal(got, tc.want) {
			t.Errorf("splitWords(%q) = %q, %v, %v; want %q", tc.cmd, got, need, err, tc.want)
		}
	}
}

func TestSplitWordsNeedsShell(t *testing.T) {
	for _, tc := range []struct {
		cmd, what string
		off       int
	}{
		{"go test ./... | tee log", "a pipe (|)", 14},
		{"go vet && go test", "&& (&&)", 7},
		{"go test || true", "|| (||)", 8},
		{"go test > log", "a redirection (>)", 8},
		{"go test 2>&1", "a redirection (>&)", 9},
		{"go test $PKG", "a variable ($PKG)", 8},
		{`go test "${PKG}"`, "a variable ($PKG)", 9},
		{"go test $(go list)", "a command substitution", 8},
		{"go test `go list`", "a command substitution", 8},
		{"gofmt -l *.go", "a glob (*)", 9},
		{"ls a?b", "a glob (?)", 4},
		{"ls [ab]", "a glob ([)", 3},
		{"ls ~/x", "a tilde expansion (~)", 3},
		{"cp x{a,b}", "a brace expansion ({,})", 4},
		{"go vet; go test", "a command list (; or a new line)", 8},
		{"go vet\ngo test", "a command list (; or a new line)", 7},
		{"FOO=1 go test", "a variable assignment", 0},
		{"(cd x && go test)", "a subshell ( )", 0},
		{"! go test", "a negation (!)", 0},
		{"go test &", "a background job (&)", 8},
		{"go test # all", "a comment", 8},
		{"[[ -f x ]]", "a test [[ ]]", 0},
		{"echo $'a'", "an ANSI-C string ($'...')", 5},
		{"cat <(ls)", "a process substitution", 4},
		{"echo $((1+2))", "an arithmetic expansion", 5},
		{"export A=b", "a shell builtin (export)", 0},
	} {
		got, need, err := splitWords(tc.cmd)
		if err != nil || need == nil || need.what != tc.what || need.off != tc.off {
			t.Errorf("splitWords(%q) = %q, %+v, %v; want %s at %d", tc.cmd, got, need, err, tc.what, tc.off)
		}
	}
}

func TestSplitWordsUnterminated(t *testing.T) {
	for _, cmd := range []string{"grep -qx 'hello, world hello.txt", `echo "a`, "echo `a", `echo a\`} {
		_, need, err := splitWords(cmd)
		if need != nil || (err == nil && !strings.HasSuffix(cmd, `\`)) {
			t.Errorf("splitWords(%q) = %+v, %v; want a syntax error", cmd, need, err)
		}
	}
}

func TestCommandPositions(t *testing.T) {
	head := "id: demo\ntitle: Demo\ntask: Do it.\nmutation_mode: copied-fixture\nallowed_writes: [a.go]\nforbidden_paths: []\nforbidden_actions: [push]\nverification:\n"
	for _, tc := range []struct{ item, want string }{
		{"  - go test ./... | tee log\n", "case.yaml:9:19: verification: \"go test ./... | tee log\" needs a shell for a pipe (|)"},
		{"  - 'go vet && true'\n", "case.yaml:9:13: verification: \"go vet && true\" needs a shell for && (&&)"},
		{"  - \"gofmt -l *.go\"\n", "case.yaml:9:15: verification: \"gofmt -l *.go\" needs a shell for a glob (*)"},
		{"  - \"ls\\t*.go\"\n", "case.yaml:9:5: verification: \"ls\\t*.go\" needs a shell for a glob (*)"},
		{"  - |\n    ls *.go\n", "case.yaml:9:5: verification: \"ls *.go\\n\" needs a shell for a glob (*)"},
		{"  - grep -qx 'hello, world hello.txt\n", "case.yaml:9:14: verification: \"grep -qx 'hello, world hello.txt\" does not split into words: reached EOF without closing quote `'`"},
		{"  - [sh, -c, 'go vet | cat']\n", ""},
		{"  - grep -qx 'hello, world' hello.txt\n", ""},
	} {
		c, errs := Parse("case.yaml", []byte(head+tc.item))
		if tc.want == "" {
			if len(errs) > 0 {
				t.Errorf("%q: %v", tc.item, errs)
			}
			continue
		}
		if len(errs) != 1 || !strings.HasPrefix(errs[0].Error(), tc.want) {
			t.Errorf("%q:\n got %v\nwant %s", tc.item, errs, tc.want)
		}
		if c != nil && len(c.Verification) != 0 {
			t.Errorf("%q: refused command kept: %v", tc.item, c.Verification)
		}
		if len(errs) == 1 && !strings.Contains(errs[0].Msg, "does not split") && !strings.Contains(errs[0].Msg, "[sh, -c, ...]") {
			t.Errorf("%q: message does not point at the list form or sh -c: %s", tc.item, errs[0].Msg)
		}
	}
}
