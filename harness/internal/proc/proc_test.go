package proc

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

func env() []string { return []string{"PATH=" + os.Getenv("PATH")} }

func TestRunExit(t *testing.T) {
	r := Run(context.Background(), Spec{Argv: []string{"sh", "-c", "echo out; echo err >&2; exit 3"}, Env: env()})
	if !r.Started || r.ExitCode != 3 || string(r.Stdout) != "out\n" || string(r.Stderr) != "err\n" || r.TimedOut {
		t.Errorf("%+v", r)
	}
}

func TestRunMissing(t *testing.T) {
	r := Run(context.Background(), Spec{Argv: []string{"no-such-program-here"}, Env: env()})
	if r.Started || !errors.Is(r.StartErr, exec.ErrNotFound) {
		t.Errorf("%+v", r)
	}
	// The harness's own PATH is not consulted.
	r = Run(context.Background(), Spec{Argv: []string{"sh", "-c", "true"}, Env: []string{"PATH=" + t.TempDir()}})
	if r.Started {
		t.Error("found sh on an empty PATH")
	}
}

// TestTimeoutKillsGroup: a leader and its background child are both gone
// when Run returns.
func TestTimeoutKillsGroup(t *testing.T) {
	w := newLateWriter(t)
	start := time.Now()
	r := Run(context.Background(), Spec{
		Argv:    []string{"sh", "-c", "sh -c " + w.Args() + " & echo $!; sleep 30"},
		Env:     append(env(), w.Env()...),
		Timeout: 300 * time.Millisecond,
	})
	if !r.TimedOut || r.Signal == "" || time.Since(start) > 5*time.Second {
		t.Fatalf("%+v", r)
	}
	if len(r.Survivors) != 0 || len(GroupMembers(r.Pid)) != 0 {
		t.Errorf("survivors %v members %v", r.Survivors, GroupMembers(r.Pid))
	}
	child, _ := strconv.Atoi(strings.TrimSpace(string(r.Stdout)))
	if child == 0 {
		t.Fatalf("no child pid in %q", r.Stdout)
	}
	w.noLateWrite(t, "the background child")
}

// TestExitKillsStragglers: after a normal exit, children left in the
// group are killed too.
func TestExitKillsStragglers(t *testing.T) {
	r := Run(context.Background(), Spec{Argv: []string{"sh", "-c", "sleep 30 >/dev/null 2>&1 & exit 0"}, Env: env(), Timeout: 10 * time.Second})
	if r.ExitCode != 0 || r.TimedOut || len(GroupMembers(r.Pid)) != 0 {
		t.Errorf("%+v members %v", r, GroupMembers(r.Pid))
	}
}

func TestOutputCap(t *testing.T) {
	r := Run(context.Background(), Spec{Argv: []string{"sh", "-c", "yes | head -c 100000"}, Env: env(), MaxOutput: 1000})
	if !r.Truncated || !strings.Contains(string(r.Stdout), "[output truncated at 1000 bytes]") || len(r.Stdout) > 1100 {
		t.Errorf("truncated %t len %d", r.Truncated, len(r.Stdout))
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(100 * time.Millisecond); cancel() }()
	r := Run(ctx, Spec{Argv: []string{"sleep", "30"}, Env: env()})
	if !r.TimedOut {
		t.Errorf("%+v", r)
	}
}
