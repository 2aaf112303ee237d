package contradiction

import (
	"bytes"
	"fmt"
	"go/token"
	"math"
	"path"
	"strings"

	"github.com/svrnty/sotvet/checks/internal/keywords"
	"github.com/svrnty/sotvet/sotparse"
)

// runCite is a run a document cites: an absolute path in a code span, or
// alone on a line (a fenced block), and the words that label it.
// Every document holds its cites until the rules run: what follows from
// the path (its run, whether it names a directory) is not held.
type runCite struct {
	path    string
	pos     token.Pos
	dirLen  int32 // the run's directory is path[:dirLen]; -1: runDir of path
	failed  bool  // its label says the run failed or was blocked
	context bool  // its label says it is context, not evidence
}

// newRunCite returns the citation of p at pos, its run found once: the
// rules look every document's citations up by run at every edit of a
// session.
func newRunCite(p string, pos token.Pos, failed, context bool) runCite {
	rc := runCite{path: p, pos: pos, dirLen: -1, failed: failed, context: context}
	if d := runDir(p); strings.HasPrefix(p, d) && len(d) <= math.MaxInt32 {
		rc.dirLen = int32(len(d))
	}
	return rc
}

// dir returns the run: the path's directory when the path names a file.
func (rc runCite) dir() string {
	if rc.dirLen >= 0 {
		return rc.path[:rc.dirLen]
	}
	return runDir(rc.path)
}

// isDir reports whether the path names a directory, not a file of the run.
func (rc runCite) isDir() bool { return !strings.Contains(path.Base(rc.path), ".") }

var (
	// pathLine is an absolute path alone on a line, as in a fenced block.
	pathLine = lazyRE.New(`^[ \t]*(/(?:[\w.@+-]+/)+[\w.@+-]+)[ \t]*$`)
	// failedLabel and contextLabel read a citation's label: "blocked run:",
	// "Fail-closed run without approval:", "Context only, not evidence
	// for this request:".
	failedLabel  = lazyRE.New(`(?i)\b(?:fail(?:s|ed)?|fail-closed|blocked|aborted|rejected)\b`)
	contextLabel = lazyRE.New(`(?i)\bcontext\b|\bnot (?:the )?evidence\b`)
	// labelKeys are the words the label expressions need, in any case:
	// most labels ("- report 3: ") hold none, and each expression cost a
	// microsecond a citation where the mask costs a pass over the label.
	labelKeys               = keywords.New("fail", "blocked", "aborted", "rejected", "context", "evidence")
	failedKeys, contextKeys = labelKeys.Bits("fail", "blocked", "aborted", "rejected"), labelKeys.Bits("context", "evidence")
	// approvalDenial says in prose that approval was not given: "JP has
	// not approved this execution", "Approval: not granted.", "`pending`
	// - JP approval has not been given."
	approvalDenial    = lazyRE.New(`(?i)\b(?:has|have|had) not (?:yet )?approved\b|\bnot (?:yet )?(?:been )?(?:granted|given|approved)\b|\bapproval\b[^.;]{0,40}\bpending\b`)
	approvalCondition = lazyRE.New(`(?i)\b(?:if|unless|until|whether|when|once)\b|\?`)
)

// runDir returns the run a path names: a file's directory, or the path.
func runDir(p string) string {
	p = strings.TrimSuffix(p, "/")
	if strings.Contains(path.Base(p), ".") {
		// path.Dir's Clean of the directory and its slash copies every
		// path; Clean of a clean one without the slash copies none.
		if i := strings.LastIndexByte(p, '/'); i > 0 {
			return path.Clean(p[:i])
		}
		return path.Dir(p)
	}
	return p
}

// readLabel reports whether a citation's label says the run failed, and
// whether it says the run is context: failedLabel and contextLabel, each
// run only on a label holding one of its words. A non-ASCII rune may fold
// to a letter of a word (U+212A to k, U+017F to s): the expressions read
// such a label.
func readLabel(label string) (failed, context bool) {
	m := labelKeys.Mask(label)
	failed = m&(failedKeys|keywords.NonASCII) != 0 && failedLabel.MatchString(label)
	context = m&(contextKeys|keywords.NonASCII) != 0 && contextLabel.MatchString(label)
	return failed, context
}

// readRunCites reads the runs d cites, each with its label: the line of a
// code span, or the line before a block that holds only the path. The
// paths outlive content: a reference's is the run's table of texts', a
// block's a copy.
func readRunCites(d *sotparse.Doc, content []byte) []runCite {
	tf := d.File.Tok
	lineAt := func(off int) (int, int) {
		s := off
		for s > 0 && content[s-1] != '\n' {
			s--
		}
		e := off
		for e < len(content) && content[e] != '\n' {
			e++
		}
		return s, e
	}
	var out []runCite
	add := func(p string, off int, label string) {
		if !strings.Contains(path.Base(p), ".") && strings.Count(p, "/") < 3 {
			return
		}
		failed, context := readLabel(label)
		out = append(out, newRunCite(p, tf.Pos(off), failed, context))
	}
	for _, r := range d.Refs.Of(sotparse.RefAbsPath) {
		if r.Kind != sotparse.RefAbsPath {
			continue
		}
		off := tf.Offset(r.Pos)
		if off >= len(content) {
			continue
		}
		s, _ := lineAt(off)
		add(r.Text, off, string(content[s:off]))
	}
	body := min(tf.Offset(d.BodyStart), len(content))
	// A line that is a path starts with "/" after its indent: a plain scan
	// finds the few candidates, the expression checks each.
	for i := body; i < len(content); {
		e := bytes.IndexByte(content[i:], '\n')
		if e < 0 {
			e = len(content)
		} else {
			e += i
		}
		line := content[i:e]
		start := i
		i = e + 1
		t := bytes.TrimLeft(line, " \t")
		if len(t) == 0 || t[0] != '/' {
			continue
		}
		m := pathLine.FindSubmatchIndex(line)
		if m == nil {
			continue
		}
		off := start + m[2]
		// The label: the last line before, not blank and not a fence.
		label := ""
		s, _ := lineAt(off)
		for s > body {
			ps, pe := lineAt(s - 1)
			t := strings.TrimSpace(string(content[ps:pe]))
			if t != "" && !strings.HasPrefix(t, "```") && !strings.HasPrefix(t, "~~~") {
				label = t
				break
			}
			s = ps
		}
		add(string(content[off:start+m[3]]), off, label)
	}
	return out
}

// approvalTimeline reports a document that says approval was not granted
// while citing, as its evidence, a run that a validated document records
// as passed.
func (c *checker) approvalTimeline() {
	// A finding lands on a denial of a document in focus: without one,
	// the other documents' text is not read.
	if !c.anyFocused(func(di *docInfo) bool { return len(di.approvalFalse) > 0 || di.deniesApproval != nil }) {
		return
	}
	c.text(func(*docInfo) bool { return true })
	type passRun struct {
		di *docInfo
		rc runCite
	}
	// Only the runs the denials in focus cite are looked up: every
	// document's citations are read once, and only a citation of one of
	// those runs is held.
	cited := map[string]bool{}
	for _, di := range c.docs {
		if !di.approvalGranted && (len(di.approvalFalse) > 0 || di.deniesApproval != nil) && c.ws.Focused(di.d.Path) {
			for _, rc := range di.runCites {
				if !rc.failed && !rc.context {
					cited[rc.dir()] = false
				}
			}
		}
	}
	if len(cited) == 0 {
		return
	}
	// A directory is a run's when a file of it is cited somewhere (a
	// report.json, a proof): other directories are repositories and
	// workspaces, which many runs share. cited says which are.
	passed := map[string][]passRun{}
	for _, di := range c.docs {
		for _, rc := range di.runCites {
			dir := rc.dir()
			isRun, ok := cited[dir]
			if !ok {
				continue
			}
			if !isRun && !rc.isDir() {
				cited[dir] = true
			}
			// A validated document that passed is listed once a run.
			if di.validated && di.passed && !rc.failed && !rc.context {
				if ps := passed[dir]; len(ps) == 0 || ps[len(ps)-1].di != di {
					passed[dir] = append(ps, passRun{di, rc})
				}
			}
		}
	}
	evidence := func(rc runCite) bool { return !rc.failed && !rc.context && cited[rc.dir()] }
	for _, di := range c.docs {
		if di.approvalGranted || !c.ws.Focused(di.d.Path) {
			continue
		}
		var denial statement
		switch {
		case len(di.approvalFalse) > 0:
			f := di.approvalFalse[0]
			denial = statement{pos: f.Pos, end: f.End, text: strings.Trim(f.Key, "`*") + ": " + plain(f.Value)}
		case di.deniesApproval != nil:
			denial = *di.deniesApproval
			denial.text = fmt.Sprintf("%q", denial.text)
		default:
			continue
		}
		var related relList
		var run string
		reported := map[*docInfo]bool{}
		for _, rc := range di.runCites {
			if !evidence(rc) {
				continue
			}
			for _, p := range passed[rc.dir()] {
				if p.di == di || reported[p.di] {
					continue
				}
				reported[p.di] = true
				if run == "" {
					run = rc.path
				}
				if !related.full() {
					related.add(p.rc.pos, "%s, validated, cites the same run as the evidence of a run that passed", p.di.d.Path)
				}
			}
		}
		if run == "" {
			continue
		}
		if di.stillRequired != nil {
			related = append(relList{rel(di.stillRequired.pos, "and says: %q", di.stillRequired.text)}, related...)
		}
		c.report(di.d.Path, denial.pos, denial.end, "approval-timeline",
			fmt.Sprintf("says %s, but cites %s, a run that %d validated document(s) record as passed: record the approval that run had (approval_granted: true and where it was granted), or stop citing the later run as this record's evidence",
				denial.text, run, len(reported)), related)
	}
}

// anyFocused reports whether f holds for a document in focus. A rule
// whose findings land on the document that says what f asks asks it
// before it reads every document's text: a document out of focus that
// says it (every kept one may) gets no finding from the run. When the
// caller follows what the rules compared (FollowsCompared) it is true: an
// edit may have taken what f asks out of the documents in focus, and the
// findings of others, which may say it in a text not read yet, may change
// by it (TestSessionFollowsRoleMajority).
func (c *checker) anyFocused(f func(*docInfo) bool) bool {
	if c.ws.FollowsCompared() {
		return true
	}
	for _, di := range c.docs {
		if f(di) && c.ws.Focused(di.d.Path) {
			return true
		}
	}
	return false
}
