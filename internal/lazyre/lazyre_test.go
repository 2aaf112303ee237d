package lazyre

import (
	"regexp"
	"slices"
	"testing"
)

func TestLazy(t *testing.T) {
	var g Group
	re := g.New(`(?i)\b(a+)(?P<tail>b*)`)
	if re.re != nil {
		t.Fatal("compiled before use")
	}
	if !re.MatchString("x AAbb") || re.FindStringSubmatch("x AAbb")[1] != "AA" || re.SubexpIndex("tail") != 2 {
		t.Error("matches differ from regexp's")
	}
	other := g.New(`c`)
	g.Compile()
	if other.re == nil {
		t.Error("Compile left an expression uncompiled")
	}
	if re.String() != `(?i)\b(a+)(?P<tail>b*)` || !slices.Equal(re.FindAllString("ab aab", -1), []string{"ab", "aab"}) {
		t.Error("String or FindAllString")
	}
}

func TestCompileAllPanicsOnInvalid(t *testing.T) {
	var g Group
	g.New(`(`)
	defer func() {
		if recover() == nil {
			t.Error("an invalid expression compiled")
		}
		// Leave no invalid group for other tests.
		groups.Lock()
		groups.list = slices.DeleteFunc(groups.list, func(x *Group) bool { return x == &g })
		groups.Unlock()
	}()
	CompileAll()
}

// TestOutsideGroups: New's expressions join no group, so that CompileAll
// leaves them for their first use; Of's is the expression it was given.
func TestOutsideGroups(t *testing.T) {
	re := New(`^x+$`)
	CompileAll()
	if re.re != nil {
		t.Fatal("CompileAll compiled an expression of no group")
	}
	if !re.MatchString("xx") || re.MatchString("xy") {
		t.Error("matches differ from regexp's")
	}
	compiled := regexp.MustCompile(`y`)
	if of := Of(compiled); of.Regexp() != compiled || of.String() != "y" {
		t.Error("Of does not hold the expression it was given")
	}
}
