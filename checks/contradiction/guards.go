package contradiction

import (
	"fmt"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/sotparse"
)

// misplacedGuards reports a guard sentence naming a kind of document
// ("This closeout does not ...") in a document of another kind whose route
// has no document of that kind: a sentence pasted from elsewhere, which
// claims the document is something it is not.
func (c *checker) misplacedGuards() {
	// The kinds of the routes of the documents with a guard (those whose
	// text was read: in focus) only.
	routeKinds := map[string]map[sotparse.Kind]bool{}
	for _, di := range c.docs {
		if len(di.guards) > 0 && c.ws.Focused(di.d.Path) {
			routeKinds[di.d.Stem] = nil
		}
	}
	if len(routeKinds) == 0 {
		return
	}
	for _, di := range c.docs {
		if kinds, ok := routeKinds[di.d.Stem]; !ok {
			continue
		} else if kinds == nil {
			routeKinds[di.d.Stem] = map[sotparse.Kind]bool{}
		}
		routeKinds[di.d.Stem][di.d.Kind] = true
	}
	for _, di := range c.docs {
		if !c.ws.Focused(di.d.Path) {
			continue // reported in focus only
		}
		for _, g := range di.guards {
			kind := sotparse.Kind(strings.ToUpper(g.word))
			if kind == di.d.Kind || routeKinds[di.d.Stem][kind] || stemNames(di.d.Stem, kind) {
				continue
			}
			c.text(func(o *docInfo) bool { return o.d.Kind == kind })
			var related []analysis.RelatedInformation
			for _, o := range c.docs {
				if o.d.Kind != kind {
					continue
				}
				for _, og := range o.guards {
					if og.word == g.word && sameGuard(og.stmt.text, g.stmt.text) {
						related = append(related, rel(og.stmt.pos, "a %s, %s, says the same of itself", strings.ToLower(string(kind)), o.d.Path))
						break
					}
				}
				if len(related) > 0 {
					break
				}
			}
			if len(related) == 0 && len(di.d.Headings) > 0 {
				related = append(related, rel(di.d.Headings[0].Pos, "this document is %s of route %s, which has no %s", kindName(di.d.Kind), di.d.Stem, strings.ToLower(string(kind))))
			}
			c.report(di.d.Path, g.stmt.pos, g.stmt.end, "misplaced-guard",
				fmt.Sprintf("%q speaks as a %s, but this is %s and its route has no %s: say what this document does not do, or drop the sentence",
					g.stmt.text, strings.ToLower(string(kind)), kindName(di.d.Kind), strings.ToLower(string(kind))), related)
		}
	}
}

// stemNames reports whether the route stem names the kind as one of its
// words ("CTO-CORE-PROMOTION-DECISION-PACKET" names a packet).
func stemNames(stem string, kind sotparse.Kind) bool {
	for _, w := range strings.Split(stem, "-") {
		if strings.EqualFold(w, string(kind)) {
			return true
		}
	}
	return false
}

// kindName names a kind of document with its article: "a PRD", "an
// evidence document", "a record".
func kindName(k sotparse.Kind) string {
	n := k.Noun()
	if strings.ContainsRune("aeiou", rune(n[0])) {
		return "an " + n
	}
	return "a " + n
}

// sameGuard compares two guards from "This" on, without their labels.
func sameGuard(a, b string) bool {
	cut := func(s string) string {
		if i := strings.Index(s, "This "); i >= 0 {
			s = s[i+len("This "):]
		}
		if i := strings.IndexByte(s, ' '); i >= 0 {
			s = s[i:]
		}
		return strings.TrimRight(s, ". ")
	}
	return cut(a) == cut(b)
}
