package prose

import (
	"strings"
	"testing"
)

// TestWholeAltsDeferred: a rule with a backtracking token compiles its
// whole alternation when read from YAML (which reports a bad one), not
// when compiled from the style cache, where a token-by-token run never
// needs it; a raw-scope run compiles it and finds what the tokens find.
func TestWholeAltsDeferred(t *testing.T) {
	src := []byte("extends: existence\nmessage: \"'%s'\"\nscope: raw\ntokens:\n  - '(?<=very )good'\n  - nice\n")
	r, skip, err := ParseRule("T.Deferred", "T/Deferred.yml", src)
	if err != nil || skip != "" {
		t.Fatal(err, skip)
	}
	e := r.check.(*existence)
	if !e.whole.deferred || e.whole.p == nil {
		t.Fatalf("read from YAML: deferred %v, compiled %v; want both", e.whole.deferred, e.whole.p != nil)
	}
	c, err := compile(r, nil) // as compileCached does
	if err != nil {
		t.Fatal(err)
	}
	e = c.(*existence)
	if e.whole.p != nil {
		t.Fatal("compiled from the cache: the whole alternation was compiled before a run needed it")
	}
	var got []string
	text := "a very good and nice day"
	e.run(text, nil, func(h hit) { got = append(got, text[h.start:h.end]) })
	if strings.Join(got, ",") != "good,nice" {
		t.Fatalf("raw run found %q", got)
	}
}
