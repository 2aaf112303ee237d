//go:build devtools

package main

import (
	"os"
	"runtime/pprof"
)

// SOTVET_PEAKPROF names a file to which a devtools build writes a heap
// profile after each collection that leaves more live than any before:
// the file ends holding the live heap at the run's largest, what
// --debug.memprofile (written at the end, once the model is gone) does
// not show. A heap profile's in-use figures are those of the last
// completed collection, so the one written from afterEachCollection is
// that collection's live heap. Build with -tags devtools, and run with
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
		if f, err := os.Create(path); err == nil {
			pprof.Lookup("heap").WriteTo(f, 0)
			f.Close()
		}
		return true
	})
}
