// Package owned copies the strings a per-document check keeps out of the
// document's text. The parse lets each text go once its checks ran
// (sotparse.Stream.Release); a kept string that is a view of the text
// would keep all of it alive for the run.
package owned

import (
	"strings"
	"unsafe"
)

// Copies makes one copy of each view it is given: a line that states many
// things (a line of 200 ids, each a statement) is held once, as its view
// was, not once per statement. The zero value is ready to use.
type Copies struct {
	m map[view]string
}

type view struct {
	p *byte
	n int
}

// Own returns a copy of s that shares no memory with s, the same copy for
// the same view.
func (c *Copies) Own(s string) string {
	if s == "" {
		return s
	}
	v := view{unsafe.StringData(s), len(s)}
	if o, ok := c.m[v]; ok {
		return o
	}
	if c.m == nil {
		c.m = map[view]string{}
	}
	o := strings.Clone(s)
	c.m[v] = o
	return o
}
