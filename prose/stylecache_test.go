package prose

import (
	"crypto/sha256"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sync"
	"testing"
)

// TestStyleCacheRoundTrip fills every exported field of a Rule with a
// random value and wants it back from the cache's encoding: a field added
// to Rule and not to the encoding fails here.
func TestStyleCacheRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	str := func() string {
		b := make([]byte, r.IntN(6))
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		return string(b)
	}
	var fill func(v reflect.Value)
	fill = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.String:
			v.SetString(str())
		case reflect.Bool:
			v.SetBool(true)
		case reflect.Int:
			v.SetInt(int64(1 + r.IntN(1000)))
		case reflect.Float64:
			v.SetFloat(r.Float64())
		case reflect.Slice:
			n := r.IntN(4)
			v.Set(reflect.MakeSlice(v.Type(), n, n))
			for i := range n {
				fill(v.Index(i))
			}
		case reflect.Array:
			for i := range v.Len() {
				fill(v.Index(i))
			}
		case reflect.Struct:
			for i := range v.NumField() {
				if v.Type().Field(i).IsExported() {
					fill(v.Field(i))
				}
			}
		default:
			t.Fatalf("Rule has a field of kind %s the test cannot fill", v.Kind())
		}
	}
	for range 200 {
		want := &Rule{}
		fill(reflect.ValueOf(want).Elem())
		files := []ruleFile{{"S.R", "S/R.yml", []byte("x")}, {"S.Q", "S/Q.yml", nil}}
		data := encodeStyleCache("key", files, []cachedRule{{rule: want}, {skip: "why"}})
		got, err := decodeStyleCache(data, "key", files)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got[0].rule, want) || got[1].skip != "why" {
			t.Fatalf("got %+v, want %+v", got[0].rule, want)
		}
	}
	// What compiling derived comes back too.
	lits := func() []string {
		if r.IntN(3) == 0 {
			return nil
		}
		out := make([]string, r.IntN(3))
		for i := range out {
			out[i] = str()
		}
		return out
	}
	req := func() *requirement {
		if r.IntN(3) == 0 {
			return nil
		}
		q := &requirement{factors: make([]factor, r.IntN(4)), ascii: r.IntN(2) == 0}
		for i := range q.factors {
			q.factors[i] = make(factor, r.IntN(4))
			for j := range q.factors[i] {
				for w := range q.factors[i][j] {
					q.factors[i][j][w] = r.Uint64()
				}
			}
		}
		return q
	}
	for range 200 {
		want := cachedRule{rule: &Rule{Name: str()}, pre: &prefilterFacts{lits(), req()}}
		if r.IntN(2) == 0 {
			want.alts = []altFact{}
			for range r.IntN(3) {
				want.alts = append(want.alts, altFact{lits(), req(), r.IntN(2) == 0})
			}
		}
		for range r.IntN(4) {
			want.facts = append(want.facts, patternFacts{src: str(), back: r.IntN(2) == 0, lits: lits(), req: req(), litReq: req(), litReqSet: r.IntN(2) == 0})
		}
		files := []ruleFile{{"S.R", "S/R.yml", nil}}
		got, err := decodeStyleCache(encodeStyleCache("k", files, []cachedRule{want}), "k", files)
		if want.facts == nil {
			want.facts = []patternFacts{}
		}
		if err != nil || !reflect.DeepEqual(got[0], want) {
			t.Fatalf("got %#v, %v; want %#v", got[0], err, want)
		}
	}
	// nil and empty lists stay apart.
	files := []ruleFile{{"S.R", "S/R.yml", nil}}
	for _, want := range []*Rule{{Tokens: []string{}}, {Tokens: nil}} {
		got, err := decodeStyleCache(encodeStyleCache("k", files, []cachedRule{{rule: want}}), "k", files)
		if err != nil || !reflect.DeepEqual(got[0].rule, want) {
			t.Fatalf("got %#v, %v; want %#v", got[0].rule, err, want)
		}
	}
}

// TestStyleCacheDamaged wants every change to a cache file's bytes, and
// every cut, refused, never a panic or a different rule; and a set read
// through a damaged file the same as without a cache.
func TestStyleCacheDamaged(t *testing.T) {
	files := []ruleFile{{"S.R", "S/R.yml", []byte("a")}, {"S.Q", "S/Q.yml", []byte("b")}}
	rule := &Rule{Name: "S.R", Extends: "existence", Tokens: []string{"foo", "bar"}, Scopes: []string{"text"}, Level: Warning}
	data := encodeStyleCache("key", files, []cachedRule{{rule: rule}, {skip: "why"}})
	for i := range data {
		for _, x := range []byte{1, 0x80} {
			bad := append([]byte(nil), data...)
			bad[i] ^= x
			if got, err := decodeStyleCache(bad, "key", files); err == nil {
				t.Fatalf("byte %d ^ %#x taken: %+v", i, x, got[0].rule)
			}
		}
		if _, err := decodeStyleCache(data[:i], "key", files); err == nil {
			t.Fatalf("cut at %d taken", i)
		}
	}
	if _, err := decodeStyleCache(data, "other key", files); err == nil {
		t.Fatal("another build's file taken")
	}
	if _, err := decodeStyleCache(data, "key", files[:1]); err == nil {
		t.Fatal("a file of another set taken")
	}

	// Through LoadStyles: a damaged file is read around, and rewritten.
	dir := t.TempDir()
	styles := writeStyle(t, dir, map[string]string{"R": "extends: existence\nmessage: '%s'\ntokens: [foo]\n"})
	c := &StyleCache{Dir: filepath.Join(dir, "cache"), Key: "k"}
	want := loadWith(t, nil, styles)
	loadWith(t, c, styles)
	names, _ := filepath.Glob(filepath.Join(c.Dir, "*.rules"))
	if len(names) != 1 {
		t.Fatalf("cache files %v, want one", names)
	}
	for _, damage := range [][]byte{nil, []byte("garbage"), []byte(styleCacheMagic + "\x01k")} {
		if err := os.WriteFile(names[0], damage, 0o600); err != nil {
			t.Fatal(err)
		}
		if got := loadWith(t, c, styles); !sameRules(got, want) {
			t.Fatalf("through a damaged cache %+v, want %+v", got.Rules, want.Rules)
		}
		if data, _ := os.ReadFile(names[0]); len(data) <= len(damage) {
			t.Fatal("damaged cache file not rewritten")
		}
	}
}

// TestStyleCacheHugeCount has a cache file whose hash is right (it is not
// keyed: anyone who can write the file can make one) ask for just more
// elements than its bytes could hold, for every count it has, and wants it
// refused before anything of that size is allocated.
func TestStyleCacheHugeCount(t *testing.T) {
	files := []ruleFile{{"S.R", "S/R.yml", nil}}
	filler := make([]byte, 1<<20) // zeros: empty strings, nils, false
	zeros := func(e *encoder, n int) {
		for range n {
			e.uint(0)
		}
	}
	head := func(e *encoder) {
		e.uint(1)
		e.str("S.R")
		e.str("S/R.yml")
		e.str("")
	}
	over := func(min int) uint64 { return uint64(len(filler)/min + 1) }
	cases := []struct {
		name string
		enc  func(*encoder)
	}{
		{"facts", func(e *encoder) { head(e); e.rule(&Rule{}); e.uint(over(minFactSize)) }},
		{"scopes", func(e *encoder) { head(e); zeros(e, 6); e.uint(over(minStrSize) + 1) }},
		{"swap", func(e *encoder) { head(e); zeros(e, 16); e.uint(over(minPairSize) + 1) }},
		{"either", func(e *encoder) { head(e); zeros(e, 24); e.uint(over(minPairSize) + 1) }},
		{"alts", func(e *encoder) { head(e); e.rule(&Rule{}); zeros(e, 3); e.uint(over(minAltSize) + 1) }},
		{"factors", func(e *encoder) { head(e); e.rule(&Rule{}); e.uint(1); zeros(e, 3); e.uint(over(minReqSize) + 1) }},
		{"sets", func(e *encoder) {
			head(e)
			e.rule(&Rule{})
			e.uint(1)
			zeros(e, 3)
			e.uint(2)
			e.uint(over(setSize))
		}},
	}
	for _, tc := range cases {
		var e encoder
		tc.enc(&e)
		payload := append(e.b, filler...)
		sum := sha256.Sum256(payload)
		data := append([]byte(styleCacheMagic), 3, 'k', 'e', 'y')
		data = append(append(data, sum[:]...), payload...)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := decodeStyleCache(data, "key", files)
		runtime.ReadMemStats(&after)
		if err == nil {
			t.Errorf("%s: a count past the file's end taken", tc.name)
		}
		if got := after.TotalAlloc - before.TotalAlloc; got > 1<<20 {
			t.Errorf("%s: refusing it allocated %d bytes", tc.name, got)
		}
	}
}

// TestStyleCacheChanged changes a rule file between runs and wants the
// new rule, not the cached one.
func TestStyleCacheChanged(t *testing.T) {
	dir := t.TempDir()
	c := &StyleCache{Dir: filepath.Join(dir, "cache"), Key: "k"}
	styles := writeStyle(t, dir, map[string]string{"R": "extends: existence\nmessage: '%s'\ntokens: [foo]\n"})
	first := loadWith(t, c, styles)
	files, err := readRuleFiles(styles)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := readStyleCache(c, files); !ok {
		t.Fatal("the first load left no cache the second can read")
	}
	if got := loadWith(t, c, styles); !sameRules(got, first) {
		t.Fatal("cached set differs from the set read")
	}
	writeStyle(t, dir, map[string]string{"R": "extends: existence\nmessage: '%s'\ntokens: [bar]\n"})
	got := loadWith(t, c, styles)
	if toks := got.Rules["S.R"].Tokens; len(toks) != 1 || toks[0] != "bar" {
		t.Fatalf("after the change, tokens %q, want [bar]", toks)
	}
	// A new file joins the set.
	writeStyle(t, dir, map[string]string{"Q": "extends: existence\nmessage: x\ntokens: [baz]\n"})
	if got := loadWith(t, c, styles); got.Rules["S.Q"] == nil || got.Rules["S.R"] == nil {
		t.Fatalf("after a file was added, rules %v", got.Rules)
	}
	// Another build reads the YAML.
	other := &StyleCache{Dir: c.Dir, Key: "k2"}
	loadWith(t, other, styles)
	if names, _ := filepath.Glob(filepath.Join(c.Dir, "*.rules")); len(names) != 4 {
		t.Fatalf("cache files %v, want 4", names)
	}
}

// TestStyleCacheConcurrent has processes' worth of loaders read and write
// one cache at once: each gets the rules of the YAML.
func TestStyleCacheConcurrent(t *testing.T) {
	dir := t.TempDir()
	c := &StyleCache{Dir: filepath.Join(dir, "cache"), Key: "k"}
	styles := writeStyle(t, dir, map[string]string{
		"R": "extends: existence\nmessage: '%s'\ntokens: [foo, bar]\n",
		"Q": "extends: substitution\nmessage: \"Use '%s' instead of '%s'.\"\nswap:\n  a: b\n  c: d\n",
		"P": "extends: spelling\nmessage: x\n",
	})
	want := loadWith(t, nil, styles)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 10 {
				st, err := loadStyles(c, styles)
				if err != nil {
					t.Error(err)
					return
				}
				if !sameRules(st, want) {
					t.Errorf("a concurrent load got %+v, want %+v", st.Rules, want.Rules)
					return
				}
			}
		})
	}
	wg.Wait()
}

func writeStyle(t *testing.T, dir string, rules map[string]string) string {
	t.Helper()
	styles := filepath.Join(dir, "styles")
	if err := os.MkdirAll(filepath.Join(styles, "S"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, y := range rules {
		if err := os.WriteFile(filepath.Join(styles, "S", name+".yml"), []byte(y), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return styles
}

func loadStyles(c *StyleCache, styles string) (*Styles, error) {
	files, err := readRuleFiles(styles)
	if err != nil {
		return nil, err
	}
	s, _, err := parseRuleFiles(c, files)
	return s, err
}

func loadWith(t *testing.T, c *StyleCache, styles string) *Styles {
	t.Helper()
	st, err := loadStyles(c, styles)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func readRuleFiles(styles string) ([]ruleFile, error) {
	names, err := filepath.Glob(filepath.Join(styles, "S", "*.yml"))
	if err != nil {
		return nil, err
	}
	var out []ruleFile
	for _, n := range names {
		data, err := os.ReadFile(n)
		if err != nil {
			return nil, err
		}
		out = append(out, ruleFile{"S." + filepath.Base(n[:len(n)-4]), n, data})
	}
	return out, nil
}

// sameRules compares two sets' rules field by field, compiled checks
// aside.
func sameRules(a, b *Styles) bool {
	if len(a.Rules) != len(b.Rules) || !reflect.DeepEqual(a.Skipped, b.Skipped) {
		return false
	}
	for name, ra := range a.Rules {
		rb := b.Rules[name]
		if rb == nil {
			return false
		}
		x, y := *ra, *rb
		x.check, y.check, x.pre, y.pre = nil, nil, nil, nil
		if !reflect.DeepEqual(x, y) {
			return false
		}
	}
	return true
}

// TestStyleCacheLintsAlike lints the stored fixtures with the four
// packages read from their YAML and from the style cache, whose patterns
// are made from what compiling derived and worked out as they first run:
// every alert the same.
// lazyRules counts the rules l has read whose token patterns are made
// when first needed, as only rules made from the style cache are.
func lazyRules(l *Linter) int {
	n := 0
	for _, st := range l.Styles {
		for _, r := range st.Rules {
			switch c := r.check.(type) {
			case *existence:
				n += btoi(c.lazy != nil)
			case *substitution:
				n += btoi(c.lazy != nil)
			}
		}
	}
	return n
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestStyleCacheLintsAlike(t *testing.T) {
	want := lintTree(t, storedLinter(t), "../testdata/prose/other")
	SetStyleCache(&StyleCache{Dir: t.TempDir(), Key: "k"})
	defer SetStyleCache(nil)
	for i, from := range []string{"the YAML, cached", "the cache"} {
		l := storedLinter(t)
		got := lintTree(t, l, "../testdata/prose/other")
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("read from %s: %d alert places, want %d", from, len(got), len(want))
		}
		// Rules made from the cache make their token patterns when first
		// needed: none do from the YAML, some must from the cache (else
		// the second pass read the YAML again and compared nothing).
		if lazy := lazyRules(l); (lazy > 0) != (i == 1) {
			t.Fatalf("read from %s: %d rules with patterns made on demand", from, lazy)
		}
	}
	names, _ := filepath.Glob(filepath.Join(styleCache.Load().Dir, "*.rules"))
	if len(names) != 1 {
		t.Fatalf("cache files %v, want one", names)
	}
}

// TestStyleCacheLintsConcurrently has goroutines lint the same fixtures
// with one linter whose styles came from the cache, as a run's workers
// do: each pattern is worked out by the first that runs it (run it under
// -race), and every worker gets the alerts a lone linter gets.
func TestStyleCacheLintsConcurrently(t *testing.T) {
	root := "../testdata/prose/other"
	names, _ := filepath.Glob(filepath.Join(root, "*.md"))
	// A sample: TestStyleCacheLintsAlike holds every file.
	names = names[:min(len(names), 16)]
	if raceEnabled {
		names = names[:min(len(names), 8)]
	}
	srcs := make([][]byte, len(names))
	for i, n := range names {
		var err error
		if srcs[i], err = os.ReadFile(n); err != nil {
			t.Fatal(err)
		}
	}
	lintAll := func(l *Linter) [][]Alert {
		out := make([][]Alert, len(names))
		for i, n := range names {
			a, err := l.Lint(filepath.Base(n), srcs[i])
			if err != nil {
				t.Error(err)
			}
			out[i] = a
		}
		return out
	}
	want := lintAll(storedLinter(t))
	SetStyleCache(&StyleCache{Dir: t.TempDir(), Key: "k"})
	defer SetStyleCache(nil)
	lintAll(storedLinter(t)) // fills the cache
	l := storedLinter(t)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if got := lintAll(l); !reflect.DeepEqual(got, want) {
				t.Error("a worker's alerts differ from a lone linter's")
			}
		})
	}
	wg.Wait()
}
