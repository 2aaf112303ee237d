package consistency

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/svrnty/sotvet/sotparse"
)

// headings reports a heading text repeated under one parent with a
// different body, and dated siblings out of order.
func (c *checker) headings(d *sotparse.Doc, content []byte, secs []section) {
	type key struct {
		parent, level int
		text          string
	}
	first := map[key]int{}
	type dated struct {
		date string
		i    int
	}
	latest := map[[2]int]dated{} // by parent and level: the latest date so far
	for i, s := range secs {
		text := strings.ToLower(strings.Join(strings.Fields(s.h.Text), " "))
		if text == "" {
			continue
		}
		k := key{s.parent, s.h.Level, text}
		if j, ok := first[k]; ok {
			if !bytes.Equal(bytes.TrimSpace(content[secs[j].bodyStart:secs[j].end]), bytes.TrimSpace(content[s.bodyStart:s.end])) {
				c.diag(s.h.Pos, s.h.End, "duplicate-heading",
					fmt.Sprintf("heading %q repeats the heading on line %d with a different body", s.h.Text, d.File.Tok.Line(secs[j].h.Pos)),
					related(secs[j].h.Pos, "the first %q", s.h.Text), nil)
			}
		} else {
			first[k] = i
		}
		dates := isoDates(s.h.Text)
		if len(dates) == 0 || !validDate(dates[0]) {
			continue
		}
		m := []string{dates[0], dates[0]}
		sib := [2]int{s.parent, s.h.Level}
		if prev, ok := latest[sib]; ok && m[1] < prev.date {
			c.diag(s.h.Pos, s.h.End, "date-order",
				fmt.Sprintf("section dated %s is placed after a section dated %s (line %d): dated sections are out of chronological order", m[1], prev.date, d.File.Tok.Line(secs[prev.i].h.Pos)),
				related(secs[prev.i].h.Pos, "the later-dated section %q", secs[prev.i].h.Text), nil)
			continue
		}
		latest[sib] = dated{m[1], i}
	}
}
