package contradiction

import (
	"bytes"
	"fmt"
	"go/token"
	"sort"
	"strings"

	"github.com/svrnty/sotvet/checks/internal/bodylines"
	"github.com/svrnty/sotvet/sotparse"
)

// commandFact is a statement of whose a command is: a fact (the command;
// its owner, the harness or the target repository's tests) read from a
// "key: value" fact ("- Harness command: `python3 -m pytest -q`"), a
// sentence ("`...` is the CTO Harness's own validator command"), a table
// row ("| Harness command | `...` |") or a fenced block under a label
// ("Validation command:").
type commandFact struct {
	value string // the command; "" for a fact (command reads it from said)
	label string // the words that label it ("Harness command"); for a fact, its key as written
	// said is the statement, for messages; for a fact, its value (a text
	// of the run's table, as its key is), which statement joins to the
	// key when a finding quotes it: most commands are quoted by none, and
	// a quoted statement per command fact held 7 MB on hub at 10,000
	// documents.
	said     string
	pos, end token.Pos
	harness  bool // whose: the harness's, else the target repository's tests'
	fact     bool // read from a key: value fact
}

// newCommand returns a command fact of the owner ownerOf gives.
func newCommand(owner, value, label, said string, pos, end token.Pos) commandFact {
	return commandFact{value: value, label: label, said: said, pos: pos, end: end, harness: owner == "harness"}
}

// command returns the command.
func (cf *commandFact) command() string {
	if cf.fact {
		v, _ := soleCode(cf.said)
		return v
	}
	return cf.value
}

// labelText returns the words that label the command.
func (cf *commandFact) labelText() string {
	if cf.fact {
		return strings.Trim(cf.label, "`* ")
	}
	return cf.label
}

// statement returns the statement cf was read from, for a message.
func (cf *commandFact) statement() string {
	if cf.fact {
		return quote(cf.label + ": " + cf.said)
	}
	return cf.said
}

var (
	// commandLabel marks a label of a command: "command", "validator",
	// "self-test", "run by".
	commandLabel = lazyRE.New(`(?i)\b(?:commands?|validators?|self-test|run by|runs)\b`)
	// negatedOwner is a denied owner: "not by the target repository",
	// "is not a Harness command".
	negatedOwner = lazyRE.New(`(?i)\bnot\b[^,;:.]*`)
	ownerWords   = lazyRE.New(`(?i)\b(?:harness|self-test|target|tests?|validation|repository|repo)\b`)
)

// ownerOf reads whose command a label names: the harness ("Harness
// command", "Harness validator", "self-test command") or the target
// repository's tests ("Tests command", "target validation command",
// "validation command"); "" when it names neither or both. A denied owner
// ("not by the target repository") is not one.
func ownerOf(label string) string {
	label = negatedOwner.ReplaceAllString(label, "")
	harness, test := false, false
	for _, w := range ownerWords.FindAllString(label, -1) {
		switch strings.ToLower(w) {
		case "harness", "self-test":
			harness = true
		default:
			test = true
		}
	}
	switch {
	case harness && !test:
		return "harness"
	case test && !harness:
		return "test"
	}
	return ""
}

// soleCode returns the code span a value consists of ("`cmd`."), if it is
// one.
func soleCode(v string) (string, bool) {
	v = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(v), ".;,"))
	if len(v) < 3 || v[0] != '`' || v[len(v)-1] != '`' || strings.Count(v, "`") != 2 {
		return "", false
	}
	return spaced(v[1 : len(v)-1]), true
}

// spaced returns s's words joined by single spaces: s itself when it is
// written so (most commands are), with no copy.
func spaced(s string) string {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ':
			if i == 0 || i == len(s)-1 || s[i+1] == ' ' {
				return strings.Join(strings.Fields(s), " ")
			}
		case c < ' ' || c == 0x7f || c >= 0x80:
			// other spaces, ASCII or not: as strings.Fields reads them
			return strings.Join(strings.Fields(s), " ")
		}
	}
	return s
}

// readCommand reads a line that labels one code span: a table row (the
// other cells are its label) or a sentence (the words around it). Lines of
// facts are read as facts; a line with two code spans labels neither.
func readCommand(d *sotparse.Doc, l bodylines.Line, factLines map[int]bool) (commandFact, bool) {
	if factLines[d.File.Lines().Line(d.File.Pos(l.Off))] {
		return commandFact{}, false
	}
	if n := strings.Count(l.Text, "`"); n < 2 || n > 3 {
		return commandFact{}, false // not one code span (newLine reads a last lone backtick as text)
	}
	ln := newLine(d, l)
	if len(ln.codes) != 1 {
		return commandFact{}, false
	}
	label := strings.ReplaceAll(ln.text, "*", "")
	label = strings.Replace(label, code, " ", 1)
	if t := strings.TrimSpace(label); strings.HasPrefix(t, "|") {
		label = strings.ReplaceAll(t, "|", " ")
	}
	owner := ownerOf(label)
	if owner == "" || !strings.Contains(ln.codes[0], " ") {
		return commandFact{}, false // a command has arguments; a name is no command
	}
	return newCommand(owner, strings.Join(strings.Fields(ln.codes[0]), " "), strings.TrimSpace(strings.Trim(ln.source, "|")), ln.source, ln.pos, ln.end), true
}

// readBlockCommands reads the one-line fenced blocks under a command label
// ("Harness command:"): a fence line, one line, a fence line, found by a
// plain scan of the lines.
func readBlockCommands(d *sotparse.Doc, content []byte) []commandFact {
	tf := d.File.Tok
	body := min(tf.Offset(d.BodyStart), len(content))
	if !bytes.Contains(content[body:], []byte("```")) && !bytes.Contains(content[body:], []byte("~~~")) {
		return nil // no fence, no block: most bodies are not split at all
	}
	var lines [][2]int // start, end of each body line
	for i := body; i < len(content); {
		e := bytes.IndexByte(content[i:], '\n')
		if e < 0 {
			e = len(content)
		} else {
			e += i
		}
		lines = append(lines, [2]int{i, e})
		i = e + 1
	}
	// The tests read the lines in place; only a block's label and command
	// become strings.
	raw := func(k int) []byte { return bytes.TrimSpace(content[lines[k][0]:lines[k][1]]) }
	text := func(k int) string { return string(raw(k)) }
	fence := func(k int) bool {
		t := raw(k)
		return bytes.HasPrefix(t, []byte("```")) || bytes.HasPrefix(t, []byte("~~~"))
	}
	var out []commandFact
	for k := 1; k+2 < len(lines); k++ {
		if !fence(k) || !fence(k+2) || fence(k+1) || len(bytes.Trim(raw(k+2), "`~")) != 0 {
			continue
		}
		j := k - 1 // the label: the last line before, not blank
		for j > 0 && len(raw(j)) == 0 {
			j--
		}
		label, cmd := text(j), strings.Join(strings.Fields(text(k+1)), " ")
		if !strings.HasSuffix(label, ":") || !commandLabel.MatchString(label) {
			continue
		}
		if owner := ownerOf(label); owner != "" && strings.Contains(cmd, " ") {
			out = append(out, newCommand(owner, cmd, strings.TrimSuffix(label, ":"), quote(label+" "+cmd), tf.Pos(lines[j][0]), tf.Pos(lines[k+2][1])))
		}
		k += 2
	}
	return out
}

// mislabeledCommands reports a command labeled as the harness's in one place
// and as the target's test command in others: the label fewer places give
// is reported, with the places that give the other.
func (c *checker) mislabeledCommands() {
	if !c.anyFocused(func(di *docInfo) bool { return len(di.commands)+len(di.commandSays) > 0 }) {
		return
	}
	c.text(func(*docInfo) bool { return true })
	// Only the commands the documents in focus name are grouped; each
	// group's related places (the other label's first places, one a
	// document) are the same for every finding of the group: formatted
	// once.
	focused := map[string]bool{}
	for _, di := range c.docs {
		if len(di.commands)+len(di.commandSays) > 0 && c.ws.Focused(di.d.Path) {
			for _, cfs := range [][]commandFact{di.commands, di.commandSays} {
				for i := range cfs {
					focused[cfs[i].command()] = true
				}
			}
		}
	}
	type labeled struct {
		di *docInfo
		cf *commandFact
	}
	type group struct{ harness, test []labeled }
	byCommand := map[string]*group{}
	var commands []string
	for _, di := range c.docs {
		for _, cfs := range [][]commandFact{di.commands, di.commandSays} {
			for i := range cfs {
				cf := &cfs[i]
				cmd := cf.command()
				if !focused[cmd] {
					continue
				}
				g := byCommand[cmd]
				if g == nil {
					g = &group{}
					byCommand[cmd] = g
					commands = append(commands, cmd)
				}
				if cf.harness {
					g.harness = append(g.harness, labeled{di, cf})
				} else {
					g.test = append(g.test, labeled{di, cf})
				}
			}
		}
	}
	sort.Strings(commands)
	for _, cmd := range commands {
		h, t := byCommand[cmd].harness, byCommand[cmd].test
		if len(h) == 0 || len(t) == 0 || len(h) == len(t) {
			continue // one label, or no majority to judge by
		}
		odd, other, oddName, otherName := h, t, "the harness's command", "the target repository's test command"
		if len(t) < len(h) {
			odd, other, oddName, otherName = t, h, otherName, oddName
		}
		var related relList
		for _, l := range odd {
			if !c.ws.Focused(l.di.d.Path) {
				continue
			}
			if related == nil {
				for j, o := range other {
					if related.full() {
						break
					}
					if j > 0 && other[j-1].di == o.di {
						continue // one place per document (a document's are together)
					}
					if !related.full() {
						related.add(o.cf.pos, "%s: %q", o.di.d.Path, o.cf.statement())
					}
				}
			}
			c.report(l.di.d.Path, l.cf.pos, l.cf.end, "mislabeled-command",
				fmt.Sprintf("labels `%s` %s (%q), but %d other place(s) record it as %s: name the command for what it runs",
					cmd, oddName, l.cf.labelText(), len(other), otherName), related)
		}
	}
}
