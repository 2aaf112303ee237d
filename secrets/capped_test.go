package secrets

import (
	"reflect"
	"testing"
)

// TestScanCappedDropsCheaply: past both caps a finding is counted, not
// reported, and costs no text, mask or fingerprint (some six allocations
// each): on a line dense with findings those were a third of the scan.
// The kept findings and the counts are those of the full scan.
func TestScanCappedDropsCheaply(t *testing.T) {
	if raceEnabled {
		t.Skip("allocation counts under -race are not the program's")
	}
	s := defaultScanner(t)
	data := adversarial()["every20:token="](32 << 10)
	// and past the cap an allowed finding, which is kept whole
	data = append(data, "\nsession token=Zq7Lw2Xv9Rk4Tm8Pn3Bc sotvet:allow-secret -- a test fixture\n"...)
	all := s.Scan("adv.txt", data)
	if last := all[len(all)-1]; !last.Allowed {
		t.Fatalf("last finding %v not allowed", last)
	}
	const keep = 10
	if len(all) < 20*keep {
		t.Fatalf("%d findings: the shape no longer makes many", len(all))
	}
	kept, more := s.ScanCapped("adv.txt", data, keep)
	want := append(all[:keep:keep], all[len(all)-1])
	if !reflect.DeepEqual(kept, want) {
		t.Errorf("capped scan kept other findings than the first %d and the allowed one:\n%v\nwant\n%v", keep, kept[keep:], want[keep:])
	}
	n := 0
	for _, c := range more {
		n += c
	}
	if n != len(all)-keep-1 {
		t.Errorf("%d findings counted past the cap, want %d", n, len(all)-keep-1)
	}
	// the filters' states are built lazily, a budget at a time: a few
	// scans of each kind before the counts, so that both count what a
	// finding costs, not the states the first scans build
	for range 3 {
		s.ScanCapped("adv.txt", data, 0)
		s.ScanCapped("adv.txt", data, keep)
	}
	full := testing.AllocsPerRun(3, func() { s.ScanCapped("adv.txt", data, 0) })
	capped := testing.AllocsPerRun(3, func() { s.ScanCapped("adv.txt", data, keep) })
	if saved := full - capped; saved < 3*float64(len(all)-keep-1) {
		t.Errorf("capped scan: %.0f allocations, full: %.0f; want 3 fewer per dropped finding (%d dropped)", capped, full, len(all)-keep-1)
	}
}
