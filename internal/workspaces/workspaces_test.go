package workspaces

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestFromPaths(t *testing.T) {
	got := FromPaths([]string{
		"README.md",
		"planning/.sot/A-PRD.md",
		"planning/.sot/sub/B.json",
		"planning/.sot/nested/WORKBOARD.yaml", // inside a workspace: not another
		"docs/planning/WORKBOARD.yaml",
		"docs/.sotx/C.md",
		"x.sot/D.md",
	})
	if want := []string{"docs/planning", "planning"}; !slices.Equal(got, want) {
		t.Errorf("FromPaths = %q, want %q", got, want)
	}
	if got := FromPaths([]string{".sot/A.md", "sub/WORKBOARD.yaml"}); !slices.Equal(got, []string{"."}) {
		t.Errorf("a root workspace holds the others: %q", got)
	}
}

func TestFind(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"planning/.sot", "docs/planning", "build/.sot", "planning/.sot/inner/.sot", "empty"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(root, "docs/planning/WORKBOARD.yaml"), nil, 0o644)
	os.MkdirAll(filepath.Join(root, "odd/WORKBOARD.yaml"), 0o755) // a directory, not the file
	ignored := func(p string, dir bool) bool { return p == "build" }
	got, err := Find(root, ignored)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"docs/planning", "planning"}; !slices.Equal(got, want) {
		t.Errorf("Find = %q, want %q", got, want)
	}
	if IsWorkspace(filepath.Join(root, "empty")) || !IsWorkspace(filepath.Join(root, "planning")) {
		t.Error("IsWorkspace")
	}
}

func TestRel(t *testing.T) {
	base := t.TempDir()
	sub := filepath.Join(base, "a", "b")
	os.MkdirAll(sub, 0o755)
	if r, ok := Rel(base, sub); !ok || r != "a/b" {
		t.Errorf("Rel(base, sub) = %q, %v", r, ok)
	}
	if r, ok := Rel(base, base); !ok || r != "" {
		t.Errorf("Rel(base, base) = %q, %v", r, ok)
	}
	if _, ok := Rel(sub, base); ok {
		t.Error("a parent is not inside its child")
	}
	if _, ok := Rel(base, base+"x"); ok {
		t.Error("a sibling with a common prefix is not inside")
	}
}

// TestGitTop: GitTop says a directory is in no work tree exactly when
// `git rev-parse --is-inside-work-tree` does not print true, which lets
// a caller skip the ignore rules there.
func TestGitTop(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	t.Setenv("GIT_CEILING_DIRECTORIES", t.TempDir())
	outside := t.TempDir()
	repo, _ := filepath.EvalSymlinks(t.TempDir())
	sub := filepath.Join(repo, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	for _, tc := range []struct {
		dir     string
		top     string
		inside  bool
		comment string
	}{
		{outside, "", false, "no repository"},
		{repo, repo, true, "the work tree's root"},
		{sub, repo, true, "below it"},
		{filepath.Join(repo, ".git"), "", false, "the git directory"},
	} {
		top, inside := GitTop(tc.dir)
		if top != tc.top || inside != tc.inside {
			t.Errorf("%s: GitTop(%s) = %q, %v; want %q, %v", tc.comment, tc.dir, top, inside, tc.top, tc.inside)
		}
		out, _ := exec.Command("git", "-C", tc.dir, "rev-parse", "--is-inside-work-tree").Output()
		if said := strings.TrimSpace(string(out)) == "true"; said != inside {
			t.Errorf("%s: git says inside=%v, GitTop %v", tc.comment, said, inside)
		}
		if base := BaseIn(tc.dir, top); tc.top != "" && base != tc.top {
			t.Errorf("%s: BaseIn = %s, want %s", tc.comment, base, tc.top)
		}
	}
}

// TestNoRepository: git is not run only where it could find no
// repository, and whenever git is not run, git agrees.
func TestNoRepository(t *testing.T) {
	outside := t.TempDir()
	repo := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Skipf("git init: %v: %s", err, out)
	}
	bare := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", "--bare", bare).CombinedOutput(); err != nil {
		t.Fatalf("git init --bare: %v: %s", err, out)
	}
	linked := filepath.Join(outside, "link")
	if err := os.Symlink(filepath.Join(repo, ".git"), linked); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		dir  string
		env  string
		want bool
	}{
		{outside, "", true},
		{repo, "", false},
		{filepath.Join(repo, ".git"), "", false},
		{filepath.Join(bare, "refs"), "", false},
		{linked, "", false},
		{outside, "GIT_DIR=" + filepath.Join(repo, ".git"), false},
		{outside, "GIT_WORK_TREE=" + repo, false},
		{filepath.Join(outside, "missing"), "", false},
	} {
		t.Run(tc.dir+" "+tc.env, func(t *testing.T) {
			if k, v, ok := strings.Cut(tc.env, "="); ok {
				t.Setenv(k, v)
			}
			got := noRepository(tc.dir)
			if got != tc.want {
				t.Errorf("noRepository(%s) = %v, want %v", tc.dir, got, tc.want)
			}
			if got {
				if out, err := exec.Command("git", "-C", tc.dir, "rev-parse", "--show-toplevel").CombinedOutput(); err == nil {
					t.Errorf("git finds a work tree for %s: %s", tc.dir, out)
				}
			}
		})
	}
}

func TestEnclosing(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"ws/.sot/03-PROTOCOLS", "other/deep"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ws := filepath.Join(root, "ws")
	for _, c := range []struct {
		dir, want string
	}{
		{"ws", ws},
		{"ws/.sot", ws},
		{"ws/.sot/03-PROTOCOLS", ws},
	} {
		if got, ok := Enclosing(filepath.Join(root, c.dir)); !ok || got != c.want {
			t.Errorf("Enclosing(%s) = %q, %v; want %q", c.dir, got, ok, c.want)
		}
	}
	if got, ok := Enclosing(filepath.Join(root, "other/deep")); ok && strings.HasPrefix(got, root) {
		t.Errorf("Enclosing(other/deep) = %q: no workspace holds it", got)
	}
}
