package guard

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/svrnty/sotvet/harness/ledger"
)

// TestRecordsMatchSchema: the records the guard writes — passing,
// blocked with a process, unreadable, signed — match sotvet schema guard.
func TestRecordsMatchSchema(t *testing.T) {
	t.Parallel() // see parallel_test.go
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(ledger.GuardSchema()))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("guard.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile("guard.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	base, core := newRepo(t)
	wt := filepath.Join(base, "wt")
	gitT(t, core, "worktree", "add", "-q", wt, "-b", "core-work-172")
	_, key, _ := ed25519.GenerateKey(rand.Reader)
	var records []*ledger.Guard
	records = append(records, run(t, base, core))
	sleep := exec.Command("sleep", "3600")
	sleep.Dir = wt
	start(t, sleep)
	writeFile(t, filepath.Join(wt, "x"), "x")
	records = append(records, run(t, base, core, "CORE-WORK-172"))
	records = append(records, run(t, base, filepath.Join(base, "absent")))
	for i, g := range records {
		for _, k := range []ed25519.PrivateKey{nil, key} {
			data, err := ledger.Marshal(g, k)
			if err != nil {
				t.Fatal(err)
			}
			inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			if err := schema.Validate(inst); err != nil {
				t.Errorf("record %d (%s, signed %t) does not match the schema: %v", i, g.GuardStatus, k != nil, err)
			}
		}
	}
	// The schema is not vacuous: a verdict it does not know is refused.
	data, _ := ledger.Marshal(records[0], nil)
	inst, _ := jsonschema.UnmarshalJSON(bytes.NewReader(bytes.Replace(data, []byte(`"guard_status": "pass"`), []byte(`"guard_status": "maybe"`), 1)))
	if schema.Validate(inst) == nil {
		t.Error("the schema accepts guard_status maybe")
	}
	if records[1].GuardStatus != ledger.GuardBlocked || len(records[1].Processes) != 1 {
		t.Errorf("the blocked record: %s, %d processes", records[1].GuardStatus, len(records[1].Processes))
	}
}
