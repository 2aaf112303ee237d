package contradiction

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"sync/atomic"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/sotparse"
)

// A provenanceQuote is a document's statement of what a proof artifact
// records as its approval source: "Both Stage 5 proof artifacts record
// approval_source as `JP chat approval on 2026-06-01`."
type provenanceQuote struct {
	value string // "JP chat approval on 2026-06-01"
	stmt  statement
}

// artifactProvenance reads a quote of an artifact's approval_source.
var artifactProvenance = lazyRE.New("(?i)\\bartifacts?\\b[^.]*?\\brecords?\\s+(?:its\\s+|their\\s+)?approval_source\\s*(?:as|:|=)\\s*(`[^`]+`|\"[^\"]+\"|[^.;]+)")

var provenanceDate = lazyRE.New(`\b\d{4}-\d{2}-\d{2}\b`)

// provenance reports a fact that gives a proof's approval source
// ("- approval_source: JP chat instruction on 2026-06-02 ...") other than
// what the proof artifact records, as a document that cites the same
// artifact quotes it ("the proof artifacts record approval_source as `JP
// chat approval on 2026-06-01`"), or as a JSON record the document links
// records it: a different date, or a different source.
func (c *checker) provenance() {
	// The documents that quote an artifact's approval source, and the
	// artifacts (absolute paths) they cite.
	type quote struct {
		di *docInfo
		q  provenanceQuote
	}
	// The findings land on the facts: the rule starts from the documents
	// in focus that give one, and reads the text of only the documents
	// citing what they cite (an edit in an editor reads a few, not every
	// document citing a file).
	var givers []*docInfo
	cites := map[string]bool{}
	for _, di := range c.docs {
		if len(di.provenance) > 0 && c.ws.Focused(di.d.Path) {
			givers = append(givers, di)
			for r := range di.cited() {
				cites[r.Text] = true
			}
		}
	}
	if len(givers) == 0 {
		return
	}
	citesOne := func(di *docInfo) bool {
		for r := range di.cited() {
			if cites[r.Text] {
				return true
			}
		}
		return false
	}
	c.text(citesOne)
	quotes := map[string][]quote{}
	for _, di := range c.docs {
		if len(di.artifactSays) == 0 || !citesOne(di) {
			continue
		}
		for _, q := range di.artifactSays {
			for r := range di.cited() {
				quotes[r.Text] = append(quotes[r.Text], quote{di, q})
			}
		}
	}
	// The JSON records' approval sources, by path: a document linking
	// several that differ from what it says is reported against the
	// first (a map's order chose one at random from run to run).
	type recordSource struct{ path, source string }
	var records []recordSource
	for _, r := range c.ws.Records {
		v := ""
		for _, m := range r.Members {
			if m.Name == "approval_source" {
				if s := strings.Trim(strings.TrimSpace(string(m.Value)), `"`); s != "" {
					v = s // the last, as a map filled in member order kept
				}
			}
		}
		if v != "" {
			records = append(records, recordSource{r.Path, v})
		}
	}
	slices.SortStableFunc(records, func(a, b recordSource) int { return strings.Compare(a.path, b.path) })
	for _, di := range givers {
		// What the document cites and the records it links are the same
		// for each of its facts: read once a document, when a fact gives
		// a dated source (an evidence journal gives one in each of its
		// dozens of sections, and cites a report and a proof in each).
		var cited []sotparse.Ref
		var linked []recordSource
		read := false
		for _, f := range di.provenance {
			said := plain(f.Value)
			if !provenanceDate.MatchString(said) {
				continue // "JP approval reference": a field's description, not a provenance
			}
			if !read {
				read = true
				provenanceReads.Add(1)
				// The proof itself first: a run's report and its proof are
				// cited together.
				cited = slices.Collect(di.cited())
				slices.SortStableFunc(cited, func(a, b sotparse.Ref) int {
					return cmpBool(!strings.Contains(path.Base(a.Text), "proof"), !strings.Contains(path.Base(b.Text), "proof"))
				})
				for _, rs := range records {
					if di.links.Has(rs.path) {
						linked = append(linked, rs)
					}
				}
			}
			reported := false
			for _, r := range cited {
				for _, q := range quotes[r.Text] {
					if reported || !provenanceDiffers(said, q.q.value) {
						continue
					}
					reported = true
					c.report(di.d.Path, f.Pos, f.End, "provenance",
						fmt.Sprintf("gives the approval source of %s as %q, but %s says the proof artifact records %q: cite the approval the artifact records, or say why they differ",
							r.Text, said, q.di.d.Path, q.q.value),
						[]analysis.RelatedInformation{rel(q.q.stmt.pos, "%s: %q", q.di.d.Path, q.q.stmt.text)})
				}
			}
			for _, rs := range linked {
				if reported || !provenanceDiffers(said, rs.source) {
					continue
				}
				reported = true
				c.report(di.d.Path, f.Pos, f.End, "provenance",
					fmt.Sprintf("gives the approval source as %q, but %s, which this document cites, records approval_source %q: cite the approval the record holds, or say why they differ", said, rs.path, rs.source), nil)
			}
		}
	}
}

// provenanceReads counts the documents whose citations and linked records
// the provenance rule read (a test's count).
var provenanceReads atomic.Int64

// provenanceKey reports whether a fact key gives an approval source. "Record
// approval_source: ..." is an instruction to the evidence, which states
// the fact itself.
func provenanceKey(key string) bool {
	return key == "approval_source" || key == "approval source"
}

// provenanceDiffers reports whether two approval sources disagree: on the
// date, when both give one, or on the source's words before its date ("JP
// chat approval" and "JP chat instruction").
func provenanceDiffers(a, b string) bool {
	da, db := provenanceDate.FindString(a), provenanceDate.FindString(b)
	if da != "" && db != "" && da != db {
		return true
	}
	return sourceWords(a) != sourceWords(b)
}

// sourceWords returns an approval source's words before its date or its
// " on " ("JP chat approval on 2026-06-01": "jp chat approval").
func sourceWords(s string) string {
	s = strings.ToLower(s)
	if loc := provenanceDate.FindStringIndex(s); loc != nil {
		s = s[:loc[0]]
	}
	if i := strings.Index(s, " on "); i >= 0 {
		s = s[:i]
	}
	return strings.Join(strings.Fields(strings.Trim(s, " .,;:")), " ")
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}
