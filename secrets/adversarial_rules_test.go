package secrets

import (
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkAdversarialRules scans 4 MB of each adversarial shape (select
// with SOTVET_SWEEP=regexp) and prints which rules its time went to:
// where to look when a shape is slow.
func BenchmarkAdversarialRules(b *testing.B) {
	s := defaultScanner(b)
	sel, err := regexp.Compile(os.Getenv("SOTVET_SWEEP"))
	if err != nil {
		b.Fatalf("SOTVET_SWEEP: %v", err)
	}
	cases := adversarial()
	defer func() { ruleNanos = nil }()
	for i := 0; i < b.N; i++ {
		for _, name := range caseNames(cases) {
			if !sel.MatchString(name) {
				continue
			}
			data := cases[name](4 << 20)
			ruleNanos = make([]atomic.Int64, len(s.rules))
			t0 := cpuTime()
			s.Scan("adv.txt", data)
			total := cpuTime() - t0
			type rn struct {
				id string
				d  time.Duration
			}
			var rs []rn
			var sum time.Duration
			for i := range ruleNanos {
				if d := time.Duration(ruleNanos[i].Load()); d > 0 {
					rs = append(rs, rn{s.rules[i].ID, d})
					sum += d
				}
			}
			sort.Slice(rs, func(i, j int) bool { return rs[i].d > rs[j].d })
			var top []string
			for _, r := range rs[:min(5, len(rs))] {
				top = append(top, fmt.Sprintf("%s %.0fms", r.id, float64(r.d)/1e6))
			}
			// Rule times are wall-clock, the total is CPU: on a loaded
			// machine they add up to more than it.
			b.Logf("%-22s cpu %6.0fms, %d rules (wall %5.0fms): %s", name, float64(total)/1e6, len(rs), float64(sum)/1e6, strings.Join(top, ", "))
		}
	}
}
