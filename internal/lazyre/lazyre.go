// Package lazyre holds regular expressions that are compiled on first use
// rather than at package initialization: sotvet's checks declare dozens,
// and compiling them at init cost every sotvet process (a one-file check,
// a secrets scan, `sotvet version`) ~2 ms before main ran. A Regexp has
// the methods of *regexp.Regexp the checks call, so a use reads as
// before; a package's Group compiles its expressions together, which a
// command about to run the package's check starts in the background (see
// internal/warmup).
package lazyre

import (
	"regexp"
	"sync"
)

// Regexp is a regular expression compiled on first use. An invalid
// expression panics there, as regexp.MustCompile would have at init;
// TestCompileAll-style tests (CompileAll) catch it.
type Regexp struct {
	src  string
	once sync.Once
	re   *regexp.Regexp
}

// Group is the expressions of one package.
type Group struct {
	mu   sync.Mutex
	list []*Regexp
}

var groups struct {
	sync.Mutex
	list []*Group
}

// New returns expr as a Regexp of the group.
func (g *Group) New(expr string) *Regexp {
	r := &Regexp{src: expr}
	g.mu.Lock()
	if g.list == nil {
		groups.Lock()
		groups.list = append(groups.list, g)
		groups.Unlock()
	}
	g.list = append(g.list, r)
	g.mu.Unlock()
	return r
}

// New returns expr as a Regexp of no group: one that a command's warm-up
// does not compile, for an expression that a run may well never need
// (a rule's pattern behind a prefilter).
func New(expr string) *Regexp { return &Regexp{src: expr} }

// Of returns re, compiled already, as a Regexp of no group.
func Of(re *regexp.Regexp) *Regexp {
	r := &Regexp{src: re.String()}
	r.once.Do(func() { r.re = re })
	return r
}

// Compile compiles the group's expressions not compiled yet.
func (g *Group) Compile() {
	g.mu.Lock()
	list := g.list
	g.mu.Unlock()
	for _, r := range list {
		r.Regexp()
	}
}

// CompileAll compiles every group's expressions; it panics on an invalid
// one, which is what a test of the packages using lazyre calls it for.
func CompileAll() {
	groups.Lock()
	list := groups.list
	groups.Unlock()
	for _, g := range list {
		g.Compile()
	}
}

// Regexp returns the compiled expression.
func (r *Regexp) Regexp() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.src) })
	return r.re
}

// String returns the source text.
func (r *Regexp) String() string { return r.src }

// The methods of *regexp.Regexp the checks use.

func (r *Regexp) Match(b []byte) bool        { return r.Regexp().Match(b) }
func (r *Regexp) MatchString(s string) bool  { return r.Regexp().MatchString(s) }
func (r *Regexp) FindString(s string) string { return r.Regexp().FindString(s) }
func (r *Regexp) FindStringIndex(s string) []int {
	return r.Regexp().FindStringIndex(s)
}
func (r *Regexp) FindStringSubmatch(s string) []string {
	return r.Regexp().FindStringSubmatch(s)
}
func (r *Regexp) FindStringSubmatchIndex(s string) []int {
	return r.Regexp().FindStringSubmatchIndex(s)
}
func (r *Regexp) FindAllString(s string, n int) []string {
	return r.Regexp().FindAllString(s, n)
}
func (r *Regexp) FindAllStringIndex(s string, n int) [][]int {
	return r.Regexp().FindAllStringIndex(s, n)
}
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.Regexp().FindAllStringSubmatch(s, n)
}
func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.Regexp().FindAllStringSubmatchIndex(s, n)
}
func (r *Regexp) FindIndex(b []byte) []int { return r.Regexp().FindIndex(b) }
func (r *Regexp) FindSubmatchIndex(b []byte) []int {
	return r.Regexp().FindSubmatchIndex(b)
}
func (r *Regexp) FindAllIndex(b []byte, n int) [][]int {
	return r.Regexp().FindAllIndex(b, n)
}
func (r *Regexp) FindAllSubmatchIndex(b []byte, n int) [][]int {
	return r.Regexp().FindAllSubmatchIndex(b, n)
}
func (r *Regexp) ReplaceAllString(src, repl string) string {
	return r.Regexp().ReplaceAllString(src, repl)
}
func (r *Regexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return r.Regexp().ReplaceAllStringFunc(src, repl)
}
func (r *Regexp) SubexpIndex(name string) int { return r.Regexp().SubexpIndex(name) }
func (r *Regexp) SubexpNames() []string       { return r.Regexp().SubexpNames() }
func (r *Regexp) NumSubexp() int              { return r.Regexp().NumSubexp() }
func (r *Regexp) Split(s string, n int) []string {
	return r.Regexp().Split(s, n)
}
