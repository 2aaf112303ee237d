package proc

import (
	"context"
	"testing"
	"time"
)

// TestContainKillsOtherSessions: a child that left the process group with
// setsid (as the agent CLIs' tools do) is killed too, so it cannot write
// after Run returns — with a cgroup where one can be made, and by the
// marker sweep otherwise.
func TestContainKillsOtherSessions(t *testing.T) {
	for _, tc := range []struct {
		name     string
		noCgroup bool
		timeout  time.Duration
		then     string // what the command does after starting the writer
	}{
		{"exit", false, 0, "sleep 0.2"},
		{"timeout", false, 300 * time.Millisecond, "sleep 30"},
		{"exit-no-cgroup", true, 0, "sleep 0.2"},
		{"timeout-no-cgroup", true, 300 * time.Millisecond, "sleep 30"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !tc.noCgroup && !CgroupAvailable() {
				t.Skip("no usable cgroup v2 hierarchy here (not root, or no cgroup2 mount)")
			}
			w := newLateWriter(t)
			spec := Spec{Argv: []string{"sh", "-c", "setsid sh -c " + w.Args() + " & " + tc.then}, Env: append(env(), w.Env()...), Timeout: tc.timeout, Contain: true, Grace: 200 * time.Millisecond}
			if tc.noCgroup {
				old := cgroupRoot
				cgroupRoot = func() string { return "" }
				defer func() { cgroupRoot = old }()
			}
			r := Run(context.Background(), spec)
			want := ContainCgroup
			if tc.noCgroup {
				want = ContainGroup
			}
			if !r.Started || r.Containment != want || len(r.Survivors) > 0 || r.TimedOut != (tc.timeout > 0) {
				t.Fatalf("%+v", r)
			}
			w.noLateWrite(t, "a process of the run")
		})
	}
}
