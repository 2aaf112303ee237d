package harness

import (
	"os"
	"path/filepath"
	"testing"
)

func TestCheckPaths(t *testing.T) {
	ws := t.TempDir()
	os.MkdirAll(filepath.Join(ws, "src"), 0o755)
	os.Symlink("/etc/passwd", filepath.Join(ws, "src", "abs.go"))
	os.Symlink("../../outside.go", filepath.Join(ws, "src", "up.go"))
	os.Symlink("b.go", filepath.Join(ws, "src", "in.go"))
	os.Symlink(t.TempDir(), filepath.Join(ws, "out"))
	allowed := []string{"src/**/*.go", "out/*.go", "README.md"}
	forbidden := []string{"src/secret/**"}
	for _, tc := range []struct {
		path string
		ok   bool
	}{
		{"src/a.go", true},
		{"src/deep/er/a.go", true},
		{"src/in.go", true},
		{"README.md", true},
		{"main.go", false},
		{"src/a.txt", false},
		{"src/secret/key.go", false},
		{"src/abs.go", false},
		{"src/up.go", false},
		{"out/x.go", false},
		{"../x.go", false},
		{"/etc/passwd", false},
		{".git/config", false},
	} {
		vs, _, _ := checkPaths(ws, []string{tc.path}, allowed, forbidden)
		if (len(vs) == 0) != tc.ok {
			t.Errorf("%s: violations %v", tc.path, vs)
		}
	}
	_, a, f := checkPaths(ws, []string{"src/secret/key.go"}, allowed, forbidden)
	if !a || f {
		t.Errorf("forbidden: allowed %t forbidden %t", a, f)
	}
}
