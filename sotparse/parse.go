package sotparse

import (
	"bytes"
	"fmt"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"unicode/utf8"
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
	if maxSize <= 0 {
		maxSize = DefaultMaxFileSize
	}
	ws := &Workspace{Fset: fset, known: disc.Known}
	type slot struct {
		entry    Entry
		content  []byte
		err      error
		file     *File
		doc      *Doc
		record   *Record
		wb       *Workboard
		problems []Problem
	}
	slots := make([]*slot, len(disc.Entries))
	for i, e := range disc.Entries {
		slots[i] = &slot{entry: e}
	}
	// Read in parallel (I/O), add to the FileSet in path order (stable
	// positions), then parse in parallel (CPU).
	parallel(len(slots), func(i int) {
		s := slots[i]
		if s.entry.Size > maxSize {
			s.err = fmt.Errorf("file is %d bytes, over the %d-byte limit; not read", s.entry.Size, maxSize)
			return
		}
		s.content, s.err = read(s.entry.Path)
		if s.err == nil && int64(len(s.content)) > maxSize {
			s.err = fmt.Errorf("file is over the %d-byte limit; not read", maxSize)
			s.content = nil
		}
	})
	for _, s := range slots {
		tf := fset.AddFile(s.entry.Path, -1, len(s.content))
		s.file = &File{Path: s.entry.Path, Role: s.entry.Role, Tok: tf, Content: s.content}
	}
	parallel(len(slots), func(i int) {
		s := slots[i]
		f := s.file
		f.Tok.SetLinesForContent(s.content) // a token.File is safe for concurrent use
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
			s.doc = parseDoc(f, report)
			if s.doc.BOM {
				report("syntax", f.Pos(0), f.Pos(3), "file starts with a UTF-8 byte order mark")
			}
		case RoleWorkboard:
			s.wb = parseWorkboard(f, func(pos, end token.Pos, msg string) { report("workboard", pos, end, msg) })
		case RoleRecord:
			s.record = DecodeRecord(f, func(pos, end token.Pos, msg string) { report("syntax", pos, end, msg) })
		}
	})
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
			if s.doc.Path == "CONTEXT.md" {
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
	ws.index()
	return ws
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

func parallel(n int, fn func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fn(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}
