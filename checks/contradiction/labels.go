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
	for _, k := range c.live {
		di := c.docs[k]
		if len(di.commands)+len(di.commandSays) > 0 && c.ws.Focused(di.d.Path) {
			for _, cfs := range [][]commandFact{di.commands, di.commandSays} {
				for i := range cfs {
					focused[cfs[i].command()] = true
				}
			}
		}
	}
	// The kept documents' groups, gathered once for as long as a session
	// keeps them (none is in focus), unless a kept text could not be
	// read back (runDocs).
	var kept map[string]*commandGroup
	live, fromKept := c.runDocs()
	if fromKept {
		kept = sotparse.Aggregate(c.ws, &keptCommandsKey, func([]*sotparse.Doc) map[string]*commandGroup {
			return groupCommands(c.docs, c.keptAt, nil)
		})
	}
	runs := groupCommands(c.docs, live, focused)
	commands := make([]string, 0, len(runs))
	for cmd := range runs {
		commands = append(commands, cmd)
	}
	sort.Strings(commands)
	for _, cmd := range commands {
		g, kg := runs[cmd], kept[cmd]
		if kg == nil {
			kg = &commandGroup{}
		}
		nh, nt := len(g.refs[harnessLabel])+kg.n[harnessLabel], len(g.refs[testLabel])+kg.n[testLabel]
		if nh == 0 || nt == 0 || nh == nt {
			continue // one label, or no majority to judge by
		}
		oddLabel, otherLabel, oddName, otherName := harnessLabel, testLabel, "the harness's command", "the target repository's test command"
		nOther := nt
		if nt < nh {
			oddLabel, otherLabel, oddName, otherName = otherLabel, oddLabel, otherName, oddName
			nOther = nh
		}
		var related relList
		for _, r := range g.refs[oddLabel] {
			di := c.docs[r.doc]
			if !c.ws.Focused(di.d.Path) {
				continue
			}
			if related == nil {
				for _, o := range firstPerDoc(c.keptRefs(kg.head[otherLabel]), g.refs[otherLabel]) {
					cf := c.commandAt(o)
					related.add(cf.pos, "%s: %q", c.docs[o.doc].d.Path, cf.statement())
				}
			}
			cf := c.commandAt(r)
			c.report(di.d.Path, cf.pos, cf.end, "mislabeled-command",
				fmt.Sprintf("labels `%s` %s (%q), but %d other place(s) record it as %s: name the command for what it runs",
					cmd, oddName, cf.labelText(), nOther, otherName), related)
		}
	}
}

// The labels a command is given, as commandGroup indexes them.
const (
	harnessLabel = 0
	testLabel    = 1
)

// commandGroup is where documents label one command: refs, every place
// of the documents of a run, by label; or, for a session's kept
// documents, n, how many places give each label, and head, the first
// places of the first documents that give it (one a document, at most
// maxRelated), which the findings quote.
type commandGroup struct {
	refs [2][]claimRef
	n    [2]int
	head [2][]claimRef
}

// keptCommandsKey keeps the command groups of a session's kept documents.
var keptCommandsKey sotparse.MemoKey

// groupCommands groups the commands of docs[at...] by command: with
// focused, those it holds only, every place (refs, naming the document
// in docs); without, every command, counted, the first places kept
// (head, naming the document among at).
func groupCommands(docs []*docInfo, at []int32, focused map[string]bool) map[string]*commandGroup {
	out := map[string]*commandGroup{}
	for j, k := range at {
		di := docs[k]
		n := int32(0)
		for _, cfs := range [][]commandFact{di.commands, di.commandSays} {
			for i := range cfs {
				cf := &cfs[i]
				r := claimRef{k, n}
				n++
				cmd := cf.command()
				if focused != nil && !focused[cmd] {
					continue
				}
				g := out[cmd]
				if g == nil {
					g = &commandGroup{}
					out[cmd] = g
				}
				label := testLabel
				if cf.harness {
					label = harnessLabel
				}
				if focused != nil {
					g.refs[label] = append(g.refs[label], r)
					continue
				}
				g.n[label]++
				r.doc = int32(j)
				if h := g.head[label]; len(h) < maxRelated && (len(h) == 0 || h[len(h)-1].doc != r.doc) {
					g.head[label] = append(h, r)
				}
			}
		}
	}
	return out
}

// keptRefs returns refs, naming documents among the kept, naming them in
// c.docs.
func (c *checker) keptRefs(refs []claimRef) []claimRef {
	out := make([]claimRef, len(refs))
	for i, r := range refs {
		out[i] = claimRef{c.keptAt[r.doc], r.i}
	}
	return out
}

// commandAt returns the command place r names: the document's facts'
// first, then its text's.
func (c *checker) commandAt(r claimRef) *commandFact {
	di := c.docs[r.doc]
	if n := int32(len(di.commands)); r.i >= n {
		return &di.commandSays[r.i-n]
	}
	return &di.commands[r.i]
}

// firstPerDoc merges a and b, each in document order, and returns the
// first place of each of their first maxRelated documents.
func firstPerDoc(a, b []claimRef) []claimRef {
	var out []claimRef
	for len(out) < maxRelated && len(a)+len(b) > 0 {
		var r claimRef
		if len(b) == 0 || len(a) > 0 && a[0].doc < b[0].doc {
			r, a = a[0], a[1:]
		} else {
			r, b = b[0], b[1:]
		}
		if len(out) == 0 || out[len(out)-1].doc != r.doc {
			out = append(out, r)
		}
	}
	return out
}
