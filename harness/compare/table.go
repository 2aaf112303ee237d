package compare

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/svrnty/sotvet/harness/ledger"
)

// WriteTable prints the lanes as a table, then the candidate verdict.
func WriteTable(w io.Writer, c *ledger.Comparison) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "LANE\tSTATUS\tPASS@1\tPASS^K\tFLAKY\tSHAPE\tEVENTS\tPATHS\tCLOSURE\tCOMPLETE\tWALL_MS\tTOKENS\tCOST")
	for _, l := range c.Lanes {
		st := l.Status
		if l.Blocker != "" {
			st += " (" + l.Blocker + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%.3f\t%.3f\t%t\t%t\t%t\t%.3f\t%s\t%.3f\t%d\t%s\t%s\n", l.Engine, st, l.PassAt1, l.PassPowK, l.Flaky,
			l.ReportShapeOK, l.EventValidityOK, l.AllowedPathCompliance, metric(l.FailureClosure), l.ArtifactCompleteness, l.WallMS, metric(l.Tokens), metric(l.Cost))
	}
	tw.Flush()
	part := ""
	if c.Shard != "" {
		part = " (shard " + c.Shard + ")"
	}
	fmt.Fprintf(w, "comparison %s%s: case %s, k=%d, %d runs, frozen base consistent: %t\n", c.ComparisonID, part, c.CaseID, c.K, len(c.Runs), c.BaseConsistent)
	fmt.Fprintf(w, "candidate default %s: eligible %t: %s\n", c.CandidateDefault.Engine, c.CandidateDefault.Eligible, c.CandidateDefault.Reason)
	fmt.Fprintf(w, "runtime_default_activation: %t\n", c.RuntimeDefaultActivation)
}

func metric(v any) string {
	if f, ok := v.(float64); ok {
		return fmt.Sprintf("%.3f", f)
	}
	return fmt.Sprint(v)
}
