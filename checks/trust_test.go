package checks_test

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/checks"
)

// denyDir is a file system whose directory .sot/locked cannot be listed, as
// a directory without read permission (tests run as root cannot chmod one).
type denyDir struct{ fstest.MapFS }

func (d denyDir) ReadDir(name string) ([]fs.DirEntry, error) {
	if name == ".sot/locked" {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrPermission}
	}
	return d.MapFS.ReadDir(name)
}

func (d denyDir) Open(name string) (fs.File, error) {
	if name == ".sot/locked" {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return d.MapFS.Open(name)
}

// An unreadable sub-directory is a syntax finding, not skipped in silence.
func TestUnreadableDirectoryIsAFinding(t *testing.T) {
	fsys := denyDir{fstest.MapFS{
		".sot/A-PRD.md":         {Data: []byte("# A\n")},
		".sot/locked/B-PRD.md":  {Data: []byte("# B\n")},
		".sot/locked/C-PRD.md":  {Data: []byte("# C\n")},
		".sot/open/D-ISSUES.md": {Data: []byte("# D\n")},
	}}
	res, _, err := checks.Run(checks.Options{Root: "/ws", FS: fsys, Analyzers: []*analysis.Analyzer{checks.Lookup("syntax")}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range res.Findings {
		got = append(got, f.File+": "+f.Message)
	}
	want := ".sot/locked: cannot read: permission denied"
	if strings.Join(got, "\n") != want {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
	}
}
