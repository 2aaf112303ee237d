package checks

import (
	"fmt"
	"go/token"
	"math"
	"regexp"
	"runtime"
	"strings"
	"sync"

	"github.com/svrnty/sotvet/sotparse"
)

// SuppressionCheck is the name findings about suppressions are reported under.
const SuppressionCheck = "suppression"

// A suppression is a comment on the line of a finding or on the line before:
//
//	<!-- sotvet:ignore check[,check/category...] -- reason -->   (markdown)
//	# sotvet:ignore check -- reason                     (YAML)
var suppressionPattern = regexp.MustCompile(`(?m)<!--(.*?)-->|#[ \t]*(sotvet:ignore\b.*)$`)

type suppression struct {
	file   string
	line   int
	col    int
	endCol int
	checks []string
	reason string
	used   bool
}

// suppressionsIn returns the suppressions of content, the text of tf (the
// file at path), and the span of each comment, as a finding on it flags
// it.
func suppressionsIn(path string, tf *token.File, content []byte) ([]*suppression, []flagSpan) {
	var out []*suppression
	var spans []flagSpan
	for _, m := range suppressionPattern.FindAllSubmatchIndex(content, -1) {
		body := ""
		switch {
		case m[2] >= 0:
			body = string(content[m[2]:m[3]])
		case m[4] >= 0:
			body = string(content[m[4]:m[5]])
		}
		rest, ok := strings.CutPrefix(strings.TrimSpace(body), "sotvet:ignore")
		if !ok || (rest != "" && rest[0] != ' ' && rest[0] != '\t') {
			continue
		}
		pos := tf.Position(tf.Pos(m[0]))
		end := tf.Position(tf.Pos(m[1]))
		s := &suppression{file: path, line: pos.Line, col: pos.Column, endCol: end.Column}
		names, reason, _ := strings.Cut(rest, "--")
		s.reason = strings.TrimSpace(reason)
		for _, n := range strings.Split(strings.TrimSpace(names), ",") {
			if n = strings.TrimSpace(n); n != "" {
				s.checks = append(s.checks, n)
			}
		}
		out = append(out, s)
		if m[0] <= math.MaxInt32 && end.Line <= math.MaxInt32 && end.Column <= math.MaxInt32 {
			spans = append(spans, flagSpan{offset: int32(m[0]), endLine: int32(end.Line), endCol: int32(end.Column)})
		}
	}
	return out, spans
}

// covers reports whether the suppression names the finding's check, or its
// code check/category.
func (s *suppression) covers(f *Finding) bool {
	for _, c := range s.checks {
		if c == f.Check || f.Category != "" && len(c) == len(f.Check)+1+len(f.Category) &&
			strings.HasPrefix(c, f.Check) && c[len(f.Check)] == '/' && strings.HasSuffix(c, f.Category) {
			return true
		}
	}
	return false
}

// suppress drops findings covered by a suppression that gives a reason, and
// adds findings for suppressions that are reasonless, name no known check, or
// suppress nothing.
func suppress(ws *sotparse.Workspace, text *textIndex, fs []Finding, checked []string, registered func(string) bool, capped map[string]bool) []Finding {
	byLine := map[string]map[int][]*suppression{}
	var all []*suppression
	// Every file in focus is searched (a suppression that matches nothing
	// is a finding too): in parallel, it is the driver's last pass over the
	// text. A suppression acts on its own file only, and a run keeps the
	// findings of the files in focus: an editor's edit searches the open
	// documents, not the workspace.
	found := make([][]*suppression, len(ws.Files))
	var wg sync.WaitGroup
	workers := runtime.GOMAXPROCS(0)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(ws.Files); i += workers {
				if f := ws.Files[i]; ws.Focused(f.Path) {
					found[i] = text.suppressions(ws, f)
				}
			}
		}()
	}
	wg.Wait()
	for _, ss := range found {
		for _, s := range ss {
			all = append(all, s)
			if byLine[s.file] == nil {
				byLine[s.file] = map[int][]*suppression{}
			}
			byLine[s.file][s.line] = append(byLine[s.file][s.line], s)
		}
	}
	if len(all) == 0 {
		return fs
	}
	ran := map[string]bool{}
	for _, c := range checked {
		ran[c] = true
	}
	out := fs[:0]
	for i := range fs {
		f := fs[i]
		kept := true
		for _, line := range []int{f.Line, f.Line - 1} {
			for _, s := range byLine[f.File][line] {
				if s.covers(&f) && s.reason != "" {
					s.used = true
					kept = false
				}
			}
		}
		if kept {
			out = append(out, f)
		}
	}
	for _, s := range all {
		at := Finding{Check: SuppressionCheck, Severity: SeverityError, File: s.file, Line: s.line, Col: s.col, EndLine: s.line, EndCol: s.endCol}
		if tf := ws.File(s.file); tf != nil {
			at.Offset = tf.Tok.Offset(tf.Tok.LineStart(s.line)) + s.col - 1
		}
		switch {
		case len(s.checks) == 0:
			at.Category = "malformed"
			at.Message = "sotvet:ignore names no check (want <!-- sotvet:ignore CHECK -- reason -->)"
		case s.reason == "":
			at.Category = "no-reason"
			at.Message = fmt.Sprintf("sotvet:ignore %s has no reason (want -- reason); it suppresses nothing", strings.Join(s.checks, ","))
		case !s.used:
			var unknown []string
			anyRan := false
			for _, c := range s.checks {
				if !registered(c) {
					unknown = append(unknown, c)
				}
				check, _, _ := strings.Cut(c, "/")
				anyRan = anyRan || ran[check]
			}
			at.Category = "unused"
			at.Severity = SeverityWarning
			switch {
			case len(unknown) > 0:
				at.Category = "unknown-check"
				at.Severity = SeverityError
				at.Message = fmt.Sprintf("sotvet:ignore names unknown check %s%s", strings.Join(unknown, ","), CodeHint(unknown[0]))
			case !anyRan:
				continue // the check is disabled in this run: nothing to judge
			case capped[s.file]:
				continue // what it suppresses may be among the findings not held
			default:
				at.Message = fmt.Sprintf("sotvet:ignore %s suppresses nothing", strings.Join(s.checks, ","))
			}
		default:
			continue
		}
		out = append(out, at)
	}
	return out
}
