package sotparse

import (
	"go/token"
	"strings"
)

// GlossaryPath is the workspace file that defines the glossary.
const GlossaryPath = "CONTEXT.md"

// Glossary is the set of terms CONTEXT.md defines.
type Glossary struct {
	Doc   *Doc
	Terms []*Term
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
	if g == nil {
		return nil
	}
	for _, t := range g.Terms {
		if strings.EqualFold(t.Name, name) {
			return t
		}
	}
	return nil
}

var termPattern = lazyRE.New(`(?m)^\*\*([^*\n]+)\*\*(?:[ \t]*\(([^)\n]*)\))?[ \t]*:[ \t]*`)

func parseGlossary(d *Doc) *Glossary {
	g := &Glossary{Doc: d}
	f := d.File
	base := f.Tok.Offset(d.BodyStart)
	body := f.Content[base:]
	// Fenced code must not define terms.
	fences := fencedRanges(body)
	ms := termPattern.FindAllSubmatchIndex(body, -1)
	for i, m := range ms {
		if inRanges(fences, m[0]) {
			continue
		}
		end := len(body)
		if i+1 < len(ms) {
			end = ms[i+1][0]
		}
		// The definition runs to the next blank line or heading.
		def := body[m[1]:end]
		if j := strings.Index(string(def), "\n\n"); j >= 0 {
			def = def[:j]
		}
		if j := strings.Index(string(def), "\n#"); j >= 0 {
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

func inRanges(rs [][2]int, off int) bool {
	for _, r := range rs {
		if off >= r[0] && off < r[1] {
			return true
		}
	}
	return false
}
