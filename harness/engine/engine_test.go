package engine_test

import (
	"errors"
	"slices"
	"testing"

	"github.com/svrnty/sotvet/harness/engine"
	"github.com/svrnty/sotvet/harness/engine/fake"
)

func TestRegistry(t *testing.T) {
	r := engine.NewRegistry()
	if err := r.Register(engine.Entry{Engine: &fake.Engine{}, Enabled: true, Executable: true}); err != nil {
		t.Fatal(err)
	}
	for _, g := range engine.GatedLanes {
		if err := r.Register(engine.Entry{Engine: g}); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Register(engine.Entry{Engine: &fake.Engine{}}); err == nil {
		t.Error("registered fake twice")
	}
	if got := r.Names(); !slices.Equal(got, []string{"case", "codex", "pi", "fake"}) && !slices.Equal(got, []string{"case", "codex", "fake", "pi"}) {
		t.Errorf("names %v", got)
	}
	e, ok := r.Lookup("case")
	if !ok || e.Enabled || e.Executable {
		t.Errorf("case entry %+v", e)
	}
	if _, err := e.Engine.Invocation(engine.Job{}); !errors.Is(err, engine.ErrNotImplemented) {
		t.Errorf("gated invocation: %v", err)
	}
	if !engine.IsGatedLane("pi") || engine.IsGatedLane("fake") {
		t.Error("IsGatedLane")
	}
}

func TestFakeTerminal(t *testing.T) {
	e := &fake.Engine{Command: []string{"/bin/true"}}
	out := []byte(`noise
{"type":"plan.updated","data":{"steps":["a"]}}
{"type":"patch.applied","data":{"files":["a.go"]}}
{"type":"result","status":"success","reviewer":"rejected","detail":"no"}
`)
	sig := e.Terminal(out, nil, 0)
	if sig.Status != engine.StatusSuccess || sig.Reviewer != engine.ReviewerRejected || len(sig.Events) != 2 || sig.Events[1].Type != "patch.applied" {
		t.Errorf("%+v", sig)
	}
	if sig := e.Terminal([]byte(`{"type":"result","status":"great"}`), nil, 0); sig.Status != engine.StatusNone {
		t.Errorf("unknown status accepted: %+v", sig)
	}
	if sig := e.Terminal(nil, nil, 0); sig.Status != engine.StatusNone {
		t.Errorf("no record: %+v", sig)
	}
	inv, err := e.Invocation(engine.Job{BackendDir: "/b", Workspace: "/w"})
	if err != nil || inv.Argv[len(inv.Argv)-1] != "/b/"+fake.SpecFile || inv.Files[fake.SpecFile] == nil {
		t.Errorf("%+v %v", inv, err)
	}
	if _, err := (&fake.Engine{}).Invocation(engine.Job{}); err == nil {
		t.Error("no command accepted")
	}
}
