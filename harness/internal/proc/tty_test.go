package proc

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// ttyRole selects what the test binary does when re-executed by
// TestNoTerminal: "harness" (a process whose controlling terminal is a
// pty, as when a user starts sotvet from a shell) or "probe" (the backend
// it starts, which tries to reach that terminal).
const ttyRole = "SOTVET_TTY_TEST_ROLE"

// injected is what the probe pushes into the terminal's input; a shell
// reading that terminal would run it.
const injected = "touch /tmp/pwned-by-backend\n"

func init() {
	switch os.Getenv(ttyRole) {
	case "harness":
		os.Exit(ttyHarness())
	case "probe":
		os.Exit(ttyProbe())
	}
}

// ttyHarness runs the probe as a backend is run, with a terminal
// descriptor leaked to it beyond stdin/out/err (fd 3 and up, not
// close-on-exec, as a careless parent leaves them), and prints what the
// probe reports.
func ttyHarness() int {
	leaked, err := syscall.Dup(0) // the terminal, without close-on-exec
	if err != nil {
		fmt.Println("dup:", err)
		return 1
	}
	_ = leaked
	self, _ := os.Executable()
	r := Run(context.Background(), Spec{
		Argv:    []string{self, "-test.run=^$"},
		Env:     []string{ttyRole + "=probe", "PATH=" + os.Getenv("PATH")},
		Timeout: 20 * time.Second,
		Contain: true,
		Isolate: os.Getenv("SOTVET_TTY_ISOLATE") == "1",
	})
	os.Stdout.Write(r.Stdout)
	os.Stdout.Write(r.Stderr)
	return 0
}

// ttyProbe tries every way to a terminal: /dev/tty, and each descriptor
// it inherited; on each terminal it finds, it pushes a command into the
// input with TIOCSTI.
func ttyProbe() int {
	var reached []string
	try := func(name string, fd int) {
		if _, err := unix.IoctlGetTermios(fd, unix.TCGETS); err != nil {
			return
		}
		reached = append(reached, name+":tty")
		ok := true
		for _, c := range []byte(injected) {
			if err := unix.IoctlSetPointerInt(fd, unix.TIOCSTI, int(c)); err != nil {
				// IoctlSetPointerInt passes a pointer to an int; the
				// kernel reads its first byte (little-endian).
				ok = false
				reached = append(reached, name+":tiocsti-refused:"+err.Error())
				break
			}
		}
		if ok {
			reached = append(reached, name+":tiocsti-ok")
		}
	}
	if f, err := os.OpenFile("/dev/tty", os.O_RDWR, 0); err == nil {
		reached = append(reached, "/dev/tty:open")
		try("/dev/tty", int(f.Fd()))
	} else {
		fmt.Println("probe: /dev/tty:", err)
	}
	ents, _ := os.ReadDir("/proc/self/fd")
	for _, e := range ents {
		fd, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		try("fd"+e.Name(), fd)
	}
	fmt.Println("probe: reached", strings.Join(reached, " "))
	return 0
}

// openPty returns a new pseudo-terminal's master and its slave.
func openPty(t *testing.T) (master, slave *os.File) {
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	s, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	return m, s
}

// TestNoTerminal: the harness is started from a terminal (a pty that is
// its controlling terminal and its stdin/out/err, and a leaked descriptor
// of it); the backend it runs reaches no terminal, so it cannot push a
// command into the user's shell (TIOCSTI).
func TestNoTerminal(t *testing.T) {
	for _, isolate := range []bool{false, true} {
		t.Run(fmt.Sprintf("isolate=%v", isolate), func(t *testing.T) {
			master, slave := openPty(t)
			defer master.Close()
			self, err := os.Executable()
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(self, "-test.run=^$")
			cmd.Env = append(os.Environ(), ttyRole+"=harness", fmt.Sprintf("SOTVET_TTY_ISOLATE=%d", map[bool]int{false: 0, true: 1}[isolate]))
			cmd.Stdin, cmd.Stderr = slave, slave
			var out strings.Builder
			cmd.Stdout = &out
			cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			slave.Close()
			// Drain the terminal: what the probe pushed is echoed here.
			echoed := make(chan string)
			go func() {
				var b strings.Builder
				buf := make([]byte, 4096)
				for {
					n, err := master.Read(buf)
					b.Write(buf[:n])
					if err != nil {
						break
					}
				}
				echoed <- b.String()
			}()
			if err := cmd.Wait(); err != nil {
				t.Fatalf("harness: %v\n%s", err, out.String())
			}
			master.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
			term := <-echoed
			report := out.String()
			t.Logf("probe report: %s", strings.TrimSpace(report))
			if !strings.Contains(report, "probe: reached") {
				t.Fatalf("the probe did not report:\n%s", report)
			}
			if strings.Contains(report, ":tty") {
				t.Errorf("the backend reached a terminal: %s", strings.TrimSpace(report))
			}
			if strings.Contains(term, "pwned-by-backend") {
				t.Errorf("the backend pushed input into the harness's terminal: %q", term)
			}
		})
	}
}
