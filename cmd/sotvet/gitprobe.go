package main

import (
	"github.com/svrnty/sotvet/internal/workspaces"
	"github.com/svrnty/sotvet/sotparse"
)

// gitProbe is what git says of the directory a check run was given: asked
// once, in the background, as soon as the directory is known, so that the
// process does not wait on git twice (the report's base, then the ignore
// rules) before it can read the workspace.
type gitProbe struct {
	dir        string
	done       chan struct{}
	top        string // workspaces.GitTop(dir)
	inWorkTree bool
}

// probeGit starts asking git about dir; with noGit it asks nothing.
func probeGit(dir string, noGit bool) *gitProbe {
	g := &gitProbe{dir: dir, done: make(chan struct{})}
	if noGit {
		close(g.done)
		return g
	}
	go func() {
		defer close(g.done)
		g.top, g.inWorkTree = workspaces.GitTop(dir)
	}()
	return g
}

// ignored returns sotparse.GitIgnored(d), without asking git again when d
// is the probed directory and git said it lies in no work tree.
func (g *gitProbe) ignored(d string) (func(string, bool) bool, error) {
	if g != nil && d == g.dir {
		if <-g.done; !g.inWorkTree {
			return nil, nil
		}
	}
	return sotparse.GitIgnored(d)
}

// base returns workspaces.Base(dir, noGit) for the probed directory.
func (g *gitProbe) base() string {
	<-g.done
	return workspaces.BaseIn(g.dir, g.top)
}
