package ledger

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/svrnty/sotvet/harness/evidence"
)

// marshalRaw encodes r as is, seal included, without resealing it.
func marshalRaw(r Sealed) ([]byte, error) { return evidence.Marshal(r) }

func sample() *Outcome {
	return &Outcome{SchemaVersion: SchemaVersion, RunID: "r1", Decision: Accepted, Actor: "jp", Reason: "ok", RecordedAt: "2026-06-01T00:00:00Z", ReportSHA256: strings.Repeat("a", 64)}
}

func TestSealCatchesEveryByte(t *testing.T) {
	data, err := Marshal(sample(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var o Outcome
	if errs := Unmarshal(data, &o, nil); len(errs) != 0 {
		t.Fatalf("a fresh record does not verify: %v", errs)
	}
	// Flipping any one byte is caught: as a decode error, a non-canonical
	// form or a digest mismatch.
	for i := range data {
		b := bytes.Clone(data)
		b[i] ^= 0x01
		var o Outcome
		if errs := Unmarshal(b, &o, nil); len(errs) == 0 {
			t.Fatalf("byte %d (%q) flipped and still valid", i, data[i])
		}
	}
}

func TestSignature(t *testing.T) {
	pub, key, _ := ed25519.GenerateKey(rand.Reader)
	other, _, _ := ed25519.GenerateKey(rand.Reader)
	data, err := Marshal(sample(), key)
	if err != nil {
		t.Fatal(err)
	}
	var o Outcome
	if errs := Unmarshal(data, &o, pub); len(errs) != 0 {
		t.Fatalf("signed record does not verify with its key: %v", errs)
	}
	if errs := Unmarshal(data, &o, other); len(errs) == 0 || !strings.Contains(errors.Join(errs...).Error(), "other than the trusted one") {
		t.Errorf("another trusted key: %v", errs)
	}
	unsigned, _ := Marshal(sample(), nil)
	if errs := Unmarshal(unsigned, &o, pub); len(errs) == 0 || !strings.Contains(errors.Join(errs...).Error(), "not signed") {
		t.Errorf("unsigned with a trusted key: %v", errs)
	}
	// Re-sealing an edited record with a fresh digest but the old
	// signature is caught by the signature.
	var edited Outcome
	_ = Unmarshal(data, &edited, nil)
	sig := edited.Signing
	edited.Decision = Rejected
	b, _ := Marshal(&edited, nil)
	edited2 := edited
	_ = Unmarshal(b, &edited2, nil)
	edited2.Signing = sig
	forged, _ := marshalRaw(&edited2)
	if errs := Unmarshal(forged, &o, nil); len(errs) == 0 || !strings.Contains(errors.Join(errs...).Error(), "signature does not verify") {
		t.Errorf("forged record: %v", errs)
	}
}

func TestIDAndWriteNew(t *testing.T) {
	id, err := NewID(time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC))
	if err != nil || !ValidID(id) || !strings.HasPrefix(id, "appr-20260601T000000Z-") {
		t.Fatalf("NewID: %q %v", id, err)
	}
	for _, bad := range []string{"", "appr-x", "../appr-20260601T000000Z-00000000", "appr-20260601T000000Z-0000000g"} {
		if ValidID(bad) {
			t.Errorf("ValidID(%q)", bad)
		}
	}
	p := filepath.Join(t.TempDir(), ApprovalsDir, "a.json")
	if err := WriteNew(p, []byte("1")); err != nil {
		t.Fatal(err)
	}
	if err := WriteNew(p, []byte("2")); !errors.Is(err, os.ErrExist) {
		t.Errorf("second WriteNew: %v", err)
	}
	link := filepath.Join(filepath.Dir(p), "link.json")
	if err := os.Symlink(p, link); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(link); err == nil {
		t.Error("ReadFile followed a link")
	}
}

func TestComputeUnknownAndFlaky(t *testing.T) {
	run := func(e, st string, tok any) RunResult {
		return RunResult{Engine: e, Kind: KindRepeat, Status: st, Verified: true, ReportShapeOK: true, EventsOK: true, PathsOK: true, BackendStarted: true, Tokens: tok, Cost: Unknown, Blockers: []string{}}
	}
	c := &Comparison{K: 2, Engines: []string{"a", "b", "c"}, Candidate: "b", Complete: true, Runs: []RunResult{
		run("a", "pass", 10.0), run("a", "pass", 5.0),
		run("b", "pass", Unknown), run("b", "fail", 3.0),
		{Engine: "c", Kind: KindRepeat, Status: "blocked", Blockers: []string{"engine_disabled"}, Tokens: Unknown, Cost: Unknown},
	}}
	Compute(c)
	a, b, cc := c.Lanes[0], c.Lanes[1], c.Lanes[2]
	if a.Tokens != 15.0 || a.Cost != Unknown || a.PassPowK != 1 || a.Flaky {
		t.Errorf("lane a: %+v", a)
	}
	if b.Tokens != Unknown || !b.Flaky || b.PassAt1 != 0.5 || b.PassPowK != 0 {
		t.Errorf("lane b: %+v", b)
	}
	if cc.Status != LaneBlocked || cc.Blocker != "engine_disabled" {
		t.Errorf("lane c: %+v", cc)
	}
	if !c.CandidateDefault.Eligible || c.RuntimeDefaultActivation {
		t.Errorf("candidate: %+v", c.CandidateDefault)
	}
	c.Complete, c.Shard = false, "1/2"
	Compute(c)
	if c.CandidateDefault.Eligible {
		t.Error("a shard's candidate is eligible")
	}
}
