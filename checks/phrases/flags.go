package phrases

import (
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/svrnty/sotvet/sotparse"
)

// sectionList is a comma-separated list of phrase section headings, each one
// of sotparse.PhraseSections (any case).
type sectionList []string

// Clone returns a copy, so that a configuration can be validated without
// changing the flag.
func (x *sectionList) Clone() flag.Value { c := slices.Clone(*x); return &c }

func (l *sectionList) String() string { return strings.Join(*l, ",") }

func (l *sectionList) Set(v string) error {
	var out []string
	for _, s := range strings.Split(v, ",") {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		i := slices.IndexFunc(sotparse.PhraseSections, func(p string) bool { return strings.EqualFold(p, s) })
		if i < 0 {
			return fmt.Errorf("unknown phrase section %q (want %s)", s, strings.Join(sotparse.PhraseSections, ", "))
		}
		out = append(out, sotparse.PhraseSections[i])
	}
	*l = out
	return nil
}
