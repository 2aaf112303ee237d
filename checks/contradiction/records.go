package contradiction

import (
	"fmt"
	"go/token"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/sotparse"
)

var isoDate = lazyRE.New(`^\d{4}-\d{2}-\d{2}$`)

// currentWords are the fact values that say a thing now holds: "source
// admission freshness: current", "licence status: resolved".
var currentWords = map[string]bool{"current": true, "admitted": true, "resolved": true, "validated": true, "fresh": true}

// negativeRecord is a record document whose own status line denies what
// its subject would grant: "Status: not admitted for execution." in the
// "Case Source Admission Record".
type negativeRecord struct {
	di       *docInfo
	status   *sotparse.Line
	subjects []string // lower-case title phrases of two words or more, longest first
	reviewed string   // the record's last review (or creation) date
}

// staleRecords reports a fact of a later, validated document that says a
// record's subject is current ("- source admission freshness: current")
// while the record still denies it on its own Status line ("Status: not
// admitted for execution.").
func (c *checker) staleRecords() {
	recs := c.negativeRecords()
	if len(recs) == 0 {
		return
	}
	for _, e := range c.docs {
		// A finding lands on the later document: one in focus.
		if !e.validated || e.d.Kind == sotparse.KindRecord || e.d.Facts.Len() == 0 && len(e.states) == 0 || !c.ws.Focused(e.d.Path) {
			continue
		}
		written := fmDate(e.d, false)
		words := make([][]string, len(e.states)) // each state's words, split when first matched
		for _, r := range recs {
			if r.di.d == e.d || written == "" || written <= r.reviewed {
				continue // not later than the record's last review: not later evidence
			}
			cites := e.links.Has(r.di.d.Path)
			said := map[int]bool{} // lines reported, so a fact read again as prose is reported once
			for _, f := range e.d.Facts.Each() {
				v := strings.ToLower(strings.Trim(strings.TrimSpace(f.Value), "`*_"))
				w, _, _ := strings.Cut(v, " ")
				if !currentWords[strings.TrimRight(w, ".,;")] {
					continue
				}
				if !namesSubject(f.Key, r.subjects, cites) {
					continue
				}
				said[e.d.File.Lines().Line(f.Pos)] = true
				c.reportStale(e, r, written, f.Pos, f.End, strings.TrimSpace(f.Key)+": "+strings.TrimSpace(f.Value))
			}
			for i, st := range e.states {
				if said[e.d.File.Lines().Line(st.stmt.pos)] {
					continue
				}
				if words[i] == nil {
					words[i] = st.wordList()
				}
				if !st.holds(words[i], r.subjects) {
					continue
				}
				said[e.d.File.Lines().Line(st.stmt.pos)] = true
				c.reportStale(e, r, written, st.stmt.pos, st.stmt.end, st.stmt.text)
			}
		}
	}
}

// negativeRecords returns the negative records of c.docs, in their order:
// those of a session's kept documents gathered once for as long as it
// keeps them, each edit reading those it parsed only.
func (c *checker) negativeRecords() []negativeRecord {
	kept := sotparse.Aggregate(c.ws, &keptRecordsKey, func([]*sotparse.Doc) []keptRecord {
		var out []keptRecord
		for j, k := range c.keptAt {
			if r, ok := readNegativeRecord(c.docs[k]); ok {
				out = append(out, keptRecord{int32(j), r})
			}
		}
		return out
	})
	var recs []negativeRecord
	i := 0
	for _, k := range c.live {
		for ; i < len(kept) && c.keptAt[kept[i].kept] < k; i++ {
			recs = append(recs, kept[i].negativeRecord)
		}
		if r, ok := readNegativeRecord(c.docs[k]); ok {
			recs = append(recs, r)
		}
	}
	for ; i < len(kept); i++ {
		recs = append(recs, kept[i].negativeRecord)
	}
	return recs
}

// keptRecord is a negative record of a kept document, and which of the
// kept it is: a run places them in c.docs by c.keptAt.
type keptRecord struct {
	kept int32
	negativeRecord
}

// keptRecordsKey keeps the negative records of a session's kept documents.
var keptRecordsKey sotparse.MemoKey

func (c *checker) reportStale(e *docInfo, r negativeRecord, written string, pos, end token.Pos, said string) {
	c.report(e.d.Path, pos, end, "stale-record",
		fmt.Sprintf("this validated document (written %s) says %q, but %s, last reviewed %s, still says \"Status: %s\": update the record, or say why the evidence may claim it",
			written, said, r.di.d.Path, r.reviewed, strings.TrimSpace(r.status.Value)),
		[]analysis.RelatedInformation{rel(r.status.ValuePos, "%s says: \"Status: %s\"", r.di.d.Path, strings.TrimSpace(r.status.Value))})
}

// readNegativeRecord returns the record di is when it is a record document
// whose document-level Status line says "not" followed by a word that
// shares its stem with the last word of the record's subject ("not
// admitted" in the "Source Admission Record"): the record denies its own
// subject.
func readNegativeRecord(di *docInfo) (negativeRecord, bool) {
	d := di.d
	if d.Kind != sotparse.KindRecord {
		return negativeRecord{}, false
	}
	reviewed := fmDate(d, true)
	subjects := titleSubjects(d)
	if reviewed == "" || len(subjects) == 0 {
		return negativeRecord{}, false
	}
	last := subjects[len(subjects)-1]
	if i := strings.LastIndexByte(last, ' '); i >= 0 {
		last = last[i+1:]
	}
	for _, l := range d.StatusLines {
		if l.Item != nil {
			continue
		}
		f := strings.Fields(strings.ToLower(strings.Trim(strings.TrimSpace(l.Value), "`*_")))
		if len(f) >= 2 && f[0] == "not" && sameStem(f[1], last) {
			return negativeRecord{di: di, status: l, subjects: subjects, reviewed: reviewed}, true
		}
	}
	return negativeRecord{}, false
}

// titleSubjects returns the phrases of two words or more that end the
// record's title once its kind word is removed ("CTO Case Source
// Admission Record": "cto case source admission", "case source
// admission", "source admission"), longest first.
func titleSubjects(d *sotparse.Doc) []string {
	title := ""
	for _, h := range d.Headings {
		if h.Level == 1 {
			title = h.Text
			break
		}
	}
	w := strings.Fields(strings.ToLower(title))
	if n := len(w); n > 0 && w[n-1] == "record" {
		w = w[:n-1]
	}
	var out []string
	for i := 0; i+2 <= len(w); i++ {
		out = append(out, strings.Join(w[i:], " "))
	}
	return out
}

// namesSubject reports whether a fact key is about the record: it starts
// with one of the record's subject phrases ("source admission freshness"),
// or, in a document that cites the record by path, names the subject's
// last word.
func namesSubject(key string, subjects []string, cites bool) bool {
	k := strings.Join(strings.Fields(strings.ToLower(strings.ReplaceAll(key, "_", " "))), " ")
	for _, s := range subjects {
		if k == s || strings.HasPrefix(k, s+" ") {
			return true
		}
	}
	if cites && len(subjects) > 0 {
		s := subjects[len(subjects)-1]
		last := s[strings.LastIndexByte(s, ' ')+1:]
		for _, w := range strings.Fields(k) {
			if w == last {
				return true
			}
		}
	}
	return false
}

// sameStem reports whether two words share a stem of at least four
// letters ("admitted", "admission").
func sameStem(a, b string) bool {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n >= 4
}

// fmDate returns a document's ISO date from its frontmatter: the last
// review (falling back to the creation) when reviewed, else the creation.
func fmDate(d *sotparse.Doc, reviewed bool) string {
	fm := d.Frontmatter
	if fm == nil {
		return ""
	}
	pick := fm.Created
	if reviewed && fm.LastReviewed != nil {
		pick = fm.LastReviewed
	}
	if pick == nil {
		return ""
	}
	v := strings.Trim(strings.TrimSpace(pick.Value), `"'`)
	if len(v) < 10 || !isoDate.MatchString(v[:10]) {
		return ""
	}
	return v[:10]
}
