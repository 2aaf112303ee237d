// Package smallset answers membership in a set of strings asked about many
// more strings than it holds.
package smallset

// linearMax is the most keys compared one by one: up to there a few
// lengths compared cost less than hashing every string asked about.
const linearMax = 8

// Of returns whether a string is one of keys. It keeps its own copy of
// keys; duplicates are allowed.
func Of(keys []string) func(string) bool {
	if len(keys) <= linearMax {
		return linear(keys)
	}
	return hashed(keys)
}

func linear(keys []string) func(string) bool {
	list := append([]string(nil), keys...)
	return func(p string) bool {
		for _, q := range list {
			if len(q) == len(p) && q == p {
				return true
			}
		}
		return false
	}
}

func hashed(keys []string) func(string) bool {
	set := make(map[string]struct{}, len(keys))
	for _, k := range keys {
		set[k] = struct{}{}
	}
	return func(p string) bool { _, ok := set[p]; return ok }
}
