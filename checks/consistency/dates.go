package consistency

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/svrnty/sotvet/checks/internal/bodylines"
	"github.com/svrnty/sotvet/sotparse"
)

var (
	isoDate = regexp.MustCompile(`\b(\d{4}-\d{2}-\d{2})\b`)
	// A run directory's name starts with its UTC start time.
	runStamp = regexp.MustCompile(`\b(\d{4})(\d{2})(\d{2})T\d{6}Z\b`)
)

// today is the latest date a body date may have to count: later ones are
// plans, or typos the frontmatter check does not see.
var today = func() string { return time.Now().Format(time.DateOnly) }

// validDate reports whether s is a real calendar date no later than today.
func validDate(s string) bool {
	_, err := time.Parse(time.DateOnly, s)
	return err == nil && s <= today()
}

// staleReview reports a last_reviewed date older than the newest date in
// the body.
func (c *checker) staleReview(d *sotparse.Doc, content []byte) {
	fm := d.Frontmatter
	if fm == nil || fm.LastReviewed == nil || !fm.LastReviewed.Scalar {
		return
	}
	reviewed := strings.TrimSpace(fm.LastReviewed.Value)
	if _, err := time.Parse(time.DateOnly, reviewed); err != nil {
		return // the frontmatter check reports it
	}
	newest, at, what := "", 0, ""
	consider := func(date string, off int, kind string) {
		if validDate(date) && date > newest {
			newest, at, what = date, off, kind
		}
	}
	tf := d.File.Tok
	for _, h := range d.Headings {
		for _, m := range isoDate.FindAllStringSubmatch(h.Text, -1) {
			consider(m[1], tf.Offset(h.Pos), "a dated heading")
		}
	}
	for _, ln := range bodylines.Lines(content, tf.Offset(d.BodyStart), len(content)) {
		if !strings.Contains(ln.Text, "T") || !strings.Contains(ln.Text, "Z") {
			continue
		}
		for _, m := range runStamp.FindAllStringSubmatchIndex(ln.Text, -1) {
			t := ln.Text
			consider(t[m[2]:m[3]]+"-"+t[m[4]:m[5]]+"-"+t[m[6]:m[7]], ln.Off+m[0], "a run directory's timestamp")
		}
	}
	if newest == "" || newest <= reviewed {
		return
	}
	c.report(fm.LastReviewed.ValuePos, fm.LastReviewed.ValueEnd, "stale-review",
		fmt.Sprintf("last_reviewed is %s, but the body records %s (%s)", reviewed, newest, what),
		related(d.File.Pos(at), "%s records %s", what, newest),
		replace("set last_reviewed to "+newest, fm.LastReviewed.ValuePos, fm.LastReviewed.ValueEnd, newest))
}
