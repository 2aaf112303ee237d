package status

import (
	"fmt"
	"iter"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/sotparse"
)

// resultKinds are the kinds of document that record a result: their
// "status: validated" is a claim that something was validated. A PRD or an
// issue document that says a validator is "required" states a requirement.
var resultKinds = map[sotparse.Kind]bool{sotparse.KindEvidence: true, sotparse.KindCloseout: true,
	sotparse.KindRecord: true, sotparse.KindAudit: true}

// pendingWords say a validator has not given its result yet.
var pendingWords = []string{"required", "pending", "outstanding", "todo", "to do", "tbd", "not run", "not yet run",
	"to run", "to be run", "awaiting", "not yet"}

// pendingTails may follow a pending word: "required before final claim".
var pendingTails = []string{" before ", " after ", " once ", " when ", " until ", " (", ";", ",", " -", " —"}

// validatorWords name a validation in a fact's key.
var validatorWords = []string{"validat", "test", "check", "health", "lint", "verif"}

// commandStarts start a key that is a command.
var commandStarts = []string{"python", "pytest", "go ", "make", "npm ", "pnpm ", "yarn ", "bash ", "sh ", "./", "cargo ", "node "}

// validatorKey reports whether a fact's key names a validation: a command
// ("python3 tools/validate_cto_child.py") or a label that says one
// ("Focused validator", "Post-merge tests", "Harness health").
func validatorKey(key string) bool {
	k := strings.ToLower(strings.TrimSpace(key))
	for _, w := range validatorWords {
		if strings.Contains(k, w) {
			return true
		}
	}
	for _, w := range commandStarts {
		if strings.HasPrefix(k, w) {
			return true
		}
	}
	return strings.HasSuffix(k, ".py") || strings.HasSuffix(k, ".sh")
}

// planWords, as a word of a heading, name a section that states what is
// to be done rather than what was: "## Template", "## Requirements for the
// next stage", "## Next Steps", "## Validation Plan".
var planWords = map[string]bool{"template": true, "templates": true, "requirement": true, "requirements": true,
	"next": true, "plan": true, "plans": true}

// notThisResult reports whether the section holding off states a
// requirement or a possible outcome (hypothetical), not this document's
// result: a "required" there is a requirement, not a pending validation.
func notThisResult(d *sotparse.Doc, off int) bool {
	if hypothetical(d, off) {
		return true
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(sectionHeading(d, off)), func(r rune) bool {
		return !('a' <= r && r <= 'z')
	}) {
		if planWords[w] {
			return true
		}
	}
	return false
}

// laterGates start what follows "before" in a requirement for a later
// gate, not for this document: "required before Stage 6", "required
// before the next stage".
var laterGates = []string{"stage ", "phase ", "the next ", "next "}

// pendingValue returns the pending word a fact's value is, or starts with
// before a tail that qualifies it ("required before final claim"), or "".
// "required phrases present" is not pending, nor "required before Stage
// 6": a requirement for a later gate.
func pendingValue(value string) string {
	v := strings.ToLower(strings.TrimSpace(strings.Trim(strings.TrimSpace(value), "`*_.")))
	for _, w := range pendingWords {
		if v == w {
			return w
		}
		if strings.HasPrefix(v, w) {
			rest := v[len(w):]
			if gate, ok := strings.CutPrefix(rest, " before "); ok {
				for _, g := range laterGates {
					if strings.HasPrefix(gate, g) {
						return "" // a requirement for a later gate
					}
				}
			}
			for _, t := range pendingTails {
				if strings.HasPrefix(rest, t) {
					return w
				}
			}
		}
	}
	return ""
}

// pendingValidation reports a result document whose frontmatter says it is
// validated while a fact of its own records a validation as not yet run:
// "- `python3 tools/validate_cto_child.py`: required" in a validated
// closeout. Nothing in the document supports its claim. A key that another
// fact of the document gives a result ("...: passed") is not pending.
func (c *checker) pendingValidation(d *sotparse.Doc) {
	fm := d.Frontmatter
	if !resultKinds[d.Kind] || fm == nil || fm.Status == nil || !fm.Status.Scalar ||
		strings.ToLower(strings.TrimSpace(fm.Status.Value)) != validated {
		return
	}
	var pending []*sotparse.Fact
	var words []string
	done := map[string]bool{}
	for _, facts := range []iter.Seq2[int, *sotparse.Fact]{d.Facts.All(), slices.All(d.KeyValues)} {
		for _, f := range facts {
			if !validatorKey(f.Key) || notThisResult(d, d.File.Tok.Offset(f.Pos)) {
				continue
			}
			if w := pendingValue(f.Value); w != "" {
				pending = append(pending, f)
				words = append(words, w)
			} else {
				done[strings.ToLower(strings.TrimSpace(f.Key))] = true
			}
		}
	}
	var first *sotparse.Fact
	word := ""
	n := 0
	for i, f := range pending {
		if done[strings.ToLower(strings.TrimSpace(f.Key))] {
			continue
		}
		n++
		if first == nil || f.Pos < first.Pos {
			first, word = f, words[i]
		}
	}
	if first == nil {
		return
	}
	more := ""
	if n > 1 {
		more = fmt.Sprintf(" (and %d more)", n-1)
	}
	c.pass.Report(analysis.Diagnostic{Pos: first.Pos, End: first.End, Category: "pending-validation",
		Message: fmt.Sprintf("this %s is validated, but it records the validation %q as %q, not as a result%s: record what the validator gave, or do not call the document validated",
			d.Kind.Noun(), strings.TrimSpace(first.Key), word, more),
		Related: []analysis.RelatedInformation{related(fm.Status.ValuePos, "the frontmatter status is %s", fm.Status.Value)}})
}
