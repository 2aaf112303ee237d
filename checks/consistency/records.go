package consistency

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/svrnty/sotvet/checks/internal/bodylines"
	"github.com/svrnty/sotvet/internal/lazyre"
	"github.com/svrnty/sotvet/sotparse"
)

var (
	// "- Admission status: `admitted`", "- `admission_status`: `not_admitted`",
	// "- Admission JSON has `status`: `admitted`": the field label starts the
	// line, so that "Source admission status: ..." (a report's field) does
	// not count.
	recordField = lazyRE.New("(?i)^\\s*(?:[-*+]\\s+)?(?:\\[[ xX]\\]\\s+)?(?:admission\\s+(?:json|record|file)\\s+has\\s+)?`?(admission[ _]status|status)`?\\s*:\\s*`?(admitted|not_admitted)`?(\\s+by\\s+default)?")
	// "The current record is intentionally `not_admitted`".
	recordIs = lazyRE.New("(?i)\\b(?:admission\\s+)?record(?:'s\\s+status|\\s+status)?\\s+is\\s+(?:intentionally\\s+|now\\s+|still\\s+)?`?(admitted|not_admitted)`?(\\s+by\\s+default)?")
)

// recordStatus returns the status member of an admission record, its
// value, or nil.
func recordStatus(r *sotparse.Record) (*sotparse.Member, string) {
	switch {
	case r.Model != nil:
		return r.Member("status"), r.Model.Status
	case r.Target != nil:
		return r.Member("admission_status"), r.Target.AdmissionStatus
	}
	return nil, ""
}

// recordStmt is a statement of a document's body about an admission
// record's status: what one of recordField and recordIs matched on a line.
type recordStmt struct {
	line      int // offset of the line
	re        int // 0: recordField, 1: recordIs
	start     int // offsets of the match
	end       int
	got       string // the status stated, lower-cased
	byDefault bool   // "not_admitted by default" describes the default
}

var recordPatterns = []*lazyre.Regexp{recordField, recordIs}

// recordStatements returns the statements about a record's status in d's
// body, outside fenced code and quotes, in order: only in the sections
// (secs, d's) that name a record's path (records reads no others), and
// only when the text says "admitted" at all.
func recordStatements(d *sotparse.Doc, content []byte, secs []section) []recordStmt {
	tf := d.File.Tok
	var spans [][2]int // of the sections naming a record
	for _, ref := range d.Refs.Of(sotparse.RefSOTPath) {
		if ref.Kind != sotparse.RefSOTPath || sotparse.RoleOf(path.Clean(strings.TrimSuffix(ref.Text, "/"))) != sotparse.RoleRecord {
			continue
		}
		start, end := tf.Offset(d.BodyStart), len(content)
		if i := innermost(secs, tf.Offset(ref.Pos)); i >= 0 {
			start, end = secs[i].bodyStart, secs[i].end
		}
		spans = append(spans, [2]int{start, end})
	}
	// A section whose heading names an admission record by its title
	// ("CTO-WORK-040 - Stage 5 Target Repository Admission Record"):
	// records tells which record, if any, the title names.
	for _, sec := range secs {
		if recordHeadingWords(d, sec.h) != nil {
			spans = append(spans, [2]int{sec.bodyStart, sec.end})
		}
	}
	if len(spans) == 0 || !bodylines.TextContainsFold(content, "admitted") {
		return nil
	}
	named := func(off int) bool {
		for _, s := range spans {
			if s[0] <= off && off < s[1] {
				return true
			}
		}
		return false
	}
	var out []recordStmt
	bodylines.Each(content, tf.Offset(d.BodyStart), len(content), func(ln bodylines.Line) {
		if ln.Quoted || !named(ln.Off) || !bodylines.ContainsFold(ln.Text, "admitted") {
			return
		}
		for k, re := range recordPatterns {
			m := re.FindStringSubmatchIndex(ln.Text)
			if m == nil {
				continue
			}
			vi := len(m) - 4 // the value group, then "by default"
			out = append(out, recordStmt{line: ln.Off, re: k, start: ln.Off + m[0], end: ln.Off + m[1],
				got: admission(ln.Text[m[vi]:m[vi+1]]), byDefault: m[vi+2] >= 0})
		}
	})
	return out
}

// records reports statements about a record's status that the record, named
// in the same section, contradicts.
func (c *checker) records(d *sotparse.Doc, stmts []recordStmt) {
	if len(c.ws.Records) == 0 || len(stmts) == 0 {
		return
	}
	byPath := map[string]*sotparse.Record{}
	for _, r := range c.ws.Records {
		byPath[r.Path] = r
	}
	tf := d.File.Tok
	secs := sections(d, tf.Size())
	// The records each section names, by section index (-1: no heading).
	named := map[int][]*sotparse.Record{}
	for _, ref := range d.Refs.Of(sotparse.RefSOTPath) {
		if ref.Kind != sotparse.RefSOTPath {
			continue
		}
		r := byPath[path.Clean(strings.TrimSuffix(ref.Text, "/"))]
		if r == nil {
			continue
		}
		if m, _ := recordStatus(r); m == nil {
			continue
		}
		i := innermost(secs, tf.Offset(ref.Pos))
		if !containsRecord(named[i], r) {
			named[i] = append(named[i], r)
		}
	}
	for i, sec := range secs {
		words := recordHeadingWords(d, sec.h)
		if words == nil {
			continue
		}
		for _, r := range c.ws.Records {
			if m, _ := recordStatus(r); m != nil && c.namesTitle(words, r) && !containsRecord(named[i], r) {
				named[i] = append(named[i], r)
			}
		}
	}
	for i, recs := range named {
		start, end := tf.Offset(d.BodyStart), tf.Size()
		if i >= 0 {
			start, end = secs[i].bodyStart, secs[i].end
		}
		_, want := recordStatus(recs[0])
		same := true
		for _, r := range recs[1:] {
			if _, v := recordStatus(r); v != want {
				same = false // the section names records that disagree: no single truth
			}
		}
		if !same {
			continue
		}
		for j := 0; j < len(stmts); {
			// The statements of one line, in pattern order: the first
			// that states another status than the record's is reported.
			line := stmts[j].line
			k := j
			for k < len(stmts) && stmts[k].line == line {
				k++
			}
			if line < start || line >= end {
				j = k
				continue
			}
			for _, st := range stmts[j:k] {
				if st.byDefault || st.got == want {
					continue
				}
				r := recs[0]
				mem, _ := recordStatus(r)
				c.diag(d.File.Pos(st.start), d.File.Pos(st.end), "record-contradiction",
					fmt.Sprintf("says the admission is %s, but %s has %q: %q", st.got, r.Path, mem.Name, want),
					related(mem.ValuePos, "the record's %s is %s", mem.Name, want), nil)
				break
			}
			j = k
		}
	}
}

// admission returns the status a statement's value names, lower-cased, as
// a string of its own: the statements outlive the text.
func admission(v string) string {
	if strings.EqualFold(v, "not_admitted") {
		return "not_admitted"
	}
	if strings.EqualFold(v, "admitted") {
		return "admitted"
	}
	return strings.ToLower(strings.Clone(v))
}

func containsRecord(rs []*sotparse.Record, r *sotparse.Record) bool {
	for _, x := range rs {
		if x == r {
			return true
		}
	}
	return false
}

// recordHeadingWords returns the title words (titleWords) of a section
// heading that ends by naming an admission record ("... Admission
// Record", "... Admission JSON", "... Admission File"), without the work
// item id that starts a work item's heading ("CTO-WORK-040 - Stage 5
// Target Repository Admission Record" is "stage5 target repository
// admission record"), or nil: an H1 or a template names no record.
func recordHeadingWords(d *sotparse.Doc, h *sotparse.Heading) []string {
	if d.Kind == sotparse.KindTemplate || h.Level < 2 {
		return nil
	}
	w := titleWords(h.Text)
	if len(w) < 2 || w[len(w)-2] != "admission" || !recordNouns[w[len(w)-1]] {
		return nil
	}
	for _, it := range d.WorkItems {
		if it.Pos == h.Pos {
			return titleWords(it.Title)
		}
	}
	return w
}

var recordNouns = map[string]bool{"record": true, "json": true, "file": true}

// titleWords returns the words of a title, lower-cased, a number joined to
// the word before it ("Stage 5" is "stage5", as in a file name's
// "STAGE5").
func titleWords(text string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	}) {
		if n := len(out); n > 0 && f[0] >= '0' && f[0] <= '9' && strings.Trim(f, "0123456789") == "" {
			if p := out[n-1]; p[len(p)-1] < '0' || p[len(p)-1] > '9' {
				out[n-1] = p + f
				continue
			}
		}
		out = append(out, f)
	}
	return out
}

// recordTitle returns the words of r's file name up to the first dot (the
// provider and model of a model admission record follow it):
// "cto case stage5 target repository admission".
func (c *checker) recordTitle(r *sotparse.Record) []string {
	if c.titles == nil {
		c.titles = map[*sotparse.Record][]string{}
	}
	if t, ok := c.titles[r]; ok {
		return t
	}
	stem, _, _ := strings.Cut(path.Base(r.Path), ".")
	t := titleWords(stem)
	c.titles[r] = t
	return t
}

// minTitleWords is how many of the last words of a record's file name a
// heading must hold at least: a bare "Admission Record" or "Repository
// Admission Record" names no record in particular.
const minTitleWords = 3

// namesTitle reports whether a record heading's words (recordHeadingWords)
// are r's title, its file name's words, but for leading words every record
// file name of the workspace shares (its prefix, "CTO Case"): "Stage 5
// Target Repository Admission Record" names
// CTO-CASE-STAGE5-TARGET-REPOSITORY-ADMISSION.json, and "Stage 4 Target
// Repository Admission Record" or "Other Repo Target Repository Admission
// Record" does not, though each ends with three of its words. A
// workspace of one record file has no known prefix: minTitleWords then.
func (c *checker) namesTitle(words []string, r *sotparse.Record) bool {
	title := c.recordTitle(r)
	named := words[:len(words)-1] // the noun of recordHeadingWords ends words
	n := len(named)
	need := minTitleWords
	if p, ok := c.recordPrefix(); ok {
		need = max(need, len(title)-p)
	}
	return n >= need && n <= len(title) &&
		slices.Equal(named, title[len(title)-n:])
}

// recordPrefix returns how many leading title words every record file
// name of the workspace shares; not ok with fewer than two distinct
// titles, where what is shared is unknown.
func (c *checker) recordPrefix() (int, bool) {
	if c.prefix == 0 {
		c.prefix = -1 // not ok
		var first []string
		n := 0
		for _, r := range c.ws.Records {
			t := c.recordTitle(r)
			if first == nil {
				first, n = t, len(t)
				continue
			}
			if !slices.Equal(t, first) {
				c.prefix = 1
			}
			k := 0
			for k < n && k < len(t) && t[k] == first[k] {
				k++
			}
			n = k
		}
		if c.prefix > 0 {
			c.prefix = n + 1
		}
	}
	return c.prefix - 1, c.prefix > 0
}
