//go:build devtools

package main

import (
	"os"
	"runtime/pprof"
)

// SOTVET_PEAKPROF names a file to which a devtools build writes a heap
// profile after each collection that leaves more live than any before,
// so the file ends near the run's largest live heap, which
// --debug.memprofile (written at the end, once the model is gone) does
// not show. Near, not at: the profile is sampled (one record per
// memprofilerate bytes), and the runtime publishes a collection's
// in-use figures only once that cycle's sweep is done, so a profile
// written from afterEachCollection may show the collection before the
// largest. Build with -tags devtools, and run with
// GODEBUG=memprofilerate=65536 (or any rate): without it main turns the
// sampling off.
func init() {
	path := os.Getenv("SOTVET_PEAKPROF")
	if path == "" {
		return
	}
	var most uint64
	afterEachCollection(func(live uint64) bool {
		if live <= most {
			return true
		}
		most = live
		// Written beside it and renamed: the process may exit while a
		// profile is being written, which left the file cut short.
		tmp := path + ".tmp"
		if f, err := os.Create(tmp); err == nil {
			err = pprof.Lookup("heap").WriteTo(f, 0)
			if f.Close() == nil && err == nil {
				os.Rename(tmp, path)
			}
		}
		return true
	})
}
