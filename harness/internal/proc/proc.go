// Package proc runs a command in its own process group with a timeout, and
// makes sure that when it returns no process of that group is left: on
// timeout, and after a normal exit, the whole group is killed before the
// leader is reaped, so that the group id cannot be reused in between.
package proc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// DefaultMaxOutput caps each captured stream.
const DefaultMaxOutput = 4 << 20

// Spec is one command to run.
type Spec struct {
	Argv    []string
	Dir     string
	Env     []string // the complete environment; nothing is inherited
	Timeout time.Duration
	// MaxOutput caps each of stdout and stderr; 0 means DefaultMaxOutput.
	MaxOutput int
	// Prepare, when set, may adjust the command before it starts.
	Prepare func(*exec.Cmd) error
	// Contain puts the process in its own cgroup v2 where one can be made
	// (killed whole with cgroup.kill), and otherwise marks its environment
	// so that descendants in other sessions are swept after the group is
	// killed. Agent CLIs start their tools in new sessions.
	Contain bool
	// Isolate runs the process in its own user and PID namespaces where
	// the kernel allows (see isolate.go); Result.Namespaces says whether
	// it did.
	Isolate bool
	// NoNetwork, with Isolate, gives the process a network namespace of
	// its own (loopback only): for what needs no network at all.
	NoNetwork bool
	// OwnLoopback says the command brings that namespace's loopback up
	// itself (the Landlock shim with Policy.LoopbackUp): the namespace's
	// init then does not run ip(8) for it, one process fewer.
	OwnLoopback bool
	// Grace is how long a contained process without a cgroup is given
	// between SIGTERM and SIGKILL on timeout (default 2s).
	Grace time.Duration
}

// Result is what happened.
type Result struct {
	Started   bool
	StartErr  error // why it did not start; wraps exec.ErrNotFound for a missing program
	Pid       int
	ExitCode  int // -1 when ended by a signal or not started
	Signal    string
	TimedOut  bool
	Stdout    []byte
	Stderr    []byte
	Truncated bool
	Duration  time.Duration
	// Survivors are processes of the group still alive half a second
	// after the final kill. Always empty unless something resists SIGKILL.
	Survivors []int
	// Lingering are the processes still alive when the command itself
	// ended (before the harness killed them): what it left running.
	// Empty after a timeout, when everything is killed anyway.
	Lingering []int
	// Containment is how the process tree was contained: ContainCgroup,
	// ContainGroup, or "" (the process group only).
	Containment string
	// Namespaces is Namespaces when the process ran in its own user and
	// PID namespaces, "" otherwise.
	Namespaces string
}

// LookPath finds an executable the way a shell with PATH set to pathEnv
// would, without consulting the harness's own PATH.
func LookPath(name, pathEnv string) (string, error) {
	if strings.Contains(name, "/") {
		if isExec(name) {
			return name, nil
		}
		return "", &exec.Error{Name: name, Err: exec.ErrNotFound}
	}
	for _, dir := range filepath.SplitList(pathEnv) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue
		}
		p := filepath.Join(dir, name)
		if isExec(p) {
			return p, nil
		}
	}
	return "", &exec.Error{Name: name, Err: exec.ErrNotFound}
}

func isExec(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.Mode().IsRegular() && info.Mode()&0o111 != 0
}

// EnvValue returns the value of key in env.
func EnvValue(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], key+"="); ok {
			return v
		}
	}
	return ""
}

// Run runs spec. Cancelling ctx ends the run like a timeout.
func Run(ctx context.Context, spec Spec) Result {
	res := Result{ExitCode: -1}
	if len(spec.Argv) == 0 {
		res.StartErr = errors.New("empty command")
		return res
	}
	prog, err := LookPath(spec.Argv[0], EnvValue(spec.Env, "PATH"))
	if err != nil {
		res.StartErr = err
		return res
	}
	max := spec.MaxOutput
	if max <= 0 {
		max = DefaultMaxOutput
	}
	stdout, stderr := &capBuf{max: max}, &capBuf{max: max}
	var hs handshake
	defer hs.close()
	var cg string
	var cgFile *os.File
	var marker string
	if spec.Contain {
		marker = fmt.Sprintf("%d-%d-%d", os.Getpid(), cgroupSeq.Add(1), time.Now().UnixNano())
		res.Containment = ContainGroup
		if dir, f, err := newCgroup(); err == nil {
			defer f.Close()
			cg, cgFile = dir, f
			res.Containment = ContainCgroup
		}
	}
	build := func() (*exec.Cmd, error) {
		cmd := &exec.Cmd{
			Path: prog,
			Args: spec.Argv,
			Dir:  spec.Dir,
			Env:  append([]string{}, spec.Env...),
			// No stdin (nil reads /dev/null), output through pipes:
			// never a terminal of the harness's.
			Stdout: stdout,
			Stderr: stderr,
			// A session of its own, with no controlling terminal: it
			// cannot open /dev/tty nor push input into the terminal the
			// harness was started from (TIOCSTI). Its pid is its session
			// and process group id.
			SysProcAttr: &syscall.SysProcAttr{Setsid: true},
			// Should a process escape the group and hold a pipe open, do
			// not wait for it forever.
			WaitDelay: 2 * time.Second,
		}
		if marker != "" {
			cmd.Env = append(cmd.Env, MarkerVar+"="+marker)
		}
		if cg != "" {
			cmd.SysProcAttr.UseCgroupFD = true
			cmd.SysProcAttr.CgroupFD = int(cgFile.Fd())
		}
		hs.close()
		if spec.Isolate && !isolationRefused.Load() {
			if init, ok := nsInit(prog, spec.Argv, spec.NoNetwork && !spec.OwnLoopback); ok {
				if err := hs.open(); err != nil {
					return nil, err
				}
				cmd.Path, cmd.Args = init[0], init
				cmd.ExtraFiles = []*os.File{hs.doneW, hs.relR}
				isolate(cmd.SysProcAttr, spec.NoNetwork)
				res.Namespaces = Namespaces
				if spec.NoNetwork {
					res.Namespaces = NetNamespaces
				}
			}
		}
		if spec.Prepare != nil {
			if err := spec.Prepare(cmd); err != nil {
				return nil, err
			}
		}
		return cmd, nil
	}
	cmd, err := build()
	if err != nil {
		res.StartErr = err
		return res
	}
	becomeSubreaper()
	closeInheritedFDs()
	start := time.Now()
	leadersMu.Lock()
	err = cmd.Start()
	if err != nil && spec.Isolate && res.Namespaces != "" && !errors.Is(err, exec.ErrNotFound) {
		// The kernel refused new namespaces (unprivileged user
		// namespaces disabled, a seccomp filter): run without them.
		res.Namespaces = ""
		isolationRefused.Store(true)
		spec.Isolate = false
		if cmd, err = build(); err == nil {
			err = cmd.Start()
		}
	}
	if err != nil && cg != "" && !errors.Is(err, exec.ErrNotFound) {
		// The kernel refused to start it in the new cgroup (a hierarchy
		// that cannot take it): contain it by group and marker instead.
		os.Remove(cg)
		cg = ""
		res.Containment = ContainGroup
		if cmd, err = build(); err == nil {
			err = cmd.Start()
		}
	}
	if err != nil {
		leadersMu.Unlock()
		if cg != "" {
			os.Remove(cg)
		}
		res.StartErr = err
		return res
	}
	res.Started = true
	res.Pid = cmd.Process.Pid
	addLeader(res.Pid)
	leadersMu.Unlock()
	defer removeLeader(res.Pid)
	since := startTime(res.Pid)
	pgid := res.Pid
	if res.Namespaces != "" {
		res.Containment += "+" + res.Namespaces
	}

	// Wait for the leader to exit without reaping it: while it is a
	// zombie its pid, and so the group id, cannot be reused.
	exited := make(chan struct{}) // closed once the leader has exited
	go func() {
		var info unix.Siginfo
		for {
			err := unix.Waitid(unix.P_PID, pgid, &info, unix.WEXITED|unix.WNOWAIT, nil)
			if !errors.Is(err, unix.EINTR) {
				break
			}
		}
		close(exited)
	}()
	var timer <-chan time.Time
	if spec.Timeout > 0 {
		t := time.NewTimer(spec.Timeout)
		defer t.Stop()
		timer = t.C
	}
	stop := func() {
		switch {
		case cg != "":
			_ = os.WriteFile(cg+"/cgroup.kill", []byte("1"), 0)
		case spec.Contain:
			grace := spec.Grace
			if grace <= 0 {
				grace = 2 * time.Second
			}
			terminateGroup(pgid, grace, exited)
		default:
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
		}
		<-exited
	}
	// An isolated command's init says when the command has ended, and
	// waits to be let go: what is still alive in its namespace then was
	// left behind.
	ended := hs.started()
	select {
	case <-ended:
		res.Lingering = settledMembers(pgid)
		hs.release()
		select {
		case <-exited:
		case <-timer:
			res.TimedOut = true
			stop()
		case <-ctx.Done():
			res.TimedOut = true
			stop()
		}
	case <-exited:
		if res.Namespaces == "" {
			res.Lingering = lingering(pgid, cg, marker, since)
		}
	case <-timer:
		res.TimedOut = true
		stop()
	case <-ctx.Done():
		res.TimedOut = true
		stop()
	}
	// The leader is a zombie; end whatever else is in its group, and, when
	// contained, in its cgroup or carrying its marker.
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	if cg != "" {
		_ = os.WriteFile(cg+"/cgroup.kill", []byte("1"), 0)
	}
	var swept []int
	if marker != "" && cg == "" {
		// Before Wait: an escaped child holding the output pipes would
		// otherwise be waited for, and could write meanwhile.
		swept = sweepMarked(marker)
	}
	// Likewise for descendants re-parented here (the subreaper).
	swept = append(swept, sweepOrphans(since)...)
	werr := cmd.Wait()
	res.Duration = time.Since(start)
	res.Survivors = reapGroup(pgid)
	res.Survivors = append(res.Survivors, sweepOrphans(since)...)
	if cg != "" {
		res.Survivors = append(res.Survivors, killCgroup(cg)...)
	}
	if marker != "" {
		res.Survivors = append(res.Survivors, swept...)
		res.Survivors = append(res.Survivors, sweepMarked(marker)...)
	}
	res.Stdout, res.Stderr = stdout.Bytes(), stderr.Bytes()
	res.Truncated = stdout.truncated || stderr.truncated
	if ps := cmd.ProcessState; ps != nil {
		if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			res.Signal = ws.Signal().String()
		} else {
			res.ExitCode = ps.ExitCode()
		}
	} else if werr != nil {
		res.StartErr = werr
	}
	return res
}

// reapGroup makes sure no process of group pgid is left: it kills the
// group until /proc shows none alive (a killed process may take a moment to
// die) and returns the processes still alive after half a second, which
// should never happen.
func reapGroup(pgid int) []int {
	var pids []int
	for attempt := 0; attempt < 50; attempt++ {
		if pids = GroupMembers(pgid); len(pids) == 0 {
			return nil
		}
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		time.Sleep(10 * time.Millisecond)
	}
	return pids
}

// GroupMembers lists live (non-zombie) processes whose process group is
// pgid, from /proc.
func GroupMembers(pgid int) []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...; comm may hold spaces and parens.
		i := bytes.LastIndexByte(data, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(data[i+1:]))
		if len(f) < 3 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		if g, err := strconv.Atoi(f[2]); err == nil && g == pgid {
			out = append(out, pid)
		}
	}
	return out
}

// capBuf keeps the first max bytes written to it.
type capBuf struct {
	buf       bytes.Buffer
	max       int
	truncated bool
}

func (c *capBuf) Write(p []byte) (int, error) {
	room := c.max - c.buf.Len()
	if room < len(p) {
		c.truncated = true
		if room > 0 {
			c.buf.Write(p[:room])
		}
		return len(p), nil
	}
	c.buf.Write(p)
	return len(p), nil
}

func (c *capBuf) Bytes() []byte {
	b := c.buf.Bytes()
	if c.truncated {
		b = append(b, []byte(fmt.Sprintf("\n[output truncated at %d bytes]\n", c.max))...)
	}
	return b
}

// closeInheritedFDs marks every descriptor above stderr close-on-exec.
// Go opens its own files close-on-exec, but descriptors the harness
// inherited from whoever started it (a shell's terminal, a socket) are
// not, and exec would pass them on to the backend.
func closeInheritedFDs() {
	if err := unix.CloseRange(3, ^uint(0), unix.CLOSE_RANGE_CLOEXEC); err == nil {
		return
	}
	// Kernels before 5.11: one by one.
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return
	}
	for _, e := range ents {
		if fd, err := strconv.Atoi(e.Name()); err == nil && fd > 2 {
			unix.CloseOnExec(fd)
		}
	}
}

// handshake is the pair of pipes between the harness and an isolated
// command's init: init writes "done" on fd 3 once the command has ended,
// and exits when fd 4 is closed.
type handshake struct {
	doneR, doneW, relR, relW *os.File
}

func (h *handshake) open() error {
	var err error
	if h.doneR, h.doneW, err = os.Pipe(); err != nil {
		return err
	}
	if h.relR, h.relW, err = os.Pipe(); err != nil {
		h.close()
		return err
	}
	return nil
}

// started closes the child's ends and returns a channel closed when init
// reports the command ended (nil when there is no handshake).
func (h *handshake) started() <-chan struct{} {
	if h.doneR == nil {
		return nil
	}
	h.doneW.Close()
	h.relR.Close()
	h.doneW, h.relR = nil, nil
	ch := make(chan struct{})
	go func(r *os.File) {
		buf := make([]byte, 8)
		if n, _ := r.Read(buf); n > 0 {
			close(ch)
		}
	}(h.doneR)
	return ch
}

// release lets init exit.
func (h *handshake) release() {
	if h.relW != nil {
		h.relW.Close()
		h.relW = nil
	}
}

func (h *handshake) close() {
	for _, f := range []**os.File{&h.doneR, &h.doneW, &h.relR, &h.relW} {
		if *f != nil {
			(*f).Close()
			*f = nil
		}
	}
}

// lingering lists what a command that was not isolated left alive when
// it ended: the rest of its process group, its cgroup, the processes
// that carry its marker and those re-parented to the harness.
func lingering(pgid int, cg, marker string, since uint64) []int {
	seen := map[int]bool{pgid: true}
	var out []int
	add := func(pids []int) {
		for _, p := range pids {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	add(GroupMembers(pgid))
	if cg != "" {
		add(cgroupProcs(cg))
	}
	if marker != "" {
		add(MarkedProcesses(marker))
	}
	if subreaperOK {
		leadersMu.Lock()
		add(orphans(since))
		leadersMu.Unlock()
	}
	slices.Sort(out)
	return out
}
