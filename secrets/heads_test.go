package secrets

import (
	"math/rand"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// TestHeadsNarrowSame: at every keyword of prefixed-token, the anchored
// expression narrowed to the keyword's alternatives finds what the whole
// one finds, on texts that go on with longer prefixes, token bytes,
// separators, ſ and K (which (?i) takes for s and k) and nothing.
func TestHeadsNarrowSame(t *testing.T) {
	r := prefixedTokenRule()
	h := r.heads
	if h == nil || h.expr(h.alts) != r.builtinRE.src {
		t.Fatal("prefixed-token: heads do not build its expression")
	}
	whole := regexp.MustCompile(`^(?s:.)(?:` + h.expr(h.alts) + `)`)
	rng := rand.New(rand.NewSource(1))
	pieces := []string{"", "a", "Z", "9", "-", "_", ".", "=", "~", "/", "+", " ", "ſ", "K", "\n", "x7Qk2Lp9Vw3Rt8Ym4Nb6"}
	for _, a := range h.alts {
		pieces = append(pieces, unquoteMeta(a), strings.ToUpper(unquoteMeta(a)))
	}
	n := 0
	for _, k := range r.Keywords {
		lk := strings.ToLower(k)
		narrow := regexp.MustCompile(`^(?s:.)(?:` + h.expr(h.at(lk)) + `)`)
		for i := 0; i < 60; i++ {
			var b strings.Builder
			b.WriteString(" ")
			for _, c := range []byte(k) { // the keyword in any case, as hits are found
				if rng.Intn(2) == 0 {
					c = lower(c)
				} else {
					c = upperASCII(c)
				}
				b.WriteByte(c)
			}
			for j := rng.Intn(4); j > 0; j-- {
				p := pieces[rng.Intn(len(pieces))]
				if rng.Intn(3) == 0 { // a longer prefix's rest after k
					for _, a := range h.alts {
						if ua := unquoteMeta(a); len(ua) > len(k) && strings.EqualFold(ua[:len(k)], k) && rng.Intn(2) == 0 {
							p = ua[len(k):]
						}
					}
				}
				b.WriteString(p)
			}
			text := []byte(b.String())
			if got, want := narrow.FindSubmatchIndex(text), whole.FindSubmatchIndex(text); !reflect.DeepEqual(got, want) {
				t.Fatalf("keyword %q, text %q: narrowed %v, whole %v", k, text, got, want)
			}
			if whole.Match(text) {
				n++
			}
		}
	}
	if n == 0 {
		t.Fatal("no text matched: the test tests nothing")
	}
}

// TestHeadsScanSame: a scan with prefixed-token's attempts narrowed finds
// what one with the whole expression at every hit finds.
func TestHeadsScanSame(t *testing.T) {
	whole := prefixedTokenRule()
	alts := whole.heads.alts
	whole.heads = nil
	var b strings.Builder
	rng := rand.New(rand.NewSource(2))
	body := "x7Qk2Lp9Vw3Rt8Ym4Nb6Hc5Jd"
	for _, a := range alts {
		p := unquoteMeta(a)
		if rng.Intn(2) == 0 {
			p = strings.ToUpper(p)
		}
		b.WriteString("token: " + p + body[:10+rng.Intn(15)] + "\n")
		b.WriteString(p + p + body + " " + p + "\n")
	}
	text := []byte(b.String())
	scan := func(r *Rule) []Finding {
		s, err := NewScanner(Config{Rules: []*Rule{r}})
		if err != nil {
			t.Fatal(err)
		}
		return s.Scan("x.env", text)
	}
	want := scan(whole)
	if len(want) == 0 {
		t.Fatal("no finding: the test tests nothing")
	}
	// from goroutines at once on a fresh scanner: the narrowed expressions
	// are compiled on first hit, under the race detector too
	s, err := NewScanner(Config{Rules: []*Rule{prefixedTokenRule()}})
	if err != nil {
		t.Fatal(err)
	}
	got := make([][]Finding, 4)
	var wg sync.WaitGroup
	for g := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[g] = s.Scan("x.env", text)
		}()
	}
	wg.Wait()
	for _, g := range got {
		if !reflect.DeepEqual(g, want) {
			t.Fatalf("narrowed: %d findings, whole: %d", len(g), len(want))
		}
	}
}

func TestHeadAgrees(t *testing.T) {
	for _, c := range []struct {
		a, k string
		want bool
	}{
		{"sk-", "sk-proj-", true}, {"sk-proj-", "sk-", true}, {"SK-", "sk-", true},
		{"sk-ant-", "sk-proj-", false}, {"xoxb-", "xoxp-", false}, {"é-", "e-", true},
	} {
		if got := headAgrees(c.a, c.k); got != c.want {
			t.Errorf("headAgrees(%q, %q) = %v", c.a, c.k, got)
		}
	}
	if got := unquoteMeta(regexp.QuoteMeta("pat.a+b")); got != "pat.a+b" {
		t.Errorf("unquoteMeta: %q", got)
	}
}
