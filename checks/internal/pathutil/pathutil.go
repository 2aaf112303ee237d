// Package pathutil resolves the paths documents and the workboard name.
package pathutil

import (
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/svrnty/sotvet/sotparse"
)

// SourcePath returns the workspace-relative path a source value names, and
// false when the value is not a path a check can judge: a word such as
// "conversation", a URL, an absolute path, a path leaving the workspace or a
// placeholder. A trailing "/" (a directory) is kept.
func SourcePath(v string) (string, bool) {
	v, _, _ = strings.Cut(strings.TrimSpace(v), " ")
	v = strings.TrimRight(v, ".,;:")
	if v == "" || strings.ContainsAny(v, "*?<>{}[]$…\\") || strings.Contains(v, "://") {
		return "", false
	}
	if strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~") {
		return "", false
	}
	v, _, _ = strings.Cut(v, "#")
	lower := strings.ToLower(v)
	if !strings.Contains(v, "/") && !strings.HasSuffix(lower, ".md") && !strings.HasSuffix(lower, ".yaml") &&
		!strings.HasSuffix(lower, ".yml") && !strings.HasSuffix(lower, ".json") {
		return "", false
	}
	dir := strings.HasSuffix(v, "/")
	p := path.Clean(v)
	if p == "." || p == ".." || strings.HasPrefix(p, "../") {
		return "", false
	}
	if dir {
		p += "/"
	}
	return p, true
}

// Resolver answers whether a workspace-relative path exists.
type Resolver struct {
	ws *sotparse.Workspace
	// The index by base name, built the first time a path is missing:
	// most references resolve as they are written, and building it
	// costs a sort and a map entry per workspace file.
	once sync.Once
	base map[string][]string // base name -> workspace paths of that name
}

// NewResolver returns a Resolver of the workspace's paths.
func NewResolver(ws *sotparse.Workspace) *Resolver {
	return &Resolver{ws: ws}
}

// byBase returns the workspace paths whose base name is b.
func (r *Resolver) byBase(b string) []string {
	r.once.Do(func() {
		// One index for as long as a session's runs list the same paths.
		r.base = sotparse.PathsMemo(r.ws, &baseKey, func() map[string][]string {
			base := map[string][]string{}
			r.ws.EachPath(func(p string) {
				b := path.Base(p)
				base[b] = append(base[b], p)
			})
			// Each name's paths in order, as a walk of the sorted paths
			// would list them; most names have one.
			for _, ps := range base {
				if len(ps) > 1 {
					slices.Sort(ps)
				}
			}
			return base
		})
	})
	return r.base[b]
}

var baseKey sotparse.MemoKey

// Exists reports whether p names a file or directory of the workspace. A bare
// file name also resolves when some workspace file has that name.
func (r *Resolver) Exists(p string) bool {
	if r.ws.Exists(p) {
		return true
	}
	return !strings.Contains(strings.TrimSuffix(p, "/"), "/") && len(r.byBase(p)) > 0
}

// Moved returns the one workspace path with the base name of the missing
// path p, or "" when there is none or more than one.
func (r *Resolver) Moved(p string) string {
	if strings.HasSuffix(p, "/") {
		return ""
	}
	if c := r.byBase(path.Base(p)); len(c) == 1 && c[0] != p {
		return c[0]
	}
	return ""
}
