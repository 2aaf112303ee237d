package secrets

import (
	"regexp"
	"syscall"
	"testing"
	"time"
)

func cpuNow() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func TestZZCPU(t *testing.T) {
	s, _ := newScanner(DefaultConfig())
	var anch, srch []string
	for _, r := range s.rules {
		r.prepare()
		if r.atHits {
			anch = append(anch, r.anchoredSrc)
		} else if r.Regex == nil {
			srch = append(srch, r.searchSrc)
		}
	}
	t.Logf("%d anchored, %d search", len(anch), len(srch))
	run := func(name string, srcs []string, f func(s string)) {
		best := time.Hour
		for k := 0; k < 3; k++ {
			c0 := cpuNow()
			for _, s := range srcs {
				f(s)
			}
			if d := cpuNow() - c0; d < best {
				best = d
			}
		}
		t.Logf("%-12s %v", name, best)
	}
	run("anch folded", anch, func(s string) { compileFolded(`^(?s:.)(?:` + s + `)`) })
	run("anch plain", anch, func(s string) { regexp.Compile(`^(?s:.)(?:` + s + `)`) })
	run("anch unanch plain", anch, func(s string) { regexp.Compile(`(?s:.)(?:` + s + `)`) })
	run("srch folded", srch, func(s string) { compileFolded(s) })
	run("srch plain", srch, func(s string) { regexp.Compile(s) })
	run("anch dfa", anch, func(s string) { newPrefilterDFA(s) })
	run("srch dfa", srch, func(s string) { newPrefilterDFA(s) })
}

func BenchmarkZZFilter(b *testing.B) {
	s, _ := newScanner(DefaultConfig())
	var srcs []string
	for _, r := range s.rules {
		r.prepare()
		if r.Regex == nil {
			srcs = append(srcs, r.filterSrc())
		}
	}
	for b.Loop() {
		for _, s := range srcs {
			newPrefilterDFA(s)
		}
	}
}
