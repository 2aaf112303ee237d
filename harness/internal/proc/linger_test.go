package proc

import (
	"context"
	"fmt"
	"net"
	"os"
	"strings"
	"testing"
	"time"
)

// chain starts a chain of n shells, each in a session of its own, each
// starting the next and then sleeping: a test that leaves processes
// running behind it (issue 31, finding 3). Each link's $0 is %[1]s
// (linkName), its count %[2]d.
const chain = `CHAIN='n=$1; : > "$LINKS/$n"; if [ "$n" -gt 1 ]; then setsid sh -c "$CHAIN" %[1]s $((n-1)) </dev/null >/dev/null 2>&1 & fi; sleep 60'
export CHAIN
setsid sh -c "$CHAIN" %[1]s %[2]d </dev/null >/dev/null 2>&1 &
while [ ! -e "$LINKS/1" ]; do sleep 0.05; done
exit 0`

// TestLingering: what a command leaves running when it ends is listed,
// and none of it is alive when Run returns, isolated or not.
func TestLingering(t *testing.T) {
	for _, tc := range []struct {
		name      string
		isolate   bool
		noCgroup  bool
		wantLinks int
	}{
		{"isolated", true, false, 30},
		{"cgroup", false, false, 30},
		{"group+marker", false, true, 30},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !tc.noCgroup && !tc.isolate && !CgroupAvailable() {
				t.Skip("no usable cgroup v2 hierarchy here")
			}
			if tc.noCgroup {
				old := cgroupRoot
				cgroupRoot = func() string { return "" }
				defer func() { cgroupRoot = old }()
			}
			r := Run(context.Background(), Spec{Argv: []string{"sh", "-c", fmt.Sprintf(chain, linkName, tc.wantLinks)}, Env: append(env(), "LINKS="+t.TempDir()), Timeout: 30 * time.Second, Contain: true, Isolate: tc.isolate})
			if tc.isolate && IsolationRefused() {
				t.Skip("the kernel refused user and PID namespaces here")
			}
			if !r.Started || r.ExitCode != 0 || r.TimedOut || len(r.Survivors) > 0 {
				t.Fatalf("%+v\n%s", r, r.Stderr)
			}
			// Each link is a shell and its sleep.
			if len(r.Lingering) < tc.wantLinks {
				t.Errorf("lingering = %d processes, want at least %d: %v", len(r.Lingering), tc.wantLinks, r.Lingering)
			}
			if left := chainLinks(); len(left) > 0 {
				t.Errorf("%d links of the chain outlived Run: %v", len(left), left)
			}
		})
	}
}

// TestNoLingering: a command that leaves nothing behind lists nothing.
func TestNoLingering(t *testing.T) {
	for _, isolate := range []bool{false, true} {
		r := Run(context.Background(), Spec{Argv: []string{"sh", "-c", "sleep 0.1 & wait; echo ok"}, Env: env(), Contain: true, Isolate: isolate})
		if !r.Started || r.ExitCode != 0 || len(r.Lingering) > 0 || string(r.Stdout) != "ok\n" {
			t.Errorf("isolate=%v: %+v", isolate, r)
		}
	}
	r := Run(context.Background(), Spec{Argv: []string{"sh", "-c", "exit 7"}, Env: env(), Contain: true, Isolate: true})
	if r.ExitCode != 7 {
		t.Errorf("the init handshake lost the exit code: %+v", r)
	}
}

// TestNoNetwork: a process without network reaches no service the host
// offers on loopback.
func TestNoNetwork(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skip(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("secret-from-host\n"))
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	// bash's /dev/tcp when there is bash; otherwise the probe is skipped.
	if !isExec("/bin/bash") {
		t.Skip("needs bash for /dev/tcp")
	}
	probe := fmt.Sprintf("exec 3<>/dev/tcp/127.0.0.1/%d && head -1 <&3", port)
	for _, noNet := range []bool{false, true} {
		r := Run(context.Background(), Spec{Argv: []string{"/bin/bash", "-c", probe}, Env: env(), Contain: true, Isolate: true, NoNetwork: noNet, Timeout: 10 * time.Second})
		if IsolationRefused() {
			t.Skip("the kernel refused namespaces here")
		}
		got := strings.Contains(string(r.Stdout), "secret-from-host")
		if got == noNet {
			t.Errorf("NoNetwork=%v: reached the host's loopback service = %v (%+v)", noNet, got, r)
		}
		if noNet && r.Namespaces != NetNamespaces {
			t.Errorf("namespaces = %q", r.Namespaces)
		}
	}
	// Its own loopback is up: a test may listen there.
	if isExec("/usr/bin/perl") {
		probe := `perl -MIO::Socket::INET -e '$l = IO::Socket::INET->new(LocalAddr => "127.0.0.1", LocalPort => 0, Listen => 1) or die "listen: $!\n"; IO::Socket::INET->new(PeerAddr => "127.0.0.1", PeerPort => $l->sockport) or die "connect: $!\n"; print "own loopback ok\n"'`
		r := Run(context.Background(), Spec{Argv: []string{"sh", "-c", probe}, Env: env(), Contain: true, Isolate: true, NoNetwork: true, Timeout: 10 * time.Second})
		if !strings.Contains(string(r.Stdout), "own loopback ok") {
			t.Errorf("own loopback: %s%s", r.Stdout, r.Stderr)
		}
	}
}

// linkName names this test process's chain links: the contain_survivors
// scenario (cmd/sotvet), which go test may run at the same time, leaves
// and then looks for a chain of its own, and neither may count the
// other's.
var linkName = fmt.Sprintf("sotvet-linger-%d", os.Getpid())

// chainLinks lists the live links of this process's chains.
func chainLinks() []string {
	ents, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range ents {
		cmd, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && strings.Contains(string(cmd), "\x00"+linkName+"\x00") {
			if st, ok := readStatName(e.Name()); ok && st != "Z" {
				out = append(out, e.Name())
			}
		}
	}
	return out
}

func readStatName(pid string) (string, bool) {
	data, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return "", false
	}
	i := strings.LastIndexByte(string(data), ')')
	if i < 0 || i+3 > len(data) {
		return "", false
	}
	return string(data[i+2 : i+3]), true
}

// TestLingeringSettles: in an isolated run, a process still exiting when
// the command ends (here one that ends 200 ms after it, as the go
// command's closed GOCACHEPROG child may on a loaded machine) is not
// listed as left running; one that outlives the wait is (TestLingering).
func TestLingeringSettles(t *testing.T) {
	r := Run(context.Background(), Spec{Argv: []string{"sh", "-c", "sleep 0.2 & exit 0"}, Env: env(), Timeout: 30 * time.Second, Contain: true, Isolate: true})
	if IsolationRefused() {
		t.Skip("the kernel refused user and PID namespaces here")
	}
	if !r.Started || r.ExitCode != 0 || len(r.Lingering) > 0 {
		t.Errorf("a process that ended within %v of the command is listed as left running: %+v", memberSettle, r)
	}
}
