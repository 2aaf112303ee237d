package harness_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/svrnty/sotvet/internal/mockprovider"
)

// caseConformanceScenarios are the case lane's scenarios on the scripted
// provider, with the backend timeout each needs (the hangs end there).
var caseConformanceScenarios = []struct {
	scenario string
	timeout  time.Duration
}{
	{mockprovider.Case, 120 * time.Second},
	{mockprovider.CaseNoop, 120 * time.Second},
	{mockprovider.CaseReject, 120 * time.Second},
	{mockprovider.CaseLinger, 15 * time.Second},
	{mockprovider.Error500, 120 * time.Second},
	{mockprovider.Error400, 120 * time.Second},
	{mockprovider.Malformed, 120 * time.Second},
	{mockprovider.Text, 120 * time.Second},
	{mockprovider.ToolError, 120 * time.Second},
	{mockprovider.Reasoning, 120 * time.Second},
	{mockprovider.Hang, 5 * time.Second},
	{mockprovider.HangStream, 5 * time.Second},
	{mockprovider.LateWrite, 120 * time.Second},
}

// caseOutcome is what conformance compares between two ca binaries.
type caseOutcome struct {
	status   string
	blockers []string
	shape    []string
}

// TestCaseConformance runs every case-lane scenario against a real WorkOS
// Case ca ($SOTVET_CASE_CA, built by scripts/case-conformance.sh from
// $SOTVET_CASE_SRC) and against the stand-in in engine/case/testdata/ca,
// and requires the same verdict, the same blockers and the same shape of
// Case's own event stream. It prints the table docs/lanes.md quotes.
func TestCaseConformance(t *testing.T) {
	realCA := os.Getenv("SOTVET_CASE_CA")
	if realCA == "" {
		t.Skip("SOTVET_CASE_CA is not set: run scripts/case-conformance.sh with SOTVET_CASE_SRC naming a WorkOS Case source tree")
	}
	realDir := t.TempDir() // ca is looked up on PATH as "ca"
	if err := os.Symlink(realCA, filepath.Join(realDir, "ca")); err != nil {
		t.Fatal(err)
	}
	standinDir := standinCA(t, t.TempDir())
	srv, err := mockprovider.Start(mustCaseFiles(t))
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	adm := filepath.Join(t.TempDir(), "admitted.json")
	if err := os.WriteFile(adm, []byte(`{"admission_timestamp":"2026-05-31T00:00:00Z","allowed_network_class":"loopback","approval_source":"conformance",
"credential_source_class":"dummy","model":"gpt-5.5","provider":"mock","review_trigger":"never","status":"admitted"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	runWith := func(caDir, scenario string, timeout time.Duration) caseOutcome {
		opt := options(t, "r1-string-slugify")
		opt.Engine, opt.AllowEngines = "case", []string{"case"}
		opt.Model, opt.AdmissionFile = "mock/gpt-5.5", adm
		opt.BackendTimeout = timeout
		opt.Environ = append(opt.Environ, "PATH="+caDir+string(os.PathListSeparator)+os.Getenv("PATH"),
			"SOTVET_PROVIDER_BASE_URL="+srv.URL(scenario), "SOTVET_PROVIDER_API_KEY=sk-conformance-dummy-key")
		if caDir == realDir {
			opt.CLISource = cmpOr(os.Getenv("SOTVET_CASE_SOURCE"), "unstated")
		}
		res := run(t, opt)
		if res.Report.CLISource != opt.CLISource {
			t.Errorf("%s: cli_source %q, want %q", scenario, res.Report.CLISource, opt.CLISource)
		}
		out := caseOutcome{status: res.Report.Status, shape: caseEventShape(t, filepath.Join(res.RunDir, "backend", "case-events.jsonl"))}
		for _, b := range res.Report.Blockers {
			out.blockers = append(out.blockers, b.Code)
		}
		return out
	}
	var table strings.Builder
	fmt.Fprintf(&table, "| scenario | real ca | stand-in | blockers (real / stand-in) | event stream |\n|---|---|---|---|---|\n")
	for _, sc := range caseConformanceScenarios {
		real := runWith(realDir, sc.scenario, sc.timeout)
		stand := runWith(standinDir, sc.scenario, sc.timeout)
		blockers := strings.Join(real.blockers, ", ")
		if !slices.Equal(real.blockers, stand.blockers) {
			blockers += " / " + strings.Join(stand.blockers, ", ")
		}
		if blockers == "" {
			blockers = "—"
		}
		shape := fmt.Sprintf("same (%d events)", len(real.shape))
		if !slices.Equal(real.shape, stand.shape) {
			shape = "differs"
			t.Errorf("%s: event stream shape differs\n real:     %s\n stand-in: %s", sc.scenario, strings.Join(real.shape, " "), strings.Join(stand.shape, " "))
		}
		if real.status != stand.status || !slices.Equal(real.blockers, stand.blockers) {
			t.Errorf("%s: real ca %s %v, stand-in %s %v", sc.scenario, real.status, real.blockers, stand.status, stand.blockers)
		}
		fmt.Fprintf(&table, "| %s | %s | %s | %s | %s |\n", sc.scenario, real.status, stand.status, blockers, shape)
	}
	t.Logf("WorkOS Case conformance (real ca from %s):\n%s", cmpOr(os.Getenv("SOTVET_CASE_SOURCE"), "an unstated source"), table.String())
	if out := os.Getenv("SOTVET_CASE_TABLE"); out != "" {
		if err := os.WriteFile(out, []byte(table.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// caseEventShape reduces Case's event stream to what conformance compares:
// each lifecycle event in order, with its phase, outcome, status change or
// tool, but no times, ids or texts. A missing file is an empty shape.
func caseEventShape(t *testing.T, path string) []string {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var shape []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	for sc.Scan() {
		var ev struct {
			Event, Phase, Outcome, From, To, Tool, ToolName, Name string
		}
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			shape = append(shape, "<malformed>")
			continue
		}
		switch ev.Event {
		case "pipeline_start":
			shape = append(shape, ev.Event)
		case "phase_start":
			shape = append(shape, ev.Event+":"+ev.Phase)
		case "phase_end", "pipeline_end":
			shape = append(shape, strings.TrimSuffix(ev.Event+":"+ev.Phase, ":")+"="+ev.Outcome)
		case "status_changed":
			shape = append(shape, ev.Event+":"+ev.From+">"+ev.To)
		case "tool_start", "tool_end":
			shape = append(shape, ev.Event+":"+cmpOr(ev.Tool, cmpOr(ev.ToolName, ev.Name)))
		}
	}
	// A turn's tool calls run in parallel in Case: the order they end in
	// is the scheduler's, so each run of tool_end events is compared as a set.
	for i := 0; i < len(shape); {
		j := i
		for j < len(shape) && strings.HasPrefix(shape[j], "tool_end:") {
			j++
		}
		slices.Sort(shape[i:j])
		i = max(j, i+1)
	}
	return shape
}
