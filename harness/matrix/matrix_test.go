package matrix

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/svrnty/sotvet/harness"
	"github.com/svrnty/sotvet/harness/engine/fake"
	"github.com/svrnty/sotvet/internal/raceexit"
	"github.com/svrnty/sotvet/internal/testtmp"
)

func TestMain(m *testing.M) {
	if len(os.Args) > 2 && os.Args[1] == "harness" && os.Args[2] == "fake-backend" {
		os.Exit(fake.Main(os.Args[3:], os.Stdout, os.Stderr))
	}
	raceexit.Set() // the fake backends it runs are this binary
	os.Exit(testtmp.Run(m))
}

func TestMatrix(t *testing.T) {
	if testing.Short() {
		t.Skip("runs fifteen harness runs")
	}
	exe, _ := os.Executable()
	m, err := Run(context.Background(), Options{
		Base:     harness.Options{RunsRoot: t.TempDir(), FakeCommand: []string{exe, "harness", "fake-backend"}, Environ: os.Environ()},
		CasesDir: "../../testdata/cases",
		Jobs:     2,
	})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	WriteTable(&buf, m)
	if m.Status != StatusPass || len(m.Runs) != 3+len(harness.Fixtures) {
		t.Fatalf("matrix:\n%s", buf.String())
	}
	data, err := os.ReadFile(m.Path)
	if err != nil {
		t.Fatal(err)
	}
	var back Matrix
	if err := json.Unmarshal(data, &back); err != nil || back.Status != StatusPass || len(back.Runs) != len(m.Runs) {
		t.Errorf("matrix.json: %v", err)
	}
	// Deterministic order: cases sorted, then the fixtures in matrix order.
	if m.Runs[0].CaseID != "r1-slugify-punctuation" || m.Runs[3].Fixture != "no-diff" || m.Runs[len(m.Runs)-1].Fixture != "provider-unavailable" {
		t.Errorf("order: %+v", m.Runs)
	}
	if !strings.Contains(buf.String(), "15 runs, 2 jobs") {
		t.Error(buf.String())
	}
	t.Logf("matrix wall time with 2 jobs: %d ms", m.WallMS)
}
