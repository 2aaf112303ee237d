package sandbox_test

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/svrnty/sotvet/harness/sandbox"
)

// reachProbe, set in the environment, makes the test binary try every
// way out named by the environment and print what worked.
const reachProbe = "SOTVET_SANDBOX_REACH_PROBE"

func init() {
	if os.Getenv(reachProbe) == "" || len(os.Args) > 1 && os.Args[1] == "sandbox-exec" {
		return // not the probe, or the shim that will execute it
	}
	try := func(name string, err error) {
		if err != nil {
			fmt.Printf("%s: refused\n", name)
		} else {
			fmt.Printf("%s: ok\n", name)
		}
	}
	dial := func(network, addr string) error {
		c, err := net.Dial(network, addr)
		if err == nil {
			c.Close()
		}
		return err
	}
	try("unix", dial("unix", os.Getenv("UNIX")))
	try("abstract", dial("unix", "@"+os.Getenv("ABSTRACT")))
	try("tcp-allowed", dial("tcp", "127.0.0.1:"+os.Getenv("TCP_OK")))
	try("tcp-other", dial("tcp", "127.0.0.1:"+os.Getenv("TCP_NO")))
	ln, err := net.Listen("tcp", "127.0.0.1:"+os.Getenv("BIND_PORT"))
	if err == nil {
		ln.Close()
	}
	try("tcp-bind", err)
	// MPTCP is not TCP to Landlock's TCP rules.
	if fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 262 /* IPPROTO_MPTCP */); err != nil {
		try("mptcp-other", err)
	} else {
		port, _ := strconv.Atoi(os.Getenv("TCP_NO"))
		try("mptcp-other", syscall.Connect(fd, &syscall.SockaddrInet4{Port: port, Addr: [4]byte{127, 0, 0, 1}}))
		syscall.Close(fd)
	}
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.Close(fds[0])
		syscall.Close(fds[1])
	}
	try("socketpair-stream", err)
	fds, err = syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_DGRAM, 0)
	if err == nil {
		syscall.Close(fds[0])
		syscall.Close(fds[1])
	}
	try("socketpair-dgram", err)
	os.Exit(0)
}

// TestReach: the shim's IPC and network rules. Without them everything is
// reachable; with them no unix socket can be made (but a stream pair),
// abstract sockets outside the domain are refused (ABI 6), and TCP
// connects only to the allowed port and binds nothing (ABI 4).
func TestReach(t *testing.T) {
	needLandlock(t)
	dir := t.TempDir()
	sock := filepath.Join(dir, "agent", "sock")
	os.MkdirAll(filepath.Dir(sock), 0o700)
	abstract := fmt.Sprintf("sotvet-sandbox-reach-%d", os.Getpid())
	var ports []string
	for _, a := range [][2]string{{"unix", sock}, {"unix", "@" + abstract}, {"tcp", "127.0.0.1:0"}, {"tcp", "127.0.0.1:0"}} {
		ln, err := net.Listen(a[0], a[1])
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				c.Close()
			}
		}()
		if a[0] == "tcp" {
			ports = append(ports, strconv.Itoa(ln.Addr().(*net.TCPAddr).Port))
		}
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	okPort, _ := strconv.ParseUint(ports[0], 10, 16)
	// A free port to bind (binding port 0, an ephemeral one, is not a
	// TCP rule's to refuse).
	free, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	bindPort := strconv.Itoa(free.Addr().(*net.TCPAddr).Port)
	free.Close()
	run := func(p sandbox.Policy) string {
		argv := sandbox.Wrap([]string{exe, "sandbox-exec"}, p, exe, []string{exe})
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = append(os.Environ(), reachProbe+"=1", "UNIX="+sock, "ABSTRACT="+abstract, "TCP_OK="+ports[0], "TCP_NO="+ports[1], "BIND_PORT="+bindPort)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			t.Fatalf("%v\n%s", err, out.String())
		}
		return out.String()
	}
	open := run(sandbox.Policy{Dirs: []string{dir}})
	wantOpen := []string{"unix: ok", "abstract: ok", "tcp-allowed: ok", "tcp-other: ok", "tcp-bind: ok", "socketpair-stream: ok", "socketpair-dgram: ok"}
	if b, err := os.ReadFile("/proc/sys/net/mptcp/enabled"); err == nil && strings.TrimSpace(string(b)) == "1" {
		wantOpen = append(wantOpen, "mptcp-other: ok")
	}
	for _, want := range wantOpen {
		if !strings.Contains(open, want+"\n") {
			t.Errorf("unconfined: want %q in\n%s", want, open)
		}
	}
	p := sandbox.Policy{Dirs: []string{dir}, NoUnixSockets: true}
	want := []string{"unix: refused", "abstract: refused", "mptcp-other: refused", "socketpair-stream: ok", "socketpair-dgram: refused"}
	if sandbox.KernelABI() >= sandbox.NetABI {
		p.RestrictTCP, p.ConnectTCP = true, []uint16{uint16(okPort)}
		want = append(want, "tcp-allowed: ok", "tcp-other: refused", "tcp-bind: refused")
	}
	if sandbox.KernelABI() >= sandbox.ScopeABI {
		p.Scope = true
	}
	got := run(p)
	for _, w := range want {
		if !strings.Contains(got, w+"\n") {
			t.Errorf("confined: want %q in\n%s", w, got)
		}
	}
	// Scope alone (unix sockets allowed): the abstract socket outside the
	// domain is refused, the pathname one is not (Landlock before ABI 9
	// does not mediate it: the reason for the seccomp filter).
	if sandbox.KernelABI() >= sandbox.ScopeABI {
		got := run(sandbox.Policy{Dirs: []string{dir}, ConfineReads: true, Scope: true, ReadDirs: []string{"/usr", "/lib", "/lib64", "/proc"}, ReadFiles: []string{exe}})
		for _, w := range []string{"abstract: refused", "unix: ok"} {
			if !strings.Contains(got, w+"\n") {
				t.Errorf("scope only: want %q in\n%s", w, got)
			}
		}
	}
}

func TestReachArgs(t *testing.T) {
	p := sandbox.Policy{Dirs: []string{"/a"}, RestrictTCP: true, ConnectTCP: []uint16{443, 8080}, Scope: true, NoUnixSockets: true, LoopbackUp: true}
	w := sandbox.Wrap([]string{"shim"}, p, "/bin/x", []string{"x"})
	gp, _, _, err := sandbox.ParseArgs(w[1:])
	if err != nil || !gp.RestrictTCP || !slices.Equal(gp.ConnectTCP, p.ConnectTCP) || !gp.Scope || !gp.NoUnixSockets || !gp.LoopbackUp {
		t.Fatalf("round trip: %v %+v", err, gp)
	}
	for _, bad := range []string{"0", "65536", "x", "-1"} {
		if _, _, _, err := sandbox.ParseArgs([]string{"--rw", "/a", "--connect-tcp", bad, "--prog", "/bin/x", "--", "x"}); err == nil {
			t.Errorf("--connect-tcp %s accepted", bad)
		}
	}
}
