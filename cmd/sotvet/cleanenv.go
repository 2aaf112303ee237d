package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// environFD names the variable through which a harness process re-executed
// by dropEnviron finds the descriptor holding its full environment.
const environFD = "SOTVET_HARNESS_ENVIRON_FD"

// fullEnviron is the environment the harness works from once dropEnviron
// has run: what it hands to backends is chosen from it.
var fullEnviron []string

// keptEnv are the variables that stay in the process's own environment:
// what the harness process itself and the tools it runs need, none of them
// a credential by name.
func keptEnv(kv string) bool {
	k, _, _ := strings.Cut(kv, "=")
	switch k {
	case "PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "LANG", "TZ", "TMPDIR", "CI", "PWD":
		return true
	}
	for _, p := range []string{"LC_", "XDG_", "GO"} {
		if strings.HasPrefix(k, p) && !strings.Contains(k, "TOKEN") && !strings.Contains(k, "KEY") && !strings.Contains(k, "SECRET") {
			return true
		}
	}
	return false
}

// dropEnviron makes the harness's own /proc/PID/environ hold no secret a
// backend could read through /proc/$PPID/environ: the first time, it puts
// the whole environment in an anonymous memory file and re-executes the
// program (same PID) with only keptEnv's variables and the descriptor's
// number; re-executed, it reads the environment back into fullEnviron and
// closes the descriptor, before any backend starts. It also marks the
// process not dumpable, so that processes without CAP_SYS_PTRACE cannot
// read its memory, environ or descriptors through /proc.
//
// Only the process's own command re-executes: "sotvet harness <sub>" as
// os.Args says. Called in-process (a test calling run), it does nothing.
func dropEnviron(sub string) error {
	if len(os.Args) < 3 || os.Args[1] != "harness" || os.Args[2] != sub {
		return nil
	}
	if v, ok := os.LookupEnv(environFD); ok {
		fd, err := strconv.Atoi(v)
		if err != nil || fd < 3 {
			return fmt.Errorf("%s=%q: not a descriptor", environFD, v)
		}
		f := os.NewFile(uintptr(fd), "environ")
		data, err := io.ReadAll(io.LimitReader(f, 16<<20))
		f.Close()
		os.Unsetenv(environFD)
		if err != nil {
			return fmt.Errorf("reading the environment back: %w", err)
		}
		fullEnviron = nil
		for _, kv := range strings.Split(string(data), "\x00") {
			if kv != "" {
				fullEnviron = append(fullEnviron, kv)
			}
		}
		return unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
	}
	fd, err := unix.MemfdCreate("sotvet-environ", 0) // no CLOEXEC: it must survive the exec
	if err != nil {
		return fmt.Errorf("keeping the environment out of /proc: %w", err)
	}
	f := os.NewFile(uintptr(fd), "environ")
	if _, err := f.WriteString(strings.Join(os.Environ(), "\x00")); err != nil {
		f.Close()
		return err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		f.Close()
		return err
	}
	var env []string
	for _, kv := range os.Environ() {
		if keptEnv(kv) {
			env = append(env, kv)
		}
	}
	env = append(env, environFD+"="+strconv.Itoa(fd))
	exe, err := os.Executable()
	if err != nil {
		f.Close()
		return err
	}
	err = syscall.Exec(exe, os.Args, env)
	f.Close()
	return errors.Join(errors.New("re-executing without secrets in the environment"), err)
}

// harnessEnviron is the environment runs are given.
func harnessEnviron() []string {
	if fullEnviron != nil {
		return fullEnviron
	}
	return os.Environ()
}
