package secrets

import "testing"

// TestBuiltinExpressions: the built-in rules' expressions, compiled when a
// scan first needs them, all compile, and each rule's SecretGroup is one
// of its groups, as compileRule checks of a rule given compiled.
func TestBuiltinExpressions(t *testing.T) {
	rules := builtinCompiled()
	if len(rules) < 20 {
		t.Fatalf("%d built-in rules", len(rules))
	}
	for _, r := range rules {
		if r.builtinRE == nil && r.Regex == nil {
			t.Errorf("%s: no expression", r.ID)
			continue
		}
		re := r.Expr() // panics on an invalid expression
		if r.SecretGroup < 0 || r.SecretGroup > re.NumSubexp() {
			t.Errorf("%s: secret group %d does not exist", r.ID, r.SecretGroup)
		}
		if r.builtinRE != nil && re.String() != r.builtinRE.src {
			t.Errorf("%s: compiled %q from %q", r.ID, re, r.builtinRE.src)
		}
	}
}
