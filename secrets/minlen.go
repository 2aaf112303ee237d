package secrets

import (
	"regexp/syntax"
)

// withSecretMinLen returns expr with each "secret" group whose content
// is one run of a class (C+, C*, or C* then one class D) made at least n
// bytes long, or "" when it changes nothing or cannot be done soundly
// (a path through two secret groups, or a group under a repetition).
//
// A rule with MinLen drops a match whose secret is shorter, but its
// filter (see prefilterDFA) cannot see that: on a line of
// token="'secret='" every hit holds a match, each too short, and the
// run went to the regexp whole. A text in which this expression has no
// match holds no match with a secret long enough, and the run is
// skipped; where it has one, the regexp reads the run as before.
func withSecretMinLen(expr string, n int) string {
	if n <= 1 || n > dfaKeepMin {
		return ""
	}
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil || secretsOnPath(re) > 1 {
		return ""
	}
	if !lengthenSecrets(re, n) {
		return ""
	}
	return regexpString(re)
}

// secretsOnPath returns the most secret groups one match can pass
// through (2 for a group under a repetition).
func secretsOnPath(re *syntax.Regexp) int {
	k := 0
	switch re.Op {
	case syntax.OpAlternate:
		for _, s := range re.Sub {
			k = max(k, secretsOnPath(s))
		}
		return k
	case syntax.OpCapture:
		k = secretsOnPath(re.Sub[0])
		if re.Name == "secret" {
			k++
		}
		return k
	case syntax.OpStar, syntax.OpPlus, syntax.OpRepeat:
		if secretsOnPath(re.Sub[0]) > 0 {
			return 2
		}
		return 0
	}
	for _, s := range re.Sub {
		k += secretsOnPath(s)
	}
	return k
}

// lengthenSecrets makes the runs of the secret groups under re at least
// n long and reports whether it changed one.
func lengthenSecrets(re *syntax.Regexp, n int) bool {
	changed := false
	if re.Op == syntax.OpCapture && re.Name == "secret" {
		sub := re.Sub[0]
		atLeast := func(c *syntax.Regexp, m int) *syntax.Regexp {
			return &syntax.Regexp{Op: syntax.OpRepeat, Flags: c.Flags, Min: m, Max: -1, Sub: []*syntax.Regexp{c}}
		}
		isClass := func(c *syntax.Regexp) bool {
			return c.Op == syntax.OpCharClass || c.Op == syntax.OpAnyChar || c.Op == syntax.OpAnyCharNotNL
		}
		switch {
		case (sub.Op == syntax.OpPlus || sub.Op == syntax.OpStar) && isClass(sub.Sub[0]):
			re.Sub[0] = atLeast(sub.Sub[0], n)
			return true
		case sub.Op == syntax.OpConcat && len(sub.Sub) == 2 && sub.Sub[0].Op == syntax.OpStar &&
			isClass(sub.Sub[0].Sub[0]) && isClass(sub.Sub[1]):
			sub.Sub[0] = atLeast(sub.Sub[0].Sub[0], n-1)
			return true
		}
		return false
	}
	for _, s := range re.Sub {
		changed = lengthenSecrets(s, n) || changed
	}
	return changed
}
