// Package sandbox confines a harness backend's writes, and its reads,
// with Landlock.
//
// Landlock restricts the calling process and what it starts, so the
// harness never confines itself: it starts a small shim (Main, reached as
// "sotvet harness sandbox-exec") that builds the ruleset, restricts itself
// and then replaces itself with the backend through execve. The backend
// and every process it starts inherit the restriction.
//
// The ruleset handles the write-type file system rights: writing,
// creating, removing, renaming, linking and truncating are allowed only
// beneath the directories and on the files the policy names. A policy
// that confines reads (ConfineReads) handles reading, listing and
// executing as well: they are allowed beneath the writable paths and the
// read-only directories and files the policy names (system directories,
// the toolchain), and nowhere else, so that a backend cannot read the
// user's home, keys or credentials, or other runs.
// It needs Landlock ABI 3, the first that also confines truncation; the
// configuration is exact, never best effort: a kernel that cannot enforce
// it is reported, and the harness then records "sandbox": "none" or
// blocks the run, as configured.
package sandbox

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// Modes a run can ask for.
const (
	// Auto confines with Landlock when the kernel supports it, and
	// records "none" otherwise.
	Auto = "auto"
	// Landlock requires confinement: without it the run is blocked.
	Landlock = "landlock"
	// None does not confine.
	None = "none"
)

// Modes lists the modes, default first.
var Modes = []string{Auto, Landlock, None}

// Kinds of sandbox a report records.
const (
	KindLandlock = "landlock"
	KindNone     = "none"
)

// RulesetABI is the Landlock ABI the ruleset needs: V3 confines every kind
// of write the harness cares about, truncation (V3) and cross-directory
// renames and links (V2) included.
const RulesetABI = 3

// ABICapEnv names an environment variable that lowers the ABI the harness
// believes the kernel offers ("0" pretends Landlock is missing). It can
// never raise it. It exists to exercise the unsupported-kernel paths on a
// kernel that supports Landlock.
const ABICapEnv = "SOTVET_LANDLOCK_ABI"

// readAccess is what a policy that confines reads also handles: reading
// files, listing directories and executing (ABI 1).
const readAccess = landlock.AccessFSSet(ll.AccessFSReadFile | ll.AccessFSReadDir | ll.AccessFSExecute)

// writeAccess is the set of handled rights: everything that changes the
// file system. Reading, listing and executing are not handled, and so stay
// allowed everywhere.
const writeAccess = landlock.AccessFSSet(ll.AccessFSWriteFile | ll.AccessFSRemoveDir | ll.AccessFSRemoveFile |
	ll.AccessFSMakeChar | ll.AccessFSMakeDir | ll.AccessFSMakeReg | ll.AccessFSMakeSock |
	ll.AccessFSMakeFifo | ll.AccessFSMakeBlock | ll.AccessFSMakeSym | ll.AccessFSRefer | ll.AccessFSTruncate)

// KernelABI returns the Landlock ABI version the running kernel offers, 0
// when it offers none (not built in, or not enabled at boot).
func KernelABI() int {
	v, err := ll.LandlockGetABIVersion()
	if err != nil || v < 0 {
		return 0
	}
	return v
}

// EffectiveABI is KernelABI lowered by ABICapEnv in environ, if set.
func EffectiveABI(environ []string) int {
	abi := KernelABI()
	for i := len(environ) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(environ[i], ABICapEnv+"="); ok {
			if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n >= 0 && n < abi {
				abi = n
			}
			break
		}
	}
	return abi
}

// CheckMode reports whether mode is one of Modes ("" means Auto).
func CheckMode(mode string) error {
	if mode == "" || slices.Contains(Modes, mode) {
		return nil
	}
	return fmt.Errorf("unknown sandbox mode %q (want %s)", mode, strings.Join(Modes, ", "))
}

// Decision is what a run does about confinement.
type Decision struct {
	Mode      string // the mode asked for
	KernelABI int    // the Landlock ABI the kernel offers (after ABICapEnv)
	Confine   bool   // confine with Landlock
	Blocked   bool   // Landlock is required and cannot be had
	Reason    string // why, in one sentence
}

// Kind is the sandbox the decision gives: KindLandlock or KindNone.
func (d Decision) Kind() string {
	if d.Confine {
		return KindLandlock
	}
	return KindNone
}

// Decide settles mode against the kernel's ABI and whether a shim to
// apply the ruleset is available.
func Decide(mode string, kernelABI int, haveShim bool) Decision {
	if mode == "" {
		mode = Auto
	}
	d := Decision{Mode: mode, KernelABI: kernelABI}
	if mode == None {
		d.Reason = "confinement was turned off (sandbox mode none)"
		return d
	}
	var why string
	switch {
	case kernelABI == 0:
		why = "the kernel does not offer Landlock"
	case kernelABI < RulesetABI:
		why = fmt.Sprintf("the kernel offers Landlock ABI %d, the ruleset needs ABI %d", kernelABI, RulesetABI)
	case !haveShim:
		why = "no sandbox-exec command is configured to apply the ruleset"
	}
	switch {
	case why == "":
		d.Confine = true
		d.Reason = fmt.Sprintf("Landlock ABI %d enforces the ruleset (ABI %d)", kernelABI, RulesetABI)
	case mode == Landlock:
		d.Blocked = true
		d.Reason = "Landlock confinement is required but unavailable: " + why
	default:
		d.Reason = "not confined: " + why
	}
	return d
}

// Policy is what a confined process may write: anything beneath Dirs, and
// the single Files. With ConfineReads it may also read, list and execute
// only beneath Dirs and ReadDirs and the files in Files and ReadFiles.
// Every path must exist and be absolute.
type Policy struct {
	Dirs  []string
	Files []string

	ConfineReads bool
	ReadDirs     []string
	ReadFiles    []string

	// RestrictTCP handles TCP bind and connect (Landlock ABI 4): the
	// process may connect to the ports in ConnectTCP only, and bind none.
	RestrictTCP bool
	ConnectTCP  []uint16
	// Scope confines abstract unix sockets and signals to the process's
	// own Landlock domain (ABI 6): it can neither connect to an abstract
	// socket of a process outside nor signal one.
	Scope bool
	// NoUnixSockets refuses unix sockets with seccomp (see unixsock.go).
	NoUnixSockets bool
	// LoopbackUp brings up the loopback interface first: the process runs
	// in a network namespace of its own, whose loopback starts down.
	LoopbackUp bool
}

// ABIs of the optional parts of a policy.
const (
	NetABI   = 4 // RestrictTCP
	ScopeABI = 6 // Scope
)

// Paths returns the policy's paths, directories first.
func (p Policy) Paths() []string {
	return append(append([]string{}, p.Dirs...), p.Files...)
}

// Check reports a policy path that is relative or missing, or of the
// wrong type.
func (p Policy) Check() error {
	for _, d := range p.Dirs {
		if !filepath.IsAbs(d) {
			return fmt.Errorf("writable directory %q is not absolute", d)
		}
		if info, err := os.Stat(d); err != nil {
			return fmt.Errorf("writable directory: %w", err)
		} else if !info.IsDir() {
			return fmt.Errorf("writable directory %s is not a directory", d)
		}
	}
	for _, f := range p.Files {
		if !filepath.IsAbs(f) {
			return fmt.Errorf("writable file %q is not absolute", f)
		}
		if info, err := os.Stat(f); err != nil {
			return fmt.Errorf("writable file: %w", err)
		} else if info.IsDir() {
			return fmt.Errorf("writable file %s is a directory", f)
		}
	}
	for _, d := range p.ReadDirs {
		if !filepath.IsAbs(d) {
			return fmt.Errorf("readable directory %q is not absolute", d)
		}
		if info, err := os.Stat(d); err != nil {
			return fmt.Errorf("readable directory: %w", err)
		} else if !info.IsDir() {
			return fmt.Errorf("readable directory %s is not a directory", d)
		}
	}
	for _, f := range p.ReadFiles {
		if !filepath.IsAbs(f) {
			return fmt.Errorf("readable file %q is not absolute", f)
		}
		if info, err := os.Stat(f); err != nil {
			return fmt.Errorf("readable file: %w", err)
		} else if info.IsDir() {
			return fmt.Errorf("readable file %s is a directory", f)
		}
	}
	return nil
}

// Restrict confines the calling process, and whatever it executes, to the
// policy. It fails, and restricts nothing, when the kernel cannot enforce
// the exact ruleset.
func Restrict(p Policy) error {
	if err := p.Check(); err != nil {
		return err
	}
	handled := writeAccess
	if p.ConfineReads {
		handled |= readAccess
	}
	args := []any{handled}
	if p.RestrictTCP {
		args = append(args, landlock.AccessNetSet(ll.AccessNetBindTCP|ll.AccessNetConnectTCP))
	}
	if p.Scope {
		args = append(args, landlock.ScopedSet(ll.ScopeAbstractUnixSocket|ll.ScopeSignal))
	}
	cfg, err := landlock.NewConfig(args...)
	if err != nil {
		return err
	}
	rules := []landlock.Rule{landlock.RWDirs(p.Dirs...).WithRefer()}
	if len(p.Files) > 0 {
		rules = append(rules, landlock.RWFiles(p.Files...))
	}
	if p.ConfineReads {
		if len(p.ReadDirs) > 0 {
			rules = append(rules, landlock.RODirs(p.ReadDirs...))
		}
		if len(p.ReadFiles) > 0 {
			rules = append(rules, landlock.ROFiles(p.ReadFiles...))
		}
	}
	for _, port := range p.ConnectTCP {
		rules = append(rules, landlock.ConnectTCP(port))
	}
	return cfg.Restrict(rules...)
}

// Wrap returns the command line that runs argv, whose program resolves to
// prog, under the policy through the shim command.
func Wrap(shim []string, p Policy, prog string, argv []string) []string {
	out := append([]string{}, shim...)
	for _, d := range p.Dirs {
		out = append(out, "--rw", d)
	}
	for _, f := range p.Files {
		out = append(out, "--rw-file", f)
	}
	if p.ConfineReads {
		out = append(out, "--confine-reads")
		for _, d := range p.ReadDirs {
			out = append(out, "--ro", d)
		}
		for _, f := range p.ReadFiles {
			out = append(out, "--ro-file", f)
		}
	}
	if p.RestrictTCP {
		out = append(out, "--restrict-tcp")
		for _, port := range p.ConnectTCP {
			out = append(out, "--connect-tcp", strconv.Itoa(int(port)))
		}
	}
	if p.Scope {
		out = append(out, "--scope")
	}
	if p.NoUnixSockets {
		out = append(out, "--no-unix-sockets")
	}
	if p.LoopbackUp {
		out = append(out, "--loopback-up")
	}
	out = append(out, "--prog", prog, "--")
	return append(out, argv...)
}

// Exit codes of the shim when it cannot hand over to the program: the
// program never runs unconfined.
const (
	ExitUsage       = 125
	ExitRestrict    = 125
	ExitExecFailure = 126
)

// ErrUsage marks a shim command line that cannot be read.
var ErrUsage = errors.New("usage: sandbox-exec [--rw DIR]... [--rw-file FILE]... [--confine-reads [--ro DIR]... [--ro-file FILE]...] [--restrict-tcp [--connect-tcp PORT]...] [--scope] [--no-unix-sockets] [--loopback-up] --prog PATH -- ARGV...")

// ParseArgs reads the shim's arguments (as Wrap writes them, without the
// shim prefix).
func ParseArgs(args []string) (p Policy, prog string, argv []string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			argv = args[i+1:]
			break
		}
		switch a {
		case "--confine-reads":
			p.ConfineReads = true
			continue
		case "--restrict-tcp":
			p.RestrictTCP = true
			continue
		case "--scope":
			p.Scope = true
			continue
		case "--no-unix-sockets":
			p.NoUnixSockets = true
			continue
		case "--loopback-up":
			p.LoopbackUp = true
			continue
		}
		if i+1 >= len(args) {
			return p, "", nil, fmt.Errorf("%w: %s needs a value", ErrUsage, a)
		}
		v := args[i+1]
		i++
		switch a {
		case "--rw":
			p.Dirs = append(p.Dirs, v)
		case "--rw-file":
			p.Files = append(p.Files, v)
		case "--ro":
			p.ReadDirs = append(p.ReadDirs, v)
		case "--ro-file":
			p.ReadFiles = append(p.ReadFiles, v)
		case "--connect-tcp":
			port, err := strconv.ParseUint(v, 10, 16)
			if err != nil || port == 0 {
				return p, "", nil, fmt.Errorf("%w: --connect-tcp %q is not a port", ErrUsage, v)
			}
			p.ConnectTCP = append(p.ConnectTCP, uint16(port))
		case "--prog":
			prog = v
		default:
			return p, "", nil, fmt.Errorf("%w: unknown flag %q", ErrUsage, a)
		}
	}
	if len(argv) == 0 {
		return p, "", nil, fmt.Errorf("%w: no command after --", ErrUsage)
	}
	if len(p.Dirs) == 0 {
		return p, "", nil, fmt.Errorf("%w: no writable directory", ErrUsage)
	}
	if prog == "" {
		prog = argv[0]
	}
	if !filepath.IsAbs(prog) {
		return p, "", nil, fmt.Errorf("%w: --prog %q is not an absolute path", ErrUsage, prog)
	}
	return p, prog, argv, nil
}

// Main is the shim, "sotvet harness sandbox-exec": it restricts itself to
// the policy its arguments give and executes the program in its place,
// with its own environment. It returns only when it could not: the
// program is never started unconfined.
func Main(args []string, stderr io.Writer) int {
	p, prog, argv, err := ParseArgs(args)
	if err != nil {
		fmt.Fprintf(stderr, "sandbox-exec: %v\n", err)
		return ExitUsage
	}
	// The seccomp filter binds the calling thread only: restrict and
	// execute on one thread.
	runtime.LockOSThread()
	if p.LoopbackUp {
		// Not a control: a test that listens on loopback needs it up.
		_ = loopbackUp()
	}
	if err := Restrict(p); err != nil {
		fmt.Fprintf(stderr, "sandbox-exec: landlock: %v\n", err)
		return ExitRestrict
	}
	if p.NoUnixSockets {
		if err := refuseUnixSockets(); err != nil {
			fmt.Fprintf(stderr, "sandbox-exec: seccomp: %v\n", err)
			return ExitRestrict
		}
	}
	err = syscall.Exec(prog, argv, os.Environ())
	fmt.Fprintf(stderr, "sandbox-exec: exec %s: %v\n", prog, err)
	return ExitExecFailure
}
