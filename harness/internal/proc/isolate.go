package proc

import (
	"os"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"
)

// Namespaces names the isolation Spec.Isolate gives, as recorded in
// reports (appended to the containment); NetNamespaces adds Spec.NoNetwork.
const (
	Namespaces    = "user+pid-namespace"
	NetNamespaces = "user+pid+net-namespace"
)

// A process started with Isolate runs in a new user namespace (its own
// uid and gid mapped to themselves, so files keep their owners) and a new
// PID namespace, under a shell that is the namespace's init:
//
//   - when the process exits, init exits with its status and the kernel
//     kills every process left in the namespace, whatever session, group
//     or environment they made for themselves;
//   - before it exits, init tells the harness the process has ended and
//     waits for the harness to let it go: the harness lists what is still
//     alive in the namespace then (Result.Lingering), so that a process
//     left behind is seen, not just silently killed;
//   - its capabilities hold only inside its user namespace, so even a
//     backend running as root cannot ptrace or read the memory of the
//     harness (which makes itself non-dumpable), nor of anything else
//     outside.
//
// With NoNetwork it also gets a network namespace of its own: no
// interface but its own loopback, so no host service (on loopback or
// elsewhere) and no abstract unix socket of the host can be reached.
//
// Where the kernel refuses (unprivileged user namespaces disabled, a
// seccomp filter in a container), the first refusal is remembered and
// processes run without the namespaces; Result.Namespaces says which.

// nsInitShell is the namespace's init: a shell that runs the command as
// its child and exits with its status. A program that is not written to be
// init misbehaves as one (the kernel drops the signals it has no handler
// for; the Landlock shim hangs), so the command is never pid 1 itself.
const nsInitShell = "/bin/sh"

// nsInitScript runs the command without the handshake descriptors, says
// "done" on fd 3 when it has ended, and waits for fd 4 to close.
const nsInitScript = `"$@" 3>&- 4<&-; rc=$?; echo done >&3; read x <&4; exit $rc`

// nsLoopbackUp brings up the loopback of a new network namespace (it
// starts down), so that a test can listen and connect on 127.0.0.1. The
// Landlock shim does it itself (Spec.OwnLoopback); this is for processes
// run without it.
const nsLoopbackUp = `for ip in /usr/sbin/ip /sbin/ip /bin/ip /usr/bin/ip; do if [ -x $ip ]; then $ip link set lo up 2>/dev/null; break; fi; done; `

// nsInit returns the argument vector that runs prog (argv[0] resolved)
// under the namespace's init, bringing the loopback up first when asked,
// or false when there is no shell to be init.
func nsInit(prog string, argv []string, loopbackUp bool) ([]string, bool) {
	if !isExec(nsInitShell) {
		return nil, false
	}
	script := nsInitScript
	if loopbackUp {
		script = nsLoopbackUp + script
	}
	return append([]string{nsInitShell, "-c", script, "sotvet-ns-init", prog}, argv[1:]...), true
}

// isolationRefused is set once the kernel has refused the namespaces.
var isolationRefused atomic.Bool

func isolate(attr *syscall.SysProcAttr, noNetwork bool) {
	attr.Cloneflags |= syscall.CLONE_NEWUSER | syscall.CLONE_NEWPID
	if noNetwork {
		attr.Cloneflags |= syscall.CLONE_NEWNET
	}
	attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getuid(), HostID: os.Getuid(), Size: 1}}
	attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getgid(), HostID: os.Getgid(), Size: 1}}
	attr.GidMappingsEnableSetgroups = false
}

// IsolationRefused reports whether the kernel has refused new namespaces
// to this process.
func IsolationRefused() bool { return isolationRefused.Load() }

// settledMembers is nsMembers once those already exiting have gone: a
// process whose parent has just let it go (the go command's GOCACHEPROG
// child, closed but not waited for) is still in the namespace for a
// moment, longer on a loaded machine (CI saw one "left running" in two
// runs of the verification at once). It waits at most memberSettle, and
// not at all when the namespace is empty; what is still there then was
// left running.
func settledMembers(init int) []int {
	deadline := time.Now().Add(memberSettle)
	for {
		m := nsMembers(init)
		if len(m) == 0 || time.Now().After(deadline) {
			return m
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// memberSettle bounds settledMembers' wait.
const memberSettle = 500 * time.Millisecond

// nsMembers lists the live processes, other than init itself, in the PID
// namespace whose init is pid, from the host's /proc.
func nsMembers(init int) []int {
	want, err := os.Readlink("/proc/" + strconv.Itoa(init) + "/ns/pid")
	if err != nil {
		return nil
	}
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == init {
			continue
		}
		if ns, err := os.Readlink("/proc/" + e.Name() + "/ns/pid"); err != nil || ns != want {
			continue
		}
		if s, ok := readStat(pid); !ok || s.state == "Z" || s.state == "X" {
			continue
		}
		out = append(out, pid)
	}
	return out
}
