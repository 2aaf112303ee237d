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
// through the file system. So the shim also installs a seccomp filter
// that refuses to create unix sockets (socket(AF_UNIX, ...)) and unix
// datagram pairs (a datagram socket can be pointed anywhere with
// sendto). Stream socket pairs stay allowed: Node and others use them
// for their children's stdio, and they cannot be connected elsewhere.

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

// unixSocketFilter is the seccomp program.
func unixSocketFilter() []unix.SockFilter {
	const (
		ldW   = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
		jeqK  = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
		jgeK  = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
		andK  = unix.BPF_ALU | unix.BPF_AND | unix.BPF_K
		retK  = unix.BPF_RET | unix.BPF_K
		nrOff = 0
		arOff = 4
		a0Off = 16 // args[0], low 32 bits (little-endian)
		a1Off = 24
	)
	deny := uint32(unix.SECCOMP_RET_ERRNO | uint32(unix.EACCES))
	allow := uint32(unix.SECCOMP_RET_ALLOW)
	// Jump offsets are relative to the next instruction; ALLOW is at
	// index 13 and DENY at 14.
	return []unix.SockFilter{
		/* 0 */ {Code: ldW, K: arOff},
		/* 1 */ {Code: jeqK, K: archAudit, Jt: 0, Jf: 12}, // another ABI (int 0x80): deny
		/* 2 */ {Code: ldW, K: nrOff},
		/* 3 */ {Code: jgeK, K: x32SyscallBit, Jt: 10, Jf: 0},
		/* 4 */ {Code: jeqK, K: uint32(unix.SYS_SOCKET), Jt: 0, Jf: 2},
		/* 5 */ {Code: ldW, K: a0Off},
		/* 6 */ {Code: jeqK, K: unix.AF_UNIX, Jt: 7, Jf: 6},
		/* 7 */ {Code: jeqK, K: uint32(unix.SYS_SOCKETPAIR), Jt: 0, Jf: 5},
		/* 8 */ {Code: ldW, K: a0Off},
		/* 9 */ {Code: jeqK, K: unix.AF_UNIX, Jt: 0, Jf: 3},
		/* 10 */ {Code: ldW, K: a1Off},
		/* 11 */ {Code: andK, K: 0xf},
		/* 12 */ {Code: jeqK, K: unix.SOCK_DGRAM, Jt: 1, Jf: 0},
		/* 13 */ {Code: retK, K: allow},
		/* 14 */ {Code: retK, K: deny},
	}
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
