package sotparse

import (
	"errors"
	"io/fs"
	"path"
	"strings"

	"github.com/svrnty/sotvet/internal/atomicfile"
)

// Role says what a discovered file is to the workspace.
type Role int

const (
	RoleDoc       Role = iota + 1 // markdown document
	RoleWorkboard                 // WORKBOARD.yaml
	RoleRecord                    // JSON record under .sot/
	RoleOther                     // other text files worth scanning (env examples)
	RoleCase                      // a harness task contract, case.yaml
)

// Entry is one discovered workspace file.
type Entry struct {
	Path string
	Role Role
	Size int64
}

// DiscoverOptions tune Discover.
type DiscoverOptions struct {
	// Ignored reports whether a slash path (file or directory) is ignored,
	// typically by git. Nil ignores nothing.
	Ignored func(path string, dir bool) bool
}

// Discovery is what Discover found.
type Discovery struct {
	Entries  []Entry
	Others   []string        // the other files: not part of the model, but they exist
	Known    map[string]bool // every file and directory seen, ignored ones excluded
	Problems []Problem       // positionless problems (Pos filled in by Parse)
	// Sized says that every Entry's Size is the size discovery saw, which
	// a streaming parse places the files by (ParseStreaming).
	Sized bool
	// Root is the directory the paths are relative to, when there is one:
	// the DocChecks the parse runs may read configuration beside it.
	Root string
}

// RoleOf returns the role a workspace-relative path plays, or 0 if the file is
// not part of the workspace model.
func RoleOf(p string) Role {
	base := path.Base(p)
	dir := path.Dir(p)
	inSOT := p == ".sot" || strings.HasPrefix(p, ".sot/")
	switch {
	case p == "WORKBOARD.yaml":
		return RoleWorkboard
	case base == "case.yaml":
		return RoleCase
	case strings.HasSuffix(base, ".md") && (dir == "." || inSOT):
		return RoleDoc
	case strings.HasSuffix(base, ".json") && inSOT:
		return RoleRecord
	case dir == "." && (base == ".env.example" || strings.HasSuffix(base, ".env.example") || base == "sotvet.yaml"):
		return RoleOther
	}
	return 0
}

// Discover walks fsys and lists the workspace files. Symbolic links are read
// with fs.ReadLink where fsys supports it: a link that leads outside the root
// is reported and not followed, a link to a directory is not walked (its
// target is walked in place), a link to a file inside the root is read.
func Discover(fsys fs.FS, opt DiscoverOptions) (*Discovery, error) {
	d := &Discovery{Known: map[string]bool{".": true}, Sized: true}
	err := fs.WalkDir(fsys, ".", func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			if p == "." {
				return err
			}
			d.Problems = append(d.Problems, Problem{Check: "syntax", Path: p, Message: "cannot read: " + errorText(err)})
			if de != nil && de.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if p == "." {
			return nil
		}
		if de.IsDir() {
			if de.Name() == ".git" || (opt.Ignored != nil && opt.Ignored(p, true)) {
				return fs.SkipDir
			}
			d.Known[p] = true
			return nil
		}
		if (opt.Ignored != nil && opt.Ignored(p, false)) || atomicfile.IsTemp(de.Name()) {
			// A temporary file of an interrupted --fix is not the workspace's.
			return nil
		}
		d.Known[p] = true
		role := RoleOf(p)
		if de.Type()&fs.ModeSymlink != 0 {
			// Said where a document may be (a role, or under .sot/, where
			// a link to a directory outside hides its documents), never
			// skipped in silence there.
			said := role != 0 || strings.HasPrefix(p, ".sot/")
			target, ok := linkInside(fsys, p)
			if !ok {
				if said {
					msg := "symbolic link leads outside the workspace (" + target + "); not followed"
					if target == linkLoop {
						msg = "symbolic link is one of a loop of links; not followed"
					}
					d.Problems = append(d.Problems, Problem{Check: "syntax", Path: p, Message: msg})
				}
				return nil
			}
			info, err := fs.Stat(fsys, p)
			if err != nil {
				if said {
					d.Problems = append(d.Problems, Problem{Check: "syntax", Path: p, Message: "symbolic link leads to no file (" + target + "); not read"})
				}
				return nil
			}
			if info.IsDir() {
				return nil
			}
			if role != 0 && !info.Mode().IsRegular() {
				d.Problems = append(d.Problems, Problem{Check: "syntax", Path: p, Message: "cannot read: not a regular file"})
				return nil
			}
			if role != 0 {
				d.Entries = append(d.Entries, Entry{Path: p, Role: role, Size: info.Size()})
			} else {
				d.Others = append(d.Others, p)
			}
			return nil
		}
		if role == 0 || !de.Type().IsRegular() {
			if de.Type().IsRegular() || de.Type()&fs.ModeSymlink != 0 {
				d.Others = append(d.Others, p)
			} else if role != 0 {
				// A FIFO or a device: reading it could block or never end.
				d.Problems = append(d.Problems, Problem{Check: "syntax", Path: p, Message: "cannot read: not a regular file"})
			}
			return nil
		}
		info, err := de.Info()
		if err != nil {
			d.Problems = append(d.Problems, Problem{Check: "syntax", Path: p, Message: "cannot read: " + errorText(err)})
			return nil
		}
		d.Entries = append(d.Entries, Entry{Path: p, Role: role, Size: info.Size()})
		return nil
	})
	return d, err
}

// linkInside resolves the symbolic link p lexically and reports whether its
// target stays inside the root. Without fs.ReadLinkFS support the link is
// treated as leading outside: reading through it could escape the root.
func linkInside(fsys fs.FS, p string) (string, bool) {
	target, err := fs.ReadLink(fsys, p)
	if err != nil {
		return "unresolvable", false
	}
	if path.IsAbs(target) || strings.HasPrefix(target, "/") {
		return target, false
	}
	joined := path.Join(path.Dir(p), target)
	if joined == ".." || strings.HasPrefix(joined, "../") {
		return target, false
	}
	// A chain of links could still escape; check each hop, bounded.
	for hops := 0; hops < 8; hops++ {
		info, err := fs.Lstat(fsys, joined)
		if err != nil || info.Mode()&fs.ModeSymlink == 0 {
			return target, err == nil || errors.Is(err, fs.ErrNotExist)
		}
		next, err := fs.ReadLink(fsys, joined)
		if err != nil || path.IsAbs(next) {
			return target, false
		}
		joined = path.Join(path.Dir(joined), next)
		if joined == ".." || strings.HasPrefix(joined, "../") {
			return target, false
		}
	}
	return linkLoop, false
}

// linkLoop is linkInside's target for a chain of links longer than it
// follows: a loop, or as good as one.
const linkLoop = "a loop of links"

func errorText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
