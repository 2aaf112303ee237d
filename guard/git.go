package guard

import (
	"github.com/svrnty/sotvet/internal/safegit"
)

// git runs read-only git commands against one repository through
// safegit: git reads none of the repository's configuration (a shadow git
// directory holds the few layout keys it needs), cannot start another
// git, and is killed at safegit.Timeout. So no filter, fsmonitor, hook,
// pager, helper or any other program the repository names ever runs,
// whatever the key's name or the file (config.worktree, an include) it
// sits in, and safe.directory is never needed: a repository owned by
// another user is read as data.
type git struct {
	r *safegit.Repo
}

// run runs git with args in the repository's work tree (or, bare, its
// shadow git directory) and returns its standard output.
func (g *git) run(args ...string) ([]byte, error) {
	return g.r.Run("", nil, append([]string{"--no-optional-locks"}, args...)...)
}
