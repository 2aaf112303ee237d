package prose

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v4"

	"github.com/svrnty/sotvet/cache"
	"github.com/svrnty/sotvet/internal/safefs"
)

// Rule is one rule of a style, as its YAML file defines it.
type Rule struct {
	Name    string // Style.Rule
	File    string // the YAML file it came from
	Extends string
	Message string
	Link    string
	Level   Level
	Scopes  []string

	IgnoreCase bool
	Nonword    bool
	Append     bool
	Vocab      bool // accepted vocabulary applies (Vale's default)
	Action     Action

	Tokens     []string
	Raw        []string
	Exceptions []string
	Swap       []Swap
	Max, Min   int
	Token      string
	First      string
	Second     string
	Match      string
	Indicators []string
	Either     [][2]string
	Alpha      bool
	Threshold  float64

	check checker
	pre   *prefilterFacts // what the filter requires of it, once known
}

// Swap is one entry of a substitution rule: what to find, what to say
// instead.
type Swap struct {
	Find, Replace string
}

// Action is a rule's action: what an editor may do about an alert.
type Action struct {
	Name   string
	Params []string
}

// Skipped is a rule sotvet read but does not run, and why.
type Skipped struct {
	Name, File, Reason string
}

// Styles are the rules of every style a configuration names.
type Styles struct {
	Rules   map[string]*Rule // by Style.Rule
	Skipped []Skipped
	Accept  []string         // accepted vocabulary
	accept  []*regexp.Regexp // Accept compiled, once per set
	Reject  []string
}

// supported are the extension points sotvet runs.
var supported = map[string]bool{
	"existence": true, "substitution": true, "occurrence": true, "repetition": true,
	"capitalization": true, "conditional": true, "consistency": true,
}

// notYet are Vale's other extension points, with why they are skipped.
var notYet = map[string]string{
	"sequence":    "the sequence extension point needs part-of-speech tagging, which sotvet does not do yet",
	"spelling":    "the spelling extension point needs Hunspell dictionaries, which sotvet does not read yet",
	"metric":      "the metric extension point is not implemented yet",
	"readability": "the readability extension point is not implemented yet",
	"script":      "the script extension point runs Tengo scripts, which sotvet never runs",
}

// LoadStyles reads the named styles from dir (a StylesPath). A style that
// does not exist, or a rule file that cannot be read, is an error at its
// file and line. Vocabularies are read from dir/config/vocabularies/NAME.
func LoadStyles(dir string, styles []string, vocab []string) (*Styles, error) {
	// The rule files are listed first, then read and parsed (or taken from
	// the style cache, which their contents name, or which their stamps
	// name in the stamp index); a file that cannot be read is reported
	// after the files before it are parsed, as if read in turn.
	c := styleCache.Load()
	var files []ruleFile
	// The files' stamps, while each is one the stamp index may hold.
	var stamps []cache.Stamp
	stamped := c != nil
	var readErr error
list:
	for _, style := range styles {
		if style == "Vale" {
			continue // the built-in style: see builtinRules
		}
		sdir := filepath.Join(dir, style)
		at := cache.Clock().UnixNano() // before the stats: see Stamp.Trusted
		entries, err := os.ReadDir(sdir)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				err = fmt.Errorf("style %q not found in StylesPath %s", style, dir)
			}
			readErr = err
			break
		}
		for _, e := range entries {
			if e.IsDir() || !(strings.HasSuffix(e.Name(), ".yml") || strings.HasSuffix(e.Name(), ".yaml")) {
				continue
			}
			if !e.Type().IsRegular() {
				readErr = fmt.Errorf("%s: not a regular file", filepath.Join(sdir, e.Name()))
				break list
			}
			name := style + "." + strings.TrimSuffix(strings.TrimSuffix(e.Name(), ".yml"), ".yaml")
			files = append(files, ruleFile{name, filepath.Join(sdir, e.Name()), nil})
			if stamped {
				st, ok := ruleStamp(e, at)
				stamps, stamped = append(stamps, st), ok
			}
		}
	}
	var out *Styles
	if readErr == nil && stamped && len(files) > 0 {
		if cached, ok := readStampedCache(c, files, stamps); ok && compileCached(cached) {
			out = stylesOf(files, cached)
		}
	}
	if out == nil {
		for i := range files {
			// Read in four system calls, not eight: a style set is
			// hundreds of small files.
			data, err := safefs.ReadNoFollow(files[i].file, maxRuleFile)
			if err != nil {
				files, readErr = files[:i], err
				break
			}
			ruleReads.Add(1)
			files[i].data = data
		}
		if readErr != nil {
			if _, _, err := parseRuleFiles(nil, files); err != nil {
				return nil, err
			}
			return nil, readErr
		}
		var kept bool
		var err error
		if out, kept, err = parseRuleFiles(c, files); err != nil {
			return nil, err
		}
		if stamped && kept && len(files) > 0 {
			// Only an index of a cache file that is there: one that is
			// not would send every run to read the files and index again.
			writeStyleStamps(c, files, stamps)
		}
	}
	for _, v := range vocab {
		for _, base := range []string{filepath.Join(dir, "config", "vocabularies", v), filepath.Join(dir, "Vocab", v)} {
			if _, err := os.Stat(base); err != nil {
				continue
			}
			for _, which := range []string{"accept.txt", "reject.txt"} {
				data, err := safefs.ReadPath(filepath.Join(base, which), maxRuleFile)
				if errors.Is(err, fs.ErrNotExist) {
					continue
				} else if err != nil {
					return nil, err
				}
				for _, l := range strings.Split(string(data), "\n") {
					l = strings.TrimSpace(l)
					if l == "" || strings.HasPrefix(l, "#") {
						continue
					}
					if which == "accept.txt" {
						out.Accept = append(out.Accept, l)
					} else {
						out.Reject = append(out.Reject, l)
					}
				}
			}
			break
		}
	}
	sort.Slice(out.Skipped, func(i, j int) bool { return out.Skipped[i].Name < out.Skipped[j].Name })
	accept, err := acceptPatterns(out.Accept)
	if err != nil {
		return nil, err
	}
	out.accept = accept
	return out, nil
}

// parseRuleFiles returns the rules of files, taken from the style cache c
// when it has them, or parsed (and then kept in c when c is set), and
// whether c holds them now.
func parseRuleFiles(c *StyleCache, files []ruleFile) (_ *Styles, kept bool, _ error) {
	var parsed []cachedRule
	if c != nil {
		if cached, ok := readStyleCache(c, files); ok && compileCached(cached) {
			parsed, kept = cached, true
		}
	}
	if parsed == nil {
		parsed = make([]cachedRule, len(files))
		for i, f := range files {
			pc := &compiler{record: c != nil}
			r, skip, err := parseRule(f.name, f.file, f.data, pc)
			if err != nil {
				return nil, false, err
			}
			parsed[i] = cachedRule{rule: r, skip: skip, facts: pc.made}
			if r != nil && c != nil {
				parsed[i].pre = r.prefilter()
				parsed[i].alts = altFacts(r.check)
			}
		}
		if c != nil {
			kept = writeStyleCache(c, files, parsed)
		}
	}
	return stylesOf(files, parsed), kept, nil
}

// ruleStamp returns the stamp of a rule file listed at at, and whether the
// stamp index may hold it.
func ruleStamp(e fs.DirEntry, at int64) (cache.Stamp, bool) {
	info, err := e.Info()
	if err != nil {
		return cache.Stamp{}, false
	}
	st, ok := cache.StampOf(info)
	return st, ok && st.Trusted(at)
}

// stylesOf is the set of files' rules, parsed.
func stylesOf(files []ruleFile, parsed []cachedRule) *Styles {
	out := &Styles{Rules: map[string]*Rule{}}
	for i, f := range files {
		if skip := parsed[i].skip; skip != "" {
			out.Skipped = append(out.Skipped, Skipped{Name: f.name, File: f.file, Reason: skip})
			continue
		}
		out.Rules[f.name] = parsed[i].rule
	}
	return out
}

// compileCached compiles the rules read from the style cache, and reports
// whether every one compiled: one that does not is read from its YAML
// again, which says where it fails.
func compileCached(rules []cachedRule) bool {
	for _, cr := range rules {
		if cr.skip != "" {
			continue
		}
		if cr.rule == nil || !supported[cr.rule.Extends] || !knownScopes(cr.rule.Scopes) {
			return false
		}
		c, err := compile(cr.rule, &compiler{kept: keptFacts(cr.facts), alts: cr.alts})
		if err != nil {
			return false
		}
		cr.rule.check = c
		cr.rule.pre = cr.pre
	}
	return true
}

// knownScopes reports whether every scope is one a block can carry.
func knownScopes(scopes []string) bool {
	for _, s := range scopes {
		base := strings.TrimPrefix(s, "~")
		if i := strings.IndexByte(base, '.'); i >= 0 {
			base = base[:i]
		}
		if !blockScopes[base] {
			return false
		}
	}
	return true
}

// maxRuleFile bounds what one style file may hold.
const maxRuleFile = 1 << 20

// RuleError is a rule file that cannot be used, at a line and column.
type RuleError = ConfigError

// ParseRule reads one rule file. A rule of an extension point sotvet does
// not run is returned as skipped, with the reason.
func ParseRule(name, file string, data []byte) (*Rule, string, error) {
	return parseRule(name, file, data, nil)
}

// parseRule is ParseRule, its expressions compiled through pc.
func parseRule(name, file string, data []byte, pc *compiler) (*Rule, string, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		line := 1
		var te *yaml.TypeError
		if errors.As(err, &te) {
			line = 1
		}
		msg := err.Error()
		if i := strings.Index(msg, "line "); i >= 0 {
			if n, e := strconv.Atoi(strings.TrimRight(strings.Fields(msg[i+5:])[0], ":")); e == nil {
				line = n
			}
		}
		return nil, "", &RuleError{file, line, 1, "invalid YAML: " + msg}
	}
	if len(root.Content) == 0 || root.Content[0].Kind != yaml.MappingNode {
		return nil, "", &RuleError{file, 1, 1, "a rule is a YAML mapping"}
	}
	m := root.Content[0]
	r := &Rule{Name: name, File: file, Level: Suggestion, Vocab: true, Scopes: []string{"text"}}
	bad := func(n *yaml.Node, format string, a ...any) error {
		return &RuleError{file, n.Line, n.Column, fmt.Sprintf(format, a...)}
	}
	str := func(n *yaml.Node) (string, error) {
		if n.Kind != yaml.ScalarNode {
			return "", bad(n, "want a string")
		}
		return n.Value, nil
	}
	list := func(n *yaml.Node) ([]string, error) {
		if n.Kind == yaml.ScalarNode {
			return []string{n.Value}, nil
		}
		if n.Kind != yaml.SequenceNode {
			return nil, bad(n, "want a list of strings")
		}
		var out []string
		for _, c := range n.Content {
			if c.Kind != yaml.ScalarNode {
				return nil, bad(c, "want a string")
			}
			out = append(out, c.Value)
		}
		return out, nil
	}
	boolean := func(n *yaml.Node) (bool, error) {
		b, err := strconv.ParseBool(n.Value)
		if n.Kind != yaml.ScalarNode || err != nil {
			return false, bad(n, "want true or false")
		}
		return b, nil
	}
	integer := func(n *yaml.Node) (int, error) {
		v, err := strconv.Atoi(n.Value)
		if n.Kind != yaml.ScalarNode || err != nil || v < 0 {
			return 0, bad(n, "want a whole number")
		}
		return v, nil
	}
	// A rule of an extension point sotvet does not run is skipped before
	// its other keys are read: their shapes are that extension point's.
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == "extends" {
			if reason, ok := notYet[m.Content[i+1].Value]; ok {
				return nil, reason, nil
			}
		}
	}
	var extendsNode *yaml.Node
	var err error
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		switch k.Value {
		case "extends":
			extendsNode = v
			r.Extends, err = str(v)
		case "message":
			r.Message, err = str(v)
		case "description", "limit", "vocab_ignore", "dicpath", "dictionaries", "filters", "ignore", "append_ignore", "custom", "capitalize", "matchcase", "code", "nlp", "level_map", "lang", "sentence", "affix", "in", "dic", "aff", "dictionary", "script", "formula", "condition", "tokenizer", "type", "prefix", "vocab_only":
			// Read by Vale for extension points or refinements sotvet does
			// not apply; their absence changes no position.
		case "link":
			r.Link, err = str(v)
		case "level":
			var s string
			if s, err = str(v); err == nil {
				l, ok := ParseLevel(s)
				if !ok {
					return nil, "", bad(v, "level %q: want suggestion, warning or error", s)
				}
				r.Level = l
			}
		case "scope":
			r.Scopes, err = list(v)
		case "ignorecase":
			r.IgnoreCase, err = boolean(v)
		case "nonword":
			r.Nonword, err = boolean(v)
		case "append":
			r.Append, err = boolean(v)
		case "vocab":
			r.Vocab, err = boolean(v)
		case "alpha":
			r.Alpha, err = boolean(v)
		case "tokens":
			r.Tokens, err = list(v)
		case "raw":
			r.Raw, err = list(v)
		case "exceptions":
			r.Exceptions, err = list(v)
		case "indicators":
			r.Indicators, err = list(v)
		case "max":
			r.Max, err = integer(v)
		case "min":
			r.Min, err = integer(v)
		case "token":
			r.Token, err = str(v)
		case "first":
			r.First, err = str(v)
		case "second":
			r.Second, err = str(v)
		case "match":
			r.Match, err = str(v)
		case "style":
			// capitalization's title style (AP, Chicago): sotvet's $title
			// follows one set of small words.
		case "threshold":
			r.Threshold, err = strconv.ParseFloat(v.Value, 64)
			if err != nil {
				err = bad(v, "want a number")
			}
		case "swap":
			if v.Kind != yaml.MappingNode {
				return nil, "", bad(v, "swap: want a mapping of pattern: replacement")
			}
			for j := 0; j+1 < len(v.Content); j += 2 {
				if v.Content[j].Kind != yaml.ScalarNode || v.Content[j+1].Kind != yaml.ScalarNode {
					return nil, "", bad(v.Content[j], "swap: want string: string")
				}
				r.Swap = append(r.Swap, Swap{v.Content[j].Value, v.Content[j+1].Value})
			}
		case "either":
			if v.Kind != yaml.MappingNode {
				return nil, "", bad(v, "either: want a mapping of form: other form")
			}
			for j := 0; j+1 < len(v.Content); j += 2 {
				r.Either = append(r.Either, [2]string{v.Content[j].Value, v.Content[j+1].Value})
			}
		case "action":
			if v.Kind != yaml.MappingNode {
				return nil, "", bad(v, "action: want a mapping with name and params")
			}
			for j := 0; j+1 < len(v.Content); j += 2 {
				switch v.Content[j].Value {
				case "name":
					r.Action.Name, err = str(v.Content[j+1])
				case "params":
					r.Action.Params, err = list(v.Content[j+1])
				}
				if err != nil {
					return nil, "", err
				}
			}
		default:
			return nil, "", bad(k, "unknown key %q", k.Value)
		}
		if err != nil {
			return nil, "", err
		}
	}
	if extendsNode == nil {
		return nil, "", &RuleError{file, 1, 1, "missing extends"}
	}
	if reason, ok := notYet[r.Extends]; ok {
		return nil, reason, nil
	}
	if !supported[r.Extends] {
		return nil, "", bad(extendsNode, "unknown extension point %q", r.Extends)
	}
	for _, s := range r.Scopes {
		if !knownScopes([]string{s}) {
			return nil, "", bad(m, "unknown scope %q", s)
		}
	}
	c, err := compile(r, pc)
	if err == nil {
		err = validate(c)
	}
	if err != nil {
		return nil, "", &RuleError{file, keyLine(m, r.Extends), 1, err.Error()}
	}
	r.check = c
	return r, "", nil
}

// keyLine is where a rule's patterns are: the line of its first pattern key.
func keyLine(m *yaml.Node, _ string) int {
	for i := 0; i+1 < len(m.Content); i += 2 {
		switch m.Content[i].Value {
		case "tokens", "raw", "swap", "token", "first", "second", "match", "either", "exceptions":
			return m.Content[i].Line
		}
	}
	return m.Line
}
