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

// Build is one plain build, made on first use in a temporary directory.
type Build struct {
	once   sync.Once
	prefix string   // of the temporary directory's name
	name   string   // of the binary in it
	args   []string // of the go command, before "-o <binary> <target>"
	pkg    string   // Command's main package
	flags  []string // Command's build flags
	dir    string
	err    error
}

// New describes a build of the package in the working directory: `go
// <args> -o <dir>/<name> .` with -race dropped from GOFLAGS.
func New(prefix, name string, args ...string) *Build {
	return &Build{prefix: prefix, name: name, args: args}
}

// Command describes a plain build of the main package pkg (named name,
// the last element of its path), linked by go run, which keeps the
// executables it links in the go command's build cache: the test
// processes that need the command (cmd/sotvet's scenarios, the language
// server's editor test) share one link, and a later go test with the
// package unchanged links nothing. Each process runs a copy of its own
// in a temporary directory, never the cache's file: the cache may sit on
// a noexec mount, be cleaned while tests run, or be written in place by
// another process's link.
func Command(prefix, name, pkg string, flags ...string) *Build {
	return &Build{prefix: prefix, name: name, pkg: pkg, flags: flags, args: append([]string{"build"}, flags...)}
}

// Dir makes the build once and returns the directory that holds it.
func (b *Build) Dir() (string, error) {
	b.once.Do(func() {
		dir, err := os.MkdirTemp("", b.prefix)
		if err != nil {
			b.err = err
			return
		}
		b.dir = dir
		if b.pkg != "" && b.copied() {
			return
		}
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

// copied asks go run for the command with "cp -t <dir>" as its -exec
// program, which copies the executable go run would start into the
// build's directory: from the cache when it holds the link, else from
// go's scratch build of this very call (and the cache keeps it for the
// next process).
func (b *Build) copied() bool {
	if _, err := exec.LookPath("cp"); err != nil || strings.ContainsAny(b.dir, "'\"") {
		return false
	}
	args := append(append([]string{"run"}, b.flags...), "-exec", "cp -t '"+b.dir+"'", b.pkg)
	cmd := exec.Command("go", args...)
	cmd.Env = plainEnv()
	if err := cmd.Run(); err != nil {
		return false // the build's own error, if any, is go build's to report
	}
	info, err := os.Stat(filepath.Join(b.dir, b.name))
	return err == nil && info.Mode().IsRegular()
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

// Remove removes the build: call it from TestMain after the tests.
func (b *Build) Remove() {
	if b.dir != "" {
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
