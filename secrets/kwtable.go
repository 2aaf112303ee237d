package secrets

import (
	"encoding/binary"
	"sync"
	"unsafe"
)

//go:generate go test . -run ^TestKWTableGenerated$ -update-kwtable

// The default scanner's keyword automaton is built when the rules change,
// not in every process: kwtable_gen.go holds it as arrays of constants,
// and its transitions as bytes embedded from kwtable_t16.bin, which the
// linker lays out in the binary's read-only data, so that a process
// starts with the table in place (no construction, no fresh memory: the
// pages a scan visits are read from the binary on first touch). Building
// it took some 7 ms of CPU a process, a tenth of a small check run.
//
// It stands for exactly one keyword list: kwTableWords and kwTableRules,
// compared in full before use. Any other list (a team's own rules, a rule
// added without regenerating) builds its automaton as before, and
// TestKWTableGenerated fails until the file is regenerated.

// builtKWMatcher returns the generated automaton when kws and rules are
// the list it was generated from, else nil.
func builtKWMatcher(kws []string, rules []int) *kwMatcher {
	if len(kws) != len(kwTableWords) || len(rules) != len(kws) {
		return nil
	}
	for i, k := range kws {
		if k != kwTableWords[i] || rules[i] != int(kwTableRules[i]) {
			return nil
		}
	}
	return generatedKW()
}

// generatedKW assembles the matcher from the tables, sharing them.
var generatedKW = sync.OnceValue(func() *kwMatcher {
	return &kwMatcher{
		class:      kwTableClass,
		width:      kwTableWidth,
		shift:      kwTableShift,
		rowStep:    kwTableRowStep,
		t16:        uint16sOf(kwTableT16Bytes),
		matchStart: kwTableMatchStart,
		maxLen:     kwTableMaxLen,
		out:        kwTableOut[:],
	}
})

// uint16sOf reads s as little-endian uint16s. Where the machine is
// little-endian and s's bytes are aligned for uint16 (the linker aligns
// embedded data; the check is for a linker that does not), the result
// is s's own bytes, read-only: nothing writes a generated table.
func uint16sOf(s string) []uint16 {
	p := unsafe.StringData(s)
	if len(s) > 0 && littleEndian && uintptr(unsafe.Pointer(p))%unsafe.Alignof(uint16(0)) == 0 {
		return unsafe.Slice((*uint16)(unsafe.Pointer(p)), len(s)/2)
	}
	b, v := []byte(s), make([]uint16, len(s)/2)
	for i := range v {
		v[i] = binary.LittleEndian.Uint16(b[2*i:])
	}
	return v
}

// littleEndian: this machine stores a uint16's low byte first.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1
