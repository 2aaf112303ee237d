package sotparse

import (
	"math/rand/v2"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// TestShareTexts: what shareTexts keeps for a document is always equal to
// its texts, whatever the documents before it held, never the scratch
// list itself, and is the last document's list only when equal to it and
// free of diagnostics held whole.
func TestShareTexts(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	pool := []heldText{
		{category: "required", message: "missing required frontmatter key \"owner\""},
		{category: "required", message: "missing required frontmatter key \"status\""},
		{category: "missing-section", message: "PRD has no \"Goals\" section"},
		{category: "trailing-space", message: "trailing whitespace"},
	}
	sc := &checkScratch{}
	var prev []heldText
	for doc := range 5000 {
		var texts []heldText
		switch {
		case doc > 0 && r.IntN(3) == 0 && prev != nil:
			texts = append(texts, prev...) // says what the last one said
		default:
			for range r.IntN(5) {
				if r.IntN(10) == 0 {
					texts = append(texts, heldText{whole: &analysis.Diagnostic{Message: "whole"}})
					continue
				}
				texts = append(texts, pool[r.IntN(len(pool))])
			}
		}
		scratch := append(sc.texts[:0], texts...)
		kept := sc.shareTexts(scratch)
		if !slices.Equal(kept, texts) {
			t.Fatalf("document %d: kept %v, want %v", doc, kept, texts)
		}
		if len(kept) > 0 && &kept[0] == &scratch[0] {
			t.Fatalf("document %d: kept the scratch list", doc)
		}
		sharable := !slices.ContainsFunc(texts, func(h heldText) bool { return h.whole != nil })
		shared := len(kept) > 0 && len(prev) > 0 && &kept[0] == &prev[0]
		if shared && !(sharable && slices.Equal(texts, prev)) {
			t.Fatalf("document %d: shares the last document's texts %v for %v", doc, prev, texts)
		}
		if !shared && len(texts) > 0 && sharable && slices.Equal(texts, prev) && !slices.ContainsFunc(prev, func(h heldText) bool { return h.whole != nil }) {
			t.Fatalf("document %d: a copy of texts equal to the last document's", doc)
		}
		sc.texts = scratch
		clear(sc.texts)
		if len(kept) > 0 {
			prev = kept
		}
	}
}
