// Package thirdparty reads the rule files of Nosey Parker and Kingfisher
// (YAML with examples and negative examples, checked in under
// secrets/rules/third_party) and converts each rule into the data model
// the secrets engine compiles (gitleaksrules), translating the rules'
// regular expressions (Rust regex / Hyperscan dialect) into RE2. A rule
// that cannot be taken is returned with the reason, never dropped silently.
package thirdparty

import (
	"fmt"
	"go/format"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"regexp/syntax"
	"slices"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v4"

	"github.com/svrnty/sotvet/secrets/internal/gitleaksrules"
)

// Source is one vendored project.
type Source struct {
	Dir, Module, Commit string
}

// Sources are the vendored projects, in priority order: where two rules
// have the same expression the first one is kept.
var Sources = []Source{
	{Dir: "noseyparker", Module: "github.com/praetorian-inc/noseyparker", Commit: "2e6e7f36ce36619852532bbe698d8cb7a26d2da7"},
	{Dir: "kingfisher", Module: "github.com/mongodb/kingfisher", Commit: "ee7c0db3ef87575768f817820c24736249ffcdef"},
}

// Rule is one rule as the YAML has it, plus where it came from.
type Rule struct {
	Name             string   `yaml:"name"`
	ID               string   `yaml:"id"`
	Pattern          string   `yaml:"pattern"`
	MinEntropy       float64  `yaml:"min_entropy"`
	Visible          *bool    `yaml:"visible"`
	Categories       []string `yaml:"categories"`
	Examples         []string `yaml:"examples"`
	NegativeExamples []string `yaml:"negative_examples"`
	NonExamples      []string `yaml:"non_examples"` // a misspelling in one Kingfisher file

	Source Source `yaml:"-"`
	File   string `yaml:"-"` // relative to the third_party directory
	Line   int    `yaml:"-"`
}

// Identifier reports whether a Nosey Parker rule finds a name or an ID
// rather than a secret: its categories say identifier and not secret (an
// ARN, a bucket, an OAuth client ID, an age recipient, which is a public
// key). Kingfisher's categories are not used: it marks tokens identifier
// too (its GitHub and GitLab token rules).
func (r *Rule) Identifier() bool {
	if r.Source.Dir != "noseyparker" {
		return false
	}
	id, secret := false, false
	for _, c := range r.Categories {
		id = id || c == "identifier"
		secret = secret || c == "secret"
	}
	return id && !secret
}

// Negatives are the rule's negative examples, under either spelling.
func (r *Rule) Negatives() []string {
	return append(append([]string(nil), r.NegativeExamples...), r.NonExamples...)
}

// Load reads every rule file of every source under root, in file order.
func Load(root string) ([]*Rule, error) {
	var out []*Rule
	for _, src := range Sources {
		files, err := filepath.Glob(filepath.Join(root, src.Dir, "rules", "*.y*ml"))
		if err != nil {
			return nil, err
		}
		sort.Strings(files)
		if len(files) == 0 {
			return nil, fmt.Errorf("%s: no rule files", filepath.Join(root, src.Dir, "rules"))
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			var doc struct {
				Rules []yaml.Node `yaml:"rules"`
			}
			if err := yaml.Unmarshal(b, &doc); err != nil {
				return nil, fmt.Errorf("%s: %v", f, err)
			}
			rel, _ := filepath.Rel(root, f)
			for _, n := range doc.Rules {
				r := &Rule{Source: src, File: filepath.ToSlash(rel), Line: n.Line}
				if err := n.Decode(r); err != nil {
					return nil, fmt.Errorf("%s:%d:%d: %v", f, n.Line, n.Column, err)
				}
				out = append(out, r)
			}
		}
	}
	return out, nil
}

// NotTaken is a rule left out and why.
type NotTaken struct {
	Rule   *Rule
	Reason string
}

// Converted is a rule taken, and the notes on how its expression was
// translated.
type Converted struct {
	Rule  *Rule
	Out   gitleaksrules.Rule
	Notes []string
	// Examples are the rule's positive examples and those of the rules
	// not taken for having the same expression: the rule stands for them.
	Examples []string
}

// Convert translates the rules. Rules whose expression fails to translate,
// that have no literal to prefilter on, that only feed another rule's
// validation, or whose expression an earlier rule already has, are
// returned in the second list with the reason.
func Convert(rules []*Rule) ([]Converted, []NotTaken) {
	var ok []Converted
	var not []NotTaken
	seen := map[string]string{}    // expression -> the ID of the rule taken for it
	seenNot := map[string]string{} // expression -> why its rule is left out
	ids := map[string]bool{}
	for _, r := range rules {
		if ids[r.ID] {
			not = append(not, NotTaken{r, "duplicate ID: an earlier rule of the same ID is taken"})
			continue
		}
		ids[r.ID] = true
		if r.Visible != nil && !*r.Visible {
			not = append(not, NotTaken{r, "not visible: a helper that only supplies a value to another rule's live validation"})
			continue
		}
		re, notes, err := Translate(r.Pattern)
		if err != nil {
			not = append(not, NotTaken{r, "expression: " + err.Error()})
			continue
		}
		if why, dup := seenNot[re]; dup {
			// a copy of a rule left out is left out for the same reason,
			// not as a copy of a rule that is not there
			not = append(not, NotTaken{r, why})
			continue
		}
		if r.Identifier() {
			why := "an identifier (categories: identifier, not secret): it names a resource or a public value, which is no secret"
			seenNot[re] = why + " (the expression of " + r.ID + ", also not taken)"
			not = append(not, NotTaken{r, why})
			continue
		}
		if b, ok := superseded[r.ID]; ok {
			why := "superseded by the built-in rule " + b + ", which reports the same values"
			seenNot[re] = why + " (the expression of " + r.ID + ", also not taken)"
			not = append(not, NotTaken{r, why})
			continue
		}
		if why, ok := notSecret[r.ID]; ok {
			seenNot[re] = why + " (the expression of " + r.ID + ", also not taken)"
			not = append(not, NotTaken{r, why})
			continue
		}
		if prev, dup := seen[re]; dup {
			not = append(not, NotTaken{r, "same expression as " + prev})
			for i := range ok {
				if ok[i].Rule.ID == prev {
					ok[i].Examples = append(ok[i].Examples, r.Examples...)
				}
			}
			continue
		}
		kws, err := Keywords(re)
		if err != nil {
			not = append(not, NotTaken{r, err.Error()})
			continue
		}
		if why := judgedElsewhere(r, kws); why != "" {
			not = append(not, NotTaken{r, why})
			continue
		}
		seen[re] = r.ID
		cre := regexp.MustCompile(re)
		g := 0
		if cre.NumSubexp() > 0 {
			g = 1 // both projects report the first group as the secret
		}
		if cre.NumSubexp() > 1 {
			if sg := commentedGroup(r.Pattern); sg > 0 && sg <= cre.NumSubexp() {
				g = sg
				notes = appendOnce(notes, fmt.Sprintf("secret group %d: the group its comment names", sg))
			} else if sg := wordNamedGroup(r.Pattern); sg > 1 && sg <= cre.NumSubexp() && alwaysTakesPart(re, sg) {
				g = sg
				notes = appendOnce(notes, fmt.Sprintf("secret group %d: the group its pattern names a password, secret, token or key", sg))
			}
		}
		desc := r.Name
		if desc == "" {
			desc = r.ID
		}
		ok = append(ok, Converted{Rule: r, Notes: notes, Examples: append([]string(nil), r.Examples...), Out: gitleaksrules.Rule{
			ID: r.ID, Description: desc, Regex: re, SecretGroup: g,
			Entropy: r.MinEntropy, Keywords: kws,
		}})
	}
	return ok, not
}

// Translate rewrites a Rust-regex / Hyperscan expression as RE2: extended
// mode ((?x): whitespace and # comments) is stripped, \h becomes [ \t],
// possessive quantifiers and atomic groups lose their possessiveness (RE2
// does not backtrack, so only the set of matches can grow). Lookarounds
// and backreferences have no RE2 form: an error.
func Translate(p string) (string, []string, error) {
	var notes []string
	// A gap that may cross lines between a keyword and its value: sotvet
	// keeps it to the line, since in prose and lists the next line is
	// another item (a hash after "lob-api-key found" is no Lob key).
	for _, g := range []string{`(?:.|[\n\r])`, `(?:.|[\r\n])`, `(?:.|\n)`, `(?s:.)`} {
		if strings.Contains(p, g) {
			p = strings.ReplaceAll(p, g, ".")
			notes = appendOnce(notes, "a gap across lines "+g+" kept to the line (.)")
		}
	}
	var b strings.Builder
	ext := false
	inClass := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p):
			d := p[i+1]
			i++
			switch {
			case d == 'h':
				if inClass {
					b.WriteString(` \t`)
				} else {
					b.WriteString(`[ \t]`)
				}
				notes = appendOnce(notes, `\h rewritten as [ \t]`)
			case d >= '1' && d <= '9' && !inClass:
				return "", nil, fmt.Errorf("backreference \\%c has no RE2 form", d)
			case d == ' ' || d == '\t':
				b.WriteByte(d) // an escaped blank is kept in extended mode
			case d == '#':
				b.WriteString(`#`)
			default:
				b.WriteByte('\\')
				b.WriteByte(d)
			}
		case inClass:
			if c == ']' {
				inClass = false
				b.WriteByte(c)
				continue
			}
			if ext && (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
				continue // Rust's extended mode ignores whitespace in classes too
			}
			if c == '[' && i+1 < len(p) && p[i+1] == ':' {
				j := strings.Index(p[i:], ":]")
				if j > 0 {
					b.WriteString(p[i : i+j+2])
					i += j + 1
					continue
				}
			}
			b.WriteByte(c)
		case c == '[':
			inClass = true
			b.WriteByte(c)
			// A ] (or ^]) first in a class is literal.
			if i+1 < len(p) && p[i+1] == '^' {
				b.WriteByte('^')
				i++
			}
			if i+1 < len(p) && p[i+1] == ']' {
				b.WriteString(`\]`)
				i++
			}
		case ext && (c == ' ' || c == '\t' || c == '\n' || c == '\r'):
		case ext && c == '#':
			for i < len(p) && p[i] != '\n' {
				i++
			}
		case c == '(' && strings.HasPrefix(p[i:], "(?"):
			rest := p[i+2:]
			switch {
			case strings.HasPrefix(rest, "#"):
				j := strings.IndexByte(rest, ')')
				if j < 0 {
					return "", nil, fmt.Errorf("unterminated (?# comment")
				}
				i += 2 + j
				notes = appendOnce(notes, "(?#...) comment removed")
				continue
			case strings.HasPrefix(rest, "="), strings.HasPrefix(rest, "!"), strings.HasPrefix(rest, "<="), strings.HasPrefix(rest, "<!"):
				return "", nil, fmt.Errorf("lookaround %q has no RE2 form", p[i:min(len(p), i+4)])
			case strings.HasPrefix(rest, ">"):
				b.WriteString("(?:")
				i += 2
				notes = appendOnce(notes, "atomic group (?>...) rewritten as (?:...)")
				continue
			case strings.HasPrefix(rest, "P<"), strings.HasPrefix(rest, "<"):
				// a named group: RE2 takes (?P<name>...) and (?<name>...)
				b.WriteString("(?")
				i++
				continue
			}
			// A flag group: (?flags) or (?flags:
			j := strings.IndexAny(rest, "):")
			if j < 0 {
				return "", nil, fmt.Errorf("unterminated group")
			}
			flags := rest[:j]
			if strings.Trim(flags, "imsxU-") != "" {
				return "", nil, fmt.Errorf("flags %q", flags)
			}
			if strings.Contains(flags, "x") {
				if strings.Contains(flags, "-") && strings.Index(flags, "-") < strings.Index(flags, "x") {
					return "", nil, fmt.Errorf("(?-x) is not supported")
				}
				ext = true // scoped (?x:...) is treated as global: no rule uses both
				flags = strings.ReplaceAll(flags, "x", "")
			}
			if flags == "" || flags == "-" {
				if rest[j] == ')' {
					i += 2 + j
					continue
				}
				b.WriteString("(?:")
				i += 2 + j
				continue
			}
			b.WriteString("(?" + flags + string(rest[j]))
			i += 2 + j
		case (c == '+') && i > 0 && isQuantEnd(p, i):
			notes = appendOnce(notes, "possessive quantifier rewritten as greedy")
		default:
			b.WriteByte(c)
		}
	}
	out := bigRepeat.ReplaceAllStringFunc(b.String(), func(m string) string {
		sm := bigRepeat.FindStringSubmatch(m)
		notes = appendOnce(notes, "repeat bound over RE2's 1000 rewritten as unbounded")
		return "{" + sm[1] + ",}"
	})
	if _, err := regexp.Compile(out); err != nil {
		return "", nil, fmt.Errorf("RE2: %v", err)
	}
	return out, notes, nil
}

// commentedGroup returns the number of the capture group that opens on a
// line of an extended-mode pattern whose comment names a password, secret,
// token or key (Nosey Parker reports every group; sotvet one), or 0.
func commentedGroup(p string) int {
	n := 0
	for _, line := range strings.Split(p, "\n") {
		code, comment := line, ""
		if i := strings.Index(line, "(?#"); i >= 0 {
			code, comment = line[:i], line[i:]
		} else if i := strings.Index(line, " #"); i >= 0 {
			code, comment = line[:i], line[i:]
		}
		opened := 0
		for i := 0; i < len(code); i++ {
			switch {
			case code[i] == '\\':
				i++
			case code[i] == '[':
				// skip the class: a ( in it opens no group
				j := i + 1
				if j < len(code) && code[j] == '^' {
					j++
				}
				if j < len(code) && code[j] == ']' {
					j++
				}
				for j < len(code) && code[j] != ']' {
					if code[j] == '\\' {
						j++
					}
					j++
				}
				i = j
			case code[i] == '(' && !strings.HasPrefix(code[i:], "(?"):
				n++
				if opened == 0 {
					opened = n
				}
			}
		}
		if opened > 0 && secretWord.MatchString(comment) {
			return opened
		}
	}
	return 0
}

var secretWord = regexp.MustCompile(`(?i)password|secret|token|\bkey\b`)

// alwaysTakesPart reports whether capture group n of the expression takes
// part in every match: no alternation, optional or star lies above it. A
// group in one branch of an alternation is not chosen as the secret, since
// a match through another branch would then report its whole text.
func alwaysTakesPart(expr string, n int) bool {
	t, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return false
	}
	var walk func(r *syntax.Regexp) bool
	walk = func(r *syntax.Regexp) bool {
		if r.Op == syntax.OpCapture && r.Cap == n {
			return true
		}
		switch r.Op {
		case syntax.OpConcat, syntax.OpCapture, syntax.OpPlus:
		case syntax.OpRepeat:
			if r.Min < 1 {
				return false
			}
		default:
			return false
		}
		for _, s := range r.Sub {
			if walk(s) {
				return true
			}
		}
		return false
	}
	return walk(t)
}

// wordNamedGroup returns the number of the last capture group that the
// pattern's own literal text introduces with a password, secret, token or
// key ("password \s+ (…)", ";Secret=(…)", "client_secret=)(…)"), or 0.
// Without it a rule of several groups reports its first, which in a
// netrc entry (machine, then login, then password) is the host: the
// password would be neither judged nor redacted.
func wordNamedGroup(p string) int {
	n, named := 0, 0
	var lit strings.Builder // literal text since the last capture group opened or closed
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\':
			i++ // an escape (\s, \$, \b) is no letter of a word
		case c == '#' && (i == 0 || p[i-1] == ' ' || p[i-1] == '\t'):
			// an extended-mode comment: commentedGroup reads those
			for i < len(p) && p[i] != '\n' {
				i++
			}
		case c == '[':
			j := i + 1
			if j < len(p) && p[j] == '^' {
				j++
			}
			if j < len(p) && p[j] == ']' {
				j++
			}
			for j < len(p) && p[j] != ']' {
				if p[j] == '\\' {
					j++
				}
				j++
			}
			i = j
		case c == '(' && (!strings.HasPrefix(p[i:], "(?") || strings.HasPrefix(p[i:], "(?P<") ||
			strings.HasPrefix(p[i:], "(?<") && !strings.HasPrefix(p[i:], "(?<=") && !strings.HasPrefix(p[i:], "(?<!")):
			// a capture group, named ones too
			n++
			if secretWord.MatchString(lit.String()) {
				named = n
			}
			lit.Reset()
		case c == ')':
			// a non-capturing group's close keeps its words ("(?:…client_secret=)(…)")
		case c == '(' || c == '?' || c == ':' || c == '|':
			lit.WriteByte(' ')
		default:
			lit.WriteByte(c)
		}
	}
	return named
}

// bigRepeat is a repeat {n,m} with m of four digits or more, over RE2's
// limit of 1000.
var bigRepeat = regexp.MustCompile(`\{(\d{1,3}),\d{4,}\}`)

// isQuantEnd reports whether the + at p[i] follows a quantifier (making it
// possessive) rather than an atom.
func isQuantEnd(p string, i int) bool {
	prev := p[i-1]
	if i >= 2 && p[i-2] == '\\' {
		return false
	}
	return prev == '*' || prev == '+' || prev == '?' || prev == '}'
}

func appendOnce(l []string, s string) []string {
	for _, x := range l {
		if x == s {
			return l
		}
	}
	return append(l, s)
}

// Keywords derives the literals of which every match of re holds one, in
// lower case, for the engine's keyword prefilter. It fails when the
// shortest would be under three bytes: such a rule would run on every file.
func Keywords(re string) ([]string, error) {
	t, err := syntax.Parse(re, syntax.Perl)
	if err != nil {
		return nil, err
	}
	set := required(t.Simplify())
	if len(set) == 0 {
		return nil, fmt.Errorf("no literal every match holds: no keyword prefilter")
	}
	for _, s := range set {
		if len(s) < 3 {
			return nil, fmt.Errorf("keyword %q shorter than 3 bytes: the rule would run on nearly every file", s)
		}
	}
	for _, s := range set {
		if common[strings.Trim(s, " \t\"':=")] { // "token:" is the word; "key-" a prefix
			return nil, fmt.Errorf("keyword %q is a common word: the rule would wake on most prose", s)
		}
	}
	if len(set) > 64 {
		return nil, fmt.Errorf("%d keywords: too many to prefilter", len(set))
	}
	sort.Strings(set)
	return set, nil
}

// assignmentNames are the key names sotvet's generic-secret and
// password-literal and gitleaks' generic-api-key read assignments of.
var assignmentNames = map[string]bool{"secret": true, "password": true, "passwd": true, "token": true,
	"api_key": true, "apikey": true, "api-key": true, "access_key": true, "accesskey": true}

// judgedElsewhere says why a generic rule is left to sotvet's own rules:
// one whose every keyword is a secret's name (a value after
// "api_key"), which the assignment rules judge with their stop words
// and placeholder checks, or the XML <add key=… value=…/> form, whose
// first group is the key's name and whose value nuget-config-password
// and password-literal read.
func judgedElsewhere(r *Rule, kws []string) string {
	if !strings.Contains(r.ID, ".generic.") {
		return ""
	}
	all := true
	for _, k := range kws {
		all = all && assignmentNames[k]
	}
	if all {
		return "generic assignment rule: its keywords (" + strings.Join(kws, ", ") + ") name the secret, which generic-secret, password-literal and generic-api-key judge"
	}
	if len(kws) == 1 && kws[0] == "add" {
		return "generic <add key=… value=…/> rule: its first group is the key's name; nuget-config-password and password-literal read the value"
	}
	return ""
}

// superseded maps the IDs of third-party rules a built-in rule of sotvet
// covers to that rule's ID: taking both would report each value twice.
var superseded = map[string]string{
	"kingfisher.discord.1": "discord-webhook",
}

// notSecret maps the IDs of third-party rules whose every match is no
// secret of anyone's to the reason (issue 33: an independently written
// set of notes labelled both as false alarms).
var notSecret = map[string]string{}

// NotSecret reports why the rule of this ID is not taken when its every
// match is no secret of anyone's ("" for any other rule): the examples
// test leaves its examples out.
func NotSecret(id string) string { return notSecret[id] }

// weakKeyword: s is too short or too common to prefilter on.
func weakKeyword(s string) bool {
	return len(s) < 3 || common[strings.Trim(s, " \t\"':=")]
}

// common are words too frequent in prose and configuration to prefilter on.
var common = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an and the to of in on for is it as at by or be with from this that
		key keys secret secrets token tokens user username uid id name password pass passwd pwd login
		auth api app client consumer customer access private public value data host url http https
		web email account code bearer basic config env`) {
		common[w] = true
	}
}

// required returns a set of lower-cased literals one of which every match
// of re contains, or nil.
func required(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpLiteral:
		return fixed(re)
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
	case syntax.OpAlternate:
		var out []string
		for _, s := range re.Sub {
			r := required(s)
			if r == nil {
				return nil
			}
			out = append(out, r...)
		}
		return dedup(out)
	case syntax.OpConcat:
		// Adjacent literals and small alternations form longer strings;
		// take the best child's set (the one whose shortest is longest).
		var best []string
		score := func(l []string) int {
			if l == nil {
				return -1 << 40
			}
			m := 1 << 30
			weak := false
			for _, s := range l {
				m = min(m, len(s))
				weak = weak || weakKeyword(s)
			}
			if weak {
				// a common word or a two-byte literal wakes the rule on
				// most text: any literal without one is preferred
				return m*1000 - len(l) - 1<<30
			}
			return m*1000 - len(l)
		}
		var cur []string // the running product of adjacent fixed parts
		// skipped holds the strings that end where an optional part
		// taken began (A then X in A X? B): every match holds one of them
		// or of cur, which then goes on as A B.
		var skipped []string
		flush := func() {
			c := dedup(append(append([]string(nil), cur...), skipped...))
			if cur == nil {
				c = nil
			}
			if score(c) > score(best) {
				best = c
			}
			cur, skipped = nil, nil
		}
		for _, s := range re.Sub {
			if s.Op == syntax.OpQuest && cur != nil {
				if ps := prefixes(s.Sub[0]); ps != nil && (len(skipped)+len(cur)*len(ps)) <= 64 {
					skipped = append(skipped, product(cur, ps)...)
					continue
				}
			}
			r := fixed(s)
			if r == nil {
				if ps := prefixes(s); cur != nil && ps != nil && len(cur)*len(ps) <= 64 {
					if c := product(cur, ps); score(c) > score(best) {
						best = c
					}
				}
				flush()
				if x := required(s); score(x) > score(best) {
					best = x
				}
				continue
			}
			if cur == nil {
				cur = r
				continue
			}
			if len(cur)*len(r) > 64 {
				flush()
				cur = r
				continue
			}
			var p []string
			for _, a := range cur {
				for _, b := range r {
					p = append(p, a+b)
				}
			}
			cur = p
		}
		flush()
		return best
	}
	return nil
}

// prefixes returns strings one of which begins every match of re, or nil.
func prefixes(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpCapture, syntax.OpPlus:
		return prefixes(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return prefixes(re.Sub[0])
		}
	case syntax.OpAlternate:
		var out []string
		for _, s := range re.Sub {
			p := prefixes(s)
			if p == nil || len(out)+len(p) > 64 {
				return nil
			}
			out = append(out, p...)
		}
		return dedup(out)
	case syntax.OpConcat:
		out := []string{""}
		for _, s := range re.Sub {
			if f := fixed(s); f != nil && len(out)*len(f) <= 64 {
				out = product(out, f)
				continue
			}
			if p := prefixes(s); p != nil && len(out)*len(p) <= 64 {
				out = product(out, p)
			}
			break
		}
		if out[0] == "" && len(out) == 1 {
			return nil
		}
		return dedup(out)
	default:
		if f := fixed(re); f != nil {
			return f
		}
	}
	return nil
}

func product(a, b []string) []string {
	var p []string
	for _, x := range a {
		for _, y := range b {
			p = append(p, x+y)
		}
	}
	return p
}

// fixed returns the strings re matches exactly when they are few
// (a literal, a small alternation or class of literals), or nil.
func fixed(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpLiteral:
		if strings.ContainsAny(string(re.Rune), "\r\n") {
			return nil // the engine's keywords do not span lines
		}
		return []string{strings.ToLower(string(re.Rune))}
	case syntax.OpCapture:
		return fixed(re.Sub[0])
	case syntax.OpCharClass:
		var out []string
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i+1]-re.Rune[i] > 4 {
				return nil
			}
			for c := re.Rune[i]; c <= re.Rune[i+1]; c++ {
				if c == '\n' || c == '\r' {
					return nil
				}
				out = append(out, strings.ToLower(string(c)))
			}
		}
		if d := dedup(out); len(d) <= 4 {
			return d
		}
	case syntax.OpAlternate:
		var out []string
		for _, s := range re.Sub {
			f := fixed(s)
			if f == nil {
				return nil
			}
			out = append(out, f...)
		}
		if len(out) <= 16 {
			return dedup(out)
		}
	case syntax.OpConcat:
		out := []string{""}
		for _, s := range re.Sub {
			f := fixed(s)
			if f == nil || len(out)*len(f) > 16 {
				return nil
			}
			var p []string
			for _, a := range out {
				for _, b := range f {
					p = append(p, a+b)
				}
			}
			out = p
		}
		return dedup(out)
	}
	return nil
}

func dedup(l []string) []string {
	sort.Strings(l)
	var out []string
	for i, s := range l {
		if i == 0 || s != l[i-1] {
			out = append(out, s)
		}
	}
	return out
}

// bareSecrets returns the secrets of c's examples that c's expression
// finds standing alone, on a line of their own: a token whose format
// names it (CircleCI's CCIPAT_…). A rule is covered only when the
// existing rules find these too: its examples name their secrets
// (CIRCLECI_TOKEN=…), which a generic rule reads, but the rule finds the
// token with no name beside it, which a generic rule does not.
func bareSecrets(c Converted) []string {
	re, err := regexp.Compile(c.Out.Regex)
	if err != nil {
		return nil
	}
	var out []string
	for _, ex := range c.Examples {
		m := re.FindStringSubmatch(ex)
		if m == nil {
			continue
		}
		sec := m[0]
		if g := c.Out.SecretGroup; g > 0 && g < len(m) {
			sec = m[g]
		} else if len(m) > 1 && m[1] != "" {
			sec = m[1]
		}
		if sec != "" && re.MatchString(sec) {
			out = append(out, sec+"\n")
		}
	}
	return out
}

// Covered reports, for a rule's positive examples, the existing rule that
// finds every one of them ("" when some example is found by none): the
// generator passes the engine without the third-party rules.
type Covered func(examples []string) string

// PublicValue is the name Covered gives to examples whose value the engine
// leaves unreported as public by design (secrets.PublicValue; a test of
// package secrets holds the two equal).
const PublicValue = "public-value"

// NotInProse are rules taken whose matches in notes and prose the engine
// drops, and why (secrets.notInProse; a test of package secrets holds the
// two equal): the import report says so beside the rules not taken.
var NotInProse = map[string]string{
	"np.pwhash.1":                "a crypt(3) hash quoted in a note says which scheme and cost a system uses; /etc/shadow, .htpasswd and configuration stay reported",
	"np.pwhash.2":                "a crypt(3) hash quoted in a note says which scheme and cost a system uses; /etc/shadow, .htpasswd and configuration stay reported",
	"np.pwhash.3":                "a crypt(3) hash quoted in a note says which scheme and cost a system uses; /etc/shadow, .htpasswd and configuration stay reported",
	"np.pwhash.4":                "a crypt(3) hash quoted in a note says which scheme and cost a system uses; /etc/shadow, .htpasswd and configuration stay reported",
	"np.pwhash.5":                "a crypt(3) hash quoted in a note says which scheme and cost a system uses; /etc/shadow, .htpasswd and configuration stay reported",
	"kingfisher.weak_password.1": "a note's list of the most common passwords is nobody's secret; a compose file's root password of a common word stays reported",
}

// Generate loads and converts the rules under root and renders the Go
// data file (package secrets) and the import report (markdown: every rule
// not taken and why, every translation made). covered may be nil.
// coveredAlone, asked about the secrets of a covered rule's examples
// standing alone (bareSecrets), is the engine with every rule but the
// imported ones; nil asks covered.
func Generate(root string, covered, coveredAlone Covered) (goSrc, report []byte, err error) {
	if coveredAlone == nil {
		coveredAlone = covered
	}
	rules, err := Load(root)
	if err != nil {
		return nil, nil, err
	}
	conv, not := Convert(rules)
	if covered != nil {
		var keep []Converted
		for _, c := range conv {
			if len(c.Examples) > 0 {
				if by := covered(c.Examples); by == PublicValue {
					not = append(not, NotTaken{c.Rule, "its examples are values the vendor publishes (the public half of a pair), which sotvet leaves unreported"})
					continue
				} else if by != "" {
					why := "every example is found by the existing rule " + by
					bare := bareSecrets(c)
					if len(bare) > 0 {
						alone := coveredAlone(bare)
						if alone == "" {
							keep = append(keep, c) // it finds the token with no name beside it; no existing rule does
							continue
						}
						if alone != by {
							why += ", and its secret standing alone by " + alone
						}
					}
					not = append(not, NotTaken{c.Rule, why})
					continue
				}
			}
			keep = append(keep, c)
		}
		conv = keep
	}
	const allow = " // sotvet:allow-secret -- third-party rule data, not a credential\n"
	var g strings.Builder
	g.WriteString("// Code generated by thirdpartygen from secrets/rules/third_party; DO NOT EDIT.\n\n")
	g.WriteString("package secrets\n\nimport \"github.com/svrnty/sotvet/secrets/internal/gitleaksrules\"\n\n")
	g.WriteString("var thirdPartySets = []*gitleaksrules.Set{\n")
	for _, src := range Sources {
		fmt.Fprintf(&g, "{Module: %q, Version: %q, Rules: []gitleaksrules.Rule{\n", src.Module, src.Commit[:12])
		for _, c := range conv {
			if c.Rule.Source == src {
				fmt.Fprintf(&g, "%#v,%s", c.Out, allow)
			}
		}
		g.WriteString("}},\n")
	}
	g.WriteString("}\n")
	b, err := format.Source([]byte(g.String()))
	if err != nil {
		return nil, nil, err
	}
	var r strings.Builder
	r.WriteString("<!-- Code generated by thirdpartygen; DO NOT EDIT. -->\n\n# Third-party rules: what was taken and how\n\n")
	fmt.Fprintf(&r, "%d rules read, %d taken, %d not taken.\n\n## Not taken\n\n| rule | file:line | why |\n|---|---|---|\n", len(rules), len(conv), len(not))
	sort.SliceStable(not, func(i, j int) bool { return not[i].Rule.ID < not[j].Rule.ID })
	for _, n := range not {
		fmt.Fprintf(&r, "| %s | %s:%d | %s |\n", n.Rule.ID, n.Rule.File, n.Rule.Line, mdCell(n.Reason))
	}
	r.WriteString("\n## Taken, not run on notes and prose\n\n| rule | why |\n|---|---|\n")
	for _, id := range slices.Sorted(maps.Keys(NotInProse)) {
		fmt.Fprintf(&r, "| %s | %s |\n", id, mdCell(NotInProse[id]))
	}
	r.WriteString("\n## Translated to RE2\n\n| rule | translation |\n|---|---|\n")
	for _, c := range conv {
		if len(c.Notes) > 0 {
			fmt.Fprintf(&r, "| %s | %s |\n", c.Rule.ID, mdCell(strings.Join(c.Notes, "; ")))
		}
	}
	return b, []byte(r.String()), nil
}

func mdCell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}
