package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"
)

// sharedRuns makes each distinct `sotvet harness run` that scenarios ask
// for with `sharedrun` once per test process and hands every such scenario
// its own copy of the run directory. A run costs seconds of CPU (a copied
// workspace, git, the case's go test); the scenarios that only read a run
// (verify it, tamper with it, summarise it, check claims against it) do
// not need one of their own. Scenarios whose subject is the run itself
// (gates, stages, approvals, failures, lanes) keep `exec sotvet harness run`.
// In the copy, report.json and the trace name the shared run's directory:
// verify, the summary and the panel read a run wherever it was moved.
//
//	sharedrun [harness run flags] --run-dir DIR
//
// runs like `exec sotvet harness run ...`: same stdout, stderr (with the
// shared run's directory written as DIR) and exit status (use `! sharedrun`
// for a run that fails), and DIR holds a copy of the run. The run ID is
// DIR's base name, so it is part of the key, as are the other flags, the
// sotvet that PATH finds and the environment (with the scenario's $WORK
// written as a placeholder). A flag naming a file under $WORK (a key, a
// repository, a config) or a sotvet.yaml in the working directory makes
// the run the scenario's own: sharedrun refuses it, as it does a relative
// path that exists in the scenario's working directory.
type sharedRuns struct {
	root string // holds one directory per key

	mu         sync.Mutex
	runs       map[string]*sharedRun
	setupNames []string // of the variables Setup sets
}

type sharedRun struct {
	once           sync.Once
	dir            string // the run directory made once
	stdout, stderr []byte
	exit           int
	err            error
}

func newSharedRuns(root string) *sharedRuns {
	return &sharedRuns{root: root, runs: map[string]*sharedRun{}}
}

func (s *sharedRuns) cmd(ts *testscript.TestScript, neg bool, args []string) {
	runDir, flags, err := splitRunDir(args)
	if err != nil {
		ts.Fatalf("sharedrun: %v", err)
	}
	work := ts.Getenv("WORK")
	for _, a := range flags {
		if ownFile(a, work, ts.MkAbs(".")) {
			ts.Fatalf("sharedrun: %q names a file of this scenario: use exec sotvet harness run", a)
		}
	}
	if _, err := os.Stat(ts.MkAbs("sotvet.yaml")); err == nil {
		ts.Fatalf("sharedrun: sotvet.yaml in the working directory shapes the run: use exec sotvet harness run")
	}
	exe, err := lookPathIn("sotvet", ts.Getenv("PATH"))
	if err != nil {
		ts.Fatalf("sharedrun: %v", err)
	}
	dst := ts.MkAbs(runDir)
	env := s.scriptEnviron(ts)
	key := sharedRunKey(exe, flags, filepath.Base(dst), env, work)

	s.mu.Lock()
	r := s.runs[key]
	if r == nil {
		r = &sharedRun{}
		s.runs[key] = r
	}
	s.mu.Unlock()
	made := false
	r.once.Do(func() { made = true; r.make(s.root, key, exe, flags, filepath.Base(dst), env) })
	if r.err != nil {
		ts.Fatalf("sharedrun: %v", r.err)
	}

	if _, err := os.Lstat(dst); err == nil {
		ts.Fatalf("sharedrun: %s exists (a run directory must not)", runDir)
	}
	ts.Check(os.MkdirAll(filepath.Dir(dst), 0o755))
	ts.Check(copyTree(r.dir, dst))
	if made {
		ts.Logf("sharedrun: made %s (key %.16s)", r.dir, key)
	} else {
		ts.Logf("sharedrun: copied %s (key %.16s)", r.dir, key)
	}
	fmt.Fprint(ts.Stdout(), strings.ReplaceAll(string(r.stdout), r.dir, runDir))
	fmt.Fprint(ts.Stderr(), strings.ReplaceAll(string(r.stderr), r.dir, runDir))
	if r.exit != 0 && !neg {
		ts.Fatalf("unexpected sotvet harness run failure (exit %d)", r.exit)
	}
	if r.exit == 0 && neg {
		ts.Fatalf("unexpected sotvet harness run success")
	}
}

// make runs sotvet harness run once, from an empty working directory.
func (r *sharedRun) make(root, key, exe string, flags []string, base string, env []string) {
	dir := filepath.Join(root, key[:16])
	cwd := filepath.Join(dir, "cwd")
	if r.err = os.MkdirAll(cwd, 0o755); r.err != nil {
		return
	}
	r.dir = filepath.Join(dir, base)
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(exe, append(append([]string{"harness", "run"}, flags...), "--run-dir", r.dir)...)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = cwd, env, &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee) && ee.Exited():
		r.exit = ee.ExitCode()
	case err != nil:
		r.err = err
		return
	}
	r.stdout, r.stderr = stdout.Bytes(), stderr.Bytes()
	if _, err := os.Stat(r.dir); err != nil {
		r.err = fmt.Errorf("sotvet harness run made no run directory: %v\n%s", err, stderr.Bytes())
	}
}

// ownFile reports whether the flag argument a names a file of the
// scenario: one under its $WORK, or a relative path that exists from its
// working directory (the shared run starts elsewhere).
func ownFile(a, work, cwd string) bool {
	if _, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(a, "-") {
		a = v
	}
	if strings.Contains(a, work) {
		return true
	}
	if a == "" || strings.HasPrefix(a, "-") || filepath.IsAbs(a) {
		return false
	}
	_, err := os.Lstat(filepath.Join(cwd, a))
	return err == nil
}

// splitRunDir takes --run-dir (required) out of the flags.
func splitRunDir(args []string) (string, []string, error) {
	var dir string
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--run-dir" || a == "-run-dir":
			if i+1 == len(args) {
				return "", nil, errors.New("--run-dir needs a value")
			}
			dir = args[i+1]
			i++
		case strings.HasPrefix(a, "--run-dir=") || strings.HasPrefix(a, "-run-dir="):
			dir = a[strings.Index(a, "=")+1:]
		default:
			rest = append(rest, a)
		}
	}
	if dir == "" {
		return "", nil, errors.New("usage: sharedrun [harness run flags] --run-dir DIR")
	}
	return dir, rest, nil
}

// sharedRunKey names a run by what can change it: the binary, the flags,
// the run ID and the environment with the scenario's own directory (and
// the panel port every scenario gets) taken out.
func sharedRunKey(exe string, flags []string, base string, env []string, work string) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%q\x00%s\x00", exe, flags, base)
	norm := make([]string, 0, len(env))
	for _, kv := range env {
		if strings.HasPrefix(kv, "PANELPORT=") {
			continue
		}
		norm = append(norm, strings.ReplaceAll(kv, work, "$WORK"))
	}
	sort.Strings(norm)
	fmt.Fprintf(h, "%q", norm)
	return hex.EncodeToString(h.Sum(nil))
}

// scriptEnviron is the scenario's environment as exec would pass it.
// testscript does not list it: the names are the process's, those Setup
// set, those the scenario's script sets with env and MOCK (mockprovider).
func (s *sharedRuns) scriptEnviron(ts *testscript.TestScript) []string {
	names := map[string]bool{"MOCK": true}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		names[k] = true
	}
	s.mu.Lock()
	for _, k := range s.setupNames {
		names[k] = true
	}
	s.mu.Unlock()
	name := strings.TrimPrefix(filepath.Base(ts.Getenv("WORK")), "script-")
	if script, err := os.ReadFile(filepath.Join("..", "..", "testdata", "script", name+".txtar")); err == nil {
		for _, m := range envLine.FindAllSubmatch(script, -1) {
			names[string(m[1])] = true
		}
	}
	var env []string
	for k := range names {
		if v := ts.Getenv(k); v != "" {
			env = append(env, k+"="+v)
		}
	}
	sort.Strings(env)
	return env
}

// envLine matches a script's env command setting a variable.
var envLine = regexp.MustCompile(`(?m)^(?:\[[^\]]*\]\s*)*env\s+([A-Za-z_][A-Za-z0-9_]*)=`)

// noteSetup records the names of the variables Setup sets.
func (s *sharedRuns) noteSetup(vars []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.setupNames != nil {
		return
	}
	for _, kv := range vars {
		k, _, _ := strings.Cut(kv, "=")
		s.setupNames = append(s.setupNames, k)
	}
}

func lookPathIn(name, path string) (string, error) {
	for _, d := range filepath.SplitList(path) {
		p := filepath.Join(d, name)
		if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() && info.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s not on PATH", name)
}

// copyTree copies a run directory: directories, regular files with their
// modes, and symbolic links as links.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			return os.MkdirAll(to, info.Mode().Perm()|0o700)
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(target, to)
		case d.Type().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(to, data, info.Mode().Perm())
		}
		return fmt.Errorf("%s: cannot copy a %v", p, d.Type())
	})
}
