package gencorpus

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// Shapes are the workspaces besides the default, each a benchmark of a load
// the default (clean, corpus-like) workspace does not exercise:
//
//   - adoption: n legacy documents, each with frontmatter, an issue heading,
//     8–30 list items and 3–10 paragraphs separated by two blank lines, and
//     an n-item WORKBOARD.yaml: a first run on a large legacy repository,
//     with several hygiene warnings and a structure error per document.
//   - findings: n documents of 200 lines, almost every one a finding
//     (trailing blanks, runs of blank lines, tabs, missing disclaimer).
//   - bigdoc: one document of about n MB (default shape size 20), plus a
//     few ordinary ones, and a sotvet.yaml raising max-file-size to let
//     sotvet read it.
//   - workboard: an n-item WORKBOARD.yaml and one ISSUES document per 100
//     items defining them.
//   - tiny: n documents of a few lines each.
//   - deeprefs: n documents in one chain: each work item blocked by the
//     one before, each document naming the next one's path.
//   - remains: one document of n validated items, each followed by a
//     sentence saying another item remains blocked.
//   - items: one document of n work items of every kind, and a workboard.
//   - manyids: n documents whose lines name 200 ids and 20 paths each.
//   - longlines: n documents of three 256 KiB lines.
//   - nesting: n documents of lists and block quotes 100 deep.
//   - mesh: n documents, each linking to ten others across the workspace.
//   - chains: a workboard of n items in blocked_by chains of 1,000.
//   - distinct: n documents naming 200 work item ids and 20 paths each, in
//     prose and in lists, every one named by no other document, and the
//     next document by path: a table of reference texts that shares nothing.
//   - fanin: a workboard of n items and one more blocked by all of them,
//     in a flow sequence on one line, with one ISSUES document per 1,000
//     items (a probe of round twenty's blind shapes: every item's column
//     counted from the line's start cost the square of the line).
//   - inlines: one document of cmark's pathological inline shapes, each a
//     paragraph of n units (unclosed links, mismatched emphasis, runs of
//     backticks...), which goldmark parsed in time quadratic in n.
//   - linkrefs: one document of n link reference definitions in one
//     paragraph, then a paragraph of n lines each citing one of them (goldmark
//     took both in time quadratic in the paragraph's lines, round 46).
//   - stairs: one document of a list nested by indentation √(40n) deep, a
//     level a line, about 40n bytes (goldmark walked every open list on
//     every line and read its indentation again at each: the cube of the
//     depth, round 47).
var Shapes = []string{"adoption", "findings", "bigdoc", "workboard", "tiny", "deeprefs", "remains", "items", "manyids", "longlines", "nesting", "mesh", "chains", "distinct", "fanin", "annotated", "linkrefs", "inlines", "stairs"}

// WriteShape writes the named shape of size n into dir (which must be absent
// or empty unless opt.Force), deterministically from seed. The shape
// "default" is Write.
func WriteShape(dir, shape string, n int, seed int64, opt Options) error {
	if shape == "" || shape == "default" {
		return WriteWith(dir, n, seed, opt)
	}
	if n < 1 {
		return fmt.Errorf("gencorpus: need a size of at least 1, got %d", n)
	}
	var files func(emit func(path, body string))
	rng := func(i int) *rand.Rand { return rand.New(rand.NewPCG(uint64(seed), uint64(i)+1)) }
	switch shape {
	case "adoption":
		files = func(emit func(string, string)) { adoption(emit, n, rng) }
	case "findings":
		files = func(emit func(string, string)) { manyFindings(emit, n, rng) }
	case "bigdoc":
		files = func(emit func(string, string)) { bigDoc(emit, n, rng) }
	case "workboard":
		files = func(emit func(string, string)) { bigWorkboard(emit, n, rng, false) }
	case "annotated":
		files = func(emit func(string, string)) { bigWorkboard(emit, n, rng, true) }
	case "tiny":
		files = func(emit func(string, string)) { tiny(emit, n) }
	case "deeprefs":
		files = func(emit func(string, string)) { deepRefs(emit, n) }
	case "remains":
		files = func(emit func(string, string)) { remains(emit, n) }
	case "items":
		files = func(emit func(string, string)) { items(emit, n, rng) }
	case "manyids":
		files = func(emit func(string, string)) { manyIDs(emit, n) }
	case "longlines":
		files = func(emit func(string, string)) { longLines(emit, n, rng) }
	case "nesting":
		files = func(emit func(string, string)) { nesting(emit, n) }
	case "mesh":
		files = func(emit func(string, string)) { mesh(emit, n) }
	case "chains":
		files = func(emit func(string, string)) { chains(emit, n) }
	case "distinct":
		files = func(emit func(string, string)) { distinct(emit, n) }
	case "fanin":
		files = func(emit func(string, string)) { fanIn(emit, n) }
	case "linkrefs":
		files = func(emit func(string, string)) { linkRefs(emit, n) }
	case "inlines":
		files = func(emit func(string, string)) { inlines(emit, n) }
	case "stairs":
		files = func(emit func(string, string)) { stairs(emit, n) }
	default:
		return fmt.Errorf("gencorpus: unknown shape %q (have default, %s)", shape, strings.Join(Shapes, ", "))
	}
	if err := prepare(dir, opt); err != nil {
		return err
	}
	var (
		mu       sync.Mutex
		firstErr error
		wg       sync.WaitGroup
		sem      = make(chan struct{}, 8)
		made     = map[string]bool{}
	)
	files(func(p, body string) {
		full := filepath.Join(dir, filepath.FromSlash(p))
		d := filepath.Dir(full)
		mu.Lock()
		if !made[d] {
			made[d] = true
			if err := os.MkdirAll(d, 0o755); err != nil && firstErr == nil {
				firstErr = err
			}
		}
		mu.Unlock()
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
				mu.Lock()
				if firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
			}
		}()
	})
	wg.Wait()
	if firstErr != nil {
		return fmt.Errorf("gencorpus: %w", firstErr)
	}
	return nil
}

// prepare makes dir ready for a generated workspace.
func prepare(dir string, opt Options) error {
	ents, err := os.ReadDir(dir)
	if err == nil && len(ents) > 0 {
		if !opt.Force {
			return fmt.Errorf("gencorpus: %s: %w", dir, ErrNotEmpty)
		}
		for _, p := range []string{".sot", "WORKBOARD.yaml", "CONTEXT.md", "sotvet.yaml"} {
			if err := os.RemoveAll(filepath.Join(dir, p)); err != nil {
				return fmt.Errorf("gencorpus: %w", err)
			}
		}
	}
	return os.MkdirAll(dir, 0o755)
}

func legacyFrontmatter(b *strings.Builder, name, status string) {
	b.WriteString("---\nname: " + name + "\ntier: local\nstatus: " + status + "\nowner: legacy\nsource: WORKBOARD.yaml\n---\n\n")
}

func sentences(b *strings.Builder, r *rand.Rand, n int) {
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		w := r.IntN(6) + 6
		for j := range w {
			word := topicWords[r.IntN(len(topicWords))]
			if j == 0 {
				b.WriteString(word)
			} else {
				b.WriteString(" " + strings.ToLower(word))
			}
		}
		b.WriteByte('.')
	}
}

func adoption(emit func(string, string), n int, rng func(int) *rand.Rand) {
	var wb strings.Builder
	wb.WriteString("items:\n")
	for i := 1; i <= n; i++ {
		r := rng(i)
		id := fmt.Sprintf("CTO-WORK-%05d", i)
		name := fmt.Sprintf("LEGACY-%05d-ISSUES", i)
		p := fmt.Sprintf(".sot/legacy/%03d/%s.md", i/100, name)
		var b strings.Builder
		day := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i%300)
		frontmatter(&b, strings.ToLower(name), "candidate", "WORKBOARD.yaml", "Legacy issue list.", day, day)
		title := topicWords[r.IntN(len(topicWords))] + " work"
		fmt.Fprintf(&b, "# Legacy %d\n\n%s\n\n## Issue: %s - %s\n\nStatus: candidate.\n\n", i, Disclaimer, id, title)
		for range 8 + r.IntN(23) {
			b.WriteString("- ")
			sentences(&b, r, 1)
			b.WriteByte('\n')
		}
		for range 3 + r.IntN(8) {
			b.WriteString("\n\n")
			sentences(&b, r, 2+r.IntN(4))
			b.WriteByte('\n')
		}
		emit(p, b.String())
		fmt.Fprintf(&wb, "  - id: %s\n    title: %s\n    status: candidate\n    blocked_by: []\n    source: %s\n", id, title, p)
	}
	emit("WORKBOARD.yaml", wb.String())
}

func manyFindings(emit func(string, string), n int, rng func(int) *rand.Rand) {
	for i := 1; i <= n; i++ {
		r := rng(i)
		var b strings.Builder
		legacyFrontmatter(&b, fmt.Sprintf("noisy-%05d", i), "draft")
		b.WriteString("# Noisy\n\n")
		for j := range 200 {
			switch j % 4 {
			case 0:
				sentences(&b, r, 1)
				b.WriteString("   \n")
			case 1:
				b.WriteString("\n\n")
			case 2:
				b.WriteString("\t")
				sentences(&b, r, 1)
				b.WriteString("\t\n")
			default:
				b.WriteString("- ")
				sentences(&b, r, 1)
				b.WriteString(" \n")
			}
		}
		emit(fmt.Sprintf(".sot/noisy/NOISY-%05d-PRD.md", i), b.String())
	}
}

func bigDoc(emit func(string, string), mb int, rng func(int) *rand.Rand) {
	r := rng(0)
	var b strings.Builder
	b.Grow(mb<<20 + 4096)
	legacyFrontmatter(&b, "big", "draft")
	b.WriteString("# Big\n\n" + Disclaimer + "\n\n")
	for k := 1; b.Len() < mb<<20; k++ {
		fmt.Fprintf(&b, "## Issue: BIG-WORK-%06d - Part %d\n\nStatus: candidate.\n\n", k, k)
		for range 10 {
			b.WriteString("- [ ] ")
			sentences(&b, r, 1)
			b.WriteByte('\n')
		}
		b.WriteByte('\n')
		for range 5 {
			sentences(&b, r, 4)
			b.WriteString("\n\n")
		}
	}
	emit(".sot/big/BIG-ISSUES.md", b.String())
	// Over the default 4 MB limit: the workspace raises it, so that the
	// document is read and checked, not refused.
	emit("sotvet.yaml", fmt.Sprintf("max-file-size: %d\n", b.Len()+1<<20))
	for i := range 10 {
		var s strings.Builder
		legacyFrontmatter(&s, fmt.Sprintf("small-%d", i), "draft")
		s.WriteString("# Small\n\n" + Disclaimer + "\n\nSee `.sot/big/BIG-ISSUES.md`.\n")
		emit(fmt.Sprintf(".sot/big/SMALL-%d-PRD.md", i), s.String())
	}
}

// bigWorkboard writes a workboard of n items and their issue documents;
// annotated, as a team keeps one by hand: a comment after every third
// item's status, a block scalar of notes in every fifth.
func bigWorkboard(emit func(string, string), n int, rng func(int) *rand.Rand, annotated bool) {
	var wb strings.Builder
	wb.WriteString("items:\n")
	for doc := 0; doc*100 < n; doc++ {
		r := rng(doc)
		p := fmt.Sprintf(".sot/board/BOARD-%04d-ISSUES.md", doc)
		var b strings.Builder
		legacyFrontmatter(&b, fmt.Sprintf("board-%04d", doc), "draft")
		b.WriteString("# Board\n\n" + Disclaimer + "\n\n")
		for i := doc * 100; i < min(n, doc*100+100); i++ {
			id := fmt.Sprintf("BRD-WORK-%06d", i)
			status := []string{"candidate", "validated", "blocked"}[r.IntN(3)]
			var blocked string
			if i > 0 && r.IntN(4) == 0 {
				blocked = fmt.Sprintf("BRD-WORK-%06d", r.IntN(i))
			}
			fmt.Fprintf(&b, "### %s - Item %d\n\nStatus: %s.\n", id, i, status)
			if blocked != "" {
				fmt.Fprintf(&b, "Blocked by: %s\n", blocked)
			}
			b.WriteString("\n")
			if !annotated {
				fmt.Fprintf(&wb, "  - id: %s\n    title: Item %d\n    status: %s\n    blocked_by: [%s]\n    source: %s\n", id, i, status, blocked, p)
				continue
			}
			fmt.Fprintf(&wb, "  - id: %s\n    title: Item %d\n    status: %s", id, i, status)
			if i%3 == 0 {
				wb.WriteString("  # as of the last review")
			}
			fmt.Fprintf(&wb, "\n    blocked_by: [%s]\n    source: %s\n", blocked, p)
			if i%5 == 0 {
				fmt.Fprintf(&wb, "    notes: |\n      Raised in review %d.\n      Owner to confirm the scope.\n", i)
			}
		}
		emit(p, b.String())
	}
	emit("WORKBOARD.yaml", wb.String())
	// past 4 MB (about 25,000 items) the default limit would skip the
	// workboard unread, and a sweep measure nothing of it
	emit("sotvet.yaml", fmt.Sprintf("max-file-size: %d\n", wb.Len()+1<<20))
}

func tiny(emit func(string, string), n int) {
	for i := range n {
		emit(fmt.Sprintf(".sot/t%03d/T-%06d-PRD.md", i/1000, i),
			fmt.Sprintf("---\nname: t-%06d\nstatus: draft\n---\n\n# T %d\n\n%s\n", i, i, Disclaimer))
	}
}

func deepRefs(emit func(string, string), n int) {
	var wb strings.Builder
	wb.WriteString("items:\n")
	path := func(i int) string { return fmt.Sprintf(".sot/chain/CHAIN-%05d-ISSUES.md", i) }
	for i := range n {
		id := fmt.Sprintf("CHN-WORK-%05d", i)
		var b strings.Builder
		legacyFrontmatter(&b, fmt.Sprintf("chain-%05d", i), "draft")
		b.WriteString("# Chain\n\n" + Disclaimer + "\n\n")
		fmt.Fprintf(&b, "## Issue: %s - Link %d\n\nStatus: candidate.\n", id, i)
		blocked := ""
		if i > 0 {
			blocked = fmt.Sprintf("CHN-WORK-%05d", i-1)
			fmt.Fprintf(&b, "Blocked by: %s\n", blocked)
		}
		if i+1 < n {
			fmt.Fprintf(&b, "\nNext: `%s`.\n", path(i+1))
		}
		emit(path(i), b.String())
		fmt.Fprintf(&wb, "  - id: %s\n    title: Link %d\n    status: candidate\n    blocked_by: [%s]\n    source: %s\n", id, i, blocked, path(i))
	}
	emit("WORKBOARD.yaml", wb.String())
}

// remains: one ISSUES document of n validated items, each followed by a
// sentence saying that another item remains blocked: the shape that made
// status's remains-blocked rule quadratic (issue 34).
func remains(emit func(string, string), n int) {
	var b strings.Builder
	legacyFrontmatter(&b, "remains", "draft")
	b.WriteString("# Remains\n\n" + Disclaimer + "\n\n")
	for i := range n {
		fmt.Fprintf(&b, "### CTO-WORK-%06d - Item %d\n\nStatus: validated.\n\nCTO-WORK-%06d remains blocked until the review.\n\n", i, i, (i+1)%n)
	}
	emit(".sot/one/REMAINS-ISSUES.md", b.String())
}

// items: one ISSUES document of n work items of every kind the checks read:
// statuses, blockers, acceptance boxes, statements about other items
// ("X is validated", "closes Y"), stated results, evidence pointers, and a
// workboard naming each: 1k -> 100k items in one document.
func items(emit func(string, string), n int, rng func(int) *rand.Rand) {
	r := rng(0)
	var b, wb strings.Builder
	wb.WriteString("items:\n")
	p := ".sot/items/ITEMS-ISSUES.md"
	legacyFrontmatter(&b, "items", "draft")
	b.WriteString("# Items\n\n" + Disclaimer + "\n\n")
	statuses := []string{"candidate", "validated", "blocked", "in-progress", "done"}
	for i := range n {
		id := fmt.Sprintf("CTO-WORK-%06d", i)
		st := statuses[r.IntN(len(statuses))]
		other := fmt.Sprintf("CTO-WORK-%06d", r.IntN(n))
		fmt.Fprintf(&b, "## Issue: %s - Item %d\n\nType: task.\nStatus: %s.\n", id, i, st)
		blocked := ""
		if i > 0 && r.IntN(3) == 0 {
			blocked = fmt.Sprintf("CTO-WORK-%06d", r.IntN(i))
			fmt.Fprintf(&b, "Blocked by: %s\n", blocked)
		}
		b.WriteString("\nAcceptance criteria:\n\n- [x] ")
		sentences(&b, r, 1)
		b.WriteString("\n- [ ] ")
		sentences(&b, r, 1)
		fmt.Fprintf(&b, "\n\n%s is %s. %s is blocked by %s. See `.sot/items/ITEMS-ISSUES.md`.\n", other, statuses[r.IntN(len(statuses))], id, other)
		fmt.Fprintf(&b, "Report status: `pass`. Result: validated. Supersedes %s.\n\n", other)
		fmt.Fprintf(&wb, "  - id: %s\n    title: Item %d\n    status: %s\n    blocked_by: [%s]\n    source: %s\n", id, i, st, blocked, p)
	}
	emit(p, b.String())
	emit("WORKBOARD.yaml", wb.String())
	emit("sotvet.yaml", fmt.Sprintf("max-file-size: %d\n", max(b.Len(), wb.Len())+1<<20))
}

// manyids: n documents whose lines each name 200 work item ids and 20
// document paths, in prose, in lists and in a table.
func manyIDs(emit func(string, string), n int) {
	for i := range n {
		var b strings.Builder
		legacyFrontmatter(&b, fmt.Sprintf("ids-%05d", i), "draft")
		b.WriteString("# Ids\n\n" + Disclaimer + "\n\n")
		fmt.Fprintf(&b, "## Issue: IDS-WORK-%06d - Ids\n\nStatus: candidate.\n\n", i)
		for line := range 10 {
			if line%2 == 0 {
				b.WriteString("- ")
			} else {
				b.WriteString("| ")
			}
			for k := range 200 {
				fmt.Fprintf(&b, "IDS-WORK-%06d, ", (i*7+k*13+line)%max(n, 1))
			}
			for k := range 20 {
				fmt.Fprintf(&b, "`.sot/ids/IDS-%05d-ISSUES.md` ", (i+k*31+line)%max(n, 1))
			}
			b.WriteString("blocked.\n")
		}
		emit(fmt.Sprintf(".sot/ids/IDS-%05d-ISSUES.md", i), b.String())
	}
}

// longlines: n documents, each of a few lines of 256 KiB of words with no
// line break, one of them in a list item and one in a table row.
func longLines(emit func(string, string), n int, rng func(int) *rand.Rand) {
	for i := range n {
		r := rng(i)
		var b strings.Builder
		legacyFrontmatter(&b, fmt.Sprintf("long-%05d", i), "draft")
		b.WriteString("# Long\n\n" + Disclaimer + "\n\n")
		for k, lead := range []string{"", "- ", "| "} {
			b.WriteString(lead)
			start := b.Len()
			for b.Len()-start < 256<<10 {
				sentences(&b, r, 1)
				b.WriteString(" Status: validated. CTO-WORK-00001 remains blocked. ")
			}
			if k == 2 {
				b.WriteString(" |")
			}
			b.WriteString("\n\n")
		}
		emit(fmt.Sprintf(".sot/long/LONG-%05d-PRD.md", i), b.String())
	}
	emit("sotvet.yaml", "max-file-size: 16777216\n")
}

// linkRefs: one document of n link reference definitions with no blank
// line between them, then one paragraph of n lines, each citing one.
func linkRefs(emit func(string, string), n int) {
	var b strings.Builder
	legacyFrontmatter(&b, "linkrefs", "draft")
	b.WriteString("# Link references\n\n" + Disclaimer + "\n\n")
	for i := range n {
		fmt.Fprintf(&b, "[ref-%d]: .sot/linkrefs/page-%d.md \"Page %d\"\n", i, i%97, i)
	}
	b.WriteString("\n")
	for i := range n {
		fmt.Fprintf(&b, "Item CTO-WORK-%06d is described in [page %d][ref-%d] and [the index](#link-references).\n", i, i, (i*7919)%n)
	}
	p := ".sot/linkrefs/LINKREFS-PRD.md"
	emit(p, b.String())
	emit("sotvet.yaml", fmt.Sprintf("max-file-size: %d\n", b.Len()+1<<20))
}

// inlines: one document of a paragraph of n units of each of cmark's
// pathological inline shapes (test/pathological_tests.py), and two more.
func inlines(emit func(string, string), n int) {
	var b strings.Builder
	legacyFrontmatter(&b, "inlines", "draft")
	b.WriteString("# Inlines\n\n" + Disclaimer + "\n\n")
	units := []string{"*a_ ", "c* ", "[a](<b", "[a](b", "_a ", "[ a_", "*a **a ", "~~a ", "<a", "![a"}
	for _, u := range units {
		b.WriteString(strings.Repeat(u, n))
		b.WriteString("\n\n")
	}
	b.WriteString(strings.Repeat("[", n) + "a" + strings.Repeat("]", n) + "\n\n")
	for i, w := 1, 0; w < 4*n; i++ {
		b.WriteString("e" + strings.Repeat("`", i))
		w += i + 1
	}
	b.WriteString("\n")
	emit(".sot/inlines/INLINES-PRD.md", b.String())
	emit("sotvet.yaml", fmt.Sprintf("max-file-size: %d\n", b.Len()+1<<20))
}

// stairs: one document of a list nested by indentation √(40n) deep, a
// level a line, each a work item sentence: the indentation makes it about
// 40n bytes, so a unit costs the same at any size.
func stairs(emit func(string, string), n int) {
	var b strings.Builder
	legacyFrontmatter(&b, "stairs", "draft")
	b.WriteString("# Stairs\n\n" + Disclaimer + "\n\n")
	for d := range int(math.Sqrt(40 * float64(n))) {
		fmt.Fprintf(&b, "%s- CTO-WORK-%05d is validated at depth %d.\n", strings.Repeat("  ", d), d, d)
	}
	b.WriteString("\n")
	emit(".sot/stairs/STAIRS-PRD.md", b.String())
	emit("sotvet.yaml", fmt.Sprintf("max-file-size: %d\n", b.Len()+1<<20))
}

// nesting: n documents of lists and block quotes nested 100 deep, each
// level a work item sentence.
func nesting(emit func(string, string), n int) {
	for i := range n {
		var b strings.Builder
		legacyFrontmatter(&b, fmt.Sprintf("nest-%05d", i), "draft")
		b.WriteString("# Nest\n\n" + Disclaimer + "\n\n")
		for d := range 100 {
			fmt.Fprintf(&b, "%s- CTO-WORK-%05d is validated at depth %d.\n", strings.Repeat("  ", d), d, d)
		}
		b.WriteString("\n")
		for d := range 100 {
			fmt.Fprintf(&b, "%s CTO-WORK-%05d remains blocked at depth %d.\n", strings.Repeat(">", d+1), d, d)
		}
		emit(fmt.Sprintf(".sot/nest/NEST-%05d-PRD.md", i), b.String())
	}
}

// mesh (written from a short spec, without reading the checks): n
// documents in one directory, each linking to ten others spread across the
// workspace (every n/10-th one), by path and by work item id.
func mesh(emit func(string, string), n int) {
	path := func(i int) string { return fmt.Sprintf(".sot/mesh/MESH-%05d-PRD.md", i) }
	step := max(n/10, 1)
	for i := range n {
		var b strings.Builder
		legacyFrontmatter(&b, fmt.Sprintf("mesh-%05d", i), "draft")
		fmt.Fprintf(&b, "# Mesh %d\n\n%s\n\n## Issue: MSH-WORK-%05d - Node\n\nStatus: candidate.\n\n", i, Disclaimer, i)
		for k := 1; k <= 10; k++ {
			j := (i + k*step) % n
			fmt.Fprintf(&b, "- Depends on [node %d](../mesh/MESH-%05d-PRD.md), see `%s` and MSH-WORK-%05d.\n", j, j, path(j), j)
		}
		emit(path(i), b.String())
	}
}

// chains (written from a short spec, without reading the checks): a
// workboard of n items in chains of 1,000, each item blocked by the one
// before it and by the head of the chain, with one ISSUES document per
// 1,000 items defining them.
func chains(emit func(string, string), n int) {
	var wb strings.Builder
	wb.WriteString("items:\n")
	for doc := 0; doc*1000 < n; doc++ {
		p := fmt.Sprintf(".sot/chains/CHAIN-%03d-ISSUES.md", doc)
		var b strings.Builder
		legacyFrontmatter(&b, fmt.Sprintf("chain-%03d", doc), "draft")
		b.WriteString("# Chain\n\n" + Disclaimer + "\n\n")
		head := doc * 1000
		for i := head; i < min(n, head+1000); i++ {
			id := fmt.Sprintf("CHW-WORK-%06d", i)
			var by []string
			if i > head {
				by = append(by, fmt.Sprintf("CHW-WORK-%06d", i-1))
			}
			if i > head+1 {
				by = append(by, fmt.Sprintf("CHW-WORK-%06d", head))
			}
			fmt.Fprintf(&b, "### %s - Link %d\n\nStatus: blocked.\n", id, i)
			if len(by) > 0 {
				fmt.Fprintf(&b, "Blocked by: %s\n", strings.Join(by, ", "))
			}
			b.WriteString("\n")
			fmt.Fprintf(&wb, "  - id: %s\n    title: Link %d\n    status: blocked\n    blocked_by: [%s]\n    source: %s\n", id, i, strings.Join(by, ", "), p)
		}
		emit(p, b.String())
	}
	emit("WORKBOARD.yaml", wb.String())
	emit("sotvet.yaml", "max-file-size: 67108864\n")
}

// fanIn: n work items, each defined in an ISSUES document of 1,000, and a
// roll-up item blocked by every one of them, its blocked_by one flow
// sequence on one line of the workboard.
func fanIn(emit func(string, string), n int) {
	var wb strings.Builder
	wb.WriteString("items:\n")
	ids := make([]string, n)
	for doc := 0; doc*1000 < n; doc++ {
		p := fmt.Sprintf(".sot/fanin/FAN-%03d-ISSUES.md", doc)
		var b strings.Builder
		legacyFrontmatter(&b, fmt.Sprintf("fan-%03d", doc), "draft")
		b.WriteString("# Fan-in\n\n" + Disclaimer + "\n\n")
		for i := doc * 1000; i < min(n, doc*1000+1000); i++ {
			ids[i] = fmt.Sprintf("FAN-WORK-%06d", i)
			fmt.Fprintf(&b, "## Issue: %s - Part %d\n\nOne part of the roll-up.\n\n", ids[i], i)
			fmt.Fprintf(&wb, "  - id: %s\n    title: Part %d\n    status: candidate\n    source: %s\n", ids[i], i, p)
		}
		if doc == 0 {
			b.WriteString("## Issue: FAN-WORK-ROLLUP - Roll-up\n\nEvery part, gathered.\n\n")
		}
		emit(p, b.String())
	}
	fmt.Fprintf(&wb, "  - id: FAN-WORK-ROLLUP\n    title: Roll-up\n    status: blocked\n    blocked_by: [%s]\n    source: .sot/fanin/FAN-000-ISSUES.md\n", strings.Join(ids, ", "))
	emit("WORKBOARD.yaml", wb.String())
	emit("sotvet.yaml", "max-file-size: 67108864\n")
}

// distinct: n documents, each naming 200 work item ids and 20 document
// paths that no other document names, ten ids and a path a line, in list
// items and in sentences that state the ids' status, and the next document
// by path: every reference a text of its own, where the other shapes name
// the same few texts again and again.
func distinct(emit func(string, string), n int) {
	path := func(i int) string { return fmt.Sprintf(".sot/dst/DST-%05d-ISSUES.md", i) }
	for i := range n {
		var b strings.Builder
		legacyFrontmatter(&b, fmt.Sprintf("dst-%05d", i), "draft")
		fmt.Fprintf(&b, "# Distinct %d\n\n%s\n\n## Issue: CTO-WORK-%07d - Node\n\nStatus: candidate.\n\n", i, Disclaimer, i)
		for line := range 20 {
			if line%2 == 0 {
				b.WriteString("- ")
			}
			for k := range 10 {
				if k > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "CTO-WORK-%07d", n+i*200+line*10+k)
			}
			fmt.Fprintf(&b, " are validated, see `.sot/old/OLD-%07d-PRD.md`.\n\n", i*20+line)
		}
		fmt.Fprintf(&b, "Next: `%s`.\n", path((i+1)%n))
		emit(path(i), b.String())
	}
}
