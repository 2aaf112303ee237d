package harness

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/harness/internal/proc"
)

// verify runs the verification commands in the workspace.
func (r *run) verify(ctx context.Context) {
	c := r.c
	v := &r.rep.Verification
	v.Ran = true
	path := r.pathEnv()
	if r.fx != nil && r.fx.inject.noToolchain {
		// A machine without the case's toolchain: nothing on PATH.
		empty := filepath.Join(r.tmp, "empty-path")
		_ = os.MkdirAll(empty, 0o755)
		path = empty
	}
	env := r.env(path)
	fmt.Fprintf(&r.testLog, "# verification for case %s, run %s\n", c.ID, r.rep.RunID)
	passed := true
	var results []map[string]any
	for _, cmd := range c.Verification {
		fmt.Fprintf(&r.testLog, "$ %s\n", cmd.String())
		r.tr("verification.start", map[string]any{"argv": cmd.Argv, "timeout_ms": c.VerificationTimeout.Milliseconds()})
		argv, wrapped := r.confine(cmd.Argv, path)
		pr := proc.Run(ctx, proc.Spec{Argv: argv, Dir: r.ws, Env: env, Timeout: c.VerificationTimeout})
		if wrapped && pr.Started {
			r.confined("verification")
		}
		res := evidence.CommandResult{Argv: cmd.Argv, DurationMS: pr.Duration.Milliseconds(), TimedOut: pr.TimedOut}
		r.testLog.Write(r.red.Redact(pr.Stdout))
		r.testLog.Write(r.red.Redact(pr.Stderr))
		switch {
		case !pr.Started:
			res.Missing = true
			v.Missing = true
			fmt.Fprintf(&r.testLog, "# no command available: %s\n", errText(pr.StartErr))
			r.tr("verification.missing", map[string]any{"argv": cmd.Argv, "error": errText(pr.StartErr)})
		case pr.TimedOut:
			fmt.Fprintf(&r.testLog, "# timed out after %s; process group killed\n", c.VerificationTimeout)
			r.tr("verification.timeout", map[string]any{"argv": cmd.Argv, "after_ms": c.VerificationTimeout.Milliseconds()})
		default:
			code := pr.ExitCode
			if pr.Signal != "" {
				code = -1
			}
			res.ExitCode = &code
			res.Passed = code == 0
			fmt.Fprintf(&r.testLog, "# exit %d%s\n", code, sigSuffix(pr.Signal))
			r.tr("verification.exit", map[string]any{"argv": cmd.Argv, "exit_code": code, "duration_ms": res.DurationMS})
		}
		v.Commands = append(v.Commands, res)
		results = append(results, map[string]any{"argv": cmd.Argv, "exit_code": res.ExitCode, "passed": res.Passed, "missing": res.Missing, "timed_out": res.TimedOut})
		if !res.Passed {
			passed = false
			if res.Missing {
				r.block(evidence.MissingTestCommand, "no verification command was available: "+errText(pr.StartErr), nil)
			} else if res.TimedOut {
				r.block(evidence.Timeout, fmt.Sprintf("verification %q did not finish within %s", cmd.String(), c.VerificationTimeout), nil)
			} else {
				r.block(evidence.VerificationFailed, fmt.Sprintf("verification %q exited %d", cmd.String(), *res.ExitCode), nil)
			}
			break
		}
	}
	v.Passed = passed
	r.rep.TestsPassed = passed
	r.event("verification.completed", "harness", map[string]any{
		"passed": passed, "missing": v.Missing, "commands": results, "reviewer": r.rep.BackendRun.Reviewer,
	})
}
