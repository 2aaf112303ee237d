package contradiction

import (
	"fmt"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// minCopiedResults is how many test-count facts two documents must share,
// line for line, before the match says more than "both suites passed".
const minCopiedResults = 2

// copiedResults reports documents that report the same test results, fact
// for fact, for different commits.
func (c *checker) copiedResults() {
	first := map[string]*docInfo{} // results signature -> first document
	for _, di := range c.docs {
		if len(di.results) < minCopiedResults || len(di.commits) == 0 {
			continue
		}
		sig := resultSignature(di)
		prev, ok := first[sig]
		if !ok {
			first[sig] = di
			continue
		}
		if sharesCommit(prev, di) {
			continue
		}
		var counts []string
		for _, f := range di.results {
			counts = append(counts, plain(f.Value))
		}
		related := []analysis.RelatedInformation{
			rel(prev.results[0].Pos, "%s reports the same %d results from here on, for commit %s", prev.d.Path, len(prev.results), prev.commits[0].sha),
			rel(prev.commits[0].fact.Pos, "%s: %q", prev.d.Path, quote(prev.commits[0].fact.Key+": "+prev.commits[0].fact.Value)),
			rel(di.commits[0].fact.Pos, "this document's commit: %q", quote(di.commits[0].fact.Key+": "+di.commits[0].fact.Value)),
		}
		c.report(di.d.Path, di.results[0].Pos, di.results[len(di.results)-1].End, "copied-results",
			fmt.Sprintf("reports the same test results as %s line for line (%s), but for commit %s where that document reports commit %s: different code rarely passes the same counts at every step; rerun the tests for this commit and record its own results",
				prev.d.Path, strings.Join(counts, "; "), di.commits[0].sha, prev.commits[0].sha), related)
	}
}

// resultSignature is the test-count facts of a document, keys and counts,
// in order.
func resultSignature(di *docInfo) string {
	var b strings.Builder
	for _, f := range di.results {
		b.WriteString(strings.ToLower(strings.TrimSpace(f.Key)))
		b.WriteByte(0)
		b.WriteString(plain(f.Value))
		b.WriteByte(0)
	}
	return b.String()
}

func sharesCommit(a, b *docInfo) bool {
	for _, x := range a.commits {
		for _, y := range b.commits {
			if strings.HasPrefix(x.sha, y.sha) || strings.HasPrefix(y.sha, x.sha) {
				return true
			}
		}
	}
	return false
}
