package consistency

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/svrnty/sotvet/sotparse"
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
		for _, date := range isoDates(h.Text) {
			consider(date, tf.Offset(h.Pos), "a dated heading")
		}
	}
	body := tf.Offset(d.BodyStart)
	for _, at := range runStamps(content[body:]) {
		t := content[body+at:]
		consider(string(t[:4])+"-"+string(t[4:6])+"-"+string(t[6:8]), body+at, "a run directory's timestamp")
	}
	if newest == "" || newest <= reviewed {
		return
	}
	c.diag(fm.LastReviewed.ValuePos, fm.LastReviewed.ValueEnd, "stale-review",
		fmt.Sprintf("last_reviewed is %s, but the body records %s (%s)", reviewed, newest, what),
		related(d.File.Pos(at), "%s records %s", what, newest),
		unsafeReplace("set last_reviewed to "+newest, fm.LastReviewed.ValuePos, fm.LastReviewed.ValueEnd, newest))
}

// runStamps returns the offsets in s of run-directory timestamps
// ("20260601T025817Z", a run's UTC start), found from their "Z" rather
// than with a pattern: most lines have none.
func runStamps(s []byte) []int {
	var out []int
	for i := 0; i < len(s); i++ {
		j := bytes.IndexByte(s[i:], 'Z')
		if j < 0 {
			break
		}
		z := i + j
		i = z
		if z < 15 || s[z-7] != 'T' || !digits(s[z-15:z-7]) || !digits(s[z-6:z]) {
			continue
		}
		if z-15 > 0 && isWord(s[z-16]) || z+1 < len(s) && isWord(s[z+1]) {
			continue
		}
		out = append(out, z-15)
	}
	return out
}

func digits(s []byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func isWord(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// isoDates returns the YYYY-MM-DD words of s, found from their first "-"
// rather than with a pattern: most headings have none.
func isoDates(s string) []string {
	var out []string
	for i := 4; i+6 <= len(s); i++ {
		j := strings.IndexByte(s[i:], '-')
		if j < 0 {
			break
		}
		i += j
		st := i - 4
		if i+6 > len(s) || !digits([]byte(s[st:i])) || !digits([]byte(s[i+1:i+3])) || s[i+3] != '-' || !digits([]byte(s[i+4:i+6])) {
			continue
		}
		if st > 0 && isWord(s[st-1]) || i+6 < len(s) && isWord(s[i+6]) {
			continue
		}
		out = append(out, s[st:i+6])
	}
	return out
}
