package main

import (
	"flag"
	"testing"

	"github.com/svrnty/sotvet/checks/registry"
)

// TestSnapshotFlags: every check flag comes back to its value after another
// workspace's configuration set it, as a multi-workspace run needs.
func TestSnapshotFlags(t *testing.T) {
	type val struct {
		f    *flag.Flag
		name string
		was  string
	}
	var all []val
	for _, a := range registry.All {
		a.Flags.VisitAll(func(f *flag.Flag) { all = append(all, val{f, a.Name + "." + f.Name, f.Value.String()}) })
	}
	restore := snapshotFlags()
	set := 0
	for _, v := range all {
		for _, s := range []string{"zzz", "a,b", "- x\n"} {
			if v.f.Value.Set(s) == nil {
				set++
				break
			}
		}
	}
	restore()
	for _, v := range all {
		if got := v.f.Value.String(); got != v.was {
			t.Errorf("%s: %q after restore, want %q", v.name, got, v.was)
		}
	}
	if set == 0 {
		t.Error("no flag could be changed: the test tests nothing")
	}
}
