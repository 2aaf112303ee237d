package contradiction

import (
	"fmt"
	"sort"

	"golang.org/x/tools/go/analysis"

	"github.com/svrnty/sotvet/sotparse"
)

// commandFact is a fact that labels a command with whose it is: "- Harness
// command: `python3 -m pytest -q`", "- Tests command: `...`".
type commandFact struct {
	role  string // the label's first word, lower-cased ("harness")
	value string // the command
	fact  *sotparse.Fact
}

// commandKey is a command label: a role word, "command", and maybe more
// ("tests command recorded").
var commandKey = lazyRE.New(`^([a-z]+) command(?: [a-z ]+)?$`)

// commandOwners groups the role words by whose command they name: the
// harness's, or the target repository's tests. Other words ("new", "standard")
// name neither and are not compared.
var commandOwners = map[string]string{
	"harness": "harness",
	"test":    "test", "tests": "test", "validation": "test", "validator": "test", "target": "test",
}

// mislabeledCommands reports a command labeled as the harness's in one place
// and as the target's test command in others: the label fewer places give
// is reported, with the places that give the other.
func (c *checker) mislabeledCommands() {
	type labeled struct {
		di *docInfo
		cf commandFact
	}
	byCommand := map[string]map[string][]labeled{}
	var commands []string
	for _, di := range c.docs {
		for _, cf := range di.commands {
			owner, ok := commandOwners[cf.role]
			if !ok {
				continue
			}
			if byCommand[cf.value] == nil {
				byCommand[cf.value] = map[string][]labeled{}
				commands = append(commands, cf.value)
			}
			byCommand[cf.value][owner] = append(byCommand[cf.value][owner], labeled{di, cf})
		}
	}
	sort.Strings(commands)
	for _, cmd := range commands {
		h, t := byCommand[cmd]["harness"], byCommand[cmd]["test"]
		if len(h) == 0 || len(t) == 0 || len(h) == len(t) {
			continue // one label, or no majority to judge by
		}
		odd, other, oddName, otherName := h, t, "the harness's command", "the target repository's test command"
		if len(t) < len(h) {
			odd, other, oddName, otherName = t, h, otherName, oddName
		}
		for _, l := range odd {
			var related []analysis.RelatedInformation
			seen := map[*docInfo]bool{}
			for _, o := range other {
				if seen[o.di] {
					continue // one place per document
				}
				seen[o.di] = true
				related = append(related, rel(o.cf.fact.Pos, "%s: %q", o.di.d.Path, quote(o.cf.fact.Key+": "+o.cf.fact.Value)))
			}
			c.report(l.di.d.Path, l.cf.fact.Pos, l.cf.fact.End, "mislabeled-command",
				fmt.Sprintf("labels `%s` %s (%q), but %d other place(s) record it as %s: name the command for what it runs",
					cmd, oddName, l.cf.fact.Key, len(other), otherName), related)
		}
	}
}
