package main

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	yaml "go.yaml.in/yaml/v4"
)

// TestCIShardedCompare runs the sharded comparison workflows of docs/ci.md
// as their CI would: every slice's sotvet commands with its matrix index,
// on one machine, then the merge job's, through a shell. The merged
// comparison must verify.
func TestCIShardedCompare(t *testing.T) {
	endToEnd(t, "runs the sharded comparisons of docs/ci.md")
	doc, err := os.ReadFile("../../docs/ci.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllSubmatch(doc, -1)
	// The action's workflow, the GitHub and GitLab examples, then the two
	// sharded comparisons: always the last two.
	if len(blocks) < 4 {
		t.Fatalf("docs/ci.md has %d yaml blocks, want the CI examples then two sharded comparisons", len(blocks))
	}
	blocks = blocks[len(blocks)-4:]
	t.Parallel()
	// The sotvet the commands run: the shared plain build (cliDir).
	bin := cliDir(t)
	for i, b := range blocks[2:] {
		var v any
		if err := yaml.Load(b[1], &v); err != nil {
			t.Fatalf("docs/ci.md: sharded example %d is not valid YAML: %v", i+1, err)
		}
		// Two jobs each: the slice job's commands, then the merge job's.
		jobs := v.(map[string]any)
		if j, ok := jobs["jobs"].(map[string]any); ok {
			jobs = j
		}
		var slice, merge []string
		n := 0
		for name, job := range jobs {
			m, ok := job.(map[string]any)
			if !ok {
				continue
			}
			var cmds []string
			collect(m, &cmds)
			switch {
			case strings.Contains(name, "slice"):
				slice = cmds
				n = shards(m)
			case strings.Contains(name, "merge"):
				merge = cmds
			}
		}
		if len(slice) != 1 || len(merge) != 2 || n < 2 {
			t.Fatalf("example %d: slice commands %q (n=%d), merge commands %q", i+1, slice, n, merge)
		}
		t.Run(fmt.Sprintf("example%d", i+1), func(t *testing.T) {
			t.Parallel()
			work := t.TempDir()
			if out, err := exec.Command("cp", "-R", "../../testdata/.", filepath.Join(work, "testdata")).CombinedOutput(); err != nil {
				t.Fatalf("cp: %v\n%s", err, out)
			}
			run := func(c string, idx int) error {
				r := strings.NewReplacer("${{ matrix.shard }}", strconv.Itoa(idx), "${{ github.run_id }}", "42",
					"$CI_NODE_INDEX", strconv.Itoa(idx), "$CI_NODE_TOTAL", strconv.Itoa(n), "$CI_PIPELINE_ID", "42")
				// Keep the test short: k=2 and two fixtures instead of k=5
				// and all.
				c = strings.Replace(r.Replace(c), "-k 5", compareSample, 1)
				cmd := exec.Command("sh", "-e", "-c", c)
				cmd.Dir = work
				cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
				var out bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &out
				if err := cmd.Run(); err != nil {
					return fmt.Errorf("%s: %v\n%s", c, err, out.String())
				}
				return nil
			}
			// The slices run at once, as the CI's matrix jobs do.
			errs := make([]error, n+1)
			var wg sync.WaitGroup
			for idx := 1; idx <= n; idx++ {
				wg.Go(func() { errs[idx] = run(slice[0], idx) })
			}
			wg.Wait()
			if err := errors.Join(errs...); err != nil {
				t.Fatal(err)
			}
			for _, c := range merge {
				if err := run(c, 0); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := os.Stat(filepath.Join(work, "runs", "cmp-42-merged", "comparison.json")); err != nil {
				t.Errorf("no merged comparison: %v", err)
			}
		})
	}
}

// shards reads the slice count: GitHub's strategy.matrix.shard list or
// GitLab's parallel.
func shards(job map[string]any) int {
	if p, ok := job["parallel"].(int); ok {
		return p
	}
	if s, ok := job["strategy"].(map[string]any); ok {
		if m, ok := s["matrix"].(map[string]any); ok {
			if l, ok := m["shard"].([]any); ok {
				return len(l)
			}
		}
	}
	return 0
}

func collect(v any, out *[]string) {
	switch v := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			e := v[k]
			if s, ok := e.(string); ok && k == "run" {
				addLines(s, out)
				continue
			}
			collect(e, out)
		}
	case []any:
		for _, e := range v {
			if s, ok := e.(string); ok {
				addLines(s, out)
				continue
			}
			collect(e, out)
		}
	}
}

func addLines(s string, out *[]string) {
	for _, line := range strings.Split(s, "\n") {
		if line = strings.TrimSpace(line); strings.HasPrefix(line, "sotvet ") {
			*out = append(*out, line)
		}
	}
}

// compareSample is what the sharded examples run instead of -k 5 and
// every fixture: enough for each shard to hold runs of both lanes and of
// two fixtures.
const compareSample = "-k 2 --fixtures no-diff,failed-tests"
