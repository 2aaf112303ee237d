package contradiction

import (
	"bytes"
	"cmp"
	"fmt"
	"go/token"
	"iter"
	"path"
	"reflect"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks/internal/bodylines"
	"github.com/svrnty/sotvet/checks/internal/docutil"
	"github.com/svrnty/sotvet/checks/internal/keywords"
	"github.com/svrnty/sotvet/checks/internal/owned"
	"github.com/svrnty/sotvet/internal/parallel"
	"github.com/svrnty/sotvet/sotparse"
)

// Analyzer reports records that disagree across documents.
var Analyzer = &analysis.Analyzer{
	Name:     "contradiction",
	Doc:      docutil.MustExtract(doc, "contradiction"),
	URL:      "https://github.com/svrnty/sotvet/blob/main/docs/checks.md#contradiction",
	Requires: []*analysis.Analyzer{sotparse.Analyzer},
	Run:      run,
}

// maxRelated caps the related places of one finding: enough to find the
// contradiction, not a listing of the workspace.
const maxRelated = 6

func run(pass *analysis.Pass) (any, error) {
	ws := pass.ResultOf[sotparse.Analyzer].(*sotparse.Workspace)
	// Each document is read once into the statements the rules compare;
	// the rules then compare those only. The typed model (facts,
	// references, headings) is read for every document; the statements of
	// its text are read by DocCheck, as the parse reads the document, and
	// are taken for the documents in focus, and for the others only when a
	// rule needs their sentences (a summarized document's text is read
	// back then).
	// Shared with the runs before and after: text copies a document
	// before it adds the statements of its text, so that an edit copies
	// the few it reads, not every document. The kept documents' are
	// gathered once for as long as a session keeps the same ones (an
	// edit then extracts the documents it parsed, and walks the others'
	// list), each kept document's once for as long as it is kept.
	kept := ws.Kept()
	keptInfos := sotparse.Aggregate(ws, &keptExtracted, func(kept []*sotparse.Doc) []*docInfo {
		out := make([]*docInfo, len(kept))
		parallel.For(len(kept), func(i int) { out[i] = sotparse.Memo(kept[i], &extracted, extract) })
		return out
	})
	infos := make([]*docInfo, len(ws.Docs))
	var live, keptAt []int32
	j := 0
	for i, d := range ws.Docs {
		if j < len(kept) && kept[j] == d {
			infos[i] = keptInfos[j]
			keptAt = append(keptAt, int32(i))
			j++
		} else {
			live = append(live, int32(i))
		}
	}
	parallel.For(len(live), func(k int) { infos[live[k]] = extract(ws.Docs[live[k]]) })
	c := &checker{ws: ws, pass: pass, docs: infos, live: live, keptAt: keptAt}
	c.text(func(di *docInfo) bool { return ws.Focused(di.d.Path) })
	c.roles()
	c.copiedResults()
	c.approvalTimeline()
	c.superseded()
	c.missingIDs()
	c.closeoutWorkboard()
	c.circularReadiness()
	c.misplacedGuards()
	c.mislabeledCommands()
	c.staleRecords()
	c.provenance()
	return nil, nil
}

type checker struct {
	ws     *sotparse.Workspace
	pass   *analysis.Pass
	docs   []*docInfo
	live   []int32              // the indexes in docs of the documents parsed in the run
	keptAt []int32              // and of those a session keeps (ws.Kept), in its order
	skips  map[string][]idRange // ids recorded as skipped, by prefix (read at the first gap)
}

// text takes the statements of the text of the documents want selects,
// each once: what DocCheck read of them.
//
// A document taken is replaced in c.docs by a copy (the extracted one is
// shared between runs): a rule re-reads c.docs after calling text.
func (c *checker) text(want func(*docInfo) bool) {
	c.keptText(want)
	wanted := make(map[*sotparse.Doc]*docInfo)
	var summarized []*docInfo
	for i, di := range c.docs {
		if !di.textRead && want(di) {
			cp := *di
			cp.textRead = true
			c.docs[i] = &cp
			if di.d.Summarized() {
				summarized = append(summarized, &cp)
			} else {
				wanted[di.d] = &cp
			}
		}
	}
	// A document a session keeps is read once for as long as it is kept:
	// an edit whose rules compare every document's text (a hot pair, run,
	// command) then reads none of theirs again.
	parallel.For(len(summarized), func(i int) {
		di := summarized[i]
		di.docText = sotparse.MemoText(c.ws, di.d, &textKey, readKeptText)
	})
	if len(wanted) == 0 {
		return
	}
	for i, r := range DocCheck.Some(c.pass, c.ws, func(d *sotparse.Doc) bool { return wanted[d] != nil }) {
		if t, ok := r.(*docText); ok {
			c.docs[i].docText = t
		}
	}
}

// textKey keeps the statements of the text of a document a session keeps.
var textKey sotparse.MemoKey

// keptText takes, when want selects every kept document none of whose
// text is taken yet (a rule that compares what every document says),
// their statements all at once: gathered once for as long as a session
// keeps the same documents, so that an edit copies and looks up none of
// them again. Not in a run whose caller follows the compared documents
// (FollowsCompared): MemoText must say each one is compared, and that
// caller checks them again in focus, so the next run keeps other ones.
func (c *checker) keptText(want func(*docInfo) bool) {
	if len(c.keptAt) == 0 || c.ws.FollowsCompared() {
		return
	}
	for _, k := range c.keptAt {
		if di := c.docs[k]; di.textRead || !want(di) {
			return
		}
	}
	withText := sotparse.Aggregate(c.ws, &keptTextKey, func([]*sotparse.Doc) []*docInfo {
		out := make([]*docInfo, len(c.keptAt))
		parallel.For(len(out), func(j int) {
			cp := *c.docs[c.keptAt[j]]
			cp.textRead = true
			cp.docText = sotparse.MemoText(c.ws, cp.d, &textKey, readKeptText)
			out[j] = &cp
		})
		return out
	})
	for j, k := range c.keptAt {
		c.docs[k] = withText[j]
	}
}

// keptTextKey keeps a session's kept documents with their statements.
var keptTextKey sotparse.MemoKey

func readKeptText(d *sotparse.Doc, content []byte) *docText {
	return sharedIfEmpty(readText(d, content).detach())
}

// DocCheck reads the statements of a document's text the rules compare;
// run takes those of the documents it needs (checker.text).
var DocCheck = &sotparse.DocCheck{Run: readDocText}

func readDocText(p *sotparse.DocPass) any {
	return sharedIfEmpty(readText(p.Doc, p.Content).detach())
}

// sharedIfEmpty returns noText for a text that states none of what the
// rules compare (every document of some workspaces): one shared empty
// docText, not 350 bytes of nil slices each, held until the rules run.
func sharedIfEmpty(dt *docText) *docText {
	if reflect.ValueOf(*dt).IsZero() {
		return &noText
	}
	return dt
}

// detach gives dt strings of its own: its statements are read from views
// of the document's text, which they outlive.
func (dt *docText) detach() *docText {
	// One copy of each view: a line that states many things is held
	// once, as its view was.
	var copies owned.Copies
	own := copies.Own
	clone := func(st *statement) { st.text = own(st.text) }
	dt.roles.detach(own)
	if dt.stillRequired != nil {
		clone(dt.stillRequired)
	}
	for i := range dt.doNotMark {
		dt.doNotMark[i].id = own(dt.doNotMark[i].id)
		clone(&dt.doNotMark[i].stmt)
	}
	// The maps readText fills become sorted slices: a small map costs
	// hundreds of bytes, held for every document until the rules run.
	if dt.validatedIDs != nil {
		dt.validatedStmts = make([]idStatement, 0, len(dt.validatedIDs))
		for id, st := range dt.validatedIDs {
			clone(&st)
			dt.validatedStmts = append(dt.validatedStmts, idStatement{id: own(id), stmt: st})
		}
		slices.SortFunc(dt.validatedStmts, func(a, b idStatement) int { return strings.Compare(a.id, b.id) })
		dt.validatedIDs = nil
	}
	if dt.prerequisites != nil {
		pre := make(map[string][]idStatement, len(dt.prerequisites))
		for item, sts := range dt.prerequisites {
			for i := range sts {
				sts[i].id = own(sts[i].id)
				clone(&sts[i].stmt)
			}
			pre[own(item)] = sts
		}
		dt.prerequisites = pre
	}
	// The file names it names are read by superseded only, for a
	// document that forbids marking an id validated or says one is: a
	// document that names every other (hundreds of names) and does
	// neither would hold them for nothing until the rules run.
	if len(dt.doNotMark) == 0 && len(dt.validatedStmts) == 0 {
		dt.fileNames = nil
	}
	if dt.fileNames != nil {
		dt.names = make([]string, 0, len(dt.fileNames))
		for n := range dt.fileNames {
			dt.names = append(dt.names, own(n))
		}
		slices.Sort(dt.names)
		dt.fileNames = nil
	}
	// The cites' paths are no views of the text (readRunCites): only
	// the slice, held to its length, not what append grew.
	if cap(dt.runCites) > len(dt.runCites) {
		dt.runCites = slices.Clone(dt.runCites)
	}
	for i := range dt.commandSays {
		c := &dt.commandSays[i]
		c.value, c.label, c.said = own(c.value), own(c.label), own(c.said)
	}
	// The counts and the commits are read by copiedResults only, of a
	// document with minCopiedResults counts or more and a commit: the
	// rest is let go here, and of the commits after the first only the
	// hash is kept (an evidence record names a commit and lists a count
	// for each command it ran: ten statements each, held until the rules
	// run, were ~5 MB on 10,000 such records).
	switch {
	case dt.counts.n < minCopiedResults:
		dt.counts, dt.textCommits = testCounts{}, nil
	case len(dt.textCommits) == 0:
		dt.counts.texts = nil // its number still says copiedResults has work
	}
	if dt.counts.texts != nil {
		dt.counts.sig = string(dt.counts.texts)
		dt.counts.texts = nil
	}
	if cap(dt.textCommits) > len(dt.textCommits) {
		dt.textCommits = slices.Clone(dt.textCommits)
	}
	for i := range dt.textCommits {
		dt.textCommits[i].sha = own(dt.textCommits[i].sha)
		if i == 0 {
			clone(&dt.textCommits[i].stmt)
		} else {
			dt.textCommits[i].stmt = statement{}
		}
	}
	for i := range dt.skips {
		dt.skips[i].prefix = own(dt.skips[i].prefix)
	}
	if dt.deniesApproval != nil {
		clone(dt.deniesApproval)
	}
	for i := range dt.guards {
		dt.guards[i].word = own(dt.guards[i].word)
		clone(&dt.guards[i].stmt)
	}
	for i := range dt.artifactSays {
		dt.artifactSays[i].value = own(dt.artifactSays[i].value)
		clone(&dt.artifactSays[i].stmt)
	}
	for i := range dt.states {
		clone(&dt.states[i].stmt)
		dt.states[i].words = own(dt.states[i].words)
	}
	return dt
}

// report reports a finding in a file the run is focused on.
func (c *checker) report(path string, pos, end token.Pos, category, msg string, rel []analysis.RelatedInformation) {
	if !c.ws.Focused(path) {
		return
	}
	if len(rel) > maxRelated {
		rel = slices.Clone(rel[:maxRelated]) // not the array of the places dropped
	}
	c.pass.Report(analysis.Diagnostic{Pos: pos, End: end, Category: category, Message: msg, Related: rel})
}

// statement is a sentence of a document, code spans written back in.
type statement struct {
	pos, end token.Pos
	text     string
}

// docInfo holds what the rules compare of one document.
type docInfo struct {
	d         *sotparse.Doc
	validated bool // frontmatter status validated
	blocked   bool // frontmatter status blocked

	approvalFalse   []*sotparse.Fact
	approvalGranted bool             // a fact records approval granted
	passed          bool             // a "... passed: true" fact or a test count
	links           sotparse.TextSet // .sot paths it names
	workboardList   *listSection     // the ids of a "Workboard" section
	phraseIDs       []idStatement    // ids its required phrases name
	commands        []commandFact    // "- Harness command: `...`"
	provenance      []*sotparse.Fact // facts giving an approval source (provenanceKey)
	factRoles       roleSet          // roles its key: value facts give
	textRead        bool             // docText is taken (checker.text)
	// The statements of its text, shared with the DocCheck's result (not
	// a copy of it: every document's would be held twice); noText until
	// taken. Read-only.
	*docText
}

// cited returns the absolute paths di's document cites that name a file
// a run left (a report, a proof), not a directory such as a repository
// that many runs share. Read from the document's references when asked:
// held for every document until the rules run, a copy of them was the
// larger part of what the check kept of a document citing its runs.
func (di *docInfo) cited() iter.Seq[sotparse.Ref] {
	return func(yield func(sotparse.Ref) bool) {
		for _, r := range di.d.Refs.Of(sotparse.RefAbsPath) {
			if r.Kind == sotparse.RefAbsPath && strings.Contains(path.Base(r.Text), ".") && !yield(r) {
				return
			}
		}
	}
}

// noText is the docText of a document whose text is not taken.
var noText docText

// docText holds the statements of a document's text the rules compare
// (readText): positions and the sentences quoted in messages.
type docText struct {
	roles          roleSet
	stillRequired  *statement               // "approval is still required"
	doNotMark      []idStatement            // "Do not mark `ID` validated", in a blocked document
	fileNames      map[string]bool          // document file names it names ("X-EVIDENCE.md"), while read
	names          []string                 // fileNames, sorted (detach)
	validatedIDs   map[string]statement     // "`ID` is validated ...", while read
	validatedStmts []idStatement            // validatedIDs, sorted by id (detach)
	prerequisites  map[string][]idStatement // work item -> ids its section names as prerequisites
	guards         []guardStatement         // "This closeout does not authorize ..."
	states         []stateStatement         // "source admission status remained current"
	artifactSays   []provenanceQuote        // "the proof artifacts record approval_source as `...`"
	runCites       []runCite                // the runs it cites, and how
	commandSays    []commandFact            // commands its sentences, tables and blocks label
	counts         testCounts               // test counts ("103 passed, 4 skipped"), in order, text normalized
	textCommits    []textCommit             // commits its text names (detach keeps the first one's statement only)
	skips          []idRange                // ids it says were skipped on purpose
	deniesApproval *statement               // "JP has not approved this execution."
}

// validatedStatement returns the statement that says id is validated.
func (dt *docText) validatedStatement(id string) (statement, bool) {
	i, ok := slices.BinarySearchFunc(dt.validatedStmts, id, func(s idStatement, id string) int { return strings.Compare(s.id, id) })
	if !ok {
		return statement{}, false
	}
	return dt.validatedStmts[i].stmt, true
}

// namesFile reports whether the text names the document file name.
func (dt *docText) namesFile(name string) bool {
	_, ok := slices.BinarySearch(dt.names, name)
	return ok
}

type idStatement struct {
	id   string
	stmt statement
}

var (
	resultValue   = lazyRE.New(`^\d+ passed(?:, \d+ (?:skipped|failed|xfailed|xpassed|deselected|errors?|warnings?))*$`)
	commitSHA     = lazyRE.New(`^[0-9a-f]{7,40}$`)
	stillRequired = lazyRE.New(`(?i)\bapproval (?:is|remains) still required\b|\bstill requires? [^.]*\bapproval\b`)
	// validatedState says items are validated: "`ID` is validated ...",
	// "`ID`: validated.", after a label.
	validatedState = lazyRE.New(`(?i)^(?:[A-Za-z][A-Za-z ]*:\s*)?` + code + `(?:(?:,| and|, and) ` + code + `)*(?: (?:is|are)|:) validated\b`)
)

const code = sotparse.CodePlaceholder

// extracted keeps what extract read of a document a session keeps.
var extracted sotparse.MemoKey

// keptExtracted keeps extract's results of the kept documents, in order.
var keptExtracted sotparse.MemoKey

// extract reads what the rules compare of d's typed model.
func extract(d *sotparse.Doc) *docInfo {
	di := &docInfo{d: d, docText: &noText}
	di.validated, di.blocked = status(d)
	for _, f := range d.Facts.Each() {
		key, v := fact(&f)
		if provenanceKey(key) {
			kept := f // a copy of its own: f stays off the heap for the facts not kept
			di.provenance = append(di.provenance, &kept)
		}
		switch {
		case resultValue.MatchString(v):
			di.passed = true
		case strings.HasSuffix(key, "passed") && strings.EqualFold(v, "true"):
			di.passed = true
		case approvalFalse(key, v):
			kept := f
			di.approvalFalse = append(di.approvalFalse, &kept)
		case approvalGranted(key, v):
			di.approvalGranted = true
		case strings.HasSuffix(key, "status") && (strings.EqualFold(v, "pass") || strings.EqualFold(v, "passed")):
			di.passed = true // "Report status: `pass`"
		case commandKey(key):
			if _, ok := soleCode(f.Value); ok {
				if owner := ownerOf(key); owner != "" {
					cf := newCommand(owner, "", f.Key, f.Value, f.Pos, f.End)
					cf.fact = true
					di.commands = append(di.commands, cf)
				}
			}
		}
	}
	// Held for every document until the rules run: as ids, not a map
	// of strings (a document that names hundreds held ~5 KB).
	di.links = d.Refs.TextSet(sotparse.RefSOTPath, "/")
	di.factRoles.add(nil, nil, factRoles(d)...)
	di.factRoles.index = nil
	workIDs := idRefs{d: d}
	for i, h := range d.Headings {
		if workboardHeading(h.Text) && di.workboardList == nil {
			di.workboardList = &listSection{heading: h, ids: idsIn(workIDs.get(), h.End, secEnd(d, i))}
		}
	}
	for _, pl := range d.PhraseLists {
		for _, ph := range pl.Phrases {
			for _, id := range idsIn(workIDs.get(), ph.Pos, ph.End) {
				di.phraseIDs = append(di.phraseIDs, idStatement{id: id, stmt: statement{pos: ph.Pos, end: ph.End, text: quote(ph.Text)}})
			}
		}
	}
	return di
}

// workboardHeading reports whether a heading starts a closeout's list of
// the items it closes: "Workboard", "Workboard Items Closed".
func workboardHeading(h string) bool {
	f := strings.Fields(h)
	return len(f) > 0 && strings.EqualFold(f[0], "Workboard")
}

// status reports whether d's frontmatter status is validated or blocked.
func status(d *sotparse.Doc) (validated, blocked bool) {
	if fm := d.Frontmatter; fm != nil && fm.Status != nil && fm.Status.Scalar {
		switch strings.ToLower(strings.TrimSpace(fm.Status.Value)) {
		case "validated":
			return true, false
		case "blocked":
			return false, true
		}
	}
	return false, false
}

// fact returns a fact's key, lower-cased, and its value as plain text.
func fact(f *sotparse.Fact) (key, value string) {
	return factKey(f), plain(f.Value)
}

// factKey returns a fact's key, lower-cased.
func factKey(f *sotparse.Fact) string {
	return strings.ToLower(strings.TrimSpace(strings.Trim(f.Key, "`")))
}

// approvalKey reports whether a fact key names the approval's state:
// "approval_granted", "`approval granted`", "approval status".
func approvalKey(key string) bool {
	if !strings.HasPrefix(key, "approv") && !strings.HasPrefix(key, "jp") && !strings.HasPrefix(key, "*") {
		return false // most keys: no string built
	}
	switch strings.ReplaceAll(strings.ReplaceAll(key, "*", ""), " ", "_") {
	case "approval_granted", "approval", "approval_status", "approved", "jp_approval":
		return true
	}
	return false
}

// approvalFalse reports whether a fact records that approval was not
// granted: "approval_granted: false", "approval granted: no", "approval
// status: pending".
func approvalFalse(key, value string) bool {
	if !approvalKey(key) {
		return false
	}
	w := strings.ToLower(value)
	for _, no := range []string{"false", "no", "not granted", "not given", "pending", "denied", "none"} {
		if w == no || strings.HasPrefix(w, no+" ") {
			return true
		}
	}
	return false
}

// commandKey reports whether a fact's key labels a command (commandLabel),
// run only on a key holding one of its words; a non-ASCII rune may fold to
// one of their letters (U+017F to s), so such a key is read.
func commandKey(key string) bool {
	return lineKeys.Mask(key)&(commandKeys|keywords.NonASCII) != 0 && commandLabel.MatchString(key)
}

// approvalGranted reports whether a fact records approval granted.
func approvalGranted(key, value string) bool {
	if !approvalKey(key) {
		return false // most facts: the value is not lowered
	}
	w, _, _ := strings.Cut(strings.ToLower(value), " ")
	return w == "true" || w == "yes" || w == "granted"
}

// idRefs are a document's work id references, by position, collected at
// the first get: many documents read need none of them, and collected
// by appending, then sorted through reflection, for each document
// extracted and each read (twice a document) they were 30% of what a
// run on distinct-10000 allocated (460 MB).
type idRefs struct {
	d    *sotparse.Doc
	refs []sotparse.Ref
	done bool
}

func (ir *idRefs) get() []sotparse.Ref {
	if ir.done {
		return ir.refs
	}
	ir.done = true
	for _, r := range ir.d.Refs.All() {
		if r.Kind == sotparse.RefWorkID {
			if ir.refs == nil {
				ir.refs = make([]sotparse.Ref, 0, ir.d.Refs.Len()) // most of them, often
			}
			ir.refs = append(ir.refs, r)
		}
	}
	byPos := func(a, b sotparse.Ref) int { return cmp.Compare(a.Pos, b.Pos) }
	if !slices.IsSortedFunc(ir.refs, byPos) {
		slices.SortStableFunc(ir.refs, byPos)
	}
	return ir.refs
}

// secEnd returns the end of the section of d's i-th heading.
func secEnd(d *sotparse.Doc, i int) token.Pos {
	for _, g := range d.Headings[i+1:] {
		if g.Level <= d.Headings[i].Level {
			return g.Pos
		}
	}
	return d.File.Pos(d.File.Tok.Size())
}

// readText reads the statements of d's text (content): those of the
// document's own sentences the rules compare.
// readEveryLine, a test hook, reads every body line by line.
var readEveryLine bool

func readText(d *sotparse.Doc, content []byte) *docText {
	di := &docText{}
	workIDs, tf := idRefs{d: d}, d.File.Tok
	_, blocked := status(d)
	// "Approval is still required" contradicts only a record of approval
	// not granted.
	approvalDenied := false
	for _, f := range d.Facts.Each() {
		// The key first: most facts are not approval's.
		if approvalKey(factKey(&f)) && approvalFalse(fact(&f)) {
			approvalDenied = true
			break
		}
	}
	// The section of each work item, for the prerequisites it names.
	items := itemSections(d)
	itemAt := items.at
	// Every statement read here holds a backtick, "This ", a "model" or,
	// where approval is denied, "required": a body that holds none of them, as
	// most do not, is not read line by line.
	body := content[min(tf.Offset(d.BodyStart), len(content)):]
	// Whether the body holds a state word is searched for only when it
	// decides something: when nothing else has the body read, or at the
	// first line that may state one. Most bodies read have neither.
	states, statesKnown := false, false
	holdsState := func() bool {
		if !statesKnown {
			states, statesKnown = hasStateWord(body), true
		}
		return states
	}
	// The body holds one if a line of it does: the line that may state
	// one is searched first, and the whole body only when it is not
	// found there (most lines that may hold one do).
	lineHoldsState := func(l bodylines.Line) bool {
		if !statesKnown && hasStateWord(content[l.Off:l.Off+len(l.Text)]) {
			states, statesKnown = true, true
		}
		return holdsState()
	}
	if !readEveryLine &&
		bytes.IndexByte(body, '`') < 0 && !mayHoldGuard(body) &&
		!bytes.Contains(body, []byte("odel")) && // a provider's "model", in plain text or a table's header
		!bytes.Contains(body, []byte(" passed")) && // a test count
		!(approvalDenied && bodylines.ContainsFold(string(body), "required")) && !holdsState() {
		return di
	}
	var table roleTable // the table the line is a row of
	di.runCites = readRunCites(d, content)
	di.commandSays = append(di.commandSays, readBlockCommands(d, content)...)
	factLines := map[int]bool{} // the lines of its facts, read as facts
	if d.Facts.Len() > 0 {
		lined := d.File.Lines() // during the parse the table is whole; Lines() costs nothing then, and a later reader would find it packed
		for _, f := range d.Facts.Each() {
			factLines[lined.Line(f.Pos)] = true
		}
	}
	readiness := "" // the label ("Readiness packet:") the lines that follow are listed under
	// Sentences are read from the text, line by line outside fenced code
	// and blockquotes: a document taken from a summary has no blocks.
	// Each rule's regular expression runs only on the lines that hold its
	// key word, which a plain search finds far faster: most lines hold none.
	bodylines.Each(content, tf.Offset(d.BodyStart), len(content), func(l bodylines.Line) {
		if l.Quoted {
			return
		}
		text := l.Text
		m := lineKeys.Mask(text) // the key words of every test below, found in one pass
		if len(items.spans) > 0 {
			readiness = prerequisiteLabel(text, readiness, m)
		}
		if di.stillRequired == nil && approvalDenied && m&kRequired != 0 && stillRequired.MatchString(text) {
			st := lineStatement(d, l)
			di.stillRequired = &st
		}
		if maySaySkippedIn(text, m) && hasID(workIDs.get(), d.File.Pos(l.Off), d.File.Pos(l.Off+len(text))) && skipWord.MatchString(text) {
			di.skips = append(di.skips, readSkips(text)...)
		}
		if m&kPassed != 0 && strings.Contains(text, " passed") {
			for _, st := range readCounts(d, l) {
				di.counts.add(st)
			}
		}
		if m&kCommit != 0 {
			di.textCommits = append(di.textCommits, readCommits(d, l)...)
		}
		if m&commandKeys != 0 && m&commandObjects != 0 && spanWithSpace(text) && commandLabel.MatchString(text) {
			if cf, ok := readCommand(d, l, factLines); ok {
				di.commandSays = append(di.commandSays, cf)
			}
		}
		if di.deniesApproval == nil && m&kApprov != 0 && m&denialKeys != 0 && approvalDenial.MatchString(text) && !approvalCondition.MatchString(text) {
			st := lineStatement(d, l)
			di.deniesApproval = &st
		}
		if mayHoldState(text, m) && lineHoldsState(l) {
			if st, ok := readState(d, l); ok {
				di.states = append(di.states, st)
			}
		}
		if m&guardKeys != 0 && mayHoldGuardText(text) {
			if word, ok := readGuard(text); ok {
				di.guards = append(di.guards, guardStatement{word: word, stmt: lineStatement(d, l)})
			}
		}
		if m&kApprovalSource != 0 && strings.Contains(text, "approval_source") {
			if m := artifactProvenance.FindStringSubmatch(text); m != nil {
				di.artifactSays = append(di.artifactSays, provenanceQuote{value: plain(m[1]), stmt: lineStatement(d, l)})
			}
		}
		if t := strings.TrimSpace(text); strings.HasPrefix(t, "|") {
			st := lineStatement(d, l)
			di.roles.add(content, tf, table.row(d, st.pos, st.end, t)...)
		} else {
			table = roleTable{}
		}
		if blocked && m&validationKeys != 0 {
			st := lineStatement(d, l)
			for _, id := range deniedValidation(st.text, idsIn(workIDs.get(), st.pos, st.end)) {
				di.doNotMark = append(di.doNotMark, idStatement{id: id, stmt: st})
			}
		}
		if m&kMD != 0 && strings.Contains(text, ".md") {
			for _, m := range docFileNames(text) {
				if di.fileNames == nil {
					di.fileNames = map[string]bool{}
				}
				di.fileNames[m] = true
			}
		}
		var item string
		if len(items.spans) > 0 {
			item = itemAt(d.File.Pos(l.Off))
		}
		if strings.IndexByte(text, '`') < 0 {
			// An id in plain text ("**Needs first:** CTO-WORK-050").
			if item != "" && (readiness != "" || m&namePrerequisiteKeys != 0 && mayNamePrerequisite(m) && prerequisiteWord.MatchString(text)) && !blockedByLine.MatchString(text) {
				di.readPrerequisites(newLine(d, l), item, readiness != "", workIDs.get())
			}
			// A pair named in plain text says "with model" or ", model".
			if m&kModel != 0 && mayNameRole(m) && roleWord.MatchString(text) {
				di.roles.add(content, tf, newLine(d, l).roleClaims()...)
			}
			return // every other statement read here quotes an id or a name
		}
		validated := m&kValidated != 0
		prereq := item != "" && (readiness != "" || m&prerequisiteKeys != 0) && !blockedByLine.MatchString(text)
		role := m&pairKeys != 0 && mayNameRole(m)
		if !validated && !prereq && !role {
			return
		}
		ln := newLine(d, l)
		if ln.text == "" {
			return
		}
		ids := func() []string { return idsIn(workIDs.get(), ln.pos, ln.end) }
		if validated && validatedState.MatchString(ln.text) && !negated.MatchString(ln.text) {
			for _, id := range ids() {
				if di.validatedIDs == nil {
					di.validatedIDs = map[string]statement{}
				}
				if _, ok := di.validatedIDs[id]; !ok {
					di.validatedIDs[id] = statement{pos: ln.pos, end: ln.end, text: ln.source}
				}
			}
		}
		if prereq && (readiness != "" || mayNamePrerequisite(m) && prerequisiteWord.MatchString(ln.text)) {
			di.readPrerequisites(ln, item, readiness != "", workIDs.get())
		}
		if role && strings.Contains(ln.text, code) && roleWord.MatchString(ln.text) {
			di.roles.add(content, tf, ln.roleClaims()...)
		}
	})
	return di
}

// lineKeys are the key words readText's tests look for before their
// regular expressions, in any case; a case-sensitive test checks its word
// again when the bit is set. Each group below is the words one test needs.
var lineKeys = keywords.New(
	"required", " passed", "commit", "approv", "not ", "pending", "this ", "this*", "approval_source",
	"validat", "candidate", ".md", " model ", "validated",
	// skipWord's stems
	"skip", "reserv", "withdr", "retir", "intention", "deliberate", "purpose", "used", "assign",
	// commandLabel's labels and what they run
	"command", "validator", "self-test", "run", "harness", "target", "test", "validation", "repo",
	// stateWords
	"current", "admitted", "resolved", "fresh",
	// prerequisiteWord's
	"first", "before", "until", "readiness", "prerequisite", "requires", "depends on", "needed",
	"must exist before", "must be done before",
	// a pair of provider and model, and its role
	"need", "can't",
	"` / `", " with model ", ", model ", "` (model `",
	"primary", "fallback", "default", "backup", "secondary", "fall back", "falls back", "fell back", "falling back",
)

var (
	kRequired, kPassed, kCommit, kApprov = lineKeys.Bits("required"), lineKeys.Bits(" passed"), lineKeys.Bits("commit"), lineKeys.Bits("approv")
	kApprovalSource, kMD, kModel         = lineKeys.Bits("approval_source"), lineKeys.Bits(".md"), lineKeys.Bits(" model ")
	kValidated                           = lineKeys.Bits("validated")
	denialKeys                           = lineKeys.Bits("not ", "pending")
	guardKeys                            = lineKeys.Bits("this ", "this*")
	validationKeys                       = lineKeys.Bits("validat", "candidate")
	skipStems, skipUses, kNot            = lineKeys.Bits("skip", "reserv", "withdr", "retir", "intention", "deliberate", "purpose"), lineKeys.Bits("used", "assign"), lineKeys.Bits("not ")
	skipKeys                             = skipStems | skipUses
	commandKeys                          = lineKeys.Bits("command", "validator", "self-test", "run")
	commandObjects                       = lineKeys.Bits("harness", "target", "test", "validation", "repo")
	stateKeys                            = lineKeys.Bits("current", "admitted", "resolved", "fresh")
	namePrerequisiteKeys                 = lineKeys.Bits("first", "before", "until", "readiness", "prerequisite", "requires", "depends on", "needed")
	prerequisiteKeys                     = lineKeys.Bits("readiness", "prerequisite", "requires", "depends on", "must exist before", "must be done before", "first", "before", "until")
	pairKeys                             = lineKeys.Bits("` / `", " with model ", ", model ", "` (model `")
	prerequisiteOwn                      = lineKeys.Bits("readiness", "prerequisite", "must exist before", "must be done before", "requires", "depends on")
	kNeed, kFirst                        = lineKeys.Bits("need"), lineKeys.Bits("first")
	negationKeys, untilKeys              = lineKeys.Bits("not ", "can't"), lineKeys.Bits("before", "until")
	roleKeys                             = lineKeys.Bits("primary", "fallback", "default", "backup", "secondary", "fall back", "falls back", "fell back", "falling back")
)

// guardStatement is a sentence in which a document says what it, as a
// document of some kind, does not do.
type guardStatement struct {
	word string // the kind it names, lower-cased ("closeout")
	stmt statement
}

// guardSentence is a guard: "This closeout does not authorize another Case
// run.", after a list marker or a label ("State: "); "This closeout
// grants no further run" says the same with another verb.
var guardSentence = lazyRE.New(`^\s*(?:[-*+]\s+(?:\[[ xX]\]\s+)?)?(?:[A-Z][A-Za-z ]{0,24}:\s+)?This (` + guardKinds + `) (?:does not|is not|must not|cannot|will not|never|(?:grants|authorizes|permits|allows|gives|makes|opens|starts|approves|is|has) no)\b`)

// passiveGuard is a guard in the other word order: "Another Case run is
// not authorized by this closeout."
var passiveGuard = lazyRE.New(`^\s*(?:[-*+]\s+(?:\[[ xX]\]\s+)?)?(?:[A-Z][A-Za-z ]{0,24}:\s+)?[A-Z][^.;:]*?\b(?:is|are|was|were) (?:not|never) \w+ by this (` + guardKinds + `)\b`)

const guardKinds = `closeout|record|evidence|packet|brief|guard|audit|attempt|template|contract|matrix|blocker|PRD`

// readGuard reads a line as a guard: emphasis is not part of the words
// ("**This closeout** does *not* ..."), and each cell of a table row is a
// sentence of its own. It returns the kind the guard names, lower-cased.
func readGuard(text string) (string, bool) {
	text = strings.ReplaceAll(text, "*", "")
	cells := []string{text}
	if t := strings.TrimSpace(text); strings.HasPrefix(t, "|") {
		cells = strings.Split(strings.Trim(t, "|"), "|")
	}
	for _, cell := range cells {
		cell = strings.TrimSpace(cell)
		// Each expression holds its phrase literally, case and all: a cell
		// without it is not matched against it.
		if strings.Contains(cell, "This ") {
			if m := guardSentence.FindStringSubmatch(cell); m != nil {
				return strings.ToLower(m[1]), true
			}
		}
		if strings.Contains(cell, " by this ") {
			if m := passiveGuard.FindStringSubmatch(cell); m != nil {
				return strings.ToLower(m[1]), true
			}
		}
	}
	return "", false
}

// readPrerequisites records the ids ln names as prerequisites of item: all
// of them under a label ("Readiness packet:"), else those after the
// relation; a sentence that denies it ("is not a prerequisite") names none,
// nor one whose verb has another item as its subject ("`CTO-WORK-051`
// requires ...").
func (di *docText) readPrerequisites(ln *line, item string, labeled bool, workIDs []sotparse.Ref) {
	if ln.text == "" || deniedPrerequisite.MatchString(ln.text) {
		return
	}
	from := ln.pos
	if !labeled {
		if m := prerequisiteVerbRE.FindStringIndex(ln.text); m != nil {
			subject := ln.d.File.Pos(ln.off(m[0]))
			for _, id := range idsIn(workIDs, ln.pos, subject) {
				if id != item {
					return
				}
			}
			from = subject
		}
	}
	for _, id := range idsIn(workIDs, from, ln.end) {
		if id == item {
			continue
		}
		if di.prerequisites == nil {
			di.prerequisites = map[string][]idStatement{}
		}
		di.prerequisites[item] = append(di.prerequisites[item], idStatement{id: id, stmt: statement{pos: ln.pos, end: ln.end, text: ln.source}})
	}
}

// listSection is a section that lists work ids ("## Workboard").
type listSection struct {
	heading *sotparse.Heading
	ids     []string
}

var (
	// prerequisiteWord marks a sentence that makes what it names a
	// prerequisite of the item whose section holds it.
	prerequisiteWord = lazyRE.New(`(?i)\b(?:readiness|prerequisites?|must exist before|must be done before|needed first)\b|` + prerequisiteVerb)
	// prerequisiteVerb is the section's item needing what follows: "requires
	// X", "depends on X", "needs X first", "cannot start before X".
	prerequisiteVerb   = `(?i)\b(?:requires|depends on|needs?\b[^.;]{0,60}?\bfirst|(?:cannot|can't|can not|must not|may not) (?:start|begin|proceed|run|execute)(?: \w+)? (?:before|until))\b`
	prerequisiteVerbRE = lazyRE.New(prerequisiteVerb)
	// deniedPrerequisite denies the relation: "`X` is not a prerequisite".
	deniedPrerequisite = lazyRE.New(`(?i)\b(?:not|no|never)\s+(?:\w+\s+){0,2}(?:prerequisites?|readiness|needed|required|dependency|blocker)\b`)
	// blockedByLine is the item's own dependency list, which names its
	// blockers, not what it is a prerequisite of.
	blockedByLine = lazyRE.New(`(?i)^\s*(?:[-*+]\s+)?blocked by:`)
)

// prerequisiteLabel returns the label the lines after l are listed under:
// a paragraph line that ends with a colon and names a prerequisite
// ("Readiness packet:") starts one, any other paragraph line ends it; list
// items keep it.
// m is the line's lineKeys mask: a line without the words
// prerequisiteWord needs (mayNamePrerequisite) is not matched against it.
func prerequisiteLabel(l, label string, m uint64) string {
	t := strings.TrimSpace(l)
	switch {
	case t == "":
		return label
	case strings.HasPrefix(t, "- ") || strings.HasPrefix(t, "* ") || strings.HasPrefix(t, "+ "):
		return label
	case strings.HasPrefix(t, "|"):
		// A table: a header naming the relation starts a label ("| Needed
		// first | Item |"), and its rows keep it.
		if mayNamePrerequisite(m) && prerequisiteWord.MatchString(t) {
			return t
		}
		return label
	case strings.HasSuffix(t, ":") && mayNamePrerequisite(m) && prerequisiteWord.MatchString(t) && !blockedByLine.MatchString(t):
		return t
	}
	return ""
}

// line is a body line as the rules read it: its text with each code span
// replaced by sotparse.CodePlaceholder (what a code span says is quoted),
// the spans' texts, and the source.
type line struct {
	d        *sotparse.Doc
	text     string
	codes    []string
	codeAt   []int // index in text of each placeholder
	anchors  []anchor
	source   string // the line without its list marker, for messages
	pos, end token.Pos
}

// anchor maps text[at:] to the file offset off (byte for byte up to the
// next anchor).
type anchor struct{ at, off int }

// statementBody returns the statement l holds and its offset in l.Text:
// the line without its indentation, a list marker or a task box, and
// trailing blanks.
func statementBody(l bodylines.Line) (body string, start int) {
	raw := l.Text
	start = len(raw) - len(strings.TrimLeft(raw, " \t"))
	// A list marker or a task box is not part of the statement.
	for _, m := range []string{"- [ ] ", "- [x] ", "- [X] ", "- ", "* ", "+ "} {
		if strings.HasPrefix(raw[start:], m) {
			start += len(m)
			break
		}
	}
	return strings.TrimRight(raw[start:], " \t"), start
}

// lineStatement is the statement of newLine(d, l), its place and its
// quote, without the line's reading (its code spans, its placeholders):
// what most rules keep of a line.
func lineStatement(d *sotparse.Doc, l bodylines.Line) statement {
	body, start := statementBody(l)
	return statement{pos: d.File.Pos(l.Off + start), end: d.File.Pos(l.Off + start + len(body)), text: quote(body)}
}

func newLine(d *sotparse.Doc, l bodylines.Line) *line {
	body, start := statementBody(l)
	ln := &line{d: d, source: quote(body), pos: d.File.Pos(l.Off + start), end: d.File.Pos(l.Off + start + len(body))}
	var b strings.Builder
	b.Grow(len(body)) // the text's size unless it holds code spans shorter than the placeholder
	i := 0
	ln.anchors = append(ln.anchors, anchor{0, l.Off + start})
	for i < len(body) {
		j := strings.IndexByte(body[i:], '`')
		if j < 0 {
			b.WriteString(body[i:])
			break
		}
		j += i
		k := strings.IndexByte(body[j+1:], '`')
		if k < 0 {
			b.WriteString(body[i:])
			break
		}
		k += j + 1
		b.WriteString(body[i:j])
		ln.codeAt = append(ln.codeAt, b.Len())
		ln.codes = append(ln.codes, strings.TrimSpace(body[j+1:k]))
		b.WriteString(code)
		ln.anchors = append(ln.anchors, anchor{b.Len(), l.Off + start + k + 1})
		i = k + 1
	}
	ln.text = b.String()
	return ln
}

// off returns the file offset of text[i].
func (ln *line) off(i int) int {
	a := ln.anchors[0]
	for _, x := range ln.anchors[1:] {
		if x.at > i {
			break
		}
		a = x
	}
	return a.off + i - a.at
}

// codeText returns the text of the code span whose placeholder starts at
// text[i], or "".
func (ln *line) codeText(i int) string {
	for k, at := range ln.codeAt {
		if at == i {
			return ln.codes[k]
		}
	}
	return ""
}

// withCode returns text[i:j] with its code spans written back.
func (ln *line) withCode(i, j int) string {
	var b strings.Builder
	for k, at := range ln.codeAt {
		if at < i || at >= j {
			continue
		}
		b.WriteString(ln.text[i:at])
		b.WriteString("`" + ln.codes[k] + "`")
		i = at + len(code)
	}
	if i < j {
		b.WriteString(ln.text[i:j])
	}
	return b.String()
}

// maySaySkipped is a plain search for the stems skipWord needs.
func maySaySkipped(t string) bool {
	return maySaySkippedIn(t, lineKeys.Mask(t))
}

// maySaySkippedIn reports whether t, of mask m (lineKeys), holds what a
// match of skipWord must: one of its stems, or "used" or "assign" with
// the word that makes them one ("unused", "not ", "never"). Most lines
// with "used" in them say "focused" or "caused". A line with non-ASCII
// bytes passes on "used" or "assign" alone: the expression's case
// folding may read "unuſed" there.
func maySaySkippedIn(t string, m uint64) bool {
	switch {
	case m&skipStems != 0:
		return true
	case m&skipUses == 0:
		return false
	}
	return m&(kNot|keywords.NonASCII) != 0 || bodylines.ContainsFold(t, "never") || bodylines.ContainsFold(t, "unused")
}

// hasID reports whether refs (sorted by position) hold one in [pos, end].
func hasID(refs []sotparse.Ref, pos, end token.Pos) bool {
	i := sort.Search(len(refs), func(i int) bool { return refs[i].Pos >= pos })
	return i < len(refs) && refs[i].Pos <= end
}

// mayNamePrerequisite reports whether a line of mask m (lineKeys) holds
// what a match of prerequisiteWord must: one of its own words, "need" with
// "first", or a negation with "before" or "until". A line that passed the
// ASCII key test and holds non-ASCII bytes still goes to the expression,
// whose case folding reaches beyond ASCII ("ſ", the Kelvin sign).
func mayNamePrerequisite(m uint64) bool {
	return m&keywords.NonASCII != 0 || m&prerequisiteOwn != 0 || m&kNeed != 0 && m&kFirst != 0 ||
		m&negationKeys != 0 && m&untilKeys != 0
}

// mayNameRole reports whether a line of mask m (lineKeys) may hold a match
// of roleWord: one of its words (roleKeys), or non-ASCII bytes, which the
// expression's case folding may read as one ("bac\u212aup").
func mayNameRole(m uint64) bool {
	return m&(roleKeys|keywords.NonASCII) != 0
}

// spanWithSpace reports whether t holds a code span with a space in it,
// as a command with arguments is.
func spanWithSpace(t string) bool {
	for {
		i := strings.IndexByte(t, '`')
		if i < 0 {
			return false
		}
		j := strings.IndexByte(t[i+1:], '`')
		if j < 0 {
			return false
		}
		if strings.IndexByte(t[i+1:i+1+j], ' ') >= 0 {
			return true
		}
		t = t[i+j+2:]
	}
}

// idsIn returns the distinct work ids of refs (sorted by position) in
// [pos, end].
func idsIn(refs []sotparse.Ref, pos, end token.Pos) []string {
	i := sort.Search(len(refs), func(i int) bool { return refs[i].Pos >= pos })
	var out []string
	for ; i < len(refs) && refs[i].Pos <= end; i++ {
		if !slices.Contains(out, refs[i].Text) {
			out = append(out, refs[i].Text)
		}
	}
	return out
}

// plain returns a fact value without code-span backticks and a final
// period.
func plain(v string) string {
	v = strings.TrimSpace(v)
	v = strings.TrimSuffix(v, ".")
	return strings.TrimSpace(strings.ReplaceAll(v, "`", ""))
}

// quote shortens a sentence for a message.
func quote(s string) string {
	const max = 200
	if len(s) > max {
		cut := strings.LastIndexByte(s[:max], ' ')
		if cut < max/2 {
			cut = max
		}
		s = s[:cut] + " ..."
	}
	return s
}

func rel(pos token.Pos, format string, args ...any) analysis.RelatedInformation {
	return analysis.RelatedInformation{Pos: pos, Message: fmt.Sprintf(format, args...)}
}

// relList collects a finding's related places, the first maxRelated of
// them: report keeps no more, and a finding about what many documents
// say (a pair a thousand sentences give a role) formatted a place for
// each of them, for every finding, and held them all through the
// slice's array (3.4 GB on a 1,000-document workspace).
type relList []analysis.RelatedInformation

// full reports whether l holds as many places as a finding keeps.
func (l relList) full() bool { return len(l) >= maxRelated }

// add appends a place, formatted, unless l is full.
func (l *relList) add(pos token.Pos, format string, args ...any) {
	if !l.full() {
		*l = append(*l, rel(pos, format, args...))
	}
}

// mayHoldGuard: the literals a guard sentence's expressions need ("This
// …", "… by this …"), emphasis or not ("**This** closeout …"), whose
// marks readGuard removes before it reads.
func mayHoldGuard(text []byte) bool {
	return bytes.Contains(text, []byte("This ")) || bytes.Contains(text, []byte("This*")) ||
		bytes.Contains(text, []byte(" by this ")) || bytes.Contains(text, []byte(" by *"))
}

// mayHoldGuardText is mayHoldGuard of a line's text.
func mayHoldGuardText(text string) bool {
	return strings.Contains(text, "This ") || strings.Contains(text, "This*") ||
		strings.Contains(text, " by this ") || strings.Contains(text, " by *")
}
