package guard

import (
	"fmt"
	"path/filepath"
	"testing"
)

// BenchmarkRun is the guard on a repository with ten worktrees (the main
// one and nine linked), 500 tracked files each: the target is under a
// second per run (go test ./guard -bench Run).
func BenchmarkRun(b *testing.B) {
	base, core := newRepo(b)
	for i := range 500 {
		writeFile(b, filepath.Join(core, "src", fmt.Sprintf("d%02d", i%20), fmt.Sprintf("f%03d.go", i)), fmt.Sprintf("package d\n\nconst X%d = %d\n", i, i))
	}
	gitT(b, core, "add", ".")
	gitT(b, core, "commit", "-qm", "files")
	for i := range 9 {
		wt := filepath.Join(core, "worktrees", fmt.Sprintf("wt-%d", i))
		gitT(b, core, "worktree", "add", "-q", wt, "-b", fmt.Sprintf("work-%d", i))
		if i%3 == 0 { // some hold work: a commit of their own, an edit
			writeFile(b, filepath.Join(wt, "src", "d00", "f000.go"), "package d\n")
			gitT(b, wt, "commit", "-qam", "work")
			writeFile(b, filepath.Join(wt, "NOTES.md"), "wip\n")
		}
	}
	own(b, base)
	b.ResetTimer()
	for b.Loop() {
		g, err := Run(Options{Repo: core, Conflicts: []string{"CORE-WORK-172", "core/worktrees/wt-4"}})
		if err != nil {
			b.Fatal(err)
		}
		if len(g.Worktrees) != 10 || !g.Unchanged {
			b.Fatalf("%d worktrees, unchanged %t", len(g.Worktrees), g.Unchanged)
		}
	}
}
