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
	args   []string // of the go command, before "-o <binary> ."
	dir    string
	err    error
}

// New describes a build of the package in the working directory: `go
// <args> -o <dir>/<name> .` with -race dropped from GOFLAGS.
func New(prefix, name string, args ...string) *Build {
	return &Build{prefix: prefix, name: name, args: args}
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
		args := append(append([]string{}, b.args...), "-o", filepath.Join(dir, b.name), ".")
		cmd := exec.Command("go", args...)
		cmd.Env = append(os.Environ(), "GOFLAGS="+WithoutRace(os.Getenv("GOFLAGS")))
		if out, err := cmd.CombinedOutput(); err != nil {
			b.err = fmt.Errorf("go %s (plain): %v\n%s", strings.Join(args, " "), err, out)
		}
	})
	return b.dir, b.err
}

// Exe is Dir joined with the binary's name.
func (b *Build) Exe() (string, error) {
	dir, err := b.Dir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, b.name), nil
}

// Remove removes the build, if one was made: call it from TestMain after
// the tests.
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
