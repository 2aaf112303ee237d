// Package gencorpus writes a synthetic source-of-truth planning workspace in
// the shape of the real cto-planb corpus, for benchmarks: route groups of
// PRD, ISSUES, EVIDENCE and CLOSEOUT documents under .sot/03-PROTOCOLS/, a
// WORKBOARD.yaml listing every work item, a CONTEXT.md glossary and a few JSON
// admission records.
//
// The output depends only on the document count and the seed. It is clean for
// the consistency checks: each work item's status in its ISSUES document is
// its WORKBOARD status, a validated item has every acceptance box checked and
// only validated blockers, and every frontmatter source names a file that
// exists.
package gencorpus

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"
)

// Dir is the directory, relative to the workspace root, that holds the
// generated documents and records.
const Dir = ".sot/03-PROTOCOLS"

// Disclaimer is the guard line every generated document carries.
const Disclaimer = "Local planning SOT only. Not a Core Protocol. Not active Core authority."

// Options tune WriteWith.
type Options struct {
	// Force allows writing into a non-empty directory. The generator's own
	// outputs (.sot, WORKBOARD.yaml, CONTEXT.md) are removed first so that a
	// smaller run does not leave stale documents behind.
	Force bool
}

// Write generates n markdown documents (CONTEXT.md included) into dir, which
// must be absent or empty, deterministically from seed.
func Write(dir string, n int, seed int64) error {
	return WriteWith(dir, n, seed, Options{})
}

// ErrNotEmpty is returned when dir holds files and Options.Force is not set.
var ErrNotEmpty = errors.New("directory is not empty (use force to write anyway)")

// WriteWith is Write with options.
func WriteWith(dir string, n int, seed int64, opt Options) error {
	if n < 1 {
		return fmt.Errorf("gencorpus: need at least 1 document, got %d", n)
	}
	ents, err := os.ReadDir(dir)
	switch {
	case err == nil && len(ents) > 0:
		if !opt.Force {
			return fmt.Errorf("gencorpus: %s: %w", dir, ErrNotEmpty)
		}
		for _, p := range []string{".sot", "WORKBOARD.yaml", "CONTEXT.md"} {
			if err := os.RemoveAll(filepath.Join(dir, p)); err != nil {
				return fmt.Errorf("gencorpus: %w", err)
			}
		}
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("gencorpus: %w", err)
	}
	if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(Dir)), 0o755); err != nil {
		return fmt.Errorf("gencorpus: %w", err)
	}
	ws := plan(n, seed)

	// Render and write the route documents in parallel; each route has its
	// own random stream, so the output does not depend on scheduling.
	var (
		mu       sync.Mutex
		firstErr error
		wg       sync.WaitGroup
	)
	next := make(chan *route)
	for w := 0; w < max(1, runtime.GOMAXPROCS(0)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var b strings.Builder
			for r := range next {
				for _, k := range r.kinds {
					b.Reset()
					renderDoc(&b, ws, r, k)
					if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(r.path(k))), []byte(b.String()), 0o644); err != nil {
						mu.Lock()
						if firstErr == nil {
							firstErr = err
						}
						mu.Unlock()
					}
				}
			}
		}()
	}
	for _, r := range ws.routes {
		next <- r
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		return fmt.Errorf("gencorpus: %w", firstErr)
	}
	extra := map[string]string{
		"WORKBOARD.yaml": renderWorkboard(ws),
		"CONTEXT.md":     renderContext(ws),
	}
	for name, body := range renderRecords() {
		extra[Dir+"/"+name] = body
	}
	for p, body := range extra {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(p)), []byte(body), 0o644); err != nil {
			return fmt.Errorf("gencorpus: %w", err)
		}
	}
	return nil
}

// Kinds of generated documents (file-name suffixes).
const (
	kPRD      = "PRD"
	kIssues   = "ISSUES"
	kEvidence = "EVIDENCE"
	kCloseout = "CLOSEOUT"
)

type item struct {
	id       string
	title    string
	status   string // validated, candidate, blocked
	blockers []string
}

type route struct {
	idx       int
	seed      uint64
	stem      string // SYN-00001-HERMES-APPROVAL
	topic     string // Hermes Approval
	kinds     []string
	items     []*item
	validated bool // every item validated (true for a route without items)
	style     string
	phrases   []string
	created   time.Time
	reviewed  time.Time
}

func (r *route) path(kind string) string { return Dir + "/" + r.stem + "-" + kind + ".md" }

func (r *route) has(kind string) bool {
	for _, k := range r.kinds {
		if k == kind {
			return true
		}
	}
	return false
}

type workspace struct {
	seed   int64
	routes []*route
	items  []*item
	source map[string]*route // item id -> route
}

var styles = []string{"dash", "issue", "colon"}

// plan lays out the routes and work items: everything the documents must
// agree on is decided here, sequentially, from the seed.
func plan(n int, seed int64) *workspace {
	rng := rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15))
	ws := &workspace{seed: seed, source: map[string]*route{}}
	left := n - 1 // CONTEXT.md is one of the n documents
	lastValidated := ""
	for left > 0 {
		var kinds []string
		switch p := rng.IntN(10); {
		case p < 5:
			kinds = []string{kPRD, kIssues, kEvidence}
		case p < 8:
			kinds = []string{kPRD, kIssues, kCloseout}
		default:
			kinds = []string{kPRD, kIssues, kEvidence, kCloseout}
		}
		if len(kinds) > left {
			kinds = kinds[:left]
		}
		left -= len(kinds)
		idx := len(ws.routes) + 1
		w1 := topicWords[rng.IntN(len(topicWords))]
		w2 := topicWords[rng.IntN(len(topicWords))]
		for w2 == w1 {
			w2 = topicWords[rng.IntN(len(topicWords))]
		}
		r := &route{
			idx:       idx,
			seed:      rng.Uint64(),
			topic:     w1 + " " + w2,
			stem:      fmt.Sprintf("SYN-%05d-%s-%s", idx, strings.ToUpper(w1), strings.ToUpper(w2)),
			kinds:     kinds,
			validated: true,
			style:     styles[(idx-1)%len(styles)],
		}
		if r.has(kIssues) {
			nItems := 2 + rng.IntN(3)
			open := rng.IntN(10) < 2
			firstOpen := nItems // index of the candidate item in an open route
			if open {
				firstOpen = rng.IntN(nItems)
				r.validated = false
			}
			for j := 0; j < nItems; j++ {
				it := &item{id: fmt.Sprintf("CTO-WORK-%05d", len(ws.items)+1)}
				it.title = r.topic + " " + itemSuffixes[rng.IntN(len(itemSuffixes))]
				switch {
				case j < firstOpen:
					it.status = "validated"
				case j == firstOpen:
					it.status = "candidate"
				default:
					it.status = "blocked"
				}
				// Blockers: the previous item of the route (validated for a
				// validated item, open for a blocked one), sometimes the one
				// before it, and for a route's first item, sometimes the last
				// validated item of an earlier route.
				if j == 0 {
					if lastValidated != "" && rng.IntN(10) < 7 {
						it.blockers = []string{lastValidated}
					}
				} else {
					if j >= 2 && rng.IntN(5) == 0 {
						it.blockers = append(it.blockers, r.items[j-2].id)
					}
					it.blockers = append(it.blockers, r.items[j-1].id)
				}
				r.items = append(r.items, it)
				ws.items = append(ws.items, it)
				ws.source[it.id] = r
				if it.status == "validated" {
					lastValidated = it.id
				}
			}
			if (r.has(kEvidence) || r.has(kCloseout)) && rng.IntN(5) < 2 {
				low := strings.ToLower(r.topic)
				r.phrases = []string{
					low + " route evidence",
					r.items[len(r.items)-1].id,
					"Runtime default activation remains false",
				}
				if r.validated {
					r.phrases = append(r.phrases, low+" closeout recorded")
				}
			}
		}
		ws.routes = append(ws.routes, r)
	}
	// Dates: routes advance through 2026-01-05 .. 2026-10-31.
	start := time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC)
	span := 299
	for i, r := range ws.routes {
		day := 0
		if len(ws.routes) > 1 {
			day = i * span / (len(ws.routes) - 1)
		}
		r.created = start.AddDate(0, 0, day)
		r.reviewed = r.created.AddDate(0, 0, rng.IntN(4))
		if limit := start.AddDate(0, 0, span); r.reviewed.After(limit) {
			r.reviewed = limit
		}
	}
	return ws
}

// docStatus is the frontmatter status of a route document.
func docStatus(r *route, kind string) string {
	if r.validated {
		return "validated"
	}
	if kind == kPRD {
		return "draft"
	}
	return "candidate"
}

// docSource is the frontmatter source of a route document: always a file
// that exists.
func docSource(r *route, kind string) string {
	switch kind {
	case kIssues:
		return r.path(kPRD)
	case kEvidence:
		return r.path(kIssues)
	case kCloseout:
		if r.has(kEvidence) {
			return r.path(kEvidence)
		}
		return r.path(kIssues)
	}
	return "WORKBOARD.yaml"
}

func kebab(s string) string { return strings.ToLower(strings.ReplaceAll(s, " ", "-")) }

func frontmatter(b *strings.Builder, name, status, source, description string, created, reviewed time.Time) {
	b.WriteString("---\n")
	b.WriteString("name: " + name + "\n")
	b.WriteString("tier: local\n")
	b.WriteString("status: " + status + "\n")
	b.WriteString("owner: jp\n")
	b.WriteString("source: " + source + "\n")
	b.WriteString("created: " + created.Format(time.DateOnly) + "\n")
	b.WriteString("last_reviewed: " + reviewed.Format(time.DateOnly) + "\n")
	b.WriteString("lifecycle_classification: planning\n")
	b.WriteString("core_promotion_status: not-promoted\n")
	b.WriteString("description: " + description + "\n")
	b.WriteString("---\n\n")
}

// prose holds the per-document random stream.
type prose struct{ rng *rand.Rand }

func (p prose) pick(list []string) string { return list[p.rng.IntN(len(list))] }

// pick2 picks two different entries: the same bullet twice in a row is a
// paste error the structure check reports, and the corpus must be clean.
func (p prose) pick2(list []string) (string, string) {
	i := p.rng.IntN(len(list))
	j := (i + 1 + p.rng.IntN(len(list)-1)) % len(list)
	return list[i], list[j]
}

func (p prose) sentence(b *strings.Builder) {
	b.WriteString(p.pick(subjects))
	b.WriteByte(' ')
	b.WriteString(p.pick(verbs))
	b.WriteByte(' ')
	b.WriteString(p.pick(objects))
	if t := p.pick(tails); t != "" {
		b.WriteByte(' ')
		b.WriteString(t)
	}
	if p.rng.IntN(4) == 0 {
		b.WriteString(", and ")
		s := p.pick(subjects)
		if strings.HasPrefix(s, "The ") || strings.HasPrefix(s, "Each ") {
			s = strings.ToLower(s[:1]) + s[1:]
		}
		b.WriteString(s)
		b.WriteByte(' ')
		b.WriteString(p.pick(verbs))
		b.WriteString(" `" + p.pick(codeIdents) + "`")
	}
	b.WriteByte('.')
}

// paragraph writes one paragraph (one line, as the real documents do).
func (p prose) paragraph(b *strings.Builder, minS, maxS int) {
	n := minS + p.rng.IntN(maxS-minS+1)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		p.sentence(b)
	}
	b.WriteString("\n\n")
}

// plainSentence is a sentence safe as a plain YAML scalar.
func (p prose) plainSentence() string {
	s := p.pick(subjects) + " " + p.pick(verbs) + " " + p.pick(plainObjects)
	if t := p.pick(tails); t != "" {
		s += " " + t
	}
	return s + "."
}

func (p prose) sha() string {
	const hex = "0123456789abcdef"
	for {
		var s [7]byte
		for i := range s {
			s[i] = hex[p.rng.IntN(16)]
		}
		str := string(s[:])
		if strings.ContainsAny(str, "abcdef") && strings.ContainsAny(str, "0123456789") {
			return str
		}
	}
}

func (p prose) bullets(b *strings.Builder, list []string, lo, hi int) {
	n := lo + p.rng.IntN(hi-lo+1)
	start := p.rng.IntN(len(list))
	for i := 0; i < n && i < len(list); i++ {
		b.WriteString("- " + list[(start+i)%len(list)] + "\n")
	}
	b.WriteByte('\n')
}

func renderDoc(b *strings.Builder, ws *workspace, r *route, kind string) {
	salt := map[string]uint64{kPRD: 1, kIssues: 2, kEvidence: 3, kCloseout: 4}[kind]
	p := prose{rng: rand.New(rand.NewPCG(r.seed, salt))}
	title := fmt.Sprintf("SYN %05d %s %s", r.idx, r.topic, titleKind(kind))
	desc := p.plainSentence()
	frontmatter(b, kebab(fmt.Sprintf("syn-%05d-%s-%s", r.idx, r.topic, kind)), docStatus(r, kind), docSource(r, kind), desc, r.created, r.reviewed)
	b.WriteString("# " + title + "\n\n")
	b.WriteString(Disclaimer + "\n\n")
	switch kind {
	case kPRD:
		renderPRD(b, p, r)
	case kIssues:
		renderIssues(b, p, r)
	case kEvidence:
		renderEvidence(b, p, r)
	case kCloseout:
		renderCloseout(b, p, r)
	}
}

func titleKind(kind string) string {
	switch kind {
	case kIssues:
		return "Issues"
	case kEvidence:
		return "Evidence"
	case kCloseout:
		return "Closeout"
	}
	return kind
}

func idList(ids []string) string {
	var q []string
	for _, id := range ids {
		q = append(q, "`"+id+"`")
	}
	switch len(q) {
	case 0:
		return ""
	case 1:
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

func renderPRD(b *strings.Builder, p prose, r *route) {
	b.WriteString("## Problem\n\n")
	p.paragraph(b, 4, 7)
	p.paragraph(b, 3, 6)
	p.paragraph(b, 3, 6)
	b.WriteString("## Scope\n\n")
	b.WriteString("Add a read-only " + strings.ToLower(r.topic) + " surface to the CTO control summary and panel:\n\n")
	a, c := p.pick2(codeIdents)
	b.WriteString("- `" + a + "`\n- `" + c + "`\n")
	p.bullets(b, scopeBullets, 3, 6)
	p.paragraph(b, 2, 4)
	b.WriteString("## Non-goals\n\n")
	p.bullets(b, nonGoals, 4, 7)
	b.WriteString("## Design Notes\n\n")
	for i, n := 0, 8+p.rng.IntN(5); i < n; i++ {
		p.paragraph(b, 3, 6)
	}
	b.WriteString("## Acceptance Criteria\n\n")
	for i, n := 0, 5+p.rng.IntN(4); i < n; i++ {
		b.WriteString("- ")
		p.sentence(b)
		b.WriteByte('\n')
	}
	b.WriteString("\n## Validation\n\n")
	p.bullets(b, validationBullets, 3, 5)
	if len(r.items) > 0 {
		b.WriteString("## Route\n\n")
		b.WriteString("This PRD is delivered by " + idList(itemIDs(r.items)) + " in `" + r.path(kIssues) + "`.\n")
	}
}

func itemIDs(items []*item) []string {
	var ids []string
	for _, it := range items {
		ids = append(ids, it.id)
	}
	return ids
}

func blockedBy(p prose, ids []string) string {
	if p.rng.IntN(2) == 0 {
		return strings.Join(ids, ", ")
	}
	var q []string
	for _, id := range ids {
		q = append(q, "`"+id+"`")
	}
	return strings.Join(q, ", ") + "."
}

func renderIssues(b *strings.Builder, p prose, r *route) {
	p.paragraph(b, 1, 2)
	level := "## "
	if r.style == "dash" {
		b.WriteString("## Issue Sequence\n\n")
		level = "### "
	}
	for _, it := range r.items {
		switch r.style {
		case "dash":
			b.WriteString(level + it.id + " - " + it.title + "\n\n")
		case "issue":
			b.WriteString(level + "Issue: " + it.id + " - " + it.title + "\n\n")
		default:
			b.WriteString(level + it.id + ": " + it.title + "\n\n")
		}
		typ := "AFK"
		if p.rng.IntN(6) == 0 {
			typ = "HITL"
		}
		if r.style == "dash" {
			b.WriteString("Type: " + typ + "\n\n")
		} else {
			b.WriteString("Type: " + typ + ".\n\n")
		}
		b.WriteString("Status: " + it.status + ".\n\n")
		if len(it.blockers) > 0 {
			b.WriteString("Blocked by: " + blockedBy(p, it.blockers) + "\n\n")
		}
		b.WriteString("User stories covered: " + fmt.Sprintf("%d, %d, %d", 1+p.rng.IntN(4), 5+p.rng.IntN(4), 9+p.rng.IntN(6)) + "\n\n")
		b.WriteString("What to build: ")
		p.sentence(b)
		b.WriteString("\n\n")
		p.paragraph(b, 2, 4)
		b.WriteString("Implementation route:\n\n")
		prev := ""
		for i, n := 0, 3+p.rng.IntN(3); i < n; i++ {
			line := "- Add `" + p.pick(codeIdents) + "` to the " + p.pick(scopeBullets) + ".\n"
			if line == prev {
				continue
			}
			prev = line
			b.WriteString(line)
		}
		b.WriteString("\nAcceptance criteria:\n\n")
		nBoxes := 4 + p.rng.IntN(5)
		unchecked := -1
		if it.status == "candidate" {
			unchecked = p.rng.IntN(nBoxes)
		}
		for i := 0; i < nBoxes; i++ {
			box := "[x]"
			switch {
			case it.status == "blocked":
				box = "[ ]"
			case it.status == "candidate" && (i == unchecked || p.rng.IntN(2) == 0):
				box = "[ ]"
			}
			b.WriteString("- " + box + " ")
			p.sentence(b)
			b.WriteByte('\n')
		}
		b.WriteString("\nAllowed files: CTO child workspace planning docs and local validator only.\n\n")
		b.WriteString("Validator: `python3 tools/validate_cto_child.py`\n\n")
		b.WriteString("Done evidence: validator JSON, clean worktree, commit.\n\n")
	}
	if len(r.phrases) > 0 {
		b.WriteString("## Required Phrases\n\n")
		for _, ph := range r.phrases {
			b.WriteString("- " + ph + "\n")
		}
		b.WriteByte('\n')
	}
}

func runDir(p prose, r *route) string {
	return fmt.Sprintf("/home/svrnty/.hermes/profiles/cto-planb/harness-runs/%sT%02d%02d%02dZ-%s-%d",
		r.created.Format("20060102"), p.rng.IntN(24), p.rng.IntN(60), p.rng.IntN(60), kebab(r.topic), 100000+p.rng.IntN(900000))
}

func results(b *strings.Builder, p prose, r *route) {
	b.WriteString("## Result\n\n")
	for _, it := range r.items {
		if it.status == "validated" {
			b.WriteString("`" + it.id + "` is validated because ")
			s := p.plainSentence()
			b.WriteString(strings.ToLower(s[:1]) + s[1:] + "\n\n")
		} else {
			b.WriteString("`" + it.id + "` remains " + it.status + "; this document does not close it.\n\n")
		}
	}
}

func summary(b *strings.Builder, r *route) {
	if len(r.phrases) == 0 {
		return
	}
	b.WriteString("## Summary\n\n")
	for _, ph := range r.phrases {
		b.WriteString("- " + ph + "\n")
	}
	b.WriteByte('\n')
}

func renderEvidence(b *strings.Builder, p prose, r *route) {
	b.WriteString("## Scope\n\n")
	if ids := itemIDs(r.items); len(ids) > 0 {
		if r.validated {
			b.WriteString("This evidence closes " + idList(ids) + ".\n\n")
		} else {
			b.WriteString("This evidence records progress on " + idList(ids) + ".\n\n")
		}
	}
	p.paragraph(b, 2, 4)
	dir := runDir(p, r)
	b.WriteString("## Implementation Evidence\n\n")
	b.WriteString("- Hermes plugin commit: `" + p.sha() + "`\n")
	f1, f2 := p.pick2(codeIdents)
	b.WriteString("- API field: `" + f1 + "`\n")
	b.WriteString("- API field: `" + f2 + "`\n")
	b.WriteString("- Harness run directory: `" + dir + "`\n")
	b.WriteString("- Report: `" + dir + "/report.json`\n")
	b.WriteString("- Trace: `" + dir + "/trace.jsonl`\n")
	b.WriteString("- Report status: `pass`\n")
	b.WriteString("- changed files: `src/strings.py`, `test_strings.py`\n")
	b.WriteString("- target commit: `" + p.sha() + "`\n\n")
	b.WriteString("## Validation Evidence\n\n")
	b.WriteString("- Focused validation: `python3 -m pytest tests/unit/test_" + strings.ReplaceAll(kebab(r.topic), "-", "_") + ".py -q`\n")
	fmt.Fprintf(b, "- Focused result: `%d passed`\n", 3+p.rng.IntN(20))
	b.WriteString("- Aggregate validation: `python3 -m pytest tests/ -q`\n")
	fmt.Fprintf(b, "- Aggregate result: `%d passed, %d skipped`\n\n", 90+p.rng.IntN(60), p.rng.IntN(5))
	b.WriteString("## Governance Evidence\n\n")
	b.WriteString("- Harness-backed summary data remains the source of truth.\n")
	b.WriteString("- Case runtime default active: false\n")
	b.WriteString("- target repository mutation: false\n")
	b.WriteString("- upstream `hermes-webui` edited: false\n\n")
	p.paragraph(b, 2, 4)
	p.paragraph(b, 2, 4)
	summary(b, r)
	results(b, p, r)
}

func renderCloseout(b *strings.Builder, p prose, r *route) {
	b.WriteString("## Workboard\n\n")
	for _, it := range r.items {
		b.WriteString("- `" + it.id + "`\n")
	}
	b.WriteString("\n## Closeout Facts\n\n")
	b.WriteString("- status: " + docStatus(r, kCloseout) + "\n")
	b.WriteString("- closeout commit: `" + p.sha() + "`\n")
	b.WriteString("- command: `git push openharbor jp`\n")
	b.WriteString("- result: `" + p.sha() + ".." + p.sha() + " jp -> jp`\n")
	b.WriteString("- Report: `" + runDir(p, r) + "/report.json`\n")
	b.WriteString("- Case runtime default active: false\n")
	b.WriteString("- target repository mutation: false\n\n")
	p.paragraph(b, 2, 4)
	p.paragraph(b, 2, 4)
	p.paragraph(b, 2, 4)
	summary(b, r)
	b.WriteString("## Scope Guard\n\n")
	b.WriteString("This closeout records evidence only. It is not a new approval and does not authorize another Case run.\n\n")
	results(b, p, r)
}

func renderWorkboard(ws *workspace) string {
	var b strings.Builder
	b.Grow(len(ws.items) * 170)
	fmt.Fprintf(&b, "# WORKBOARD.yaml - synthetic (gen-corpus, seed %d).\n# One item per work id; status matches the item's ISSUES document.\nitems:\n", ws.seed)
	for _, it := range ws.items {
		b.WriteString("  - id: " + it.id + "\n")
		b.WriteString("    title: " + it.title + "\n")
		b.WriteString("    status: " + it.status + "\n")
		b.WriteString("    blocked_by: [" + strings.Join(it.blockers, ", ") + "]\n")
		b.WriteString("    source: " + ws.source[it.id].path(kIssues) + "\n")
	}
	return b.String()
}

func renderContext(ws *workspace) string {
	var b strings.Builder
	start := time.Date(2026, 1, 5, 0, 0, 0, 0, time.UTC)
	frontmatter(&b, "syn-context", "validated", "WORKBOARD.yaml",
		"Synthetic domain glossary for the generated CTO child workspace.", start, start)
	b.WriteString("# CTO Context\n\n")
	b.WriteString(Disclaimer + "\n\n")
	b.WriteString("The synthetic workspace is child-local planning. Cortex governs, Hermes controls, CTO routes, Harness proves, Case executes only after proof, and the Target Repository stays owned.\n\n")
	b.WriteString("## Language\n\n")
	for _, t := range glossary {
		b.WriteString("**" + t[0] + "**:\n" + t[1] + "\n\n")
	}
	return b.String()
}

func renderRecords() map[string]string {
	return map[string]string{
		"SYN-MODEL-PROVIDER-ADMISSION.hosted-fake-model.json": `{
  "admission_timestamp": "2026-01-05T00:00:00-04:00",
  "allowed_network_class": "hosted-model-plus-local-fallback",
  "approval_source": "JP chat approval on 2026-01-05",
  "credential_source_class": "hermes-oauth-and-local-config",
  "model": "fake-hosted-1",
  "provider": "fake-hosted",
  "review_trigger": "Before credential source changes, before default/fallback model changes, or before promotion beyond copied artificial fixture.",
  "status": "admitted"
}
`,
		"SYN-MODEL-PROVIDER-ADMISSION.local-fake-model.json": `{
  "admission_timestamp": "2026-01-06T00:00:00-04:00",
  "allowed_network_class": "local-vllm",
  "approval_source": "JP chat approval on 2026-01-05",
  "credential_source_class": "local-provider-no-secret",
  "model": "fake-local-1",
  "provider": "fake-local",
  "review_trigger": "Before local provider endpoint changes, before default/fallback model changes, or before promotion beyond copied artificial fixture.",
  "status": "admitted"
}
`,
		"SYN-STAGE5-TARGET-REPOSITORY-ADMISSION.json": `{
  "admission_status": "admitted",
  "allowed_paths": [
    "strings.py",
    "test_strings.py",
    "src/",
    "tests/"
  ],
  "approval_source": "JP chat approval on 2026-01-07",
  "approval_timestamp": "2026-01-07",
  "forbidden_actions": [
    "push",
    "merge",
    "deploy",
    "close",
    "pr_open",
    "issue_close",
    "public_publication",
    "credential_change",
    "vendor_source_mutation",
    "cortex_core_mutation"
  ],
  "forbidden_paths": [
    ".env",
    ".env.*",
    "secrets/",
    ".github/workflows/",
    ".git/"
  ],
  "noncritical_rationale": "Dedicated synthetic sandbox repo, not production, no customer data, no secrets, no deploy path.",
  "operator_outcome_required": true,
  "ownership_evidence": "JP chat approval on 2026-01-07 to create this synthetic target sandbox.",
  "repository_owner": "jp",
  "review_trigger": "before target repository path change, before allowed path change, before forbidden action change",
  "risk_classification": "low_risk_noncritical",
  "target_repository_path": "/home/svrnty/workspaces/cortex-os/syn-target-sandbox"
}
`,
	}
}
