package contradiction

import (
	"fmt"

	"golang.org/x/tools/go/analysis"
)

// approvalTimeline reports a record that says approval was not granted
// while citing, as its evidence, a run that a validated document records
// as passed.
func (c *checker) approvalTimeline() {
	citedBy := map[string][]*docInfo{}
	for _, di := range c.docs {
		if !di.validated || !di.passed {
			continue
		}
		seen := map[string]bool{}
		for _, r := range di.cited {
			if !seen[r.Text] {
				seen[r.Text] = true
				citedBy[r.Text] = append(citedBy[r.Text], di)
			}
		}
	}
	for _, di := range c.docs {
		if len(di.approvalFalse) == 0 {
			continue
		}
		var related []analysis.RelatedInformation
		var run string
		reported := map[*docInfo]bool{}
		for _, r := range di.cited {
			for _, e := range citedBy[r.Text] {
				if e == di || reported[e] {
					continue
				}
				reported[e] = true
				if run == "" {
					run = r.Text
				}
				for _, er := range e.cited {
					if er.Text == r.Text {
						related = append(related, rel(er.Pos, "%s, validated, cites the same run as the evidence of a run that passed", e.d.Path))
						break
					}
				}
			}
		}
		if run == "" {
			continue
		}
		if di.stillRequired != nil {
			related = append([]analysis.RelatedInformation{rel(di.stillRequired.pos, "and says: %q", di.stillRequired.text)}, related...)
		}
		f := di.approvalFalse[0]
		c.report(di.d.Path, f.Pos, f.End, "approval-timeline",
			fmt.Sprintf("says approval_granted: false, but cites %s, a run that %d validated document(s) record as passed: record the approval that run had (approval_granted: true and where it was granted), or stop citing the later run as this record's evidence",
				run, len(reported)), related)
	}
}
