package proc

import (
	"os"
	"sync/atomic"
	"syscall"
)

// Namespaces names the isolation Spec.Isolate gives, as recorded in
// reports (appended to the containment).
const Namespaces = "user+pid-namespace"

// A process started with Isolate runs in a new user namespace (its own
// uid and gid mapped to themselves, so files keep their owners) and a new
// PID namespace, under a shell that is the namespace's init:
//
//   - when the process exits, init exits with its status and the kernel
//     kills every process left in the namespace, whatever session, group
//     or environment they made for themselves;
//   - its capabilities hold only inside its user namespace, so even a
//     backend running as root cannot ptrace or read the memory of the
//     harness (which makes itself non-dumpable), nor of anything else
//     outside.
//
// Where the kernel refuses (unprivileged user namespaces disabled, a
// seccomp filter in a container), the first refusal is remembered and
// processes run without the namespaces; Result.Namespaces says which.

// nsInitShell is the namespace's init: a shell that runs the command as
// its child and exits with its status. A program that is not written to be
// init misbehaves as one (the kernel drops the signals it has no handler
// for; the Landlock shim hangs), so the command is never pid 1 itself.
const nsInitShell = "/bin/sh"

// nsInit returns the argument vector that runs prog (argv[0] resolved)
// under the namespace's init, or false when there is no shell to be init.
func nsInit(prog string, argv []string) ([]string, bool) {
	if !isExec(nsInitShell) {
		return nil, false
	}
	return append([]string{nsInitShell, "-c", `"$@"; exit $?`, "sotvet-ns-init", prog}, argv[1:]...), true
}

// isolationRefused is set once the kernel has refused the namespaces.
var isolationRefused atomic.Bool

func isolate(attr *syscall.SysProcAttr) {
	attr.Cloneflags |= syscall.CLONE_NEWUSER | syscall.CLONE_NEWPID
	attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getuid(), HostID: os.Getuid(), Size: 1}}
	attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getgid(), HostID: os.Getgid(), Size: 1}}
	attr.GidMappingsEnableSetgroups = false
}

// IsolationRefused reports whether the kernel has refused new namespaces
// to this process.
func IsolationRefused() bool { return isolationRefused.Load() }
