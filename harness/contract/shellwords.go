package contract

import (
	"errors"
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v4"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/pattern"
	"mvdan.cc/sh/v3/syntax"
)

// A verification command written as a string is split into words by the
// POSIX shell's quoting rules (single and double quotes, backslash escapes)
// and then run without a shell. Anything that would need a shell to mean
// what it says (a pipe, a redirection, $VAR, a glob, &&, a command
// substitution, ...) is refused rather than passed to the program as
// characters: the author writes the list form, or an explicit sh -c.
//
// The parser is mvdan.cc/sh's, in its bash variant: bash is a superset of
// POSIX sh, so every construct either shell would expand is recognised.

// shellNeed says why a command string needs a shell: what was found and
// its byte offset in the string.
type shellNeed struct {
	what string
	off  int
}

// splitWords splits a command string into its argument vector. It returns
// the words, or the first construct that needs a shell, or a syntax error
// (an unterminated quote) with its offset.
func splitWords(cmd string) ([]string, *shellNeed, error) {
	p := syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(true))
	f, err := p.Parse(strings.NewReader(cmd), "")
	if err != nil {
		return nil, nil, err
	}
	if len(f.Stmts) == 0 {
		if len(f.Last) > 0 {
			return nil, &shellNeed{"a comment", int(f.Last[0].Pos().Offset())}, nil
		}
		return nil, nil, nil
	}
	if len(f.Stmts) > 1 {
		return nil, &shellNeed{"a command list (; or a new line)", int(f.Stmts[1].Pos().Offset())}, nil
	}
	st := f.Stmts[0]
	switch {
	case len(st.Comments) > 0:
		return nil, &shellNeed{"a comment", int(st.Comments[0].Pos().Offset())}, nil
	case len(f.Last) > 0:
		return nil, &shellNeed{"a comment", int(f.Last[0].Pos().Offset())}, nil
	case st.Negated:
		return nil, &shellNeed{"a negation (!)", int(st.Pos().Offset())}, nil
	case st.Background:
		return nil, &shellNeed{"a background job (&)", int(st.Semicolon.Offset())}, nil
	case st.Coprocess:
		return nil, &shellNeed{"a coprocess", int(st.Pos().Offset())}, nil
	case len(st.Redirs) > 0:
		r := st.Redirs[0]
		return nil, &shellNeed{fmt.Sprintf("a redirection (%s)", r.Op), int(r.OpPos.Offset())}, nil
	}
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok {
		return nil, describeCmd(st.Cmd), nil
	}
	if len(call.Assigns) > 0 {
		return nil, &shellNeed{"a variable assignment", int(call.Assigns[0].Pos().Offset())}, nil
	}
	argv := make([]string, 0, len(call.Args))
	for _, w := range call.Args {
		if need := wordNeed(w); need != nil {
			return nil, need, nil
		}
		// Quote removal only: with an empty config nothing is read from
		// the environment or the file system, and wordNeed has refused
		// every part that would expand. A fresh one each time: given nil,
		// expand prepares a package-level config in place, a data race
		// when cases are loaded concurrently (matrix, compare).
		fields, err := expand.Fields(&expand.Config{}, w)
		if err != nil || len(fields) != 1 {
			return nil, &shellNeed{"a shell expansion", int(w.Pos().Offset())}, nil
		}
		argv = append(argv, fields[0])
	}
	return argv, nil, nil
}

// describeCmd names a compound command that is not a simple call.
func describeCmd(c syntax.Command) *shellNeed {
	off := int(c.Pos().Offset())
	switch c := c.(type) {
	case *syntax.BinaryCmd:
		what := "an operator"
		switch c.Op {
		case syntax.Pipe, syntax.PipeAll:
			what = "a pipe"
		case syntax.AndStmt:
			what = "&&"
		case syntax.OrStmt:
			what = "||"
		}
		return &shellNeed{fmt.Sprintf("%s (%s)", what, c.Op), int(c.OpPos.Offset())}
	case *syntax.Subshell:
		return &shellNeed{"a subshell ( )", off}
	case *syntax.Block:
		return &shellNeed{"a block { }", off}
	case *syntax.TestClause:
		return &shellNeed{"a test [[ ]]", off}
	case *syntax.DeclClause:
		return &shellNeed{"a shell builtin (" + c.Variant.Value + ")", off}
	case *syntax.FuncDecl:
		return &shellNeed{"a function definition", off}
	case *syntax.TimeClause:
		return &shellNeed{"a time clause", off}
	}
	return &shellNeed{"shell control flow", off}
}

// wordNeed returns why a word needs a shell, or nil when it is only
// literal text and quotes.
func wordNeed(w *syntax.Word) *shellNeed {
	for i, part := range w.Parts {
		off := int(part.Pos().Offset())
		switch part := part.(type) {
		case *syntax.Lit:
			if i == 0 && strings.HasPrefix(part.Value, "~") {
				return &shellNeed{"a tilde expansion (~)", off}
			}
			if j := globMeta(part.Value); j >= 0 {
				return &shellNeed{fmt.Sprintf("a glob (%c)", part.Value[j]), off + j}
			}
			if j := braceExpansion(part.Value); j >= 0 {
				return &shellNeed{"a brace expansion ({,})", off + j}
			}
		case *syntax.SglQuoted:
			if part.Dollar {
				return &shellNeed{"an ANSI-C string ($'...')", off}
			}
		case *syntax.DblQuoted:
			if part.Dollar {
				return &shellNeed{"a translated string ($\"...\")", off}
			}
			for _, in := range part.Parts {
				if _, ok := in.(*syntax.Lit); !ok {
					return partNeed(in)
				}
			}
		default:
			return partNeed(part)
		}
	}
	return nil
}

// partNeed names an expansion inside a word.
func partNeed(p syntax.WordPart) *shellNeed {
	off := int(p.Pos().Offset())
	switch p := p.(type) {
	case *syntax.ParamExp:
		name := "$"
		if p.Param != nil {
			name += p.Param.Value
		}
		return &shellNeed{"a variable (" + name + ")", off}
	case *syntax.CmdSubst:
		return &shellNeed{"a command substitution", off}
	case *syntax.ArithmExp:
		return &shellNeed{"an arithmetic expansion", off}
	case *syntax.ProcSubst:
		return &shellNeed{"a process substitution", off}
	case *syntax.ExtGlob:
		return &shellNeed{"an extended glob", off}
	}
	return &shellNeed{"a shell expansion", off}
}

// globMeta returns the offset of the first unescaped glob character in an
// unquoted literal, or -1.
func globMeta(lit string) int {
	if !pattern.HasMeta(lit, 0) {
		return -1
	}
	for i := 0; i < len(lit); i++ {
		switch lit[i] {
		case '\\':
			i++
		case '*', '?', '[':
			return i
		}
	}
	return -1
}

// braceExpansion returns the offset of an unescaped "{" that bash would
// expand ({a,b} or {1..3}), or -1.
func braceExpansion(lit string) int {
	for i := 0; i < len(lit); i++ {
		switch lit[i] {
		case '\\':
			i++
		case '{':
			rest := lit[i+1:]
			end := strings.IndexByte(rest, '}')
			if end > 0 && (strings.Contains(rest[:end], ",") || strings.Contains(rest[:end], "..")) {
				return i
			}
		}
	}
	return -1
}

// parseErrorOffset returns the byte offset and text of a parse error.
func parseErrorOffset(err error) (int, string) {
	var pe syntax.ParseError
	if errors.As(err, &pe) {
		return int(pe.Pos.Offset()), pe.Text
	}
	var le syntax.LangError
	if errors.As(err, &le) {
		return int(le.Pos.Offset()), le.Error()
	}
	return 0, err.Error()
}

// commandString splits a verification command written as a string. It
// reports a command that needs a shell, or that does not parse, at the
// offending character where the YAML source lets it be located.
func (v *validator) commandString(item *yaml.Node) ([]string, bool) {
	if item.Tag == "!!null" {
		v.fail(item, "verification: empty command")
		return nil, false
	}
	argv, need, err := splitWords(item.Value)
	if err != nil {
		off, text := parseErrorOffset(err)
		v.failAt(item, off, fmt.Sprintf("verification: %q does not split into words: %s", item.Value, text))
		return nil, false
	}
	if need != nil {
		v.failAt(item, need.off, fmt.Sprintf("verification: %q needs a shell for %s, and commands run without one: write the arguments as a list, or spell out [sh, -c, ...]", item.Value, need.what))
		return nil, false
	}
	return argv, true
}

// failAt reports a problem at byte offset off of a scalar's value. The
// offset maps to a column of case.yaml when the scalar is one line whose
// source spells its value as is (plain, or quoted without escapes);
// otherwise the problem is reported at the scalar.
func (v *validator) failAt(n *yaml.Node, off int, msg string) {
	e := &Error{Path: v.path, Msg: msg}
	if n.Line > 0 {
		e.Line, e.Col = n.Line, v.li.byteCol(n.Line, n.Column)
		if src, ok := v.li.lineRest(n.Line, e.Col); ok {
			lead := 0
			switch n.Style {
			case yaml.SingleQuotedStyle, yaml.DoubleQuotedStyle:
				lead = 1
			case 0, yaml.FlowStyle:
			default:
				lead = -1 // block scalars: the value starts on a later line
			}
			if lead >= 0 && off <= len(n.Value) && strings.HasPrefix(src[min(lead, len(src)):], n.Value) {
				e.Col += lead + off
			}
		}
	}
	v.errs = append(v.errs, e)
}
