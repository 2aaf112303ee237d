package contradiction

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/internal/testcorpus"
	"github.com/svrnty/sotvet/internal/views"
	"github.com/svrnty/sotvet/scripts/gen-corpus/gencorpus"
	"github.com/svrnty/sotvet/sotparse"
)

// TestReadTextSkips checks that readText, which does not read line by
// line a body without a backtick, "This " or (approval denied)
// "required", reads what it read line by line from every document of the
// repository's sample workspace, the workspace of every testscript
// scenario, the corpus when present, two generated workspaces and random
// documents built of the statements the rules read.
func TestReadTextSkips(t *testing.T) {
	dirs := []string{filepath.Join("..", "..", "testdata", "workspace")}
	if c := testcorpus.Optional(t); c != "" {
		dirs = append(dirs, c)
	}
	write := func(dir, name string, data []byte) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	names, scenarios := testcorpus.Scenarios(t)
	for _, name := range names {
		dirs = append(dirs, scenarios[name])
	}
	generated, adoption, random := t.TempDir(), t.TempDir(), t.TempDir()
	if err := gencorpus.Write(generated, 60, 11); err != nil {
		t.Fatal(err)
	}
	if err := gencorpus.WriteShape(adoption, "adoption", 100, 1, gencorpus.Options{}); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(11, 20))
	for i := range 300 {
		write(random, fmt.Sprintf(".sot/CTO-R%03d-RECORD.md", i), []byte(randomText(rng)))
	}
	dirs = append(dirs, generated, adoption, random)
	skipped, read, found := 0, 0, 0
	for _, dir := range dirs {
		ws, err := sotparse.Load(dir, sotparse.Options{NoGit: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range ws.Docs {
			got := readText(d, d.File.Content)
			readEveryLine = true
			want := readText(d, d.File.Content)
			readEveryLine = false
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: %s: read %+v, line by line %+v", dir, d.Path, got, want)
			}
			read++
			if reflect.DeepEqual(want, &docText{}) {
				skipped++
			} else {
				found++
			}
		}
	}
	t.Logf("%d documents, %d with statements", read, found)
	if found < 50 || skipped < 50 {
		t.Errorf("%d documents, %d with statements: the test documents do not exercise both ways", read, found)
	}
}

// randomText returns a document of the statements the rules read, each
// maybe spoiled (no backtick, no "This "), under a frontmatter whose
// status may be blocked, with approval maybe denied.
func randomText(rng *rand.Rand) string {
	pick := func(ss ...string) string { return ss[rng.IntN(len(ss))] }
	var b strings.Builder
	fmt.Fprintf(&b, "---\nname: r\nstatus: %s\n---\n\n# R\n\n", pick("validated", "blocked", "candidate"))
	if rng.IntN(2) == 0 {
		fmt.Fprintf(&b, "- approval_granted: %s\n\n", pick("false", "true", "`false`"))
	}
	for range 1 + rng.IntN(8) {
		line := pick(
			"## Issue: CTO-WORK-00%d - Work",
			"Readiness packet:",
			"- Prerequisite: `CTO-WORK-00%d` validated.",
			"Do not mark `CTO-WORK-00%d` validated.",
			"`CTO-WORK-00%d` is validated.",
			"This closeout does not authorize another run.",
			"- State: This guard must not be lifted.",
			"this guard must not be lifted.",
			"Approval is still required.",
			"Approval is still REQUIRED.",
			"`codex` role: executor for `CTO-WORK-00%d`.",
			"The reviewer pair `pi` is the reviewer.",
			"> This guard is not lifted.",
			"```\nThis guard is not lifted.\n```",
			"Plain words only.",
		)
		if strings.Contains(line, "%d") {
			line = fmt.Sprintf(line, 1+rng.IntN(3))
		}
		if rng.IntN(3) == 0 {
			line = strings.NewReplacer("`", "", "This ", "Thus ").Replace(line)
		}
		b.WriteString(line + "\n\n")
	}
	return b.String()
}

// TestDetachSharesNoText checks that what DocCheck keeps of a document
// (readText, detached) holds no string that is a view of the document's
// text: the parse lets each text go once checked, and one such string
// would keep the whole text alive for the run (issue 34: 40 MB of the 64
// MB of texts of a 10,000-document workspace).
func TestDetachSharesNoText(t *testing.T) {
	dirs := []string{filepath.Join("..", "..", "testdata", "workspace")}
	if c := testcorpus.Optional(t); c != "" {
		dirs = append(dirs, c)
	}
	generated, random := t.TempDir(), t.TempDir()
	if err := gencorpus.Write(generated, 60, 11); err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(11, 20))
	for i := range 300 {
		p := filepath.Join(random, ".sot", fmt.Sprintf("CTO-R%03d-RECORD.md", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(randomText(rng)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dirs = append(dirs, generated, random)
	strs := 0
	for _, dir := range dirs {
		ws, err := sotparse.Load(dir, sotparse.Options{NoGit: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range ws.Docs {
			content := d.File.Content
			if len(content) == 0 {
				continue
			}
			views.Each(readText(d, content).detach(), skipDoc, func(path, s string) {
				strs++
				if views.Within(s, content) {
					t.Errorf("%s: %s: docText%s %q is a view of the document's text", dir, d.Path, path, s)
				}
			})
		}
	}
	if strs < 500 {
		t.Errorf("only %d strings kept: the test documents do not exercise detach", strs)
	}
}

// skipDoc keeps the walk out of the model: it is not the check's to copy.
func skipDoc(t reflect.Type) bool { return t == reflect.TypeFor[*sotparse.Doc]() }

// TestSharedIfEmpty: a docText that holds nothing is the shared noText;
// one that holds anything, even an empty list, is kept.
func TestSharedIfEmpty(t *testing.T) {
	if got := sharedIfEmpty(&docText{}); got != &noText {
		t.Errorf("an empty docText was kept")
	}
	for name, dt := range map[string]*docText{
		"two counts":   {counts: testCounts{n: 2, sig: "3 passed\x004 passed\x00"}},
		"a denial":     {deniesApproval: &statement{}},
		"no names yet": {names: []string{}},
	} {
		if got := sharedIfEmpty(dt); got != dt {
			t.Errorf("%s: replaced by %p", name, got)
		}
	}
}
