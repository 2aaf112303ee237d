package report

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"hash/maphash"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/svrnty/sotvet/checks"
)

// writeJUnit writes one testsuite per check, sorted by name: the checks in
// res.Checked, opt.Rules and the findings. Each finding is a testcase named
// by its position and message (made unique, as GitLab merges testcases of
// one name), with the file it is in: failing when its severity reaches
// opt.FailOn (as the exit code does); one below it is skipped, with the
// finding as its message, so a warning shows in GitLab without turning the
// report red. A check without findings has one passing testcase named after
// it. Times: the run's, in the root element; the checks run together, so a
// testcase's own time is not measured and is 0.
//
// The XML is written as encoding/xml's Encoder, indented by two spaces,
// writes a junitTestSuites, a testcase at a time; what a finding's
// testcase repeats (its file, its message) is escaped once.
func writeJUnit(buf *bufio.Writer, res *checks.Result, opt Options) error {
	names := append([]string(nil), res.Checked...)
	for _, r := range opt.Rules {
		names = append(names, r.Name)
	}
	seen := map[string]bool{}
	last := ""
	for i := range res.Findings {
		// A check's findings come in runs: its name is looked up once a run.
		if c := res.Findings[i].Check; c != last || i == 0 {
			last = c
			if !seen[c] {
				seen[c] = true
				names = append(names, c)
			}
		}
	}
	slices.Sort(names)
	names = slices.Compact(names)

	// The findings by suite, in their order within each (a counting sort),
	// and the suites' totals: the root element carries them.
	type suite struct {
		name                     string
		tests, failures, skipped int
		first, n                 int // the suite's findings: order[first : first+n]
	}
	suites := make([]suite, len(names))
	index := make(map[string]int, len(names))
	for k, name := range names {
		suites[k].name = name
		index[name] = k
	}
	of := make([]int32, len(res.Findings)) // finding -> its suite
	last, k := "", 0
	for i := range res.Findings {
		f := &res.Findings[i]
		if f.Check != last || i == 0 {
			last, k = f.Check, index[f.Check]
		}
		of[i] = int32(k)
		suites[k].n++
		if fails(f, opt.FailOn) {
			suites[k].failures++
		} else {
			suites[k].skipped++
		}
	}
	var tests, failures, skipped, at int
	for k := range suites {
		st := &suites[k]
		st.tests, st.first = max(1, st.n), at
		at += st.n
		tests, failures, skipped = tests+st.tests, failures+st.failures, skipped+st.skipped
	}
	// The findings beyond the caps are one more test case: it fails when
	// they would fail the run.
	note := omittedNote(res, opt)
	noteFails := omittedFail(res, opt.FailOn)
	if note != "" {
		tests++
		if noteFails {
			failures++
		} else {
			skipped++
		}
	}
	order := make([]int32, len(res.Findings))
	next := make([]int, len(suites))
	for k := range suites {
		next[k] = suites[k].first
	}
	for i, k := range of {
		order[next[k]] = int32(i)
		next[k]++
	}

	b := make([]byte, 0, 64<<10)
	b = append(b, xml.Header...)
	b = append(b, `<testsuites name="`...)
	b = appendXMLEscaped(b, opt.Tool)
	b = appendCount(b, `" tests="`, tests)
	b = appendCount(b, `" failures="`, failures)
	b = appendCount(b, `" skipped="`, skipped)
	b = append(b, `" time="`...)
	b = appendXMLEscaped(b, seconds(opt.Elapsed))
	b = append(b, `">`...)
	var (
		used     tcNames // testcase names written so far
		file     string  // the last finding's file, escaped as escFile
		escFile  []byte
		raw      []byte
		fileSeen bool
		// The last message, as fields joined (in the name) and escaped
		// both ways: findings in a run often say the same.
		message         string
		msg             string
		escName, escMsg []byte
		messageSeen     bool
	)
	used.init(len(res.Findings))
	for _, st := range suites {
		b = append(b, "\n  <testsuite name=\""...)
		b = appendXMLEscaped(b, st.name)
		b = appendCount(b, `" tests="`, st.tests)
		b = appendCount(b, `" failures="`, st.failures)
		b = appendCount(b, `" skipped="`, st.skipped)
		b = append(b, `" time="0">`...)
		if st.n == 0 {
			b = append(b, "\n    <testcase classname=\""...)
			b = appendXMLEscaped(b, st.name)
			b = append(b, `" name="`...)
			b = appendXMLEscaped(b, st.name)
			b = append(b, `" time="0"></testcase>`...)
		}
		escClass := appendXMLEscaped(nil, st.name)
		for _, i := range order[st.first : st.first+st.n] {
			f := &res.Findings[i]
			if !fileSeen || f.File != file {
				file, fileSeen = f.File, true
				escFile = appendXMLEscaped(escFile[:0], f.File)
			}
			if !messageSeen || f.Message != message {
				message, messageSeen = f.Message, true
				msg = normalFields(f.Message)
				escName = appendXMLEscaped(escName[:0], msg)
				escMsg = escName
				if msg != f.Message {
					escMsg = appendXMLEscaped(nil, f.Message)
				}
			}
			raw = appendTestcaseName(raw[:0], f.File, f.Line, f.Col, msg)
			n := used.count(raw, res.Findings, i)

			b = append(b, "\n    <testcase classname=\""...)
			b = append(b, escClass...)
			b = append(b, `" name="`...)
			// The name is the position and the message: each escaped is
			// the name escaped, as what joins them is ASCII.
			b = appendPos(b, escFile, f.Line, f.Col)
			b = append(b, ": "...)
			b = append(b, escName...)
			if n > 1 {
				b = append(b, " ("...)
				b = strconv.AppendInt(b, int64(n), 10)
				b = append(b, ')')
			}
			if f.File != "" {
				b = append(b, `" file="`...)
				b = append(b, escFile...)
			}
			if f.Line != 0 {
				b = append(b, `" line="`...)
				b = strconv.AppendInt(b, int64(f.Line), 10)
			}
			b = append(b, `" time="0">`...)
			sev := severity(f)
			if fails(f, opt.FailOn) {
				b = append(b, "\n      <failure message=\""...)
				b = append(b, escMsg...)
				b = append(b, `" type="`...)
				b = append(b, sev...)
				b = append(b, `">`...)
				b = appendPos(b, escFile, f.Line, f.Col)
				b = append(b, ": "...)
				b = append(b, escMsg...)
				b = append(b, "</failure>"...)
			} else {
				b = append(b, "\n      <skipped message=\""...)
				b = append(b, sev...)
				b = append(b, ": "...)
				b = append(b, escMsg...)
				b = append(b, `"></skipped>`...)
				b = append(b, "\n      <system-out>"...)
				b = appendPos(b, escFile, f.Line, f.Col)
				b = append(b, ": "...)
				b = append(b, sev...)
				b = append(b, ": "...)
				b = append(b, escMsg...)
				b = append(b, "</system-out>"...)
			}
			b = append(b, "\n    </testcase>"...)
			if len(b) > 32<<10 {
				buf.Write(b)
				b = b[:0]
			}
		}
		b = append(b, "\n  </testsuite>"...)
	}
	if note != "" {
		esc := appendXMLEscaped(nil, note)
		b = append(b, "\n  <testsuite name=\"omitted\" tests=\"1\""...)
		if noteFails {
			b = append(b, ` failures="1" skipped="0" time="0">`...)
		} else {
			b = append(b, ` failures="0" skipped="1" time="0">`...)
		}
		b = append(b, "\n    <testcase classname=\"omitted\" name=\"findings not shown\" time=\"0\">"...)
		if noteFails {
			b = append(b, "\n      <failure message=\""...)
			b = append(b, esc...)
			b = append(b, `" type="error">`...)
			b = append(b, esc...)
			b = append(b, "</failure>"...)
		} else {
			b = append(b, "\n      <skipped message=\""...)
			b = append(b, esc...)
			b = append(b, `"></skipped>`...)
		}
		b = append(b, "\n    </testcase>\n  </testsuite>"...)
	}
	if len(suites) > 0 || note != "" {
		b = append(b, '\n')
	}
	b = append(b, "</testsuites>\n"...)
	buf.Write(b)
	return nil
}

// appendCount appends attr and n.
func appendCount(b []byte, attr string, n int) []byte {
	return strconv.AppendInt(append(b, attr...), int64(n), 10)
}

// appendPos appends "FILE:LINE:COL", the file already escaped.
func appendPos(b, escFile []byte, line, col int) []byte {
	b = append(b, escFile...)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(line), 10)
	b = append(b, ':')
	return strconv.AppendInt(b, int64(col), 10)
}

// appendTestcaseName appends a finding's testcase name before it is made
// unique: "FILE:LINE:COL: MESSAGE", the message's fields joined by one space.
func appendTestcaseName(b []byte, file string, line, col int, msg string) []byte {
	b = append(b, file...)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(line), 10)
	b = append(b, ':')
	b = strconv.AppendInt(b, int64(col), 10)
	b = append(b, ": "...)
	return append(b, msg...)
}

// normalFields returns strings.Join(strings.Fields(s), " "), without
// building it when s is already so: no space at either end, no space but
// single ' ' between words.
func normalFields(s string) string {
	for i := 0; i < len(s); i++ {
		if fieldsCareful[s[i]] {
			return normalFieldsSlow(s)
		}
	}
	if s != "" && (s[0] == ' ' || s[len(s)-1] == ' ' || strings.Contains(s, "  ")) {
		return strings.Join(strings.Fields(s), " ")
	}
	return s
}

// fieldsCareful marks the bytes after which normalFields has to look
// closer: spaces other than ' ', and the start of any non-ASCII rune.
var fieldsCareful = func() (t [256]bool) {
	for c := range t {
		t[c] = c >= utf8.RuneSelf || c != ' ' && asciiSpace[c]
	}
	return t
}()

func normalFieldsSlow(s string) string {
	prevSpace := true // a space at the start is not normal
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if asciiSpace[c] {
				if c != ' ' || prevSpace {
					return strings.Join(strings.Fields(s), " ")
				}
				prevSpace = true
			} else {
				prevSpace = false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			return strings.Join(strings.Fields(s), " ")
		}
		prevSpace = false
		i += size
	}
	if prevSpace && s != "" {
		return strings.Join(strings.Fields(s), " ")
	}
	return s
}

var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// tcNames counts the testcase names written so far, to number a repeated
// one: names are hashed, and a name whose hash was seen is compared with
// the names that had it, rebuilt from their findings, so no name is kept.
type tcNames struct {
	seed    maphash.Seed
	first   map[uint64]int32 // hash -> its first entry
	entries []tcEntry
	other   []byte
}

type tcEntry struct {
	finding int32 // the first finding with the name
	n       int32 // how many times the name was written
	next    int32 // the next entry with the same hash, or -1
}

func (t *tcNames) init(n int) {
	t.seed = maphash.MakeSeed()
	t.first = make(map[uint64]int32, n)
	t.entries = make([]tcEntry, 0, n)
}

// count records name, the name of findings[i], and returns how many times
// it has been recorded.
func (t *tcNames) count(name []byte, findings []checks.Finding, i int32) int {
	h := maphash.Bytes(t.seed, name)
	if testcaseHash != nil {
		h = testcaseHash(name)
	}
	e, ok := t.first[h]
	if !ok {
		t.first[h] = int32(len(t.entries))
		t.entries = append(t.entries, tcEntry{finding: i, n: 1, next: -1})
		return 1
	}
	for {
		en := &t.entries[e]
		f := &findings[en.finding]
		t.other = appendTestcaseName(t.other[:0], f.File, f.Line, f.Col, normalFields(f.Message))
		if bytes.Equal(t.other, name) {
			en.n++
			return int(en.n)
		}
		if en.next < 0 {
			en.next = int32(len(t.entries))
			t.entries = append(t.entries, tcEntry{finding: i, n: 1, next: -1})
			return 1
		}
		e = en.next
	}
}

// testcaseHash replaces the hash in tests, to make names collide.
var testcaseHash func([]byte) uint64

// xmlSafe marks the ASCII bytes appendXMLEscaped copies as they are.
var xmlSafe = func() (t [utf8.RuneSelf]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = true
	}
	for _, c := range `"'&<>` {
		t[c] = false
	}
	return t
}()

// appendXMLEscaped appends s escaped as encoding/xml escapes attribute
// values and character data: quotes, '&', '<', '>', tabs and line breaks
// as references, anything outside XML's character range (and invalid
// UTF-8) as U+FFFD.
func appendXMLEscaped(b []byte, s string) []byte {
	i := 0
	for i < len(s) && s[i] < utf8.RuneSelf && xmlSafe[s[i]] {
		i++
	}
	if i == len(s) {
		return append(b, s...)
	}
	last := 0
	for i < len(s) {
		c := s[i]
		if c < utf8.RuneSelf && xmlSafe[c] {
			i++
			continue
		}
		var esc string
		width := 1
		switch c {
		case '"':
			esc = "&#34;"
		case '\'':
			esc = "&#39;"
		case '&':
			esc = "&amp;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '\t':
			esc = "&#x9;"
		case '\n':
			esc = "&#xA;"
		case '\r':
			esc = "&#xD;"
		default:
			var r rune
			r, width = utf8.DecodeRuneInString(s[i:])
			if inXMLRange(r) && !(r == utf8.RuneError && width == 1) {
				i += width
				continue
			}
			esc = "\uFFFD"
		}
		b = append(b, s[last:i]...)
		b = append(b, esc...)
		i += width
		last = i
	}
	return append(b, s[last:]...)
}

func inXMLRange(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D ||
		r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD ||
		r >= 0x10000 && r <= 0x10FFFF
}

// seconds formats a duration as JUnit's time attribute.
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', 3, 64)
}
