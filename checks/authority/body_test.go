package authority

import (
	"fmt"
	"go/token"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/internal/testcorpus"
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
			if blk.found = set.matcher.scan(bl.Text); !set.admits(ScopeSentence, blk.found) {
				continue
			}
		}
		b.blocks = append(b.blocks, blk)
	}
	return b
}

// testWorkspaces returns the workspaces of the package's testdata, the
// corpus when present, and a workspace of random documents (randomDoc).
func testWorkspaces(t *testing.T) map[string]*sotparse.Workspace {
	t.Helper()
	dirs, _ := filepath.Glob(filepath.Join("testdata", "*"))
	if c := testcorpus.Optional(t); c != "" {
		dirs = append(dirs, c)
	}
	random := t.TempDir()
	rng := rand.New(rand.NewPCG(20, 26))
	for i := range 400 {
		p := filepath.Join(random, ".sot", fmt.Sprintf("R-%03d-PRD.md", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(randomDoc(rng)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dirs = append(dirs, random)
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
// mixes the words of the built-in rules with every inline markup, white
// space and line ending the parser handles.
func randomDoc(rng *rand.Rand) string {
	words := []string{
		"the", "this", "these", "document", "record", "is", "are", "was", "now", "active", "Core", "core",
		"Protocol", "authority", "runtime", "default", "Default", "activation", "on", "true", "make", "made",
		"Case", "Codex", "Pi", "promote", "promoted", "to", "into", "approval", "has", "been", "granted", "JP",
		"approved", "backend", "engine", "as", "a", "not", "candidate", "CTO", "core_promotion_status",
		"runtime-default-activation", "approval_granted", "yes", "=", ":", "‹code›", "K", "\u212a", "ſ",
		"budget", "stage", "local", "sandbox", "becomes", "Cortex", "OS", "operator", "human", "given",
		"activated", "enabled", "execution", "remains", "stays", "new", "our", "until", "only", "never",
		"é", "\x00", "\xff", "12", "—", "'s", "\"", ".", ",", ";", "!", "?", "(", ")", "|",
	}
	markup := []string{
		"`%s`", "``%s``", "**%s**", "*%s*", "_%s_", "__%s__", "~~%s~~", "[%s](http://x.y)", "![%s](i.png)",
		"[%s]", "<b>%s</b>", "<http://%s>", "&amp;%s", "&#42;%s", "\\*%s", "%s\\", "%s &copy;", "<!-- %s -->",
	}
	spaces := []string{" ", " ", " ", "  ", "\t", " \t "}
	phrase := func(n int) string {
		var b strings.Builder
		for i := range n {
			if i > 0 {
				b.WriteString(spaces[rng.IntN(len(spaces))])
			}
			w := words[rng.IntN(len(words))]
			if rng.IntN(8) == 0 {
				w = fmt.Sprintf(markup[rng.IntN(len(markup))], w)
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
				switch rng.IntN(4) {
				case 0:
					b.WriteString("  \n")
				case 1:
					b.WriteString("\\\n")
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
			marker := []string{"- ", "* ", "1. ", "- [ ] ", "- [x] "}[rng.IntN(5)]
			for range 1 + rng.IntN(4) {
				indent := []string{"", "  ", "\t", "    "}[rng.IntN(4)]
				b.WriteString(indent + marker + lines(indent+"  ") + "\n")
			}
		case 7:
			fmt.Fprintf(&b, "- %s: %s\n", phrase(1+rng.IntN(3)), phrase(1+rng.IntN(3)))
		case 8:
			fmt.Fprintf(&b, "| %s | %s |\n| --- | --- |\n| %s | %s \\| %s |\n", phrase(2), phrase(1), phrase(3), phrase(2), phrase(1))
		case 9:
			fmt.Fprintf(&b, "> %s\n> %s\n", lines("> "), phrase(3))
		case 10:
			fmt.Fprintf(&b, "```\n%s\n```\n", lines(""))
		case 11:
			fmt.Fprintf(&b, "<div>\n%s\n</div>\n", phrase(3))
		default:
			fmt.Fprintf(&b, "    %s\n", phrase(4))
		}
		b.WriteString([]string{"\n", "\n\n", "\r\n", ""}[rng.IntN(4)])
	}
	return b.String()
}
