package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v4"
)

// ciExamples are the two CI configurations of docs/ci.md.
type ciExamples struct {
	github struct {
		Jobs map[string]struct {
			Steps []struct {
				Name, Uses, Run, If string
				With                map[string]string
			}
		}
	}
	gitlab map[string]struct {
		Script []string
	}
}

func readCIExamples(t *testing.T) ciExamples {
	t.Helper()
	doc, err := os.ReadFile("../../docs/ci.md")
	if err != nil {
		t.Fatal(err)
	}
	// The first block uses the action (TestAction checks it); the two
	// examples that run sotvet themselves follow.
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllSubmatch(doc, -1)
	for len(blocks) > 0 && bytes.Contains(blocks[0][1], []byte("uses: svrnty/sotvet@")) {
		blocks = blocks[1:]
	}
	if len(blocks) < 2 {
		t.Fatalf("docs/ci.md has %d yaml blocks after the action's, want the GitHub and the GitLab example", len(blocks))
	}
	var ex ciExamples
	if err := yaml.Load(blocks[0][1], &ex.github); err != nil {
		t.Fatalf("docs/ci.md: GitHub example: %v", err)
	}
	if err := yaml.Load(blocks[1][1], &ex.gitlab); err != nil {
		t.Fatalf("docs/ci.md: GitLab example: %v", err)
	}
	return ex
}

// TestCIExamples runs the CI examples of docs/ci.md as their runners would,
// against a copy of the sample workspace: the GitHub steps one shell each
// (the sotvet checkout is this module), the GitLab script in one shell.
// Each must build sotvet from its source, pass on the clean sample, and,
// on a workspace with a finding, still run the secrets scan before failing.
func TestCIExamples(t *testing.T) {
	endToEnd(t, "builds sotvet as the CI examples do")
	t.Parallel()
	// Their build steps then link only, instead of compiling at once.
	warmBuildCache(t)
	src, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	ex := readCIExamples(t)
	// The clean runs build sotvet as the examples do; the runs with findings
	// reuse what they built (linking twice more costs seconds, tests nothing).
	bin := t.TempDir()
	t.Run("github/clean", func(t *testing.T) { runGitHubExample(t, ex, src, false, bin) })
	t.Run("gitlab/clean", func(t *testing.T) { runGitLabExample(t, ex, src, false, "") })
	t.Run("github/finding", func(t *testing.T) { runGitHubExample(t, ex, src, true, bin) })
	t.Run("gitlab/finding", func(t *testing.T) { runGitLabExample(t, ex, src, true, filepath.Join(bin, "bin", "sotvet")) })
}

// sampleCopy copies the sample workspace into a fresh directory, with a
// finding in it when broken.
func sampleCopy(t *testing.T, broken bool) string {
	t.Helper()
	ws := t.TempDir()
	if out, err := exec.Command("cp", "-R", "../../testdata/workspace/.", ws).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v\n%s", err, out)
	}
	if broken {
		// A work item status outside the vocabulary, and a credential.
		bad := "items:\n  - {id: CTO-WORK-900, title: X, status: open, source: CONTEXT.md}\n"
		if err := os.WriteFile(filepath.Join(ws, "WORKBOARD.yaml"), []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		tok := "token = " + "gl" + "pat-" + "xY7kQ2mR9vB4nL6tW1cZ\n"
		if err := os.WriteFile(filepath.Join(ws, "notes.txt"), []byte(tok), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return ws
}

func shell(t *testing.T, dir, script string, env []string) (string, error) {
	t.Helper()
	cmd := exec.Command("bash", "-e", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// runGitHubExample runs the GitHub job with RUNNER_TEMP=runnerTemp: a run
// after the first finds sotvet built there and builds nothing.
func runGitHubExample(t *testing.T, ex ciExamples, src string, broken bool, runnerTemp string) {
	ws := sampleCopy(t, broken)
	tmp := runnerTemp
	reuse := fileExists(filepath.Join(tmp, "bin", "sotvet"))
	ghPath := filepath.Join(tmp, "github_path")
	os.WriteFile(ghPath, nil, 0o644)
	job, ok := ex.github.Jobs["vet"]
	if !ok {
		t.Fatal("GitHub example: no job vet")
	}
	failed, ranScan, built := false, false, false
	for _, st := range job.Steps {
		if st.Uses == "actions/checkout@v4" && st.With["repository"] == "svrnty/sotvet" {
			// The checkout of sotvet: this module.
			if err := os.Symlink(src, filepath.Join(ws, st.With["path"])); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if st.Run == "" {
			continue
		}
		if failed && !strings.Contains(st.If, "always()") && !strings.Contains(st.If, "!cancelled()") {
			continue // GitHub skips it after a failure
		}
		var path []string
		b, _ := os.ReadFile(ghPath)
		for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if l != "" {
				path = append(path, l)
			}
		}
		env := []string{"RUNNER_TEMP=" + tmp, "GITHUB_PATH=" + ghPath,
			"PATH=" + strings.Join(append(path, os.Getenv("PATH")), string(os.PathListSeparator))}
		run := st.Run
		if reuse && strings.Contains(run, " build ") {
			run = regexp.MustCompile(`(?m)^go -C .* build .*$`).ReplaceAllString(run, "true")
		}
		out, err := shell(t, ws, run, env)
		if strings.Contains(st.Run, " build ") {
			built = true
			if err != nil {
				t.Fatalf("%s: %v\n%s", st.Name, err, out)
			}
		}
		if strings.HasPrefix(st.Run, "sotvet scan") {
			ranScan = true
			if broken && !strings.Contains(out, "gitlab-pat") {
				t.Errorf("%s: the credential was not reported:\n%s", st.Name, out)
			}
		}
		if err != nil {
			failed = true
			if !broken {
				t.Errorf("%s: %v\n%s", st.Name, err, out)
			}
		}
	}
	if !built {
		t.Error("GitHub example: no step builds sotvet")
	}
	if !ranScan {
		t.Error("GitHub example: the secrets scan did not run")
	}
	if broken != failed {
		t.Errorf("GitHub example: job failed = %v on a workspace with findings = %v", failed, broken)
	}
	if b, err := os.ReadFile(filepath.Join(ws, "sotvet.sarif")); err != nil || len(b) == 0 {
		t.Errorf("sotvet.sarif was not written: %v", err)
	}
}

// runGitLabExample runs the GitLab script; with prebuilt set, its build line
// copies that binary instead.
func runGitLabExample(t *testing.T, ex ciExamples, src string, broken bool, prebuilt string) {
	ws := sampleCopy(t, broken)
	tmp := t.TempDir()
	job, ok := ex.gitlab["sotvet"]
	if !ok || len(job.Script) == 0 {
		t.Fatal("GitLab example: no sotvet job with a script")
	}
	// The clone of sotvet is this module; the binary goes to a temporary bin.
	script := strings.Join(job.Script, "\n")
	clone := regexp.MustCompile(`(?m)^git clone .*https://github.com/svrnty/sotvet.git (\S+)$`)
	if !clone.MatchString(script) {
		t.Fatal("GitLab example: no git clone of sotvet")
	}
	script = clone.ReplaceAllString(script, "ln -s "+src+" $1")
	if prebuilt != "" && fileExists(prebuilt) {
		script = regexp.MustCompile(`(?m)^go -C \S+ build -o (\S+) \./cmd/sotvet$`).ReplaceAllString(script, "cp "+prebuilt+" $1")
	}
	script = strings.ReplaceAll(script, "/tmp/sotvet-src", filepath.Join(tmp, "sotvet-src"))
	script = strings.ReplaceAll(script, "/usr/local/bin/", tmp+"/")
	out, err := shell(t, ws, script, []string{"PATH=" + tmp + string(os.PathListSeparator) + os.Getenv("PATH")})
	if broken != (err != nil) {
		t.Errorf("GitLab example: error %v on a workspace with findings = %v\n%s", err, broken, out)
	}
	if broken && !strings.Contains(out, "gitlab-pat") {
		t.Errorf("GitLab example: the secrets scan did not run after check failed:\n%s", out)
	}
	if b, err := os.ReadFile(filepath.Join(ws, "sotvet-junit.xml")); err != nil || len(b) == 0 {
		t.Errorf("sotvet-junit.xml was not written: %v", err)
	}
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// TestCIExamplesActionlint runs actionlint over the GitHub Actions example of
// docs/ci.md (expressions, step conditions, action inputs). scripts/ci/tools.sh
// installs it; elsewhere the test skips unless CI is set.
func TestCIExamplesActionlint(t *testing.T) {
	t.Parallel()
	tool, err := exec.LookPath("actionlint")
	if err != nil {
		if os.Getenv("CI") == "" {
			t.Skip("actionlint is not on PATH (scripts/ci/tools.sh installs it); CI runs this")
		}
		t.Fatal("actionlint is not on PATH under CI: scripts/ci/tools.sh installs it")
	}
	doc, err := os.ReadFile("../../docs/ci.md")
	if err != nil {
		t.Fatal(err)
	}
	// Both GitHub workflows: the one that uses the action and the step by
	// step one. The action's is linted in a repository holding action.yml,
	// used as a local action, so that its inputs are checked against it.
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllSubmatch(doc, -1)
	if len(blocks) < 2 {
		t.Fatal("docs/ci.md has fewer than two yaml blocks")
	}
	action, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range blocks[:2] {
		repo := t.TempDir()
		wf := filepath.Join(repo, ".github", "workflows", "sotvet.yml")
		if err := os.MkdirAll(filepath.Dir(wf), 0o755); err != nil {
			t.Fatal(err)
		}
		local := regexp.MustCompile(`uses: svrnty/sotvet@\S+`).ReplaceAll(b[1], []byte("uses: ./"))
		if i == 0 && bytes.Equal(local, b[1]) {
			t.Fatal("docs/ci.md: the first yaml block does not use svrnty/sotvet")
		}
		if err := os.WriteFile(wf, local, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(repo, "action.yml"), action, 0o644); err != nil {
			t.Fatal(err)
		}
		// actionlint finds local actions from the repository's root.
		if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
			t.Fatalf("git init: %v\n%s", err, out)
		}
		cmd := exec.Command(tool, "-no-color", wf)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("actionlint, block %d: %v\n%s", i+1, err, out)
		}
	}
}
