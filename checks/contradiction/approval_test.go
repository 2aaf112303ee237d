package contradiction

import (
	"path"
	"strings"
	"testing"
)

// TestRunDir: runDir is path.Dir of a path naming a file (one whose base
// holds a dot), without copying a clean path, and the path itself (less a
// trailing slash) for a directory.
func TestRunDir(t *testing.T) {
	for _, p := range []string{
		"/a/b/report.json", "/a/b/", "/a/b", "/report.json", "report.json",
		"a/report.json", "/a//b/report.json", "/a/./b/x.md", "/a/../x.md",
		"/a/b/../../c/x.y", "//x.md", "/a/b/c.d/", "/a/.hidden", "./x.md",
		"../x.md", "/", "", ".", "/a/b.c/d",
	} {
		want := strings.TrimSuffix(p, "/")
		if strings.Contains(path.Base(want), ".") {
			want = path.Dir(want)
		}
		if got := runDir(p); got != want {
			t.Errorf("runDir(%q) = %q, want %q", p, got, want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { runDir("/home/u/runs/r1/report.json") }); n != 0 {
		t.Errorf("runDir of a clean path allocates %v times, want 0", n)
	}
}
