package sotparse

import (
	"bytes"
	"cmp"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"go/token"
	"hash/maphash"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"unicode/utf8"

	"github.com/svrnty/sotvet/internal/parallel"
)

// DefaultMaxFileSize caps the size of one workspace file. Real documents are
// tens of kilobytes; anything far larger is reported, not read.
const DefaultMaxFileSize = 4 << 20

// Options tune Load and LoadFS.
type Options struct {
	MaxFileSize int64 // 0 means DefaultMaxFileSize
	// Ignored overrides the git ignore rules Load asks git for.
	Ignored func(path string, dir bool) bool
	// NoGit stops Load from asking git for ignore rules.
	NoGit bool
}

// Load reads the workspace rooted at the directory root. Inside a git
// repository, files git ignores are skipped.
func Load(root string, opt Options) (*Workspace, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	info, err := os.Stat(abs)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("%s: not a directory", root)
	}
	if opt.Ignored == nil && !opt.NoGit {
		ign, err := GitIgnored(abs)
		if err != nil {
			return nil, err
		}
		opt.Ignored = ign
	}
	ws, err := LoadFS(os.DirFS(abs), opt)
	if ws != nil {
		ws.Root = abs
	}
	return ws, err
}

// LoadFS reads the workspace held in fsys.
func LoadFS(fsys fs.FS, opt Options) (*Workspace, error) {
	disc, err := Discover(fsys, DiscoverOptions{Ignored: opt.Ignored})
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	ws := Parse(fset, disc, func(p string) ([]byte, error) { return fs.ReadFile(fsys, p) }, opt.MaxFileSize)
	return ws, nil
}

// Parse reads and parses the discovered files, in parallel, into a Workspace
// whose positions live in fset. read returns a file's content.
func Parse(fset *token.FileSet, disc *Discovery, read func(path string) ([]byte, error), maxSize int64) *Workspace {
	return ParseReusing(fset, disc, read, maxSize, nil)
}

// Reuse lets a run that reports on a few files of a large workspace take the
// other documents from summaries kept by earlier runs instead of reading and
// parsing them. Summaries are keyed by path and content id, so a document
// whose content changed is always parsed again.
type Reuse struct {
	// Focus reports whether the run reports on path. Documents in focus are
	// always read and parsed in full.
	Focus func(path string) bool
	// ID returns the content id of path (its git blob id) when it is known
	// without reading the file; other files are hashed once read.
	ID func(path string) (string, bool)
	// Store keeps the summaries.
	Store SummaryStore
	// Prefetch, if set, is told every path about to be read, so that a
	// source with a high cost per read (git) can fetch them in one go.
	Prefetch func(paths []string)
	// Models, if set, keeps the documents decoded from Store's summaries
	// for the next runs, which must place their files in Models.Fset.
	Models *Models
	// FollowCompared says the caller checks again, in focus, the
	// documents a check compared with those in focus (TextRead), so that
	// their findings follow an edit of one of them (checks.Session.Update):
	// a check that compares what documents say then reads them even when
	// no document in focus says it any more (Workspace.FollowsCompared).
	FollowCompared bool
}

// SummaryStore keeps document summaries between runs.
type SummaryStore interface {
	// Summary returns the summary stored for path at content id, or nil.
	// The bytes must not change afterwards: documents decoded from them
	// keep their strings in them.
	Summary(path, id string) []byte
	// PutSummary stores a summary.
	PutSummary(path, id string, summary []byte)
}

// ParseReusing is Parse with documents outside reuse.Focus taken from
// reuse.Store when it holds them; a nil reuse parses everything, and so
// does a reuse without a Store, which only sets the focus. Documents it
// parses are summarized into the store for later runs. A summary that does
// not decode is ignored and its document parsed.
func ParseReusing(fset *token.FileSet, disc *Discovery, read func(path string) ([]byte, error), maxSize int64, reuse *Reuse) *Workspace {
	return ParseStreaming(fset, disc, read, maxSize, reuse, nil)
}

// ParseStreaming is ParseReusing that also runs stream's DocChecks on each
// document it parses, right after parsing it. With stream.Release, and
// without summaries to reuse, each document is read, parsed, checked and
// let go in turn: the run holds the text of a few documents at a time, not
// of the workspace. Its files are then placed in fset by the sizes
// discovery saw; a file whose size changed since is placed after them.
func ParseStreaming(fset *token.FileSet, disc *Discovery, read func(path string) ([]byte, error), maxSize int64, reuse *Reuse, stream *Stream) *Workspace {
	if maxSize <= 0 {
		maxSize = DefaultMaxFileSize
	}
	ws := &Workspace{Root: disc.Root, Fset: fset, known: disc.Known, read: read, seed: maphash.MakeSeed(), content: map[string][]byte{}, reread: map[string][]byte{}}
	var store SummaryStore
	var models *Models
	if reuse != nil {
		ws.focus, ws.prefetch, store = reuse.Focus, reuse.Prefetch, reuse.Store
		ws.followCompared = reuse.FollowCompared
		if store != nil {
			models = reuse.Models
		}
	}

	if stream != nil {
		// A document records the checks run on it in 64 bits: any more
		// run in their check's Run (DocCheck.Each).
		ws.docChecks = stream.Checks[:min(len(stream.Checks), 64)]
		ws.dropFixes, ws.maxPerDoc, ws.keep, ws.capping = stream.DropFixes, stream.MaxPerDoc, stream.Keep, stream.Capping
		ws.prepared = make([]any, len(ws.docChecks))
		for k, c := range ws.docChecks {
			ws.prepared[k] = c.prepare()
		}
	}
	release := stream != nil && stream.Release && store == nil
	type slot struct {
		entry    Entry
		content  []byte
		err      error
		file     *File
		doc      *Doc
		record   *Record
		wb       *Workboard
		problems []Problem
		id       string // content id, when the run reuses summaries
		summary  []byte // the stored summary to decode instead of parsing
		size     int
		kept     bool // file and doc or wb are reuse.Models', decoded by a run before
	}
	// fromModels takes s's document as a run before decoded it.
	fromModels := func(s *slot) bool {
		if models == nil {
			return false
		}
		m, ok := models.get(s.entry.Path, s.id)
		if !ok {
			return false
		}
		s.kept, s.file, s.doc, s.wb, s.record = true, m.file, m.doc, m.wb, m.rec
		return true
	}
	// One allocation for all: a session's run lists thousands of files
	// and parses a few.
	slab := make([]slot, len(disc.Entries))
	slots := make([]*slot, len(disc.Entries))
	for i, e := range disc.Entries {
		slab[i].entry = e
		slots[i] = &slab[i]
	}
	readSlot := func(s *slot) {
		if s.entry.Size > maxSize {
			s.err = fmt.Errorf("file is %d bytes, over the %d-byte limit; not read", s.entry.Size, maxSize)
			return
		}
		s.content, s.err = read(s.entry.Path)
		if s.err == nil && int64(len(s.content)) > maxSize {
			s.err = fmt.Errorf("file is over the %d-byte limit; not read", maxSize)
			s.content = nil
		}
	}
	addSlot := func(s *slot) {
		size := len(s.content)
		if s.summary != nil {
			size = s.size
		}
		tf := fset.AddFile(s.entry.Path, -1, size)
		s.file = &File{Path: s.entry.Path, Role: s.entry.Role, Tok: tf, Content: s.content}
	}
	// The documents' models are cut from slabs, each parsing goroutine
	// cutting from its own at a time; a run's slabs are its own.
	var slabPool sync.Pool // of *modelSlabs
	texts := ws.Texts()    // the references' texts, shared by the run's documents
	parseSlot := func(s *slot) {
		f := s.file
		setLines(f.Tok, s.content) // a token.File is safe for concurrent use
		report := func(check string, pos, end token.Pos, msg string) {
			if end < pos {
				end = pos
			}
			s.problems = append(s.problems, Problem{Check: check, Path: f.Path, Pos: pos, End: end, Message: msg})
		}
		defer func() {
			// A parser bug must cost one file a finding, not the run.
			if r := recover(); r != nil {
				report("syntax", f.Pos(0), f.Pos(0), fmt.Sprintf("internal error while parsing (please report): %v", r))
			}
		}()
		if s.err != nil {
			msg := s.err.Error()
			if pe, ok := s.err.(*fs.PathError); ok {
				msg = "cannot read: " + pe.Err.Error()
			}
			report("syntax", f.Pos(0), f.Pos(0), msg)
			return
		}
		if !encodingOK(f, func(pos token.Pos, msg string) { report("syntax", pos, pos, msg) }) {
			return
		}
		switch s.entry.Role {
		case RoleDoc:
			slabs, _ := slabPool.Get().(*modelSlabs)
			if slabs == nil {
				slabs = &modelSlabs{refTexts: texts}
			}
			slabs.releasing = release && f.Path != GlossaryPath
			s.doc = parseDoc(f, report, slabs)
			slabPool.Put(slabs)
			defer func(d *Doc) { d.tree = nil }(s.doc) // the DocChecks below are the tree's last readers
			if s.doc.BOM {
				report("syntax", f.Pos(0), f.Pos(3), "file starts with a UTF-8 byte order mark")
			}
			// Out of focus, no DocCheck's findings are reported: a check
			// that compares what documents say runs on those it needs
			// (DocCheck.Some), not the parse on every one; unless the
			// text goes once checked, which it must be then.
			if stream != nil && (release || ws.Focused(f.Path)) {
				ws.check(s.doc, stream, release && f.Path != GlossaryPath)
			}
			if release {
				ws.keepKeyValues(s.doc)
			}
		case RoleWorkboard:
			s.wb = parseWorkboard(f, func(pos, end token.Pos, msg string) { report("workboard", pos, end, msg) })
		case RoleRecord:
			s.record = DecodeRecord(f, func(pos, end token.Pos, msg string) { report("syntax", pos, end, msg) })
		}
	}

	// largestFirst orders the slots for parsing: a big file (the
	// workboard sorts last) parsed at the end would keep one core busy
	// while the others wait.
	// Slots kept from an earlier run are left out: a session's edit
	// parses a few of many.
	largestFirst := func() []int {
		// Sorted with the sizes beside the indices, not looked up
		// through the slots at each comparison.
		type sized struct{ size, i int }
		bySize := make([]sized, 0, len(slots))
		for i, s := range slots {
			if !s.kept {
				bySize = append(bySize, sized{s.file.Tok.Size(), i})
			}
		}
		slices.SortStableFunc(bySize, func(a, b sized) int { return cmp.Compare(b.size, a.size) })
		order := make([]int, len(bySize))
		for k, e := range bySize {
			order[k] = e.i
		}
		return order
	}
	if release && disc.Sized {
		// Each file is placed by the size discovery saw, then read,
		// parsed, checked and let go in turn.
		for _, s := range slots {
			size := int(s.entry.Size)
			if s.entry.Size > maxSize {
				size = 0 // not read: readSlot says why
			}
			tf := fset.AddFile(s.entry.Path, -1, size)
			s.file = &File{Path: s.entry.Path, Role: s.entry.Role, Tok: tf}
		}
		moved := make([]bool, len(slots))
		order := largestFirst()
		parallel.For(len(order), func(k int) {
			i := order[k]
			s := slots[i]
			readSlot(s)
			if s.err == nil && len(s.content) != s.file.Tok.Size() {
				moved[i] = true // changed since discovery
				return
			}
			s.file.Content = s.content
			parseSlot(s)
			s.content = nil
		})
		for i, s := range slots {
			if moved[i] {
				// Its place was made for another size: a token file of
				// its own, after the others.
				addSlot(s)
				parseSlot(s)
				s.content = nil
			}
		}
	} else {
		// Read in parallel (I/O), add to the FileSet in path order (stable
		// positions), then parse in parallel (CPU).
		if reuse != nil && reuse.ID != nil {
			// Summaries found by the ids git knows; the rest is read below.
			var toRead []string
			for _, s := range slots {
				if store != nil && reusable(s.entry, reuse.Focus) && s.entry.Size <= maxSize {
					if id, ok := reuse.ID(s.entry.Path); ok {
						s.id = id
						if fromModels(s) {
							continue
						}
						if sum := store.Summary(s.entry.Path, id); sum != nil {
							if size, err := SummarySize(sum); err == nil && int64(size) <= maxSize {
								s.summary, s.size = sum, size
								continue
							}
						}
					}
				}
				toRead = append(toRead, s.entry.Path)
			}
			if reuse.Prefetch != nil {
				reuse.Prefetch(toRead)
			}
		}
		parallel.For(len(slots), func(i int) {
			s := slots[i]
			if s.summary != nil || s.kept {
				return
			}
			readSlot(s)
			if store == nil || s.err != nil || !reusable(s.entry, reuse.Focus) {
				return
			}
			// The id of what was read: the reader knows it when it hashed
			// it (or has it from git); else the content is hashed, which
			// still saves parsing it. An id known before the read is
			// asked again: the file may have changed since.
			asked := s.id
			s.id = ""
			if reuse.ID != nil {
				s.id, _ = reuse.ID(s.entry.Path)
			}
			if s.id == "" {
				s.id = BlobID(s.content)
			}
			if s.id == asked {
				return // its summary and model were looked for already
			}
			if len(s.content) > 0 && fromModels(s) && s.file.Tok.Size() == len(s.content) {
				s.content = nil
				return
			}
			s.kept, s.file, s.doc, s.wb, s.record = false, nil, nil, nil, nil
			if sum := store.Summary(s.entry.Path, s.id); sum != nil {
				if size, err := SummarySize(sum); err == nil && size == len(s.content) {
					s.summary, s.size, s.content = sum, size, nil
				}
			}
		})
		for _, s := range slots {
			if !s.kept {
				addSlot(s)
			}
		}
		damaged := make([]bool, len(slots))
		order := largestFirst()
		parallel.For(len(order), func(k int) {
			i := order[k]
			s := slots[i]
			if s.summary == nil {
				parseSlot(s)
				return
			}
			var err error
			if s.entry.Role == RoleWorkboard {
				s.wb, err = decodeWorkboardSummary(s.file, s.summary)
			} else {
				s.doc, err = decodeSummary(s.file, s.summary, texts)
			}
			if err != nil {
				damaged[i] = true
			} else if models != nil {
				models.put(s.entry.Path, s.id, s.file, s.doc, s.wb, nil)
			}
		})
		// A summary that does not decode is read and parsed after all, in a
		// token file of its own.
		for i, s := range slots {
			if damaged[i] {
				s.summary = nil
				readSlot(s)
				addSlot(s)
				parseSlot(s)
			}
		}
	}
	if store != nil {
		parallel.For(len(slots), func(i int) {
			s := slots[i]
			if s.summary != nil || s.kept || s.content == nil || !reusable(s.entry, nil) {
				return
			}
			var sum []byte
			switch {
			case s.record != nil:
				// No summary: the next runs take the record as decoded,
				// its file and content with it.
				if models != nil && reusable(s.entry, reuse.Focus) && len(s.problems) == 0 {
					if s.id == "" {
						s.id = BlobID(s.content)
					}
					s.kept = true
					models.put(s.entry.Path, s.id, s.file, nil, nil, s.record)
				}
				return
			case s.doc != nil:
				sum = s.doc.AppendSummary(nil)
			case s.wb != nil:
				sum = s.wb.AppendSummary(nil)
			default:
				return // unreadable: parsed again next time
			}
			if s.id == "" && reuse != nil && reuse.ID != nil {
				s.id, _ = reuse.ID(s.entry.Path) // a file in focus: its reader hashed it
			}
			if s.id == "" {
				s.id = BlobID(s.content)
			}
			store.PutSummary(s.entry.Path, s.id, sum)
			if models != nil && reusable(s.entry, reuse.Focus) && len(s.problems) == 0 {
				// Out of focus: the run goes on with the document as
				// the next runs take it, decoded and kept, so that they
				// find every one in models and none is decoded twice.
				f := &File{Path: s.entry.Path, Role: s.entry.Role, Tok: fset.AddFile(s.entry.Path, -1, len(s.content))}
				var err error
				var doc *Doc
				var wb *Workboard
				if s.wb != nil {
					wb, err = decodeWorkboardSummary(f, sum)
				} else {
					doc, err = decodeSummary(f, sum, texts)
				}
				if err == nil {
					s.file, s.doc, s.wb, s.kept = f, doc, wb, true
					models.put(s.entry.Path, s.id, f, doc, wb, nil)
				}
			}
		})
	}
	for _, p := range disc.Problems {
		tf := fset.AddFile(p.Path, -1, 0)
		p.Pos, p.End = tf.Pos(0), tf.Pos(0)
		ws.Problems = append(ws.Problems, p)
	}
	for _, s := range slots {
		ws.Files = append(ws.Files, s.file)
		ws.Problems = append(ws.Problems, s.problems...)
		if s.doc != nil {
			ws.Docs = append(ws.Docs, s.doc)
			if s.doc.Path == GlossaryPath {
				ws.Glossary = parseGlossary(s.doc)
			}
		}
		if s.record != nil {
			ws.Records = append(ws.Records, s.record)
		}
		if s.wb != nil {
			ws.Workboard = s.wb
		}
	}
	if models != nil {
		ws.indexWith(models)
		ws.setModels(models)
	} else {
		ws.index()
	}
	if release {
		// Every text the documents name is in the table: the checks of a
		// run that only reports read them by id.
		texts.DropIndex()
	}
	return ws
}

// setLines sets tf's line table for content, as tf.SetLinesForContent
// does, finding line ends with bytes.IndexByte instead of a byte loop.
func setLines(tf *token.File, content []byte) {
	if len(content) == 0 {
		tf.SetLines(nil)
		return
	}
	lines := make([]int, 1, bytes.Count(content, []byte{'\n'})+1)
	for off := 0; ; {
		i := bytes.IndexByte(content[off:], '\n')
		if i < 0 {
			break
		}
		if off += i + 1; off >= len(content) {
			break
		}
		lines = append(lines, off)
	}
	tf.SetLines(lines)
}

// reusable reports whether entry may come from a summary or a run before:
// a document, the workboard or a record outside the focus; not the
// glossary, which is read from the body.
func reusable(e Entry, focus func(string) bool) bool {
	return (e.Role == RoleDoc && e.Path != GlossaryPath || e.Role == RoleWorkboard || e.Role == RoleRecord) && (focus == nil || !focus(e.Path))
}

// BlobID returns the git blob id of content: summaries are keyed by it, so
// a work tree's file and the same content staged in the index share one.
func BlobID(content []byte) string {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(content))
	h.Write(content)
	return hex.EncodeToString(h.Sum(nil))
}

// encodingOK reports NUL bytes and invalid UTF-8; such a file is not parsed
// further (its text cannot be trusted to mean what it shows).
func encodingOK(f *File, report func(pos token.Pos, msg string)) bool {
	b := f.Content
	if i := bytes.IndexByte(b, 0); i >= 0 {
		report(f.Pos(i), "file contains a NUL byte; not a text file")
		return false
	}
	if !utf8.Valid(b) {
		off := 0
		for off < len(b) {
			r, size := utf8.DecodeRune(b[off:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			off += size
		}
		report(f.Pos(off), "invalid UTF-8")
		return false
	}
	return true
}
