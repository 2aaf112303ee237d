package lsp

import (
	"context"
	"sort"
	"strings"

	"github.com/svrnty/sotvet/sotparse"
)

// completion offers, at the cursor: a work item id after "CTO-", a
// workspace path after ".sot/", and in frontmatter (or the workboard) the
// keys and values the workspace's schema and documents use.
func (s *Server) completion(ctx context.Context, p CompletionParams) (*CompletionList, error) {
	d, snap, err := s.snapshotFor(ctx, p.TextDocument.URI)
	out := &CompletionList{Items: []CompletionItem{}}
	if err != nil || snap == nil || snap.model == nil {
		return out, err
	}
	text := d.text
	off := offsetOf(text, p.Position, s.enc)
	ls := strings.LastIndexByte(string(text[:off]), '\n') + 1
	line := string(text[ls:off])
	ws := off
	for ws > ls && isCompletionByte(text[ws-1]) {
		ws--
	}
	word := string(text[ws:off])
	x := newLineIndex(text, s.enc)
	replace := Range{Start: x.pos(ws), End: p.Position}
	add := func(label, detail string, kind int, insert string) {
		// A candidate that holds a secret (a token pasted into another
		// document's frontmatter) is never offered, not even redacted:
		// accepting it would copy the secret.
		if s.holdsSecret(detail, label) || insert != label && s.holdsSecret(detail, insert) {
			return
		}
		out.Items = append(out.Items, CompletionItem{Label: label, Kind: kind, Detail: s.redact(detail), TextEdit: &TextEdit{Range: replace, NewText: insert}})
	}
	model := snap.model
	switch {
	case strings.HasPrefix(word, ".sot/") || strings.HasPrefix(".sot/", word) && strings.HasPrefix(word, ".s"):
		for _, f := range model.Paths() {
			if strings.HasPrefix(f, ".sot/") && strings.HasPrefix(f, word) {
				add(f, "", CompletionKindFile, f)
			}
		}
		return out, nil
	case len(word) >= 3 && (strings.HasPrefix("CTO-WORK-", word) || strings.HasPrefix(word, "CTO-WORK-")):
		for id, title := range workItems(model) {
			if strings.HasPrefix(id, word) {
				add(id, title, CompletionKindConstant, id)
			}
		}
		sort.Slice(out.Items, func(i, j int) bool { return out.Items[i].Label < out.Items[j].Label })
		return out, nil
	}
	isYAML := yamlLine(d.rel, text, ls)
	if !isYAML {
		return out, nil
	}
	key, _, hasColon := strings.Cut(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "- ")), ":")
	if !hasColon {
		if strings.TrimSpace(line) != word {
			return out, nil
		}
		for _, k := range frontmatterKeys(model, snap.schema.RequiredKeys) {
			if strings.HasPrefix(k, word) {
				add(k, "frontmatter key", CompletionKindField, k+": ")
			}
		}
		return out, nil
	}
	for _, v := range valuesOf(model, snap, strings.TrimSpace(key)) {
		if strings.HasPrefix(v, word) {
			add(v, key, CompletionKindValue, v)
		}
	}
	return out, nil
}

// holdsSecret reports whether the secrets engine finds a secret in v, on
// its own or as the value of key (some rules need the key's name: a
// high-entropy value of "api_key").
func (s *Server) holdsSecret(key, v string) bool {
	if s.redact(v) != v {
		return true
	}
	if key == "" {
		return false
	}
	line := key + ": " + v
	return s.redact(line) != line
}

func isCompletionByte(c byte) bool {
	return c == '_' || c == '-' || c == '.' || c == '/' || c == '@' || c == '+' ||
		c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// workItems maps every known work item id to its title.
func workItems(model *sotparse.Workspace) map[string]string {
	out := map[string]string{}
	if model.Workboard != nil {
		for _, it := range model.Workboard.Items {
			if it.ID != nil && it.ID.Value != "" {
				title := ""
				if it.Title != nil {
					title = it.Title.Value
				}
				out[it.ID.Value] = title
			}
		}
	}
	for _, doc := range model.Docs {
		for _, it := range doc.WorkItems {
			if _, ok := out[it.ID]; !ok {
				out[it.ID] = it.Title
			}
		}
	}
	return out
}

// frontmatterKeys are the keys the checks require and those the workspace's
// documents use, most used first.
func frontmatterKeys(model *sotparse.Workspace, required []string) []string {
	count := map[string]int{}
	for _, r := range required {
		for _, k := range strings.Split(r, "|") {
			count[k] += 1 << 20 // required keys first
		}
	}
	for _, doc := range model.Docs {
		if doc.Frontmatter == nil {
			continue
		}
		for _, f := range doc.Frontmatter.Fields {
			count[f.Key]++
		}
	}
	return byCount(count)
}

// valuesOf lists the values key takes: the schema's vocabulary for statuses
// and core_promotion_status, and the values the documents use.
func valuesOf(model *sotparse.Workspace, snap *snapshot, key string) []string {
	count := map[string]int{}
	switch key {
	case "status":
		for _, v := range snap.schema.Statuses {
			count[v] += 1 << 20
		}
	case "core_promotion_status":
		for _, v := range snap.schema.AllowedPromotion {
			count[v] += 1 << 20
		}
	}
	for _, doc := range model.Docs {
		if doc.Frontmatter == nil {
			continue
		}
		for _, f := range doc.Frontmatter.Fields {
			if f.Key == key && f.Scalar && f.Value != "" && len(f.Value) < 80 {
				count[f.Value]++
			}
		}
	}
	if key == "status" && len(snap.schema.Statuses) > 0 {
		// Only the vocabulary: a misspelt status in one document is no
		// suggestion.
		for v, n := range count {
			if n < 1<<20 {
				delete(count, v)
			}
		}
	}
	return byCount(count)
}

func byCount(count map[string]int) []string {
	out := make([]string, 0, len(count))
	for k := range count {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool {
		if count[out[i]] != count[out[j]] {
			return count[out[i]] > count[out[j]]
		}
		return out[i] < out[j]
	})
	return out
}
