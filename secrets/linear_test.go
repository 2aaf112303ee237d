package secrets

import (
	"sort"
	"strings"
	"sync/atomic"
	"testing"
)

// adversarial returns inputs of n bytes built to make a scanner's work
// grow faster than its input: one line of a keyword repeated, and lines
// of nothing but a keyword.
func adversarial() map[string]func(n int) []byte {
	rep := func(s string) func(int) []byte {
		return func(n int) []byte { return []byte(strings.Repeat(s, n/len(s)+1)[:n]) }
	}
	out := map[string]func(int) []byte{}
	for _, k := range []string{"AKIA", "ghp_", "password=", "token=", "-----BEGIN ", "secret ", "api_key: ", "xoxb-", "sk-", "private_key=", "://a:b@", "eyJhbGciOi."} {
		out["line:"+k] = rep(k)
		out["lines:"+k] = rep(k + "\n")
	}
	return out
}

// TestScanWorkLinear counts the bytes the rules' expressions read: on
// every adversarial shape, four times the input must cost at most about
// four times the work (a cost in the product of hits and line length
// grew sixteenfold).
func TestScanWorkLinear(t *testing.T) {
	s := defaultScanner(t)
	var w atomic.Int64
	workCounter = &w
	defer func() { workCounter = nil }()
	work := func(data []byte) int64 {
		w.Store(0)
		s.Scan("adv.txt", data)
		s.Redact(data)
		return w.Load()
	}
	const small = 32 << 10
	for name, gen := range adversarial() {
		a, b := work(gen(small)), work(gen(4*small))
		if b > 5*a+64<<10 {
			t.Errorf("%s: work %d on %d bytes, %d on %d: not linear", name, a, small, b, 4*small)
		}
		// And a bounded multiple of the input.
		if b > 64*4*small {
			t.Errorf("%s: work %d on %d bytes: more than 64 bytes read per input byte", name, b, 4*small)
		}
	}
}

// BenchmarkAdversarial scans 4 MB of each adversarial shape and 4 MB of
// planning prose: the target is about the prose's time per byte for
// every shape (issue 33, point 5).
func BenchmarkAdversarial(b *testing.B) {
	s := defaultScanner(b)
	const size = 4 << 20
	cases := adversarial()
	cases["prose"] = func(n int) []byte { return benchCorpus()[:n] }
	names := make([]string, 0, len(cases))
	for k := range cases {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, name := range names {
		data := cases[name](size)
		b.Run(strings.NewReplacer("/", "_", " ", "_").Replace(name), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for i := 0; i < b.N; i++ {
				s.Scan("adv.txt", data)
			}
		})
	}
}
