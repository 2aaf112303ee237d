package authority

import (
	_ "embed"
	"errors"
	"flag"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v4"

	"github.com/svrnty/sotvet/internal/lazyre"
	"github.com/svrnty/sotvet/internal/warmup"
)

// Claim is one forbidden-claim rule of the -claims rule set.
type Claim struct {
	// ID names the rule; it is the category of its findings. Several rules
	// may share an ID (one per scope, say). Kebab-case.
	ID string `yaml:"id"`
	// Pattern is a Go regular expression, or a list of them (alternatives),
	// matched case-insensitively against the text of each structure the
	// rule's scope names.
	Pattern Patterns `yaml:"pattern"`
	// Scope lists where the rule applies: "fact" (a "- key: value" bullet,
	// matched as "key: value"), "frontmatter" (a frontmatter field, matched
	// as "key: value") and "sentence" (a sentence of a paragraph, list item
	// or table cell).
	Scope Scopes `yaml:"scope,flow"`
	// Message is the finding's message; the matched text is appended.
	Message string `yaml:"message"`
	// Unless, when set, is a regular expression or a list of them: a text
	// one of them matches is not a claim of this rule.
	Unless Patterns `yaml:"unless,omitempty"`
	// Contradicts, when set, is "key: value": the rule reports only in a
	// route whose record states key: value (see the package doc).
	Contradicts string `yaml:"contradicts,omitempty"`
}

// Scope names.
const (
	ScopeFact        = "fact"
	ScopeFrontmatter = "frontmatter"
	ScopeSentence    = "sentence"
)

var scopeNames = [...]string{ScopeFact, ScopeFrontmatter, ScopeSentence}

// Scopes is a list of scope names; in YAML a single name may stand alone.
type Scopes []string

// UnmarshalYAML accepts a scalar or a sequence of scalars.
func (s *Scopes) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.ScalarNode:
		*s = Scopes{n.Value}
		return nil
	case yaml.SequenceNode:
		var out Scopes
		for _, e := range n.Content {
			if e.Kind != yaml.ScalarNode {
				return fmt.Errorf("line %d: scope: want a scope name", e.Line)
			}
			out = append(out, e.Value)
		}
		*s = out
		return nil
	}
	return fmt.Errorf("line %d: scope: want a scope name or a list of them", n.Line)
}

func (s Scopes) has(name string) bool { return slices.Contains(s, name) }

// Patterns is a list of regular expressions, alternatives of one another;
// in YAML a single expression may stand alone.
type Patterns []string

// UnmarshalYAML accepts a scalar or a sequence of scalars.
func (p *Patterns) UnmarshalYAML(n *yaml.Node) error {
	var s Scopes
	if err := s.UnmarshalYAML(n); err != nil {
		return errors.New(strings.Replace(err.Error(), "scope: want a scope name", "want a regular expression", 1))
	}
	*p = Patterns(s)
	return nil
}

// MarshalYAML writes each expression single-quoted, one per line.
func (p Patterns) MarshalYAML() (any, error) {
	q := func(v string) *yaml.Node {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v, Style: yaml.SingleQuotedStyle}
	}
	if len(p) == 1 {
		return q(p[0]), nil
	}
	n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
	for _, v := range p {
		n.Content = append(n.Content, q(v))
	}
	return n, nil
}

// join returns the alternatives as one expression.
func (p Patterns) join() string {
	if len(p) == 1 {
		return p[0]
	}
	var parts []string
	for _, v := range p {
		parts = append(parts, "(?:"+v+")")
	}
	return strings.Join(parts, "|")
}

// The subject of a core-authority claim is open: any noun phrase that ends
// in a word naming one of the workspace's artifacts ("This route", "the Stage
// 6 candidate-default slice", "Lane `codex`"), not a closed list of
// document kinds, so a new kind of artifact needs no new rule.
const (
	determiner   = `(?:this|these|that|those|the|our|its|each|every)`
	artifactNoun = `(?:document|doc|record|prd|issues?|evidence|closeout|packet|artifact|workspace|sot|file|contract|brief|guard|template|route|slice|stage|lane|ladder|gate|matrix|blocker|attempt|audit|decision|item|work\s+item|plan|proof|spec|specification|sequence|workboard|board|checklist|policy|phase|step|milestone|backlog|note|intent|context|journal|report|summary|panel|surface|harness|validator|run)s?`
	// artifactName is the name after the noun: "route `x`", "Stage 6".
	artifactName = `(?:\s+(?:‹code›|[\w-]*\d[\w-]*))?`
	// isCoreAuthority is the predicate: "is (now) active Core authority",
	// "has become a Core Protocol", "serves as Core authority". Each list
	// of words stays short enough (16) to be a prefilter literal set.
	isCoreAuthority = `(?:[\w-]+\s+)?(?:is|are|was|were|becomes|became|become|remains|remain|stays|serves\s+as|acts\s+as|counts\s+as|functions\s+as)\s+(?:now\s+)?(?:the\s+|an?\s+)?(?:active\s+|binding\s+|live\s+)?Core\s+(?:Protocol|authority)\b`
	// coreStatus is a status value that is Core's: "Core Protocol",
	// "active Core authority".
	// Few enough forms (16 with "status:") to be a prefilter literal set:
	// the disclaimer ("Not active Core authority.") and the items' Status
	// lines must not, together, make every body a candidate.
	coreStatus = `(?:active\s+)?Core\s+(?:Protocol|authority)\b`
	// holdsCoreAuthority: "holds (active) Core authority".
	holdsCoreAuthority = `(?:now\s+)?(?:has|have|had|holds|hold|held|carries|carry|carried|exercises|wields|gains|gained)\s+(?:now\s+)?(?:active\s+|binding\s+|live\s+)?Core\s+authority\b`
)

// DefaultClaims is the built-in rule set: the forbidden claims of the
// workspace convention. Configuring -claims replaces it. After changing
// it, regenerate builtin_queries.go (and default_claims.yaml, see
// defaultClaimsYAML).
//
//go:generate go test -run TestBuiltinQueries -update
var DefaultClaims = []Claim{
	{
		ID: "core-promotion",
		Pattern: Patterns{
			`^(?:core[ _-]promotion(?:[ _-]status)?\s*:\s*(?:promoted|complete|completed|granted|approved|done|finished|occurred)|promoted[ _-](?:in)?to[ _-]core\s*:\s*(?:true|yes))\b`,
		},
		Scope:   Scopes{ScopeFact},
		Message: "claims promotion into Core; local planning SOT is not promoted",
	},
	{
		ID: "core-promotion",
		Pattern: Patterns{
			`\bpromot(?:e|es|ed)(?:\s+[^\s.;:!?]+){0,6}?\s+(?:in)?to\s+(?:the\s+)?(?:Cortex(?:\s+OS)?\s+)?Core\b`,
			`\bCore\s+promotion\s+(?:is\s+|was\s+|has\s+been\s+)?(?:now\s+)?(?:complete|completed|granted|approved|done|finished|occurs|occurred|happened|succeeded)\b`,
			`\bcore[_ ]promotion[_ ]status\s*[:=]\s*promoted\b`,
		},
		Scope:   Scopes{ScopeSentence, ScopeFrontmatter},
		Message: "claims promotion into Core; local planning SOT is not promoted",
	},
	{
		ID: "core-authority",
		Pattern: Patterns{
			`^(?:active[ _-])?core[ _-](?:authority|protocol)(?:[ _-](?:status|active))?\s*:\s*(?:true|yes|on|active|granted|binding)\b`,
			// The document's own status: "- status: Core Protocol".
			`^status\s*:\s*` + coreStatus,
		},
		Scope:   Scopes{ScopeFact, ScopeFrontmatter},
		Message: "claims Core Protocol status or active Core authority for local planning SOT",
	},
	{
		ID: "core-authority",
		Pattern: Patterns{
			`\b` + determiner + `\s+(?:[\w‹›-]+\s+){0,4}?` + artifactNoun + artifactName + `\s+` + isCoreAuthority,
			`\b` + determiner + `\s+(?:[\w‹›-]+\s+){0,4}?` + artifactNoun + artifactName + `\s+` + holdsCoreAuthority,
			`\b` + artifactNoun + `\s+(?:‹code›|[\w-]*\d[\w-]*)\s+` + isCoreAuthority,
			`\b` + artifactNoun + `\s+(?:‹code›|[\w-]*\d[\w-]*)\s+` + holdsCoreAuthority,
			`\bCTO(?:-[\w-]+)?\s+(?:[\w-]+\s+){0,2}?` + isCoreAuthority,
			`\b(?:active\s+)?Core\s+(?:authority|Protocol)\s+(?:status\s+)?(?:now\s+)?(?:rests|lies|sits|belongs|resides)\s+(?:with|in|to)\s+` + determiner + `\s+(?:[\w‹›-]+\s+){0,4}?` + artifactNoun + `\b`,
			// A status label: "Status: Core Protocol (promoted 2 June 2026)."
			`^status\s*:\s*` + coreStatus,
		},
		// A subject named as Core's own ("The Core Sequence Protocol is a
		// Core Protocol") is no artifact of this workspace.
		Unless:  Patterns{`^\W*(?:the|this|that)\s+Core\s+(?:[\w-]+\s+){0,3}?(?:Protocol|authority)\s+(?:is|are|was|were|becomes|became|remains)\b`},
		Scope:   Scopes{ScopeSentence, ScopeFrontmatter},
		Message: "claims Core Protocol status or active Core authority for local planning SOT",
	},
	{
		ID: "runtime-default-activation",
		Pattern: Patterns{
			`^(?:case[ _-])?(?:runtime|candidate)[ _-]default[ _-](?:activation|active|activated|enabled)\s*:\s*(?:true|yes|on|enabled|active|activated)\b`,
		},
		Scope:   Scopes{ScopeFact, ScopeFrontmatter},
		Message: "claims runtime default activation is on; it stays false until a governed Core route activates it",
	},
	{
		ID: "runtime-default-activation",
		Pattern: Patterns{
			`\b(?:runtime|candidate)[ _-]default[ _-]activation\s+(?:is|was|has\s+been|becomes|became)\s+(?:now\s+)?(?:true|on|enabled|active|granted|complete|done)\b`,
			`\b(?:runtime|candidate)[ _-]default[ _-]activation\s*[:=]\s*(?:true|on|yes|enabled|active)\b`,
			`\bactivat(?:e|es|ed)\s+(?:the\s+)?[\w‹›-]+\s+(?:(?:lane|backend|engine|adapter)\s+)?as\s+(?:the\s+|a\s+)?(?:runtime\s+)?default(?:$|[\s.,;:!])`,
			`\b[\w‹›-]+\s+(?:is|was|has\s+been|becomes|became)\s+(?:now\s+)?(?:activated|active|enabled)\s+as\s+(?:the\s+|a\s+)?(?:runtime\s+)?default(?:$|[\s.,;:!])`,
			`\b(?:runtime\s+default|default\s+activation)\s+(?:is|was|has\s+been|becomes|became)\s+(?:now\s+)?(?:on|true|active|activated|enabled|granted)\b`,
		},
		Scope:   Scopes{ScopeSentence, ScopeFrontmatter},
		Message: "claims runtime default activation is on; it stays false until a governed Core route activates it",
	},
	{
		ID: "default-backend",
		Pattern: Patterns{
			`^(?:runtime[ _-])?default[ _-](?:execution[ _-])?(?:backend|engine)\s*:\s*\S+`,
		},
		Scope:   Scopes{ScopeFact, ScopeFrontmatter},
		Message: "claims a backend is the default backend; backends stay candidates until a governed Core route decides",
		Unless:  Patterns{`:\s*(?:none|null|fake|false|no|n/?a|unset|pending|tbd|not\b|not[ _-]\w+)|candida`},
	},
	{
		ID: "default-backend",
		Pattern: Patterns{
			`\b(?:is|are|was|were|be|been|become|becomes|became|remains|stays)\s+(?:now\s+)?(?:the\s+|a\s+|our\s+)?(?:new\s+)?(?:runtime\s+)?default\s+(?:[\w-]+\s+){0,3}?(?:backend|engine)\b`,
			`\bdefault\s+(?:execution\s+)?(?:backend|engine)\s+(?:is|was|has\s+been|becomes|became)\s+(?:now\s+)?(?:case|codex|pi|claude|aider|openhands|‹code›)`,
			`\b(?-i:Case|Codex|Pi|Claude)\s+(?:is|was|has\s+been|becomes|became)\s+(?:now\s+)?(?:the\s+)?(?:runtime\s+)?default(?:$|[\s.,;:!])`,
			// A default of something that is a backend: "the default of the harness is Pi" (canonical's "the harness defaults to Pi").
			`\bdefault\s+of\s+(?:[\w‹›-]+\s+){1,5}?(?:is|was|has\s+been|becomes|became)\s+(?:now\s+)?(?-i:Case|Codex|Pi|Claude)(?:$|[\s.,;:!])`,
			`\b(?:make|makes|made)\s+(?:(?-i:Case|Codex|Pi|Claude)|‹code›|(?:the|this|that)\s+(?:[\w-]+\s+)?(?:backend|engine|adapter))\s+(?:the\s+|a\s+)?(?:runtime\s+)?default(?:$|[\s.,;:!])`,
			`\bpromot(?:e|es|ed)\s+(?:[\w‹›-]+\s+){0,3}?to\s+(?:the\s+)?(?:runtime\s+)?default\b`,
		},
		Scope:   Scopes{ScopeSentence, ScopeFrontmatter},
		Message: "claims a backend is the default backend; backends stay candidates until a governed Core route decides",
		Unless:  Patterns{`\bcandida(?:te|tes|cy)\b|\bfake\b`},
	},
	{
		ID: "approval-contradiction",
		Pattern: Patterns{
			`^approval[ _-]granted\s*:\s*(?:true|yes)\b`,
			// The approval as a key and its state: "JP approval: granted".
			`^(?:(?:JP|operator|human)[ _-])?approval(?:[ _-](?:status|state))?\s*:\s*(?:granted|given|received|approved)\b`,
		},
		Scope:       Scopes{ScopeFact, ScopeFrontmatter},
		Message:     "claims approval was granted",
		Contradicts: "approval_granted: false",
	},
	{
		ID: "approval-contradiction",
		Pattern: Patterns{
			`\bapproval\s+(?:was|has\s+been|is|is\s+now|were|have\s+been)\s+granted\b`,
			`\bapproval[ _-]granted\s*[:=]\s*(?:true|yes)\b`,
			`\bJP\s+(?:has\s+)?(?:approved|granted)\b`,
			`\b(?:JP|operator|human)\s+approval\s+(?:was\s+|has\s+been\s+|is\s+)?(?:granted|given|recorded|received)\b`,
			// "JP granted approval", and the passive read actively ("JP given approval").
			`\b(?:JP|operator|human)\s+(?:has\s+)?(?:gave|given|granted)\s+(?:(?:its|his|her|their|the)\s+)?approval\b`,
		},
		Scope:       Scopes{ScopeSentence, ScopeFrontmatter},
		Message:     "claims approval was granted",
		Contradicts: "approval_granted: false",
	},
}

// compiledClaim is a Claim ready to match.
type compiledClaim struct {
	Claim
	alts       []alt // one per pattern alternative
	unless     *lazyre.Regexp
	key, value string // of Contradicts
}

// alt is one alternative of a rule's pattern, with its prefilter.
type alt struct {
	re     *lazyre.Regexp
	filter prefilter
}

// admits reports whether some alternative may match a text that satisfies
// the prefilter clauses f.
func (cc *compiledClaim) admits(f clauseBits) bool {
	for i := range cc.alts {
		if cc.alts[i].filter.admits(f) {
			return true
		}
	}
	return false
}

// find returns the matches of the alternatives in text (f: the prefilter
// clauses it satisfies), trimmed of trailing space and punctuation, in
// order of position; only the first of each alternative unless all is set.
func (cc *compiledClaim) find(text string, f clauseBits, all bool) [][]int {
	var out [][]int
	n := 1
	if all {
		n = -1
	}
	for _, a := range cc.alts {
		if !a.filter.admits(f) {
			continue
		}
		for _, loc := range a.re.FindAllStringIndex(text, n) {
			if loc = trimMatch(text, loc); loc != nil {
				out = append(out, loc)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

var kebab = lazyRE.New(`^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$`)

// compileRE compiles expr now, or on first use when it is known to
// compile (checked): a rule's expressions run only on the texts its
// prefilter admits, and on a small workspace most never run, while
// compiling the built-in set's costs a cold process ~1.5 ms.
func compileRE(expr string, checked bool) (*lazyre.Regexp, error) {
	if checked {
		return lazyre.New(expr), nil
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, err
	}
	return lazyre.Of(re), nil
}

// queryFor returns queryOf(p), precomputed for the built-in patterns.
func queryFor(p string) query {
	if q, ok := precomputedQuery(p); ok {
		return q
	}
	return queryOf(p)
}

// compileClaims compiles the rules cs; checked says that their
// expressions are known to compile (the built-in set, which the tests
// compile), which are then compiled on first use.
func compileClaims(cs []Claim, checked bool) ([]*compiledClaim, *matcher, error) {
	out := make([]*compiledClaim, 0, len(cs))
	clauses := newClauseSet()
	for i, c := range cs {
		where := fmt.Sprintf("claim %d", i+1)
		if c.ID != "" {
			where += fmt.Sprintf(" (%s)", c.ID)
		}
		if !kebab.MatchString(c.ID) {
			return nil, nil, fmt.Errorf("%s: id %q must be kebab-case (it is the category of the findings)", where, c.ID)
		}
		if len(c.Pattern) == 0 || slices.Contains(c.Pattern, "") {
			return nil, nil, fmt.Errorf("%s: pattern is required", where)
		}
		if strings.TrimSpace(c.Message) == "" {
			return nil, nil, fmt.Errorf("%s: message is required", where)
		}
		if len(c.Scope) == 0 {
			return nil, nil, fmt.Errorf("%s: scope is required (%s)", where, strings.Join(scopeNames[:], ", "))
		}
		for _, s := range c.Scope {
			if !slices.Contains(scopeNames[:], s) {
				return nil, nil, fmt.Errorf("%s: unknown scope %q (want %s)", where, s, strings.Join(scopeNames[:], ", "))
			}
		}
		cc := &compiledClaim{Claim: c}
		for _, p := range c.Pattern {
			re, err := compileRE("(?i)"+p, checked)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: pattern: %w", where, err)
			}
			cc.alts = append(cc.alts, alt{re: re, filter: clauses.compile(queryFor(p))})
		}
		if len(c.Unless) > 0 {
			re, err := compileRE("(?i)"+c.Unless.join(), checked)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: unless: %w", where, err)
			}
			cc.unless = re
		}
		if c.Contradicts != "" {
			k, v, ok := strings.Cut(c.Contradicts, ":")
			cc.key, cc.value = normKey(k), normValue(v)
			if !ok || cc.key == "" || cc.value == "" {
				return nil, nil, fmt.Errorf("%s: contradicts: want \"key: value\", got %q", where, c.Contradicts)
			}
		}
		out = append(out, cc)
	}
	for _, l := range rewriteLits() {
		clauses.lits[l] |= rewriteClause
	}
	return out, newMatcher(clauses.lits), nil
}

// ClaimSet is the -claims flag: a YAML list of Claim mappings. Setting it
// replaces the whole set; an empty value means no claim rules.
type ClaimSet struct {
	claims []Claim
	// lazy: compiled on first use (load), for the built-in set, which
	// costs ~10 ms and most commands (scan, guard, harness) never use.
	lazy     bool
	once     sync.Once
	compiled []*compiledClaim
	matcher  *matcher // over the literals of the prefilters
	// filters holds, by scope (in scopeNames order), the prefilters of
	// the alternatives of the rules of the scope: admits runs for every
	// field, fact and kept prose block.
	filters [len(scopeNames)][]prefilter
	// text is String's YAML, rendered on first call: a check run compares
	// every flag's String before and after each workspace.
	text atomic.Pointer[string]
}

// admits reports whether a rule of the set with the scope may match a text
// that satisfies the prefilter clauses f.
func (s *ClaimSet) admits(scope string, f clauseBits) bool {
	fs := s.filters[slices.Index(scopeNames[:], scope)]
	for i := range fs {
		if fs[i].admits(f) {
			return true
		}
	}
	return false
}

// filtersOf returns the prefilters of the alternatives of the rules of
// each scope.
func filtersOf(compiled []*compiledClaim) [len(scopeNames)][]prefilter {
	var out [len(scopeNames)][]prefilter
	for i, s := range scopeNames {
		for _, cc := range compiled {
			if cc.Scope.has(s) {
				for _, a := range cc.alts {
					out[i] = append(out[i], a.filter)
				}
			}
		}
	}
	return out
}

// Compiling the built-in claims is the check's costly start: a command
// that will run the check starts it early (see internal/warmup).
func init() { warmup.Register(Analyzer.Name, func() { claims.load() }) }

// newLazyClaimSet returns a set holding cs, which must be valid, compiled
// on first use.
func newLazyClaimSet(cs []Claim) *ClaimSet {
	s := &ClaimSet{claims: slices.Clone(cs), lazy: true}
	if reflect.DeepEqual(cs, DefaultClaims) {
		// Registering the flag renders it (its default), at every sotvet
		// process's start: the built-in set's YAML is kept rendered.
		t := defaultClaimsYAML
		s.text.Store(&t)
	}
	return s
}

// defaultClaimsYAML is DefaultClaims as String renders it; after changing
// DefaultClaims, regenerate it with
// go test ./checks/authority -run TestDefaultClaimsYAML -update.
//
//go:embed default_claims.yaml
var defaultClaimsYAML string

// load compiles a lazy set; every reader of the compiled rules calls it.
func (s *ClaimSet) load() *ClaimSet {
	s.once.Do(func() {
		if s.lazy {
			// A lazy set is the built-in one (newLazyClaimSet), whose
			// expressions the tests compile.
			compiled, m, err := compileClaims(s.claims, true)
			if err != nil {
				panic("authority: " + err.Error())
			}
			s.compiled, s.matcher, s.filters, s.lazy = compiled, m, filtersOf(compiled), false
		}
	})
	return s
}

// NewClaimSet returns a set holding cs, which must be valid.
func NewClaimSet(cs []Claim) *ClaimSet {
	compiled, m, err := compileClaims(cs, false)
	if err != nil {
		panic("authority: " + err.Error())
	}
	return &ClaimSet{claims: slices.Clone(cs), compiled: compiled, matcher: m, filters: filtersOf(compiled)}
}

// String renders the set as YAML, the form Set reads.
func (s *ClaimSet) String() string {
	if s == nil || len(s.claims) == 0 {
		return ""
	}
	if t := s.text.Load(); t != nil {
		return *t
	}
	b, err := yaml.Dump(s.claims, yaml.WithLineWidth(-1))
	if err != nil {
		return ""
	}
	t := string(b)
	s.text.Store(&t)
	return t
}

// Set parses a YAML list of claim rules, replacing the set.
func (s *ClaimSet) Set(v string) error {
	cs, err := parseClaims(v)
	if err != nil {
		return err
	}
	compiled, m, err := compileClaims(cs, false)
	if err != nil {
		return err
	}
	s.once.Do(func() {}) // nothing left to load
	s.claims, s.compiled, s.matcher, s.filters, s.lazy = cs, compiled, m, filtersOf(compiled), false
	s.text.Store(nil)
	return nil
}

// Clone returns an independent copy, so that a configuration can be
// validated without changing the flag.
func (s *ClaimSet) Clone() flag.Value {
	s.load()
	return &ClaimSet{claims: slices.Clone(s.claims), compiled: slices.Clone(s.compiled), matcher: s.matcher, filters: s.filters}
}

// Claims returns the rules of the set.
func (s *ClaimSet) Claims() []Claim { return slices.Clone(s.claims) }

// IDs returns the ids of the set's rules: categories of the authority
// check's findings (checks.Categories reads them without importing this
// package).
func (s *ClaimSet) IDs() []string {
	ids := make([]string, len(s.claims))
	for i, c := range s.claims {
		ids[i] = c.ID
	}
	return ids
}

func parseClaims(v string) ([]Claim, error) {
	if strings.TrimSpace(v) == "" {
		return nil, nil
	}
	var n yaml.Node
	if err := yaml.Load([]byte(v), &n); err != nil {
		return nil, err
	}
	if n.Kind == yaml.DocumentNode && len(n.Content) == 1 {
		n = *n.Content[0]
	}
	if n.Kind != yaml.SequenceNode {
		return nil, errors.New("want a list of claim rules (mappings with id, pattern, scope, message, unless, contradicts)")
	}
	var cs []Claim
	if err := yaml.Load([]byte(v), &cs, yaml.WithKnownFields(), yaml.WithUniqueKeys(true)); err != nil {
		return nil, err
	}
	return cs, nil
}

// keyIs reports whether normKey(k) is key. It runs on every fact and field
// of the routes the contradiction rules read: an ASCII key is compared as
// it is normalised, without building the normalised key.
func keyIs(k, key string) bool {
	for i := 0; i < len(k); i++ {
		if k[i] >= utf8.RuneSelf {
			return normKey(k) == key
		}
	}
	k = strings.Trim(strings.TrimSpace(k), "`*_ ")
	if len(k) != len(key) {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		switch {
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		case c == ' ' || c == '-':
			c = '_'
		}
		if c != key[i] {
			return false
		}
	}
	return true
}

// normKey normalises a fact or field key: lower case, spaces and dashes as
// underscores, code-span backticks dropped.
func normKey(k string) string {
	k = strings.ToLower(strings.Trim(strings.TrimSpace(k), "`*_ "))
	return keyReplacer.Replace(k)
}

var (
	keyReplacer    = strings.NewReplacer(" ", "_", "-", "_")
	markupReplacer = strings.NewReplacer("`", "", "*", "")
)

// normValue normalises a fact value: markup dropped, lower case, trailing
// punctuation trimmed.
func normValue(v string) string {
	v = strings.ToLower(strings.TrimSpace(markupReplacer.Replace(v)))
	return strings.TrimRight(v, ".;, ")
}
