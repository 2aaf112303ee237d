package sotparse

import (
	"fmt"
	"go/token"
	"hash/maphash"
	"runtime/debug"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/internal/parallel"
)

// A DocCheck is the part of a check that reads one document at a time, on
// its own: its text, its frontmatter, its blocks, never another document.
//
// A driver may hand the parse the DocChecks of the checks it is about to
// run (Stream): the parse then runs them on each document right after
// parsing it, while its text is in memory, and can let the text go at once
// (Stream.Release). A check's Run collects what they found with Each (the
// documents in focus) or Some (those it asks for), which run the DocCheck
// itself on the documents the parse did not: the check finds the same
// whatever the driver did. What the Run then reports from those results
// the DocCheck names with DocPass.Flag, so that the text it flags is kept.
type DocCheck struct {
	// Prepare, when set, is called once per run before Run, from the
	// check's flags as they are then: what it returns is DocPass.Prepared.
	Prepare func() any
	// Run inspects one document; it may report diagnostics through the
	// DocPass and returns a value that Each hands back to the check's Run.
	// It is called concurrently for different documents.
	Run func(*DocPass) any
}

// A DocPass is one document as a DocCheck sees it.
type DocPass struct {
	Doc      *Doc
	Content  []byte // the document's text; offsets in it are offsets of Doc's positions
	Prepared any    // what the DocCheck's Prepare returned for this run
	ws       *Workspace
	diags    []analysis.Diagnostic
	flagged  []analysis.Diagnostic // spans a finding of the check's Run may flag (Flag)
}

func (c *DocCheck) prepare() any {
	if c.Prepare == nil {
		return nil
	}
	return c.Prepare()
}

// Report records a diagnostic about the document.
func (p *DocPass) Report(d analysis.Diagnostic) {
	if p.ws.dropFixes {
		d.SuggestedFixes = nil
	}
	p.diags = append(p.diags, d)
}

// Flag tells the driver that the check's Run may report a finding that
// flags [pos, end) of the document, from what the DocCheck returned: the
// driver keeps what it needs of that text (Stream.AfterDoc) as for a
// diagnostic reported here, and need not read the text back for it.
func (p *DocPass) Flag(pos, end token.Pos) {
	p.flagged = append(p.flagged, analysis.Diagnostic{Pos: pos, End: end})
}

// Fixes reports whether the run wants suggested fixes: Report drops them
// otherwise (Stream.DropFixes), and a check may spare building them.
func (p *DocPass) Fixes() bool { return !p.ws.dropFixes }

// Fixes reports whether the run wants suggested fixes (not
// Stream.DropFixes): a check's Run may spare building those it drops, and
// reading a text back for them.
func (ws *Workspace) Fixes() bool { return !ws.dropFixes }

// Focused reports whether the run reports on the document (Workspace.Focused).
func (p *DocPass) Focused() bool { return p.ws.Focused(p.Doc.Path) }

// docVisit is what one DocCheck did on one document during the parse, kept
// only when it returned or reported something: most checks find nothing
// in most documents, and a large workspace has many of both.
type docVisit struct {
	k      int // the DocCheck's index in the run's Stream.Checks
	result any
	diags  []analysis.Diagnostic
	panic  string // the DocCheck panicked: Each panics again, in the check's Run
}

// visit runs c, the run's DocCheck k, on d with its content, keeps what it
// did in d.visits and returns the spans it flagged.
func (ws *Workspace) visit(k int, c *DocCheck, d *Doc, content []byte) (flagged []analysis.Diagnostic) {
	p := &DocPass{Doc: d, Content: content, Prepared: ws.prepared[k], ws: ws}
	v := docVisit{k: k}
	func() {
		defer func() {
			if r := recover(); r != nil {
				v.panic = fmt.Sprintf("%v\n%s", r, debug.Stack())
			}
		}()
		v.result = c.Run(p)
	}()
	d.ran.Or(1 << k)
	v.diags = p.diags
	if v.result != nil || len(v.diags) > 0 || v.panic != "" {
		d.visits = append(d.visits, v)
	}
	return p.flagged
}

// handOver returns what the run's DocCheck k did on d, if the parse ran it
// and it was not handed over yet, and forgets it. Checks hand over their
// own DocCheck's visits concurrently: each clears its own bit, and its own
// element of d.visits, which no one appends to after the parse.
func (d *Doc) handOver(k int) (docVisit, bool) {
	if k < 0 || k >= 64 || d.ran.And(^(uint64(1)<<k))&(1<<k) == 0 {
		return docVisit{}, false
	}
	for i := range d.visits {
		// Only k is read of another check's element: it is written once,
		// in the parse.
		if e := &d.visits[i]; e.k == k {
			v := *e
			e.result, e.diags, e.panic = nil, nil, "" // the pass holds them now
			if v.panic != "" {
				panic(v.panic)
			}
			return v, true
		}
	}
	return docVisit{k: k}, true
}

// visited reports whether the parse ran the run's DocCheck k on d and has
// not handed over what it did.
func (d *Doc) visited(k int) bool {
	return k >= 0 && k < 64 && d.ran.Load()&(1<<k) != 0
}

// check runs stream's DocChecks on d, then its AfterDoc, and lets d's text
// go when release is set.
func (ws *Workspace) check(d *Doc, stream *Stream, release bool) {
	content := d.File.Content
	var flagged [][]analysis.Diagnostic
	for k, c := range ws.docChecks {
		if f := ws.visit(k, c, d, content); len(f) > 0 {
			if flagged == nil {
				flagged = make([][]analysis.Diagnostic, len(ws.docChecks))
			}
			flagged[k] = f
		}
	}
	n := 0
	for _, v := range d.visits {
		n += len(v.diags)
	}
	ws.docDiags.Add(int64(n))
	if stream.AfterDoc != nil {
		diags := make([][]analysis.Diagnostic, len(ws.docChecks))
		for _, v := range d.visits {
			diags[v.k] = v.diags
		}
		for k, f := range flagged {
			if len(f) > 0 {
				diags[k] = append(f, diags[k]...)
			}
		}
		stream.AfterDoc(d, content, diags)
	}
	if release {
		// The blocks go with the text: a check that reads the text back
		// for its blocks has them parsed again (BlocksIn).
		d.digest = maphash.Bytes(ws.seed, content)
		d.File.Content, d.blockEnc = nil, nil
		d.released = true
	}
}

// Each returns what c's Run returned for each document of ws the run
// reports on (Workspace.Focused), in the order of ws.Docs, after reporting
// through pass every diagnostic it reported, document by document; it is
// nil for the documents out of focus, which are not read. The documents the
// parse ran c on are not read again; the others are read (Content) and c
// runs on them now, in parallel.
func (c *DocCheck) Each(pass *analysis.Pass, ws *Workspace) []any {
	return c.Some(pass, ws, func(d *Doc) bool { return ws.Focused(d.Path) })
}

// Some is Each for the documents want selects, in or out of focus: a check
// that compares documents by what they say gets what c read of those out
// of focus only when it needs them. A document out of focus whose result
// Some returns counts as read (Workspace.TextRead). What c returned for a
// document is handed over once: ask Some for each document at most once.
func (c *DocCheck) Some(pass *analysis.Pass, ws *Workspace, want func(*Doc) bool) []any {
	k := -1
	for i, dc := range ws.docChecks {
		if dc == c {
			k = i
		}
	}
	results := make([]any, len(ws.Docs))
	// The documents the parse did not visit are checked first, in
	// parallel; then every document's diagnostics are reported in order,
	// each visit's as it is handed over, so that they are never all held
	// twice (as diagnostics and as the driver's findings).
	var todo []*Doc
	var todoAt []int
	for i, d := range ws.Docs {
		if want(d) && !d.visited(k) {
			todo = append(todo, d)
			todoAt = append(todoAt, i)
		}
	}
	later := map[int][]analysis.Diagnostic{}
	if len(todo) > 0 {
		var prepared any
		if k >= 0 {
			prepared = ws.prepared[k]
		} else {
			prepared = c.prepare()
		}
		ws.Prefetch(todo)
		diags := make([][]analysis.Diagnostic, len(todo))
		parallel.For(len(todo), func(j int) {
			d := todo[j]
			p := &DocPass{Doc: d, Content: ws.Content(d), Prepared: prepared, ws: ws}
			results[todoAt[j]] = c.Run(p)
			diags[j] = p.diags
		})
		for j, i := range todoAt {
			later[i] = diags[j]
		}
	}
	for i, d := range ws.Docs {
		if !want(d) {
			continue
		}
		ds, ok := later[i]
		if !ok {
			v, _ := d.handOver(k)
			results[i], ds = v.result, v.diags
			ws.noteRead(d)
		}
		for _, diag := range ds {
			pass.Report(diag)
		}
	}
	return results
}

// Visited hands over what c's Run returned for d when the parse ran c on
// it, for a check that reads documents only as its rules need them (Each
// reads every one). c must report nothing: Visited drops what it reported.
// A second call for d reports false.
func (c *DocCheck) Visited(ws *Workspace, d *Doc) (any, bool) {
	for k, dc := range ws.docChecks {
		if dc == c {
			if v, ok := d.handOver(k); ok {
				return v.result, true
			}
		}
	}
	return nil, false
}

// DocDiagnostics returns how many diagnostics the parse's DocChecks
// reported: a driver sizes its findings by them.
func (ws *Workspace) DocDiagnostics() int {
	if ws == nil {
		return 0
	}
	return int(ws.docDiags.Load())
}

// Stream is how a driver has the parse run DocChecks document by document
// (ParseStreaming).
type Stream struct {
	// Checks run on each document right after it is parsed, in order.
	Checks []*DocCheck
	// AfterDoc, when set, is called after Checks with the document's text
	// and what each check reported on it (diags[i] from Checks[i], with
	// the spans it flagged: DocPass.Flag), before the text may go: the
	// driver keeps what it needs of the text for those findings.
	AfterDoc func(d *Doc, content []byte, diags [][]analysis.Diagnostic)
	// DropFixes drops the suggested fixes of the DocChecks' diagnostics:
	// the run only reports.
	DropFixes bool
	// Release lets each document's text go once AfterDoc has run: the run
	// keeps the typed model, and Content reads a text back from its file
	// when a check asks for it, checking that it did not change.
	Release bool
}
