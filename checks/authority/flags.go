package authority

import (
	"flag"
	"slices"
	"strings"
)

// wordList is a comma-separated list of words.
type wordList []string

// Clone returns a copy, so that a configuration can be validated without
// changing the flag.
func (x *wordList) Clone() flag.Value { c := slices.Clone(*x); return &c }

func (w *wordList) String() string { return strings.Join(*w, ",") }

func (w *wordList) Set(v string) error {
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	*w = out
	return nil
}
