package secrets

import "sync"

//go:generate go test . -run ^TestKWTableGenerated$ -update-kwtable

// The default scanner's keyword automaton is built when the rules change,
// not in every process: kwtable_gen.go holds it as arrays of constants,
// which the linker lays out in the binary's data, so that a process starts
// with the table in place (no construction, no fresh memory: the pages a
// scan visits are read from the binary on first touch). Building it took
// some 7 ms of CPU a process, a tenth of a small check run.
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
		t16:        kwTableT16[:],
		matchStart: kwTableMatchStart,
		maxLen:     kwTableMaxLen,
		out:        kwTableOut[:],
	}
})
