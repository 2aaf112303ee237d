// Package plainbuild makes, at most once per test process, a build of the
// package under test (or of its command) without the race detector: the
// binary a race-built test starts as a child process whose own speed is
// not under test and whose code the race detector would not watch.
package plainbuild

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// Build is one plain build, made on first use in a temporary directory,
// or taken from the go command's build cache (Command).
type Build struct {
	once   sync.Once
	prefix string   // of the temporary directory's name
	name   string   // of the binary in it
	args   []string // of the go command, before "-o <binary> ."
	pkg    string   // Command's main package
	dir    string
	temp   bool // dir is ours to remove
	err    error
}

// New describes a build of the package in the working directory: `go
// <args> -o <dir>/<name> .` with -race dropped from GOFLAGS.
func New(prefix, name string, args ...string) *Build {
	return &Build{prefix: prefix, name: name, args: args}
}

// Command describes a plain build of the main package pkg (named name,
// the last element of its path), built with the go command's flags and
// kept in its build cache, where go run keeps the executables it links:
// the test processes that need the command (cmd/sotvet's scenarios, the
// language server's editor test) share one link, and a later go test
// with the package unchanged links nothing. Where the cache does not
// keep it, it is built as New's are.
func Command(prefix, name, pkg string, flags ...string) *Build {
	return &Build{prefix: prefix, name: name, pkg: pkg, args: append([]string{"build"}, flags...)}
}

// Dir makes the build once and returns the directory that holds it.
// A cached command's directory is the cache's: only run what is in it.
func (b *Build) Dir() (string, error) {
	b.once.Do(func() {
		if b.pkg != "" {
			if dir, ok := b.cached(); ok {
				b.dir = dir
				return
			}
		}
		dir, err := os.MkdirTemp("", b.prefix)
		if err != nil {
			b.err = err
			return
		}
		b.dir, b.temp = dir, true
		target := "."
		if b.pkg != "" {
			target = b.pkg
		}
		args := append(append([]string{}, b.args...), "-o", filepath.Join(dir, b.name), target)
		cmd := exec.Command("go", args...)
		cmd.Env = plainEnv()
		if out, err := cmd.CombinedOutput(); err != nil {
			b.err = fmt.Errorf("go %s (plain): %v\n%s", strings.Join(args, " "), err, out)
		}
	})
	return b.dir, b.err
}

// cached asks go run for the command with echo as its -exec program,
// which prints the executable's path instead of running it. A link made
// by this very call is printed from go's temporary directory, gone when
// go exits, and cached: the second call prints the cache's copy.
func (b *Build) cached() (string, bool) {
	echo, err := exec.LookPath("echo")
	if err != nil {
		return "", false
	}
	for range 2 {
		args := append(append([]string{"run"}, b.args[1:]...), "-exec", echo, b.pkg)
		cmd := exec.Command("go", args...)
		cmd.Env = plainEnv()
		out, err := cmd.Output()
		if err != nil {
			return "", false // the build's own error, if any, is New's to report
		}
		exe := strings.TrimSuffix(string(out), "\n")
		if info, err := os.Stat(exe); err == nil && info.Mode().IsRegular() && filepath.Base(exe) == b.name {
			return filepath.Dir(exe), true
		}
	}
	return "", false
}

func plainEnv() []string {
	return append(os.Environ(), "GOFLAGS="+WithoutRace(os.Getenv("GOFLAGS")))
}

// Exe is Dir joined with the binary's name.
func (b *Build) Exe() (string, error) {
	dir, err := b.Dir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, b.name), nil
}

// Remove removes the build, if one was made in a temporary directory:
// call it from TestMain after the tests.
func (b *Build) Remove() {
	if b.temp {
		os.RemoveAll(b.dir)
	}
}

// WithoutRace drops -race from GOFLAGS: the plain build is the point.
func WithoutRace(flags string) string {
	var keep []string
	for _, f := range strings.Fields(flags) {
		if f != "-race" && f != "--race" && f != "-race=true" {
			keep = append(keep, f)
		}
	}
	return strings.Join(keep, " ")
}
