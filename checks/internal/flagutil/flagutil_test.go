package flagutil

import "testing"

func TestGlobs(t *testing.T) {
	var g Globs
	if err := g.Set(".sot/**, {a,b}/*.md ,"); err != nil {
		t.Fatal(err)
	}
	if len(g) != 2 || !g.Match(".sot/03-PROTOCOLS/X-PRD.md") || !g.Match("b/y.md") || g.Match("c/y.md") {
		t.Errorf("globs %q match wrongly", g)
	}
	for _, bad := range []string{"/abs/**", "../up", "a/[b"} {
		if err := g.Clone().Set(bad); err == nil {
			t.Errorf("Set(%q) accepted", bad)
		}
	}
}

func TestKinds(t *testing.T) {
	var k Kinds
	if err := k.Set("prd, Issues,other"); err != nil {
		t.Fatal(err)
	}
	if k.String() != "PRD,ISSUES,other" || !k.Has("ISSUES") || k.Has("EVIDENCE") {
		t.Errorf("kinds = %q", k.String())
	}
	if err := k.Set("NOTES"); err == nil {
		t.Error("unknown kind accepted")
	}
}
