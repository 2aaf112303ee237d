package harness

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/svrnty/sotvet/harness/evidence"
	"github.com/svrnty/sotvet/harness/internal/proc"
)

// verify runs the verification commands in the workspace.
func (r *run) verify(ctx context.Context) {
	c := r.c
	v := &r.rep.Verification
	v.Ran = true
	path := r.pathEnv()
	// From here on, confined processes build through the verification's
	// own cache, never the one the backend could write.
	policy, err := r.startVerifyCache()
	if err != nil {
		v.Ran, v.Skipped = false, "the verification's build cache could not be made: "+err.Error()
		r.rep.TestsPassed = false
		fmt.Fprintf(&r.testLog, "verification not run: %s\n", v.Skipped)
		r.block(evidence.VerificationFailed, "the verification did not run: its build cache could not be made: "+err.Error(), nil)
		r.event("verification.completed", "harness", map[string]any{"passed": false, "missing": false, "commands": []map[string]any{}, "reviewer": r.rep.BackendRun.Reviewer})
		return
	}
	r.policy = policy
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
		// What is written down is the redacted argv: a token on the
		// command line is stored nowhere in clear.
		shown := r.redactArgv(cmd.Argv)
		line := strings.Join(shown, " ")
		fmt.Fprintf(&r.testLog, "$ %s\n", line)
		r.tr("verification.start", map[string]any{"argv": shown, "timeout_ms": c.VerificationTimeout.Milliseconds()})
		argv, wrapped := r.confine(cmd.Argv, path, true)
		// The tests run code the backend wrote: the same containment as
		// the backend (a cgroup, its own user, PID and network
		// namespaces, its whole tree killed at the end), and no network.
		pr := proc.Run(ctx, proc.Spec{Argv: argv, Dir: r.ws, Env: env, Timeout: c.VerificationTimeout, Contain: true, Isolate: true, NoNetwork: true, OwnLoopback: wrapped})
		r.noteReach("verification", pr, wrapped, true)
		if wrapped && pr.Started {
			r.confined("verification")
		}
		res := evidence.CommandResult{Argv: shown, DurationMS: pr.Duration.Milliseconds(), TimedOut: pr.TimedOut, Containment: pr.Containment}
		r.testLog.Write(r.red.Redact(pr.Stdout))
		r.testLog.Write(r.red.Redact(pr.Stderr))
		switch {
		case !pr.Started:
			res.Missing = true
			v.Missing = true
			fmt.Fprintf(&r.testLog, "# no command available: %s\n", errText(pr.StartErr))
			r.tr("verification.missing", map[string]any{"argv": shown, "error": errText(pr.StartErr)})
		case pr.TimedOut:
			fmt.Fprintf(&r.testLog, "# timed out after %s; process group killed\n", c.VerificationTimeout)
			r.tr("verification.timeout", map[string]any{"argv": shown, "after_ms": c.VerificationTimeout.Milliseconds()})
		default:
			code := pr.ExitCode
			if pr.Signal != "" {
				code = -1
			}
			res.ExitCode = &code
			res.Passed = code == 0
			fmt.Fprintf(&r.testLog, "# exit %d%s\n", code, sigSuffix(pr.Signal))
			r.tr("verification.exit", map[string]any{"argv": shown, "exit_code": code, "duration_ms": res.DurationMS})
		}
		if len(pr.Survivors) > 0 {
			// Fail closed: something the command started outlived it.
			res.Survivors, res.Passed = pr.Survivors, false
			fmt.Fprintf(&r.testLog, "# processes of its group survived the kill: %v\n", pr.Survivors)
			r.tr("verification.survivors", map[string]any{"argv": shown, "pids": pr.Survivors})
		}
		if len(pr.Lingering) > 0 {
			// Fail closed: the command ended and left processes running
			// (killed since, with its whole tree).
			res.Lingering, res.Passed = pr.Lingering, false
			fmt.Fprintf(&r.testLog, "# it left %d processes running when it ended (killed): %v\n", len(pr.Lingering), pr.Lingering)
			r.tr("verification.lingering", map[string]any{"argv": shown, "pids": pr.Lingering, "containment": pr.Containment})
		}
		v.Commands = append(v.Commands, res)
		results = append(results, map[string]any{"argv": shown, "exit_code": res.ExitCode, "passed": res.Passed, "missing": res.Missing, "timed_out": res.TimedOut})
		if !res.Passed {
			passed = false
			if res.Missing {
				r.block(evidence.MissingTestCommand, "no verification command was available: "+errText(pr.StartErr), nil)
			} else if len(res.Survivors) > 0 {
				r.block(evidence.VerificationFailed, fmt.Sprintf("verification %q left processes running: %v", line, res.Survivors), nil)
			} else if len(res.Lingering) > 0 {
				r.block(evidence.VerificationFailed, fmt.Sprintf("verification %q left %d processes running when it ended; they were killed", line, len(res.Lingering)), nil)
			} else if res.TimedOut {
				r.block(evidence.Timeout, fmt.Sprintf("verification %q did not finish within %s", line, c.VerificationTimeout), nil)
			} else {
				r.block(evidence.VerificationFailed, fmt.Sprintf("verification %q exited %d", line, *res.ExitCode), nil)
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

// redactArgv returns argv with secrets masked: each argument on its own,
// and the value of an option given as a separate argument ("--token X"),
// which the redactor judges together with its option.
func (r *run) redactArgv(argv []string) []string {
	out := make([]string, len(argv))
	for i, a := range argv {
		out[i] = string(r.red.Redact([]byte(a)))
		if i > 0 && out[i] == a && strings.HasPrefix(argv[i-1], "-") {
			pair := argv[i-1] + "=" + a
			if red := string(r.red.Redact([]byte(pair))); red != pair {
				if v, ok := strings.CutPrefix(red, argv[i-1]+"="); ok {
					out[i] = v
				} else {
					out[i] = "****"
				}
			}
		}
	}
	return out
}
