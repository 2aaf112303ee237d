package consistency

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

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
		date  string
		i     int
		stamp string // the newest run timestamp of its body, or ""
		at    int    // the stamp's offset
		si    int    // the section whose body has the stamp
	}
	latest := map[[2]int]dated{} // by parent and level: the latest date so far
	for i, s := range secs {
		text := headingKey(s.h.Text)
		if text == "" {
			continue
		}
		k := key{s.parent, s.h.Level, text}
		if j, ok := first[k]; ok {
			if !bytes.Equal(bytes.TrimSpace(content[secs[j].bodyStart:secs[j].end]), bytes.TrimSpace(content[s.bodyStart:s.end])) {
				c.diag(s.h.Pos, s.h.End, "duplicate-heading",
					fmt.Sprintf("heading %q repeats the heading on line %d with a different body", s.h.Text, d.File.Lines().Line(secs[j].h.Pos)),
					related(secs[j].h.Pos, "the first %q", s.h.Text), nil)
			}
		} else {
			first[k] = i
		}
		dates := isoDates(s.h.Text)
		if len(dates) == 0 || !validDate(dates[0]) {
			continue
		}
		cur := dated{date: dates[0], i: i, si: i}
		cur.stamp, cur.at = newestStamp(content, s.bodyStart, s.end)
		sib := [2]int{s.parent, s.h.Level}
		prev, ok := latest[sib]
		if ok && cur.date < prev.date {
			c.diag(s.h.Pos, s.h.End, "date-order",
				fmt.Sprintf("section dated %s is placed after a section dated %s (line %d): dated sections are out of chronological order", cur.date, prev.date, d.File.Lines().Line(secs[prev.i].h.Pos)),
				related(secs[prev.i].h.Pos, "the later-dated section %q", secs[prev.i].h.Text), nil)
			continue
		}
		if ok && cur.date == prev.date && cur.stamp != "" && prev.stamp != "" && cur.stamp < prev.stamp {
			// The same day: the runs the sections record order them.
			rel := related(secs[prev.si].h.Pos, "the section placed above it, %q", secs[prev.si].h.Text)
			rel = append(rel, related(d.File.Pos(prev.at), "records the run of %s", prev.stamp)...)
			c.diag(s.h.Pos, s.h.End, "date-order",
				fmt.Sprintf("section %q records runs up to %s, older than the run of %s that the section on line %d, placed above it, records: it reads as newer evidence than it is; move it up, or mark it as history", s.h.Text, cur.stamp, prev.stamp, d.File.Lines().Line(secs[prev.si].h.Pos)),
				rel, nil)
			continue
		}
		if ok && cur.date == prev.date && cur.stamp < prev.stamp {
			cur.stamp, cur.at, cur.si = prev.stamp, prev.at, prev.si // keep the newest run of the day
		}
		latest[sib] = cur
	}
}

// newestStamp returns the newest run timestamp in content[start:end] and
// its offset, or "".
func newestStamp(content []byte, start, end int) (string, int) {
	newest, at := "", 0
	for _, o := range runStamps(content[start:end]) {
		if t := string(content[start+o : start+o+16]); t > newest {
			newest, at = t, start+o
		}
	}
	return newest, at
}

// headingKey is strings.ToLower(strings.Join(strings.Fields(s), " ")), the
// form headings are compared in, made without the fields and their join:
// an ASCII heading takes one allocation, none when it is in that form
// already.
func headingKey(s string) string {
	normal := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= utf8.RuneSelf:
			return strings.ToLower(strings.Join(strings.Fields(s), " "))
		case 'A' <= c && c <= 'Z', asciiSpace[c] && (c != ' ' || i == 0 || i == len(s)-1 || s[i-1] == ' '):
			normal = false
		}
	}
	if normal {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		if asciiSpace[s[i]] {
			i++
			continue
		}
		if len(b) > 0 {
			b = append(b, ' ')
		}
		for ; i < len(s) && !asciiSpace[s[i]]; i++ {
			c := s[i]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b = append(b, c)
		}
	}
	return string(b)
}

// asciiSpace holds the ASCII bytes strings.Fields splits at.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}
