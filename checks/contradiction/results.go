package contradiction

import (
	"fmt"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks/internal/bodylines"
	"github.com/svrnty/sotvet/sotparse"
)

// minCopiedResults is how many test counts two documents must share, in
// order, before the match says more than "both suites passed".
const minCopiedResults = 2

var (
	// testCount is a test run's count, in any statement: a fact, a table
	// cell, a sentence ("gave 103 passed, 4 skipped before the commit"),
	// with a timing or not ("5 passed in 0.41s").
	testCount = lazyRE.New(`\b` + testCounted)
	// testCountAt is testCount at the start of the text: readCounts tries
	// it only at the digits before " passed", not at every byte of a line.
	testCountAt = lazyRE.New(`^` + testCounted)
	// textCommit is a commit named in text: "commit: `154d835 ...`",
	// "Commit 154d835 (...)", "commit `a109448`".
	commitInText = lazyRE.New("(?i)\\b" + commitNamed)
	// commitAt is commitInText at the start of the text: readCommits tries
	// it only where the word "commit" stands, not at every byte of a line.
	commitAt = lazyRE.New("(?i)^" + commitNamed)
)

// commitNamed is the word "commit" and the hash it names.
const commitNamed = "commit\\b[^0-9a-f`]{0,4}`?([0-9a-f]{7,40})\\b"

// testCounts are the test counts a document states, in order, as
// copiedResults compares them: how many, where the first starts and the
// last ends, and their texts, each followed by a 0 byte (a document's
// signature: the labels may be reworded, the counts are what was
// copied). A document's texts are one string, not a statement each.
type testCounts struct {
	n        int
	pos, end token.Pos // the first count's statement's start, the last count's end
	texts    []byte    // while the document is read
	sig      string    // texts, once read (detach); "" when no rule reads them
}

func (tc *testCounts) add(st statement) {
	if tc.n == 0 {
		tc.pos = st.pos
	}
	tc.n++
	tc.end = st.end
	tc.texts = append(append(tc.texts, st.text...), 0)
}

// list returns the counts' texts.
func (tc *testCounts) list() []string {
	return strings.Split(strings.TrimSuffix(tc.sig, "\x00"), "\x00")
}

// textCommit is a commit a document's text names.
type textCommit struct {
	sha  string
	stmt statement
}

// readCounts reads the test counts of a line, each normalized ("103
// passed, 4 skipped").
func readCounts(d *sotparse.Doc, l bodylines.Line) []statement {
	var out []statement
	var start token.Pos // the statement's start: a finding spans the lines
	for _, m := range countMatches(l.Text) {
		if start == token.NoPos {
			start = lineStatement(d, l).pos
		}
		v := strings.ReplaceAll(l.Text[m[0]:m[1]], ",", "")
		v = strings.Join(strings.Fields(v), " ")
		v = strings.Replace(v, " passed ", " passed, ", 1)
		out = append(out, statement{pos: start, end: d.File.Pos(l.Off + m[1]), text: v})
	}
	return out
}

// testCounted is a test run's count: testCount's expression, unanchored.
const testCounted = `\d+ passed(?:,? \d+ (?:skipped|failed|xfailed|xpassed|deselected|errors?|warnings?))*`

// countMatches returns what testCount.FindAllStringIndex(text, -1) does.
// A match starts at the digits before " passed", where a word does not
// go on before them (\b), so the expression is tried only there, anchored:
// tried at every byte of 166,000 lines of test results (the hub shape at
// 10,000 documents) it cost a second.
func countMatches(text string) [][]int {
	var out [][]int
	for at := 0; ; {
		i := strings.Index(text[at:], " passed")
		if i < 0 {
			return out
		}
		i += at
		j := i
		for j > at && '0' <= text[j-1] && text[j-1] <= '9' {
			j--
		}
		if j == i || j > 0 && (isAlnumASCII(text[j-1]) || text[j-1] == '_') {
			at = i + 1 // no count before it, or a word's digits
			continue
		}
		m := testCountAt.FindStringIndex(text[j:])
		if m == nil {
			at = i + 1
			continue
		}
		out = append(out, []int{j + m[0], j + m[1]})
		at = j + m[1]
	}
}

// readCommits reads the commits a line names.
func readCommits(d *sotparse.Doc, l bodylines.Line) []textCommit {
	var out []textCommit
	for _, m := range commitMatches(l.Text) {
		out = append(out, textCommit{sha: l.Text[m[2]:m[3]], stmt: lineStatement(d, l)})
	}
	return out
}

// commitMatches returns what commitInText.FindAllStringSubmatchIndex(text,
// -1) does. A match starts at the word "commit", in any case (no letter of
// it has a non-ASCII case fold), so the expression is tried only there,
// anchored, not at every byte of the line.
func commitMatches(text string) [][]int {
	var out [][]int
	for at := 0; ; {
		i := commitWordAt(text, at)
		if i < 0 {
			return out
		}
		m := commitAt.FindStringSubmatchIndex(text[i:])
		if m == nil {
			at = i + 1
			continue
		}
		for k := range m {
			if m[k] >= 0 {
				m[k] += i
			}
		}
		out = append(out, m)
		at = m[1]
	}
}

// commitWordAt returns the first offset from at where "commit", in any
// ASCII case, starts a word (\b: no ASCII word byte before it), or -1.
func commitWordAt(text string, at int) int {
	const word = "commit"
	for i := at; i+len(word) <= len(text); i++ {
		if text[i]|0x20 != 'c' || !strings.EqualFold(text[i:i+len(word)], word) {
			continue
		}
		if i == 0 || !(isAlnumASCII(text[i-1]) || text[i-1] == '_') {
			return i
		}
	}
	return -1
}

// copiedResults reports documents that report the same test counts, in
// the same order, for different commits.
func (c *checker) copiedResults() {
	if !c.anyFocused(func(di *docInfo) bool { return di.counts.n >= minCopiedResults }) {
		return
	}
	c.text(func(*docInfo) bool { return true })
	// Only the results the documents in focus report are compared.
	first := map[string]*docInfo{} // results signature -> first document
	for _, di := range c.docs {
		if di.counts.n >= minCopiedResults && len(di.textCommits) > 0 && c.ws.Focused(di.d.Path) {
			first[di.counts.sig] = nil
		}
	}
	for _, di := range c.docs {
		if di.counts.n < minCopiedResults || len(di.textCommits) == 0 {
			continue
		}
		sig := di.counts.sig
		prev, ok := first[sig]
		if !ok {
			continue
		}
		if prev == nil {
			first[sig] = di
			continue
		}
		if !c.ws.Focused(di.d.Path) || sharesCommit(prev, di) {
			continue
		}
		counts := di.counts.list()
		pc, dc := prev.textCommits[0], di.textCommits[0]
		related := []analysis.RelatedInformation{
			rel(prev.counts.pos, "%s reports the same %d results from here on, for commit %s", prev.d.Path, prev.counts.n, pc.sha),
			rel(pc.stmt.pos, "%s: %q", prev.d.Path, pc.stmt.text),
			rel(dc.stmt.pos, "this document's commit: %q", dc.stmt.text),
		}
		c.report(di.d.Path, di.counts.pos, di.counts.end, "copied-results",
			fmt.Sprintf("reports the same test results as %s line for line (%s), but for commit %s where that document reports commit %s: different code rarely passes the same counts at every step; rerun the tests for this commit and record its own results",
				prev.d.Path, strings.Join(counts, "; "), dc.sha, pc.sha), related)
	}
}

func sharesCommit(a, b *docInfo) bool {
	for _, x := range a.textCommits {
		for _, y := range b.textCommits {
			if strings.HasPrefix(x.sha, y.sha) || strings.HasPrefix(y.sha, x.sha) {
				return true
			}
		}
	}
	return false
}
