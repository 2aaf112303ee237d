package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v4"
)

// actionFile is the part of action.yml a local run needs.
type actionFile struct {
	Inputs map[string]struct {
		Default string
	}
	Runs struct {
		Using string
		Steps []actionStep
	}
}

type actionStep struct {
	ID, Name, Uses, If, Shell, Run string
	Env, With                      map[string]string
}

// actionRun is one run of the action on a runner simulated locally: the
// run steps in bash with the runner's files and variables; setup-go is
// this machine's Go, the cache is a directory that persists between runs,
// and the SARIF upload checks the file it would upload.
type actionRun struct {
	t       *testing.T
	src     string // the action's checkout: this repository
	temp    string // RUNNER_TEMP, kept between runs (the cache)
	inputs  map[string]string
	github  map[string]string            // github.* context values (a pull request's base)
	outputs map[string]map[string]string // step id -> outputs
	log     strings.Builder
	ran     []string // names of the steps that ran
	failed  bool
}

var expr = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

func (r *actionRun) value(e string) string {
	switch {
	case e == "github.action_path":
		return r.src
	case e == "runner.temp":
		return r.temp
	case strings.HasPrefix(e, "inputs."):
		return r.inputs[strings.TrimPrefix(e, "inputs.")]
	case e == "github.base_ref" || e == "github.event.pull_request.base.sha":
		return r.github[e]
	case strings.HasPrefix(e, "steps."):
		parts := strings.Split(e, ".")
		if len(parts) == 4 && parts[2] == "outputs" {
			return r.outputs[parts[1]][parts[3]]
		}
	}
	r.t.Fatalf("action.yml: an expression the local run does not know: %s", e)
	return ""
}

func (r *actionRun) expand(s string) string {
	return expr.ReplaceAllStringFunc(s, func(m string) string { return r.value(expr.FindStringSubmatch(m)[1]) })
}

// cond evaluates the conditions action.yml uses: terms joined by &&, each
// !cancelled() or a comparison of a context value with a quoted string.
// Without a status function the condition implies success().
func (r *actionRun) cond(c string) bool {
	c = strings.TrimSpace(c)
	if m := expr.FindStringSubmatch(c); m != nil && m[0] == c {
		c = m[1]
	}
	if c == "" {
		return !r.failed
	}
	ok := true
	status := false
	for _, term := range strings.Split(c, "&&") {
		term = strings.TrimSpace(term)
		if term == "!cancelled()" {
			status = true
			continue
		}
		m := regexp.MustCompile(`^(\S+) (==|!=) '([^']*)'$`).FindStringSubmatch(term)
		if m == nil {
			r.t.Fatalf("action.yml: a condition the local run does not know: %s", term)
		}
		eq := r.value(m[1]) == m[3]
		ok = ok && eq == (m[2] == "==")
	}
	if !status && r.failed {
		return false
	}
	return ok
}

func (r *actionRun) run(a *actionFile, ws string) {
	t := r.t
	for i, st := range a.Runs.Steps {
		name := st.Name
		if name == "" {
			name = st.ID + st.Uses
		}
		if !r.cond(st.If) {
			continue
		}
		r.ran = append(r.ran, name)
		outputs := map[string]string{}
		switch {
		case strings.HasPrefix(st.Uses, "actions/setup-go@"):
			if _, err := exec.LookPath("go"); err != nil {
				t.Fatal("no go on PATH")
			}
			if gv := r.expand(st.With["go-version-file"]); !fileExists(gv) {
				t.Errorf("setup-go: go-version-file %s does not exist", gv)
			}
		case strings.HasPrefix(st.Uses, "actions/cache@"):
			p := r.expand(st.With["path"])
			if r.expand(st.With["key"]) == "" || p == "" {
				t.Errorf("cache: empty key or path")
			}
			outputs["cache-hit"] = map[bool]string{true: "true", false: "false"}[fileExists(filepath.Join(p, "sotvet"))]
		case strings.HasPrefix(st.Uses, "github/codeql-action/upload-sarif@"):
			b, err := os.ReadFile(r.expand(st.With["sarif_file"]))
			var sarif struct{ Version string }
			if err != nil || json.Unmarshal(b, &sarif) != nil || sarif.Version != "2.1.0" {
				t.Errorf("upload-sarif: %s is not a SARIF 2.1.0 file: %v", st.With["sarif_file"], err)
			}
			if st.With["category"] == "" {
				t.Errorf("upload-sarif without a category: two uploads would replace each other")
			}
		case st.Uses != "":
			t.Fatalf("action.yml step %d uses %s, which the local run does not simulate", i, st.Uses)
		default:
			if st.Shell != "bash" {
				t.Fatalf("action.yml step %s: shell %q, want bash (composite steps must name one)", name, st.Shell)
			}
			outFile := filepath.Join(r.temp, "github_output")
			os.WriteFile(outFile, nil, 0o644)
			cmd := exec.Command("bash", "--noprofile", "--norc", "-e", "-o", "pipefail", "-c", st.Run)
			cmd.Dir = ws
			cmd.Env = append(os.Environ(), "RUNNER_TEMP="+r.temp, "RUNNER_OS=Linux", "RUNNER_ARCH=X64",
				"GITHUB_OUTPUT="+outFile, "GITHUB_PATH="+filepath.Join(r.temp, "github_path"),
				"GITHUB_ACTION_PATH="+r.src, "GITHUB_WORKSPACE="+ws)
			for k, v := range st.Env {
				cmd.Env = append(cmd.Env, k+"="+r.expand(v))
			}
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			err := cmd.Run()
			r.log.WriteString("== " + name + "\n" + out.String())
			if err != nil {
				r.failed = true
			}
			b, _ := os.ReadFile(outFile)
			for _, line := range strings.Split(string(b), "\n") {
				if k, v, ok := strings.Cut(line, "="); ok {
					outputs[k] = v
				}
			}
		}
		if st.ID != "" {
			r.outputs[st.ID] = outputs
		}
	}
}

// TestAction runs action.yml's steps locally against copies of the sample
// workspace: clean (the job passes, both SARIF files are uploaded), with a
// finding and a credential (annotations, and the job fails after every
// step ran, reusing the cached binary), and with a baseline of those
// findings (the check passes).
func TestAction(t *testing.T) {
	endToEnd(t, "builds sotvet as the action does")
	t.Parallel()
	// Their build steps then link only, instead of compiling at once.
	warmBuildCache(t)
	src, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(src, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var a actionFile
	if err := yaml.Load(b, &a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	if a.Runs.Using != "composite" {
		t.Fatalf("action.yml runs using %q, want composite", a.Runs.Using)
	}
	for _, in := range []string{"directory", "format", "fail-on", "baseline", "version"} {
		if _, ok := a.Inputs[in]; !ok {
			t.Errorf("action.yml has no input %s", in)
		}
	}
	temp := t.TempDir()
	newRun := func(set map[string]string) *actionRun {
		r := &actionRun{t: t, src: src, temp: temp, inputs: map[string]string{}, outputs: map[string]map[string]string{}}
		for k, v := range a.Inputs {
			r.inputs[k] = v.Default
		}
		for k, v := range set {
			r.inputs[k] = v
		}
		return r
	}

	clean := newRun(nil)
	clean.run(&a, sampleCopy(t, false))
	if clean.failed || !strings.Contains(clean.log.String(), "sotvet: no findings at or above the fail-on severity") {
		t.Fatalf("clean sample: the job failed or gave no verdict:\n%s", clean.log.String())
	}
	if !contains(clean.ran, "Build sotvet") {
		t.Errorf("the first run did not build sotvet: ran %v", clean.ran)
	}
	uploads := 0
	for _, s := range clean.ran {
		if strings.Contains(s, "upload-sarif") {
			uploads++
		}
	}
	if uploads != 2 {
		t.Errorf("the clean run uploaded %d SARIF files, want 2 (check and scan): ran %v", uploads, clean.ran)
	}

	ws := sampleCopy(t, true)
	broken := newRun(nil)
	broken.run(&a, ws)
	log := broken.log.String()
	if !broken.failed || !contains(broken.ran, "Verdict") {
		t.Fatalf("a workspace with findings: the job should fail at the verdict, after every step:\nran %v\n%s", broken.ran, log)
	}
	if contains(broken.ran, "Build sotvet") {
		t.Errorf("the second run built sotvet again instead of using the cache")
	}
	for _, want := range []string{"::error file=WORKBOARD.yaml", "::error file=notes.txt", "check exit 1, scan exit 1"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	if strings.Contains(log, "xY7kQ2mR9vB4nL6tW1cZ") {
		t.Errorf("the log carries the credential in clear")
	}

	// A baseline of those findings: the check passes, the scan (off) too.
	bin := filepath.Join(temp, "sotvet-bin", "sotvet")
	if out, err := exec.Command(bin, "check", "--write-baseline", filepath.Join(ws, "base.json"), ws).CombinedOutput(); err != nil {
		t.Fatalf("write-baseline: %v\n%s", err, out)
	}
	based := newRun(map[string]string{"baseline": "base.json", "scan": "false", "upload-sarif": "false"})
	based.run(&a, ws)
	if based.failed {
		t.Errorf("with a baseline of every finding and no scan, the job failed:\n%s", based.log.String())
	}

	// A directory input that starts with "-" is a directory, not an option
	// (it used to be read as --disable=workboard, and the job passed).
	dash := newRun(map[string]string{"directory": "--disable=workboard", "scan": "false", "upload-sarif": "false"})
	dash.run(&a, ws)
	if !dash.failed || !strings.Contains(dash.log.String(), "sotvet check could not run") {
		t.Errorf("directory --disable=workboard: the job should fail, unable to run:\n%s", dash.log.String())
	}

	// A pull request: the base holds a legacy finding (CTO-WORK-900's
	// status); the pull request adds a line with a new one. Only the new
	// one is annotated and fails the job; the others are counted.
	pr := sampleCopy(t, false)
	board := "items:\n  - {id: CTO-WORK-900, title: X, status: open, source: CONTEXT.md}\n"
	os.WriteFile(filepath.Join(pr, "WORKBOARD.yaml"), []byte(board), 0o644)
	git := func(args ...string) string {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		cmd.Dir = pr
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	baseSHA := git("rev-parse", "HEAD")
	os.WriteFile(filepath.Join(pr, "WORKBOARD.yaml"), []byte(board+"  - {id: CTO-WORK-901, title: Y, status: open, source: CONTEXT.md}\n"), 0o644)
	git("commit", "-q", "-am", "the pull request")
	for _, c := range []struct {
		scope       string
		annotations []string // findings annotated
		notice      string
	}{
		{"lines", []string{"CTO-WORK-901"}, "1 findings on the lines this pull request changes; 8 more elsewhere in ."},
		{"files", []string{"CTO-WORK-900", "CTO-WORK-901"}, "3 findings on the files this pull request changes; 6 more elsewhere in ."},
		{"all", []string{"CTO-WORK-900", "CTO-WORK-901", "CTO-WORK-101"}, ""},
	} {
		run := newRun(map[string]string{"scan": "false", "upload-sarif": "false", "pr-scope": c.scope})
		run.github = map[string]string{"github.event.pull_request.base.sha": baseSHA, "github.base_ref": "main"}
		run.run(&a, pr)
		log := run.log.String()
		if !run.failed {
			t.Errorf("pr-scope %s: a new finding on a changed line did not fail the job:\n%s", c.scope, log)
		}
		var annotated []string
		for _, l := range strings.Split(log, "\n") {
			if strings.HasPrefix(l, "::error file=") {
				for _, id := range []string{"CTO-WORK-900", "CTO-WORK-901", "CTO-WORK-101"} {
					if strings.Contains(l, id) && !contains(annotated, id) {
						annotated = append(annotated, id)
					}
				}
			}
		}
		sort.Strings(annotated)
		sort.Strings(c.annotations)
		if strings.Join(annotated, " ") != strings.Join(c.annotations, " ") {
			t.Errorf("pr-scope %s: annotated %v, want %v:\n%s", c.scope, annotated, c.annotations, log)
		}
		if c.notice != "" && !strings.Contains(log, c.notice) {
			t.Errorf("pr-scope %s: the log does not say %q:\n%s", c.scope, c.notice, log)
		}
	}
}

// TestActionActionlint lints action.yml's steps with actionlint: actionlint
// reads an action's inputs but not a composite action's steps, so the
// steps are put in a workflow whose workflow_dispatch inputs are the
// action's (expressions, contexts, step outputs, the pinned actions'
// inputs; shell scripts too where shellcheck is installed).
func TestActionActionlint(t *testing.T) {
	t.Parallel()
	tool, err := exec.LookPath("actionlint")
	if err != nil {
		if os.Getenv("CI") == "" {
			t.Skip("actionlint is not on PATH (scripts/ci/tools.sh installs it); CI runs this")
		}
		t.Fatal("actionlint is not on PATH under CI: scripts/ci/tools.sh installs it")
	}
	b, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Inputs map[string]struct {
			Description string
			Default     string
		}
		Runs struct{ Steps []any }
	}
	if err := yaml.Load(b, &action); err != nil {
		t.Fatal(err)
	}
	inputs := map[string]any{}
	for k, in := range action.Inputs {
		inputs[k] = map[string]any{"description": in.Description, "type": "string", "default": in.Default}
	}
	wf := map[string]any{
		"name": "action",
		"on":   map[string]any{"workflow_dispatch": map[string]any{"inputs": inputs}},
		"jobs": map[string]any{"action": map[string]any{"runs-on": "ubuntu-latest", "steps": action.Runs.Steps}},
	}
	out, err := yaml.Dump(wf)
	if err != nil {
		t.Fatal(err)
	}
	// github.action_path is an action's context; in a workflow, the
	// workspace stands in for it.
	out = bytes.ReplaceAll(out, []byte("github.action_path"), []byte("github.workspace"))
	repo := t.TempDir()
	p := filepath.Join(repo, ".github", "workflows", "action.yml")
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, out, 0o644); err != nil {
		t.Fatal(err)
	}
	exec.Command("git", "init", "-q", repo).Run()
	cmd := exec.Command(tool, "-no-color", p)
	cmd.Dir = repo
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("actionlint over action.yml's steps: %v\n%s", err, msg)
	}
	// Third-party actions are pinned by commit.
	for _, m := range regexp.MustCompile(`uses: (\S+)`).FindAllSubmatch(b, -1) {
		if !regexp.MustCompile(`@[0-9a-f]{40}$`).Match(m[1]) {
			t.Errorf("action.yml: %s is not pinned by commit", m[1])
		}
	}
}
