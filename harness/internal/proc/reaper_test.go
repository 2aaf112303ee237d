package proc

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// escapee leaves a writer behind that cleared its environment (so it
// carries no marker) and called setsid (so it is out of the group), then
// exits: only a cgroup, the subreaper or a PID namespace can find it.
func escapee(w *lateWriter) string {
	return `setsid env -i /bin/sh -c ` + w.Args() + ` & sleep 0.2`
}

func noCgroup(t *testing.T) {
	old := cgroupRoot
	cgroupRoot = func() string { return "" }
	t.Cleanup(func() { cgroupRoot = old })
}

func TestSubreaperKillsSetsidEnvClearedChild(t *testing.T) {
	noCgroup(t)
	w := newLateWriter(t)
	r := Run(context.Background(), Spec{Argv: []string{"sh", "-c", escapee(w)}, Env: append(env(), w.Env()...), Contain: true, Grace: 200 * time.Millisecond})
	if !subreaperOK {
		t.Skip("the kernel refused PR_SET_CHILD_SUBREAPER")
	}
	if !r.Started || r.ExitCode != 0 || len(r.Survivors) > 0 {
		t.Fatalf("%+v", r)
	}
	w.noLateWrite(t, "a setsid, environment-clearing child")
	// Nothing of the run is left as a zombie child of this process.
	if left := orphans(0); len(left) > 0 {
		t.Fatalf("children left: %v", left)
	}
}

// The harness's own children (in its process group, like git) are never
// taken for orphans.
func TestSweepLeavesOwnChildren(t *testing.T) {
	becomeSubreaper()
	cmd := newSleep(t)
	if got := orphans(0); len(got) > 0 {
		t.Fatalf("own child %d taken for an orphan: %v", cmd, got)
	}
}

func newSleep(t *testing.T) int {
	t.Helper()
	p, err := os.StartProcess("/bin/sleep", []string{"sleep", "5"}, &os.ProcAttr{})
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { p.Kill(); p.Wait() })
	return p.Pid
}

func TestIsolateKillsTheWholeNamespace(t *testing.T) {
	for _, cg := range []bool{false, true} {
		t.Run(map[bool]string{false: "no-cgroup", true: "cgroup"}[cg], func(t *testing.T) {
			if !cg {
				noCgroup(t)
			} else if !CgroupAvailable() {
				t.Skip("no usable cgroup v2 hierarchy here")
			}
			testIsolate(t)
		})
	}
}

func testIsolate(t *testing.T) {
	// This process's memory is out of reach only when it is not dumpable,
	// as the harness makes itself.
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		t.Fatal(err)
	}
	defer unix.Prctl(unix.PR_SET_DUMPABLE, 1, 0, 0, 0)
	w := newLateWriter(t)
	script := `echo pid=$$; if (exec 3< /proc/$HARNESS/mem) 2>/dev/null; then echo mem=readable; else echo mem=refused; fi; ` + escapee(w)
	r := Run(context.Background(), Spec{Argv: []string{"sh", "-c", script}, Env: append(env(), append(w.Env(), "HARNESS="+strconv.Itoa(os.Getpid()))...), Contain: true, Isolate: true})
	if IsolationRefused() {
		t.Skipf("the kernel refused user and PID namespaces here: %+v", r)
	}
	out := string(r.Stdout)
	if !r.Started || r.Namespaces != Namespaces || !strings.HasSuffix(r.Containment, "+"+Namespaces) || len(r.Survivors) > 0 {
		t.Fatalf("%+v\n%s%s", r, out, r.Stderr)
	}
	if !strings.Contains(out, "pid=2\n") {
		t.Errorf("the process is not the first child of its namespace's init:\n%s", out)
	}
	if !strings.Contains(out, "mem=refused") {
		t.Errorf("the isolated process could open the harness's memory:\n%s%s", out, r.Stderr)
	}
	w.noLateWrite(t, "a process of the namespace")
}
