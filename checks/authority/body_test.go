package authority

import (
	"fmt"
	"go/token"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/svrnty/sotvet/internal/testcorpus"
	"github.com/svrnty/sotvet/scripts/gen-corpus/gencorpus"
	"github.com/svrnty/sotvet/sotparse"
)

// referenceBody is readBody as it was before it scanned the prose first:
// each prose block scanned on its own, kept when a sentence rule admits
// it, every heading walked.
func referenceBody(blocks []*sotparse.Block, set *ClaimSet) *body {
	b := &body{all: blocks, sectioned: true}
	var w sectionWalker
	for _, bl := range blocks {
		if bl.Kind == sotparse.BlockHeading {
			b.sections = append(b.sections, w.heading(bl))
			continue
		}
		if !isProse(bl) {
			continue
		}
		blk := block{Block: bl, mention: w.mention(), section: w.section}
		if set != nil {
			blk.found = set.matcher.scan(bl.Text)
			if ct := canonicalText(bl.Text); ct != "" {
				blk.found |= set.matcher.scan(ct)
			}
			if !set.admits(ScopeSentence, blk.found) {
				continue
			}
		}
		b.blocks = append(b.blocks, blk)
	}
	return b
}

// testWorkspaces returns, by name, the workspaces of the package's
// testdata, the repository's sample workspace and the workspace of every
// testscript scenario, the corpus when present, two generated workspaces
// (the default shape and the adoption shape of scripts/gen-corpus), and a
// workspace of random documents (randomDoc).
func testWorkspaces(t *testing.T) map[string]*sotparse.Workspace {
	t.Helper()
	workspaces.Lock()
	defer workspaces.Unlock()
	if workspaces.m == nil {
		workspaces.m = loadTestWorkspaces(t)
	}
	return workspaces.m
}

// workspaces holds the test workspaces, read once per test process and
// shared read-only by the tests that walk them: generating and parsing
// them was most of each such test's cost.
var workspaces struct {
	sync.Mutex
	m map[string]*sotparse.Workspace
}

func loadTestWorkspaces(t *testing.T) map[string]*sotparse.Workspace {
	t.Helper()
	dirs, _ := filepath.Glob(filepath.Join("testdata", "*"))
	dirs = append(dirs, filepath.Join("..", "..", "testdata", "workspace"))
	if c := testcorpus.Optional(t); c != "" {
		dirs = append(dirs, c)
	}
	write := func(dir, name string, data []byte) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	names, scenarios := testcorpus.Scenarios(t)
	for _, name := range names {
		dirs = append(dirs, scenarios[name])
	}
	generated, adoption := t.TempDir(), t.TempDir()
	if err := gencorpus.Write(generated, 60, 11); err != nil {
		t.Fatal(err)
	}
	if err := gencorpus.WriteShape(adoption, "adoption", 150, 1, gencorpus.Options{}); err != nil {
		t.Fatal(err)
	}
	random := t.TempDir()
	rng := rand.New(rand.NewPCG(20, 26))
	for i := range 400 {
		write(random, fmt.Sprintf(".sot/R-%03d-PRD.md", i), []byte(randomDoc(rng)))
	}
	dirs = append(dirs, generated, adoption, random)
	out := map[string]*sotparse.Workspace{}
	for _, dir := range dirs {
		ws, err := sotparse.Load(dir, sotparse.Options{NoGit: true})
		if err != nil {
			t.Fatal(err)
		}
		out[dir] = ws
	}
	return out
}

// TestReadBody checks readBody against referenceBody: the same blocks
// kept, with the same found sets, sections and mentions, with the
// built-in rules, a rule that admits most prose, and no rule set.
func TestReadBody(t *testing.T) {
	sets := map[string]*ClaimSet{
		"built-in": NewClaimSet(DefaultClaims),
		"broad":    NewClaimSet([]Claim{{ID: "broad", Pattern: Patterns{`\bdefault\b`}, Scope: Scopes{ScopeSentence}, Message: "m"}}),
		"none":     nil,
	}
	kept := map[string]int{}
	var found []clauseBits
	for dir, ws := range testWorkspaces(t) {
		for _, d := range ws.Docs {
			blocks := d.Blocks()
			for name, set := range sets {
				got, want := readBody(blocks, set, &found), referenceBody(blocks, set)
				kept[name] += len(want.blocks)
				if len(got.blocks) != len(want.blocks) {
					t.Fatalf("%s: %s: %s: %d blocks kept, want %d", dir, d.Path, name, len(got.blocks), len(want.blocks))
				}
				for i := range want.blocks {
					g, w := got.blocks[i], want.blocks[i]
					if g.Block != w.Block || g.found != w.found || g.mention != w.mention || g.section != w.section {
						t.Fatalf("%s: %s: %s: block %d: got %+v, want %+v", dir, d.Path, name, i, g, w)
					}
				}
				// Every position a fact may have: each block's start and
				// end.
				for _, bl := range blocks {
					for _, pos := range []token.Pos{bl.Pos, bl.End} {
						if g, w := got.mentionAt(pos), want.mentionAt(pos); g != w {
							t.Fatalf("%s: %s: %s: mentionAt(%d) = %v, want %v", dir, d.Path, name, pos, g, w)
						}
					}
				}
			}
		}
	}
	t.Logf("blocks kept: %v", kept)
	if kept["built-in"] == 0 || kept["broad"] <= kept["built-in"] {
		t.Errorf("blocks kept: %v; want some with the built-in rules, more with the broad one", kept)
	}
}

// randomDoc returns a markdown document of random structure whose text
// mixes the words of the built-in rules with the inline markup, white
// space and line endings the parser handles: a third of them hold no byte
// of markupBytes, a third one kind of markup, a third any.
func randomDoc(rng *rand.Rand) string {
	words := []string{
		"the", "this", "these", "document", "record", "is", "are", "was", "now", "active", "Core", "core",
		"Protocol", "authority", "runtime", "default", "Default", "activation", "on", "true", "make", "made",
		"Case", "Codex", "Pi", "promote", "promoted", "to", "into", "approval", "has", "been", "granted", "JP",
		"approved", "backend", "engine", "as", "a", "not", "candidate", "CTO", "core_promotion_status",
		"runtime-default-activation", "approval_granted", "yes", "=", ":", "‹code›", "K", "\u212a", "ſ",
		"budget", "stage", "local", "sandbox", "becomes", "Cortex", "OS", "operator", "human", "given",
		"activated", "enabled", "execution", "remains", "stays", "new", "our", "until", "only", "never",
		"é", "\x01", "\u00a0", "12", "—", "'s", "\"", ".", ",", ";", "!", "?", "(", ")", "|",
	}
	markup := []string{
		"`%s`", "``%s``", "**%s**", "*%s*", "_%s_", "__%s__", "~~%s~~", "[%s](http://x.y)", "![%s](i.png)",
		"[%s]", "<b>%s</b>", "<http://%s>", "&amp;%s", "&#42;%s", "\\*%s", "%s\\", "%s &copy;", "<!-- %s -->",
	}
	spaces := []string{" ", " ", " ", "  ", "\t", " \t ", "\v ", " \f"}
	// The kinds of markup the document may hold: markup's, a hard line
	// break after a backslash, a vertical tab.
	var kinds []string
	switch rng.IntN(3) {
	case 1:
		kinds = []string{append(markup, "\\\n", "\v")[rng.IntN(len(markup)+2)]}
	case 2:
		kinds = append(markup, "\\\n", "\v")
	}
	// allowed reports whether s may stand in the document: whether each
	// byte of markupBytes it holds is one of a kind's.
	allowed := func(s string) bool {
		for i := 0; i < len(s); i++ {
			c := s[i]
			if strings.IndexByte(markupBytes, c) >= 0 && !slices.ContainsFunc(kinds, func(k string) bool { return strings.IndexByte(k, c) >= 0 }) {
				return false
			}
		}
		return true
	}
	space := func() string {
		sp := spaces[rng.IntN(len(spaces))]
		for !allowed(sp) {
			sp = spaces[rng.IntN(len(spaces))]
		}
		return sp
	}
	phrase := func(n int) string {
		var b strings.Builder
		for i := range n {
			if i > 0 {
				b.WriteString(space())
			}
			w := words[rng.IntN(len(words))]
			for !allowed(w) {
				w = words[rng.IntN(len(words))]
			}
			if len(kinds) > 0 && rng.IntN(6) == 0 {
				if k := kinds[rng.IntN(len(kinds))]; strings.Contains(k, "%s") {
					w = fmt.Sprintf(k, w)
				}
			}
			b.WriteString(w)
		}
		return b.String()
	}
	// lines returns a phrase over up to three lines, broken softly or
	// hard, continuation lines indented by indent.
	lines := func(indent string) string {
		var b strings.Builder
		for i := range 1 + rng.IntN(3) {
			if i > 0 {
				if rng.IntN(3) == 0 {
					b.WriteString(space())
				}
				switch rng.IntN(4) {
				case 0:
					b.WriteString("  \n")
				case 1:
					if allowed("\\\n") {
						b.WriteString("\\\n")
					}
				case 2:
					b.WriteString("\r\n")
				default:
					b.WriteString("\n")
				}
				b.WriteString(indent + strings.Repeat(" ", rng.IntN(3)))
			}
			b.WriteString(phrase(1 + rng.IntN(9)))
		}
		return b.String()
	}
	headings := []string{"Non-Goals", "Out of Scope", "Required Phrases", "Risks", "Decision", "Scope", "Blocked Actions", "Notes"}
	var b strings.Builder
	if rng.IntN(2) == 0 {
		b.WriteString("---\nname: r\nstatus: candidate\n---\n\n")
	}
	for range 1 + rng.IntN(12) {
		switch rng.IntN(13) {
		case 0:
			h := headings[rng.IntN(len(headings))]
			if rng.IntN(3) == 0 {
				h = phrase(1 + rng.IntN(4))
			}
			fmt.Fprintf(&b, "%s %s\n", strings.Repeat("#", 1+rng.IntN(4)), h)
		case 1:
			fmt.Fprintf(&b, "%s\n%s\n", phrase(2), []string{"===", "---"}[rng.IntN(2)])
		case 2, 3, 4:
			b.WriteString(lines("") + "\n")
		case 5, 6:
			marker := []string{"- ", "+ ", "1. ", "- [ ] ", "- [x] "}[rng.IntN(5)]
			if !allowed(marker) {
				marker = marker[:2]
			}
			for range 1 + rng.IntN(4) {
				indent := []string{"", "  ", "\t", "    "}[rng.IntN(4)]
				b.WriteString(indent + marker + lines(indent+"  ") + "\n")
			}
		case 7:
			fmt.Fprintf(&b, "- %s: %s\n", phrase(1+rng.IntN(3)), phrase(1+rng.IntN(3)))
		case 8:
			escaped := " \\| "
			if !allowed(escaped) {
				escaped = " "
			}
			fmt.Fprintf(&b, "| %s | %s |\n| --- | --- |\n| %s | %s%s%s |\n", phrase(2), phrase(1), phrase(3), phrase(2), escaped, phrase(1))
		case 9:
			fmt.Fprintf(&b, "> %s\n> %s\n", lines("> "), phrase(3))
		case 10:
			if allowed("`") {
				fmt.Fprintf(&b, "```\n%s\n```\n", lines(""))
			}
		case 11:
			if allowed("<") {
				fmt.Fprintf(&b, "<div>\n%s\n</div>\n", phrase(3))
			}
		default:
			fmt.Fprintf(&b, "    %s\n", phrase(4))
		}
		b.WriteString([]string{"\n", "\n\n", "\r\n", ""}[rng.IntN(4)])
	}
	return b.String()
}
