// Package sotparse reads a source-of-truth planning workspace into a typed
// model: documents with frontmatter, the workboard, JSON admission records and
// the CONTEXT.md glossary. Every extracted node carries a token.Pos in one
// shared token.FileSet. The package knows no policy: what is wrong with the
// model is for the checks to say; sotparse only records input it could not
// read as Problems.
package sotparse

import (
	"bytes"
	"errors"
	"fmt"
	"go/token"
	"hash/maphash"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"golang.org/x/tools/go/analysis"
)

// Workspace is the parsed model of one planning workspace.
type Workspace struct {
	Root      string // directory the paths are relative to (may be "" for an fs.FS)
	Fset      *token.FileSet
	Files     []*File // every file read, sorted by path
	Docs      []*Doc  // markdown documents, sorted by path
	Workboard *Workboard
	Records   []*Record
	Glossary  *Glossary
	Problems  []Problem // input that could not be read or parsed

	byPath map[string]*File
	docs   map[string]*Doc
	// The files and documents of the run whose paths are those of the
	// index it shares (indexWith) but not its files: byPath and docs
	// then belong to an earlier run, and these come first.
	newFiles map[string]*File
	newDocs  map[string]*Doc
	// The indexes in Docs of the documents in focus (focusedAt), and
	// those documents (FocusedDocs), found once per run.
	focusOnce sync.Once
	focusAt   []int
	focusDocs []*Doc
	known     map[string]bool // every path seen by discovery, files and directories

	focus    func(path string) bool // nil: every file
	read     func(path string) ([]byte, error)
	prefetch func(paths []string)
	readMu   sync.Mutex
	content  map[string][]byte // summarized documents' content Content read
	outRead  map[string]bool   // documents out of focus, parsed, whose Content was asked for
	readErr  error             // the first summarized document that could not be read back
	unread   map[string]bool   // the documents that could not be read back, blank text in their stead

	followCompared bool // Reuse.FollowCompared

	docChecks []*DocCheck                                                  // run by the parse on each document (Stream.Checks)
	prepared  []any                                                        // what each of docChecks prepared for the run
	dropFixes bool                                                         // Stream.DropFixes
	maxPerDoc int                                                          // Stream.MaxPerDoc
	capping   func(*DocCheck, *Doc, []byte, analysis.Diagnostic) CapAction // Stream.Capping
	keep      func(*DocCheck, *Doc, []byte, analysis.Diagnostic) bool      // Stream.Keep
	dropMu    sync.Mutex
	dropped   map[dropKey]int   // diagnostics counted beyond maxPerDoc
	docDiags  atomic.Int64      // diagnostics the DocChecks reported (DocDiagnostics)
	seed      maphash.Seed      // of the released texts' digests
	reread    map[string][]byte // released texts Content read back
	passing   atomic.Int64      // reads of a file TransientContent made and did not keep

	textsOnce sync.Once
	texts     *Texts // the run's table of texts (Texts)

	models  *Models // the session's, when the run was given them (Aggregate)
	kept    []*Doc  // the documents decoded from summaries, with models
	keptGen uint64  // their generation in models
}

// File is one workspace file as it was read.
type File struct {
	Path    string // slash-separated, relative to the workspace root
	Role    Role
	Tok     *token.File // its line table may be packed away: see Lines
	Content []byte

	linesMu sync.Mutex
	packed  []byte // Tok's line table while packed (packLines), else nil
}

// Texts returns the table of texts the run's documents share: their
// references' texts, and what checks name in it.
func (ws *Workspace) Texts() *Texts {
	ws.textsOnce.Do(func() { ws.texts = NewTexts() })
	return ws.texts
}

// Focused reports whether the run reports on path: checks may skip the
// per-document work whose findings would land in files out of focus. Every
// file is in focus unless the run was given a Reuse.
func (ws *Workspace) Focused(path string) bool {
	return ws.focus == nil || ws.focus(path)
}

// Content returns the content of d's file, reading it once when d is a
// summary; offsets into it are offsets of d's positions. If the file cannot
// be read (or changed size) the error is in ReadBackErr, and Content returns
// blank text of the summarized size, which keeps every offset valid: the
// driver discards the run and runs again without summaries.
func (ws *Workspace) Content(d *Doc) []byte {
	if d.released {
		ws.noteRead(d)
		return ws.readBack(d)
	}
	if !d.summary {
		ws.noteRead(d)
		return d.File.Content
	}
	return ws.readAgain(d, ws.content, true, ws.summaryCheck(d))
}

// summaryCheck is what a summary's text read again must be: the size
// summarized, valid UTF-8 text.
func (ws *Workspace) summaryCheck(d *Doc) func([]byte) error {
	return func(b []byte) error {
		switch {
		case len(b) != d.File.Tok.Size():
			// Changed since it was summarized (or listed): offsets would lie.
			return fmt.Errorf("changed while being read (%d bytes, was %d)", len(b), d.File.Tok.Size())
		case !utf8.Valid(b) || bytes.IndexByte(b, 0) >= 0:
			return errors.New("no longer valid UTF-8 text")
		}
		return nil
	}
}

// readAgain returns d's text from seen, or reads it, checking it with
// check, into seen when keep (once), or for this caller only. A text that
// cannot be read or fails the check is an error in ReadBackErr, and blank
// text of d's size stands for it, which keeps every offset valid.
func (ws *Workspace) readAgain(d *Doc, seen map[string][]byte, keep bool, check func([]byte) error) []byte {
	b, _ := ws.readAgainOK(d, seen, keep, check)
	return b
}

// readAgainOK is readAgain, and whether the text is d's (false: blank
// text stands for a text that could not be read or failed check).
func (ws *Workspace) readAgainOK(d *Doc, seen map[string][]byte, keep bool, check func([]byte) error) ([]byte, bool) {
	ws.readMu.Lock()
	b, ok := seen[d.Path]
	failed := ws.unread[d.Path]
	ws.readMu.Unlock()
	if ok {
		return b, !failed
	}
	if !keep {
		ws.passing.Add(1)
	}
	b, err := ws.read(d.Path)
	if err == nil {
		err = check(b)
	}
	ws.readMu.Lock()
	defer ws.readMu.Unlock()
	if err != nil {
		if ws.readErr == nil {
			ws.readErr = fmt.Errorf("%s: %w", d.Path, err)
		}
		if ws.unread == nil {
			ws.unread = map[string]bool{}
		}
		ws.unread[d.Path] = true
		b = bytes.Repeat([]byte{' '}, d.File.Tok.Size())
	}
	if keep {
		seen[d.Path] = b
	}
	return b, err == nil
}

// noteRead records that a check read the text of d, parsed, when it is out
// of focus (TextRead).
func (ws *Workspace) noteRead(d *Doc) {
	if !d.summary { // a summary's text read is in ws.content
		ws.noteCompared(d)
	}
}

// FollowsCompared reports whether the run's caller checks again the
// documents a check compared with those in focus (Reuse.FollowCompared):
// a rule whose findings land on the documents that say what it compares
// then compares them even when no document in focus says it, so that an
// edit that took it out of the documents in focus still names the
// documents whose findings it may change.
func (ws *Workspace) FollowsCompared() bool { return ws.followCompared }

// noteCompared records that a check compared what d's text says, out of
// focus, whether it read the text now or took what it derived from it
// before (MemoText): TextRead lists d.
func (ws *Workspace) noteCompared(d *Doc) {
	if ws.focus == nil || ws.focus(d.Path) {
		return
	}
	ws.readMu.Lock()
	if ws.outRead == nil {
		ws.outRead = map[string]bool{}
	}
	ws.outRead[d.Path] = true
	ws.readMu.Unlock()
}

// readBack returns a released document's text, read again from its file
// once. A text that changed since the parse (its size or digest differs)
// would not match the positions: it is an error in ReadBackErr, and blank
// text of the parsed size stands for it, as for a summary.
func (ws *Workspace) readBack(d *Doc) []byte {
	return ws.readAgain(d, ws.reread, true, ws.digestCheck(d))
}

// digestCheck is what a released text read back must be: the text parsed
// (its size and digest).
func (ws *Workspace) digestCheck(d *Doc) func([]byte) error {
	return func(b []byte) error {
		if len(b) != d.File.Tok.Size() || maphash.Bytes(ws.seed, b) != d.digest {
			return errors.New("changed while being checked")
		}
		return nil
	}
}

// TransientContent is Content, but a text it reads from its file (a
// released one, or a summary's) is not kept: a check that reads the texts
// of many documents once each then holds one at a time, not all of them
// until the run ends. A text already kept is served from memory.
func (ws *Workspace) TransientContent(d *Doc) []byte {
	switch {
	case d.released:
		ws.noteRead(d)
		return ws.readAgain(d, ws.reread, false, ws.digestCheck(d))
	case d.summary:
		return ws.readAgain(d, ws.content, false, ws.summaryCheck(d))
	}
	return ws.Content(d)
}

// ReadBacks returns how many times a check read a text back from its file
// (a released one, or transiently a summary's): a run that keeps at parse
// time what its findings need reads none.
func (ws *Workspace) ReadBacks() int {
	ws.readMu.Lock()
	defer ws.readMu.Unlock()
	return len(ws.reread) + int(ws.passing.Load())
}

// FileContent returns f's content: Content of its document when f is a
// released document, else the content it was read with.
func (ws *Workspace) FileContent(f *File) []byte {
	if d := ws.Doc(f.Path); d != nil && d.File == f && d.released {
		return ws.readBack(d)
	}
	return f.Content
}

// TransientFileContent is FileContent, but a released document's text it
// reads back is not kept (TransientContent): a caller that visits the
// files with findings one after the other holds one text at a time.
func (ws *Workspace) TransientFileContent(f *File) []byte {
	if d := ws.Doc(f.Path); d != nil && d.File == f && d.released {
		return ws.TransientContent(d)
	}
	return f.Content
}

// Prefetch tells the workspace that the content of docs is about to be
// needed, so that summaries among them are read in one go.
func (ws *Workspace) Prefetch(docs []*Doc) {
	if ws.prefetch == nil {
		return
	}
	var paths []string
	ws.readMu.Lock()
	for _, d := range docs {
		if _, ok := ws.content[d.Path]; d.summary && !ok {
			paths = append(paths, d.Path)
		}
	}
	ws.readMu.Unlock()
	if len(paths) > 0 {
		ws.prefetch(paths)
	}
}

// TextRead returns the paths of the documents out of focus whose text a
// check asked for (Content), sorted: the documents it compared with those
// in focus by what they say.
func (ws *Workspace) TextRead() []string {
	ws.readMu.Lock()
	defer ws.readMu.Unlock()
	out := make([]string, 0, len(ws.content)+len(ws.outRead))
	for p := range ws.content {
		out = append(out, p)
	}
	for p := range ws.outRead {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// ReadBackErr returns the first error Content met reading a summarized
// document back, or nil.
func (ws *Workspace) ReadBackErr() error {
	ws.readMu.Lock()
	defer ws.readMu.Unlock()
	return ws.readErr
}

// Pos returns the position of the byte offset off in f.
func (f *File) Pos(off int) token.Pos {
	if off < 0 {
		off = 0
	}
	if off > f.Tok.Size() {
		off = f.Tok.Size()
	}
	return f.Tok.Pos(off)
}

// Problem is input sotparse could not read or make sense of. Check names the
// check that owns the problem and reports it (for example "frontmatter" for an
// unclosed block, "workboard" for a YAML syntax error, "syntax" for file-level
// trouble such as invalid UTF-8).
type Problem struct {
	Check   string
	Path    string
	Pos     token.Pos // NoPos when the file could not be read at all
	End     token.Pos
	Message string
}

// File returns the file with the given workspace-relative path, or nil.
func (ws *Workspace) File(path string) *File {
	if f, ok := ws.newFiles[path]; ok {
		return f
	}
	return ws.byPath[path]
}

// Doc returns the document with the given workspace-relative path, or nil.
func (ws *Workspace) Doc(path string) *Doc {
	if d, ok := ws.newDocs[path]; ok {
		return d
	}
	return ws.docs[path]
}

// Exists reports whether path names a file or directory of the workspace as
// it was discovered (a directory exists when some discovered file is under it,
// or when it was seen during discovery).
func (ws *Workspace) Exists(path string) bool {
	if ws.File(path) != nil {
		return true
	}
	return ws.known[strings.TrimSuffix(path, "/")]
}

// Paths returns every file and directory path discovery saw, sorted.
func (ws *Workspace) Paths() []string {
	out := make([]string, 0, len(ws.known))
	for p := range ws.known {
		if p != "." {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// EachPath calls f with each path Paths returns, in no order: for an index
// that needs no sorted list (sorting every path of a large workspace on
// every run of a session costs more than indexing them).
func (ws *Workspace) EachPath(f func(string)) {
	for p := range ws.known {
		if p != "." {
			f(p)
		}
	}
}

// ProblemsFor returns the problems owned by the named check, in path order.
func (ws *Workspace) ProblemsFor(check string) []Problem {
	var out []Problem
	for _, p := range ws.Problems {
		if p.Check == check {
			out = append(out, p)
		}
	}
	return out
}

func (ws *Workspace) index() {
	// The parse lists the files in path order already: checked, not
	// sorted again, on every run of a session.
	sortByPath(ws.Files, func(f *File) string { return f.Path })
	sortByPath(ws.Docs, func(d *Doc) string { return d.Path })
	ws.sortOthers()
	ws.byPath = make(map[string]*File, len(ws.Files))
	for _, f := range ws.Files {
		ws.byPath[f.Path] = f
	}
	ws.docs = make(map[string]*Doc, len(ws.Docs))
	for _, d := range ws.Docs {
		ws.docs[d.Path] = d
	}
}

// sortOthers sorts what no shared index holds (indexWith): the records and
// the problems.
func (ws *Workspace) sortOthers() {
	sortByPath(ws.Records, func(r *Record) string { return r.Path })
	ws.sortProblems()
}

func (ws *Workspace) sortProblems() {
	sort.SliceStable(ws.Problems, func(i, j int) bool {
		a, b := ws.Problems[i], ws.Problems[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Pos < b.Pos
	})
}

// sortByPath sorts s by the path of each element, unless it is sorted.
func sortByPath[T any](s []T, path func(T) string) {
	less := func(a, b T) int { return strings.Compare(path(a), path(b)) }
	if !slices.IsSortedFunc(s, less) {
		slices.SortFunc(s, less)
	}
}
