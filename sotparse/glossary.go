package sotparse

import (
	"bytes"
	"go/token"
	"slices"
	"strings"
	"sync"
)

// GlossaryPath is the workspace file that defines the glossary.
const GlossaryPath = "CONTEXT.md"

// Glossary is the set of terms CONTEXT.md defines.
type Glossary struct {
	Doc   *Doc
	Terms []*Term

	// The terms by FoldKey of their names, built on first use: a lookup
	// per reference over every term is quadratic in a large glossary.
	once    sync.Once
	byKey   map[string][]*Term
	lengths []int // the byte lengths of the keys, ascending, each once
}

// FoldKey is the key under which names that strings.EqualFold holds equal
// are found together (upper- then lower-casing folds the special cases,
// such as the long s, that lower-casing alone does not).
func FoldKey(s string) string { return strings.ToLower(strings.ToUpper(s)) }

func (g *Glossary) index() {
	g.once.Do(func() {
		g.byKey = make(map[string][]*Term, len(g.Terms))
		seen := map[int]bool{}
		for _, t := range g.Terms {
			k := FoldKey(t.Name)
			g.byKey[k] = append(g.byKey[k], t)
			if !seen[len(k)] {
				seen[len(k)] = true
				g.lengths = append(g.lengths, len(k))
			}
		}
		slices.Sort(g.lengths)
	})
}

// Named returns the terms whose name equals name, compared
// case-insensitively, in the glossary's order.
func (g *Glossary) Named(name string) []*Term {
	if g == nil {
		return nil
	}
	g.index()
	var out []*Term
	for _, t := range g.byKey[FoldKey(name)] {
		if strings.EqualFold(t.Name, name) {
			out = append(out, t)
		}
	}
	return out
}

// KeyLengths returns the byte lengths of the terms' FoldKeys, ascending:
// what a search for terms in a text needs to try.
func (g *Glossary) KeyLengths() []int {
	if g == nil {
		return nil
	}
	g.index()
	return g.lengths
}

// Term is one glossary entry: a paragraph that starts with "**Term**:" or
// "**Term** (qualifier):", the definition following on the same or the next
// lines.
type Term struct {
	Name       string
	Qualifier  string
	Definition string
	Pos, End   token.Pos
}

// Lookup returns the term with the given name, compared case-insensitively,
// or nil.
func (g *Glossary) Lookup(name string) *Term {
	if ts := g.Named(name); len(ts) > 0 {
		return ts[0]
	}
	return nil
}

// termPattern is a term's definition at the start of a line: "**Name**
// (qualifier):". No match crosses a line, so termMatches runs it on the
// lines that start with "**" only: over a whole glossary (250 KB, 1,250
// terms) Go's regexp, which has no literal to skip to after (?m)^, read
// every byte (10 ms, on every edit of CONTEXT.md).
var termPattern = lazyRE.New(`^\*\*([^*\n]+)\*\*(?:[ \t]*\(([^)\n]*)\))?[ \t]*:[ \t]*`)

// termMatches returns what (?m)termPattern's FindAllSubmatchIndex would
// of body.
func termMatches(body []byte) [][]int {
	var out [][]int
	for off := 0; off < len(body); {
		line := body[off:]
		next := len(body)
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			line, next = line[:i], off+i+1
		}
		if bytes.HasPrefix(line, []byte("**")) {
			if m := termPattern.FindSubmatchIndex(line); m != nil {
				for k := range m {
					if m[k] >= 0 {
						m[k] += off
					}
				}
				out = append(out, m)
			}
		}
		off = next
	}
	return out
}

func parseGlossary(d *Doc) *Glossary {
	g := &Glossary{Doc: d}
	f := d.File
	base := f.Tok.Offset(d.BodyStart)
	body := f.Content[base:]
	// Fenced code must not define terms.
	fences := fencedRanges(body)
	ms := termMatches(body)
	fi := 0 // the first fence not wholly before the match: both are in order
	for i, m := range ms {
		for fi < len(fences) && fences[fi][1] <= m[0] {
			fi++
		}
		if fi < len(fences) && fences[fi][0] <= m[0] {
			continue
		}
		end := len(body)
		if i+1 < len(ms) {
			end = ms[i+1][0]
		}
		// The definition runs to the next blank line or heading.
		def := body[m[1]:end]
		if j := bytes.Index(def, []byte("\n\n")); j >= 0 {
			def = def[:j]
		}
		if j := bytes.Index(def, []byte("\n#")); j >= 0 {
			def = def[:j]
		}
		t := &Term{Name: strings.TrimSpace(string(body[m[2]:m[3]])), Definition: strings.TrimSpace(string(def)), Pos: f.Pos(base + m[0]), End: f.Pos(base + m[1])}
		if m[4] >= 0 {
			t.Qualifier = strings.TrimSpace(string(body[m[4]:m[5]]))
		}
		g.Terms = append(g.Terms, t)
	}
	return g
}

func fencedRanges(b []byte) [][2]int {
	var out [][2]int
	open := -1
	var fence string
	off := 0
	for _, line := range strings.SplitAfter(string(b), "\n") {
		t := strings.TrimLeft(line, " ")
		if open < 0 && (strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")) {
			open, fence = off, t[:3]
		} else if open >= 0 && strings.HasPrefix(t, fence) {
			out = append(out, [2]int{open, off + len(line)})
			open = -1
		}
		off += len(line)
	}
	if open >= 0 {
		out = append(out, [2]int{open, len(b)})
	}
	return out
}
