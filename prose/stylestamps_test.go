package prose

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/svrnty/sotvet/cache"
)

// laterClock judges stamps as a run an hour from now would: the files a
// test has just written are old enough for the stamp index.
func laterClock(t *testing.T) {
	t.Helper()
	old := cache.SetClock(func() time.Time { return time.Now().Add(time.Hour) })
	t.Cleanup(func() { cache.SetClock(old) })
}

// loadCounting loads style S under styles with the style cache c, and
// returns the set and how many rule files it read from disk.
func loadCounting(t *testing.T, c *StyleCache, styles string) (*Styles, int64) {
	t.Helper()
	SetStyleCache(c)
	defer SetStyleCache(nil)
	before := ruleReads.Load()
	st, err := LoadStyles(styles, []string{"S"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return st, ruleReads.Load() - before
}

func stampFiles(t *testing.T, c *StyleCache) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(c.Dir, "*.stamps"))
	if err != nil {
		t.Fatal(err)
	}
	return names
}

// TestStyleStampsTaken: a second run with the rule files unchanged reads
// none of them (the stamp index names the cache file); a changed, added
// or removed file is read again, and its change is seen.
func TestStyleStampsTaken(t *testing.T) {
	laterClock(t)
	dir := t.TempDir()
	c := &StyleCache{Dir: filepath.Join(dir, "cache"), Key: "k"}
	styles := writeStyle(t, dir, map[string]string{
		"R": "extends: existence\nmessage: '%s'\ntokens: [foo]\n",
		"Q": "extends: substitution\nmessage: \"Use '%s' instead of '%s'.\"\nswap:\n  a: b\n",
		"P": "extends: spelling\nmessage: x\n",
	})
	want, _ := loadCounting(t, nil, styles)
	if got, n := loadCounting(t, c, styles); n != 3 || !sameRules(got, want) {
		t.Fatalf("first run read %d files, want 3 (rules alike: %v)", n, sameRules(got, want))
	}
	if names := stampFiles(t, c); len(names) != 1 {
		t.Fatalf("stamp index files %v, want one", names)
	}
	for range 2 {
		got, n := loadCounting(t, c, styles)
		if n != 0 {
			t.Fatalf("an unchanged set read %d rule files, want none", n)
		}
		if !sameRules(got, want) {
			t.Fatalf("through the stamp index %+v, want %+v", got.Rules, want.Rules)
		}
	}
	// The same size, another content: the times tell.
	writeStyle(t, dir, map[string]string{"R": "extends: existence\nmessage: '%s'\ntokens: [bar]\n"})
	got, n := loadCounting(t, c, styles)
	if n != 3 || got.Rules["S.R"].Tokens[0] != "bar" {
		t.Fatalf("after a change read %d files, tokens %q", n, got.Rules["S.R"].Tokens)
	}
	if _, n := loadCounting(t, c, styles); n != 0 {
		t.Fatalf("the changed set, unchanged since, read %d files", n)
	}
	if err := os.Remove(filepath.Join(styles, "S", "P.yml")); err != nil {
		t.Fatal(err)
	}
	if got, n := loadCounting(t, c, styles); n != 2 || len(got.Skipped) != 0 {
		t.Fatalf("after a removal read %d files, skipped %v", n, got.Skipped)
	}
	writeStyle(t, dir, map[string]string{"O": "extends: existence\nmessage: x\ntokens: [baz]\n"})
	if got, n := loadCounting(t, c, styles); n != 3 || got.Rules["S.O"] == nil {
		t.Fatalf("after an addition read %d files, rules %v", n, got.Rules)
	}
	// Another build has its own index.
	if _, n := loadCounting(t, &StyleCache{Dir: c.Dir, Key: "k2"}, styles); n != 3 {
		t.Fatalf("another build read %d files, want 3", n)
	}
}

// TestStyleStampsRacy: a rule file written too recently for its stamp to
// stand for its content (the racy rule) is read every run, and no index
// names it.
func TestStyleStampsRacy(t *testing.T) {
	dir := t.TempDir()
	c := &StyleCache{Dir: filepath.Join(dir, "cache"), Key: "k"}
	styles := writeStyle(t, dir, map[string]string{"R": "extends: existence\nmessage: '%s'\ntokens: [foo]\n"})
	old := cache.SetClock(nil)
	defer cache.SetClock(old)
	info, err := os.Stat(filepath.Join(styles, "S", "R.yml"))
	if err != nil {
		t.Fatal(err)
	}
	cache.SetClock(func() time.Time { return info.ModTime() }) // listed in the tick it was written
	for range 2 {
		if _, n := loadCounting(t, c, styles); n != 1 {
			t.Fatalf("read %d files, want 1", n)
		}
	}
	if names := stampFiles(t, c); len(names) != 0 {
		t.Fatalf("a racy stamp was indexed: %v", names)
	}
}

// TestStyleStampsDamaged: an index file that is damaged, of another
// build, or names a file that is not a cache file's name, or whose cache
// file is gone or damaged, is read around (the rule files are read) and
// written again.
func TestStyleStampsDamaged(t *testing.T) {
	data := encodeStyleStamps("key", styleCacheName("key", nil))
	if _, err := decodeStyleStamps(data, "key"); err != nil {
		t.Fatal(err)
	}
	for i := range data {
		for _, x := range []byte{1, 0x80} {
			bad := append([]byte(nil), data...)
			bad[i] ^= x
			if name, err := decodeStyleStamps(bad, "key"); err == nil {
				t.Fatalf("byte %d ^ %#x taken: %q", i, x, name)
			}
		}
		if _, err := decodeStyleStamps(data[:i], "key"); err == nil {
			t.Fatalf("cut at %d taken", i)
		}
	}
	if _, err := decodeStyleStamps(data, "other key"); err == nil {
		t.Fatal("another build's index taken")
	}
	for _, name := range []string{"../x.rules", "", styleCacheName("key", nil) + "x", "0123.rules"} {
		if _, err := decodeStyleStamps(encodeStyleStamps("key", name), "key"); err == nil {
			t.Fatalf("index naming %q taken", name)
		}
	}

	laterClock(t)
	dir := t.TempDir()
	c := &StyleCache{Dir: filepath.Join(dir, "cache"), Key: "k"}
	styles := writeStyle(t, dir, map[string]string{"R": "extends: existence\nmessage: '%s'\ntokens: [foo]\n"})
	want, _ := loadCounting(t, nil, styles)
	loadCounting(t, c, styles)
	names := stampFiles(t, c)
	if len(names) != 1 {
		t.Fatalf("stamp index files %v, want one", names)
	}
	good, err := os.ReadFile(names[0])
	if err != nil {
		t.Fatal(err)
	}
	outside := encodeStyleStamps("k", "../"+filepath.Base(c.Dir)+".rules")
	for _, damage := range [][]byte{nil, []byte("garbage"), good[:len(good)-1], encodeStyleStamps("k2", styleCacheName("k", nil)), outside} {
		if err := os.WriteFile(names[0], damage, 0o600); err != nil {
			t.Fatal(err)
		}
		got, n := loadCounting(t, c, styles)
		if n != 1 || !sameRules(got, want) {
			t.Fatalf("through a damaged index read %d files (want 1), rules alike: %v", n, sameRules(got, want))
		}
		if data, _ := os.ReadFile(names[0]); string(data) != string(good) {
			t.Fatal("damaged index not rewritten")
		}
	}
	// The cache file it names, gone or damaged.
	rules, _ := filepath.Glob(filepath.Join(c.Dir, "*.rules"))
	if len(rules) != 1 {
		t.Fatalf("cache files %v, want one", rules)
	}
	for _, damage := range []func() error{
		func() error { return os.Remove(rules[0]) },
		func() error { return os.WriteFile(rules[0], []byte(styleCacheMagic), 0o600) },
	} {
		if err := damage(); err != nil {
			t.Fatal(err)
		}
		if got, n := loadCounting(t, c, styles); n != 1 || !sameRules(got, want) {
			t.Fatalf("through a damaged cache file read %d files (want 1)", n)
		}
		if _, n := loadCounting(t, c, styles); n != 0 {
			t.Fatalf("after the cache file was written again, read %d files", n)
		}
	}
}
