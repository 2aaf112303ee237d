package main

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/svrnty/sotvet/harness/evidence"
	"golang.org/x/sys/unix"
)

// environFD names the variable through which a harness process re-executed
// by dropEnviron finds the descriptor holding its full environment.
const environFD = "SOTVET_HARNESS_ENVIRON_FD"

// signKeyFD names the variable through which a re-executed harness process
// finds the descriptor holding the signing key read before the re-exec.
const signKeyFD = "SOTVET_HARNESS_SIGNKEY_FD"

// preloadedKeyArg replaces the signing key's path in the re-executed
// process's argv: /proc/PID/cmdline stays readable by every process of
// the user, the backend included, so it must not name the key.
const preloadedKeyArg = "(read-before-any-backend-started)"

// preloadedKey is the signing key file's content, read before the
// re-exec.
var preloadedKey []byte

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
		if err := readPreloadedKey(); err != nil {
			return err
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
	args := os.Args
	if keyArgs, keyFile, ok := preloadKey(os.Args); ok {
		defer keyFile.Close()
		args = keyArgs
		env = append(env, signKeyFD+"="+strconv.Itoa(int(keyFile.Fd())))
	}
	exe, err := os.Executable()
	if err != nil {
		f.Close()
		return err
	}
	err = syscall.Exec(exe, args, env)
	f.Close()
	return errors.Join(errors.New("re-executing without secrets in the environment"), err)
}

// preloadKey reads the file a --sign-key argument names into an anonymous
// memory file that survives the exec, and returns args with every
// --sign-key value replaced by preloadedKeyArg. It does nothing (ok
// false) when there is no such argument or its file cannot be read or
// parsed: the re-executed process then reports the error as usual, before
// any backend starts.
func preloadKey(args []string) (out []string, f *os.File, ok bool) {
	at := signKeyArgs(args)
	if len(at) == 0 {
		return nil, nil, false
	}
	path := at[len(at)-1].value(args) // the flag package keeps the last
	data, err := evidence.ReadSigningKeyFile(path)
	if err != nil {
		return nil, nil, false
	}
	if _, err := evidence.ParseSigningKey(path, data); err != nil {
		return nil, nil, false
	}
	fd, err := unix.MemfdCreate("sotvet-sign-key", 0) // no CLOEXEC: it must survive the exec
	if err != nil {
		return nil, nil, false
	}
	f = os.NewFile(uintptr(fd), "sign-key")
	if _, err := f.Write(data); err != nil {
		f.Close()
		return nil, nil, false
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		f.Close()
		return nil, nil, false
	}
	out = slices.Clone(args)
	for _, a := range at {
		if a.inline {
			name, _, _ := strings.Cut(out[a.i], "=")
			out[a.i] = name + "=" + preloadedKeyArg
		} else {
			out[a.i] = preloadedKeyArg
		}
	}
	return out, f, true
}

// keyArg is where a --sign-key value sits in argv: args[i] itself, or
// after the "=" of args[i] when inline.
type keyArg struct {
	i      int
	inline bool
}

func (a keyArg) value(args []string) string {
	if a.inline {
		_, v, _ := strings.Cut(args[a.i], "=")
		return v
	}
	return args[a.i]
}

// signKeyArgs finds the --sign-key (or -sign-key) values before "--".
func signKeyArgs(args []string) (at []keyArg) {
	for j := 0; j < len(args); j++ {
		a := args[j]
		if a == "--" {
			break
		}
		name, _, inline := strings.Cut(a, "=")
		if name != "-sign-key" && name != "--sign-key" {
			continue
		}
		switch {
		case inline:
			at = append(at, keyArg{j, true})
		case j+1 < len(args):
			at = append(at, keyArg{j + 1, false})
			j++
		}
	}
	return at
}

// readPreloadedKey takes the key preloadKey left behind, if any, and
// closes its descriptor so that nothing the harness starts inherits it.
func readPreloadedKey() error {
	v, ok := os.LookupEnv(signKeyFD)
	if !ok {
		return nil
	}
	os.Unsetenv(signKeyFD)
	fd, err := strconv.Atoi(v)
	if err != nil || fd < 3 {
		return fmt.Errorf("%s=%q: not a descriptor", signKeyFD, v)
	}
	f := os.NewFile(uintptr(fd), "sign-key")
	defer f.Close()
	preloadedKey, err = io.ReadAll(io.LimitReader(f, 1<<20))
	if err != nil {
		return fmt.Errorf("reading the signing key back: %w", err)
	}
	return nil
}

// loadSigningKey loads the key a --sign-key flag names: the one read
// before the re-exec when the flag holds preloadedKeyArg.
func loadSigningKey(flagValue string) (ed25519.PrivateKey, error) {
	if flagValue == preloadedKeyArg && preloadedKey != nil {
		return evidence.ParseSigningKey("--sign-key", preloadedKey)
	}
	return evidence.LoadSigningKey(flagValue)
}

// harnessEnviron is the environment runs are given.
func harnessEnviron() []string {
	if fullEnviron != nil {
		return fullEnviron
	}
	return os.Environ()
}
