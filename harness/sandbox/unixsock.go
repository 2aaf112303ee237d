package sandbox

import (
	"errors"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Landlock before ABI 9 does not mediate connect(2) to a pathname unix
// socket: a confined process that cannot read a 0700 directory still
// connects to the socket in it (an ssh-agent, a user bus, docker.sock).
// A network namespace does not help either: pathname sockets are found
// through the file system. And Landlock's TCP rules apply to TCP sockets
// only: an MPTCP socket (IPPROTO_MPTCP) connects to any port (seen on
// Linux 6.18, Landlock ABI 7), as would SCTP. So the shim also installs a
// seccomp filter on socket(2): only IPv4, IPv6 and netlink sockets can be
// made, and a stream one only as plain TCP (Go falls back to TCP when
// MPTCP is refused). A vsock to the hypervisor, a packet socket, a unix
// socket: refused. Unix socket pairs stay allowed but for datagram ones
// (a datagram socket can be pointed anywhere with sendto): Node and others
// use stream pairs for their children's stdio, and those cannot be
// connected elsewhere.

// archAudit is the seccomp audit architecture of this build, 0 when the
// filter does not know it.
var archAudit = map[string]uint32{
	"amd64": unix.AUDIT_ARCH_X86_64,
	"arm64": unix.AUDIT_ARCH_AARCH64,
}[runtime.GOARCH]

// UnixSocketFilterSupported reports whether this build can refuse unix
// sockets with seccomp.
func UnixSocketFilterSupported() bool { return archAudit != 0 }

// x32 system calls on amd64 carry this bit; the filter refuses them.
const x32SyscallBit = 0x40000000

// insn is one BPF instruction whose jumps name labels.
type insn struct {
	label  string // this instruction's label, if any
	code   uint16
	k      uint32
	jt, jf string // labels; "" is the next instruction
}

// assemble resolves the labels into relative jumps.
func assemble(prog []insn) []unix.SockFilter {
	at := map[string]int{}
	for i, in := range prog {
		if in.label != "" {
			at[in.label] = i
		}
	}
	rel := func(i int, l string) uint8 {
		if l == "" {
			return 0
		}
		t, ok := at[l]
		if !ok || t <= i || t-i-1 > 255 {
			panic("seccomp: bad jump to " + l)
		}
		return uint8(t - i - 1)
	}
	out := make([]unix.SockFilter, len(prog))
	for i, in := range prog {
		out[i] = unix.SockFilter{Code: in.code, K: in.k, Jt: rel(i, in.jt), Jf: rel(i, in.jf)}
	}
	return out
}

// unixSocketFilter is the seccomp program.
func unixSocketFilter() []unix.SockFilter {
	const (
		ld   = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
		jeq  = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
		jge  = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
		and  = unix.BPF_ALU | unix.BPF_AND | unix.BPF_K
		ret  = unix.BPF_RET | unix.BPF_K
		nr   = 0
		arch = 4
		arg0 = 16 // args[i], low 32 bits (little-endian)
		arg1 = 24
		arg2 = 32
		// The socket type without SOCK_NONBLOCK and SOCK_CLOEXEC.
		typeMask = 0xf
	)
	return assemble([]insn{
		{code: ld, k: arch},
		{code: jeq, k: archAudit, jf: "deny"}, // another ABI (int 0x80): deny
		{code: ld, k: nr},
		{code: jge, k: x32SyscallBit, jt: "deny"},
		{code: jeq, k: uint32(unix.SYS_SOCKET), jf: "pair"},
		{code: ld, k: arg0},
		{code: jeq, k: unix.AF_INET, jt: "inet"},
		{code: jeq, k: unix.AF_INET6, jt: "inet"},
		{code: jeq, k: unix.AF_NETLINK, jt: "allow", jf: "deny"},
		{label: "inet", code: ld, k: arg1},
		{code: and, k: typeMask},
		{code: jeq, k: unix.SOCK_SEQPACKET, jt: "deny"},
		{code: jeq, k: unix.SOCK_STREAM, jf: "allow"},
		{code: ld, k: arg2},
		{code: jeq, k: 0, jt: "allow"},
		{code: jeq, k: unix.IPPROTO_TCP, jt: "allow", jf: "deny"},
		{label: "pair", code: jeq, k: uint32(unix.SYS_SOCKETPAIR), jf: "allow"},
		{code: ld, k: arg0},
		{code: jeq, k: unix.AF_UNIX, jf: "allow"},
		{code: ld, k: arg1},
		{code: and, k: typeMask},
		{code: jeq, k: unix.SOCK_DGRAM, jt: "deny", jf: "allow"},
		{label: "allow", code: ret, k: unix.SECCOMP_RET_ALLOW},
		{label: "deny", code: ret, k: unix.SECCOMP_RET_ERRNO | uint32(unix.EACCES)},
	})
}

// refuseUnixSockets installs the filter on the calling thread, which must
// be locked to its goroutine and must be the one that executes the
// program (the filter survives execve). no_new_privs must be set (the
// Landlock restriction sets it).
func refuseUnixSockets() error {
	if archAudit == 0 {
		return errors.New("no seccomp filter for " + runtime.GOARCH)
	}
	prog := unixSocketFilter()
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return err
	}
	return unix.Prctl(unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&fprog)), 0, 0)
}

// loopbackUp brings up "lo" in the calling process's network namespace.
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return err
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	return unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr)
}
