package secrets

import (
	"bytes"
	"cmp"
	"fmt"
	"iter"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"
)

// AllowMarker is the inline allow comment. It must be followed by " -- " and
// a reason on the same line as the secret (its first or its last line):
//
//	token: ... # sotvet:allow-secret -- fixture key, revoked 2026-05-01
const AllowMarker = "sotvet:allow-secret"

// Config configures a Scanner. The zero Config is usable but does not allow
// localhost endpoints; DefaultConfig is the documented default.
type Config struct {
	Rules []*Rule // nil => DefaultRules()

	// AllowPaths are globs over slash-separated relative paths: path.Match
	// syntax per segment, plus "**" for any number of segments
	// ("**/testdata/**", "docs/*.md"). Findings in matching files are
	// allowed ("path").
	AllowPaths []string
	// AllowPath, when set, is consulted as well: it allows a file's
	// findings when it returns true for the path given to Scan.
	AllowPath func(path string) bool
	// AllowValues: a secret matching any of these is allowed ("value"), and
	// is the only kind of allowed finding that Redact leaves in place.
	AllowValues []*regexp.Regexp
	// Baseline holds accepted fingerprints (see Fingerprint) ("baseline").
	Baseline map[string]bool
	// GitleaksIgnore holds the entries of a .gitleaksignore
	// ("gitleaksignore"); see ParseGitleaksIgnore.
	GitleaksIgnore GitleaksIgnore

	// EndpointKeySuffixes configure the built-in endpoint-value rule
	// (default DefaultEndpointKeySuffixes).
	EndpointKeySuffixes []string
	// AllowLocalhost: loopback and unspecified hosts are not endpoint
	// findings. DefaultConfig sets it.
	AllowLocalhost bool
	// EndpointPlaceholders: an endpoint value matching any of these is a
	// placeholder, not a finding (in addition to the built-in ones).
	EndpointPlaceholders []*regexp.Regexp
}

// DefaultConfig returns the default configuration: the default rules, no
// allowlists, the default endpoint key suffixes, localhost allowed.
func DefaultConfig() Config { return Config{AllowLocalhost: true} }

// Finding is one detected secret. It never holds the secret itself: only its
// masked form and its fingerprint.
type Finding struct {
	RuleID, Description string
	Path                string
	// Line and Col locate Start; EndLine and EndCol locate End. Both are
	// 1-based and count bytes, as go/token does.
	Line, Col, EndLine, EndCol int
	Start, End                 int // byte offsets of the secret: content[Start:End]

	// Redacted is the rule's Mask of the secret: its public prefix and
	// "****" ("ghp_****", "AKIA****"), or "****" alone (a password).
	Redacted    string
	Fingerprint string // Fingerprint(RuleID, secret)

	Allowed     bool   // inline allow with a reason, path or value allowlist, or baseline
	AllowReason string // "inline: <reason>", "path", "value" or "baseline"
	Unjustified bool   // an inline allow marker without a reason is on the line

	// Encoding names the encodings the secret was written under,
	// outermost first ("base64", "percent+base64"), when it was found
	// by decoding content[Start:End]; empty when it is written plainly.
	// Redacted and Fingerprint are then the decoded secret's.
	Encoding string
}

// Shown is what a report shows of the secret: Redacted, and the
// encodings it was decoded from ("ghp_****, decoded from percent then
// base64").
func (f Finding) Shown() string {
	if f.Encoding == "" {
		return f.Redacted
	}
	return f.Redacted + ", decoded from " + strings.ReplaceAll(f.Encoding, "+", " then ")
}

// String formats a finding without its secret.
func (f Finding) String() string {
	s := fmt.Sprintf("%s:%d:%d: %s: %s (%s)", f.Path, f.Line, f.Col, f.RuleID, f.Description, f.Shown())
	switch {
	case f.Allowed:
		s += " [allowed: " + f.AllowReason + "]"
	case f.Unjustified:
		s += " [allow marker without a reason]"
	}
	return s
}

// Scanner detects and redacts secrets. It is safe for concurrent use.
type Scanner struct {
	rules       []*compiledRule
	always      []int // rules without keywords
	finders     []int // rules that find their secrets themselves (Rule.find)
	kw          *kwMatcher
	allowPaths  []*globMatcher
	allowPath   func(string) bool
	allowValues []*regexp.Regexp
	baseline    map[string]bool
	glIgnore    GitleaksIgnore
	scratch     sync.Pool // *detectScratch
	// filters is the room its rules' filters share for their states
	filters *filterBudget
	// tune is the thresholds its rules switch at (its rules point at it)
	tune tuning
}

// tuning holds the thresholds at which a scanner's rules switch to a
// form that pays off only on much text: every scanner but a test's has
// the defaults. A test that wants a switch made at once, or never,
// builds a scanner with its own (newScannerTuned) instead of setting a
// package variable that every other test's scanner reads, so that such
// tests run in parallel.
type tuning struct {
	reachAfter     int64 // see reachAfter
	narrowAfter    int64 // see narrowAfter
	narrowMinInsts int   // see narrowMinInsts
}

var defaultTuning = tuning{reachAfter: reachAfter, narrowAfter: narrowAfter, narrowMinInsts: narrowMinInsts}

// tuned returns the tuning of the rule's scanner, the defaults for a rule
// built outside one.
func (cr *compiledRule) tuned() *tuning {
	if cr.tune == nil {
		return &defaultTuning
	}
	return cr.tune
}

// NewScanner validates cfg and builds a Scanner. The scanner of
// DefaultConfig is built once per process and shared: a check run asks for
// it three times (the secrets and records checks, the redaction of
// findings), and sharing it shares the work each rule does on first use.
func NewScanner(cfg Config) (*Scanner, error) {
	if reflect.DeepEqual(cfg, DefaultConfig()) {
		return sharedDefaultScanner()
	}
	return newScanner(cfg)
}

var sharedDefaultScanner = sync.OnceValues(func() (*Scanner, error) { return newScanner(DefaultConfig()) })

// Validate reports what in cfg's settings NewScanner would refuse,
// without building the rules: a run that may never need the scanner still
// reports a bad setting.
func (cfg Config) Validate() error {
	for i, re := range cfg.AllowValues {
		if re == nil {
			return fmt.Errorf("secrets: AllowValues[%d] is nil", i)
		}
	}
	for i, re := range cfg.EndpointPlaceholders {
		if re == nil {
			return fmt.Errorf("secrets: EndpointPlaceholders[%d] is nil", i)
		}
	}
	for _, p := range cfg.AllowPaths {
		if _, err := compileGlob(p); err != nil {
			return err
		}
	}
	return nil
}

func newScanner(cfg Config) (*Scanner, error) {
	return newScannerTuned(cfg, defaultTuning)
}

// newScannerTuned is newScanner with the thresholds of tune.
func newScannerTuned(cfg Config, tune tuning) (*Scanner, error) {
	rules := cfg.Rules
	if rules == nil {
		rules = DefaultRules()
	}
	s := &Scanner{
		allowPath:   cfg.AllowPath,
		allowValues: append([]*regexp.Regexp(nil), cfg.AllowValues...),
		baseline:    make(map[string]bool, len(cfg.Baseline)),
		glIgnore:    cfg.GitleaksIgnore,
		filters:     newFilterBudget(),
		tune:        tune,
	}
	for k, v := range cfg.Baseline {
		if v {
			s.baseline[k] = true
		}
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	for _, p := range cfg.AllowPaths {
		g, _ := compileGlob(p) // Validate compiled it
		s.allowPaths = append(s.allowPaths, g)
	}
	if len(rules) > 1<<15 {
		return nil, fmt.Errorf("secrets: too many rules")
	}
	seen := map[string]bool{}
	var kws []string
	var kwRule []int
	// one allocation for the rules' state: ~840 of them each cost a
	// fresh object a process
	crs := make([]compiledRule, len(rules))
	for i, r := range rules {
		if r != nil && r.endpoint {
			r = EndpointRule(cfg.EndpointKeySuffixes, cfg.AllowLocalhost, cfg.EndpointPlaceholders)
		}
		if err := checkRule(r); err != nil {
			return nil, err
		}
		cr := &crs[i]
		cr.Rule = r
		cr.budget = s.filters
		cr.tune = &s.tune
		cr.pathTails = pathTails(r.Path)
		cr.password = chosenPasswordRules[r.ID]
		if seen[r.ID] {
			return nil, fmt.Errorf("secrets: duplicate rule ID %q", r.ID)
		}
		seen[r.ID] = true
		idx := len(s.rules)
		s.rules = append(s.rules, cr)
		switch {
		case r.find != nil:
			s.finders = append(s.finders, idx)
		case len(r.Keywords) == 0:
			s.always = append(s.always, idx)
		}
		for _, k := range r.Keywords {
			kws = append(kws, k)
			kwRule = append(kwRule, idx)
		}
	}
	s.kw = cachedKWMatcher(kws, kwRule)
	return s, nil
}

// Warm builds, once per process, what scanners with the default rules
// share and would otherwise build on first use: the built-in and imported
// rules, the keyword automaton, the gitleaks path allowlist every scanned
// file is matched against. A command about to scan may call it in the
// background; it is safe to call concurrently with anything.
func Warm() {
	if _, err := NewScanner(DefaultConfig()); err != nil {
		return // NewScanner reports it to its caller
	}
	gitleaksPathAllowed("")
	lazyRE.Compile()
}

// Rules returns the rules the scanner runs, in priority order. They are
// shared with the scanner and must not be modified.
func (s *Scanner) Rules() []*Rule {
	out := make([]*Rule, len(s.rules))
	for i, r := range s.rules {
		out[i] = r.Rule
	}
	return out
}

// cand is a validated match: rule index and the secret's byte offsets,
// in 32 bits: the scanner reads at most maxText bytes at once (long.go),
// and a text dense with matches holds 100,000s of them.
type cand struct {
	rule       int32
	start, end int32
}

type span struct{ start, end int }

// detect returns every validated match of every rule, unresolved (matches
// of different rules may overlap), in no particular order.
//
// path is the file's path for Rule.Path and gitleaks path allowlists; scan
// is false under Redact, which runs every rule on every text.
func (s *Scanner) detect(path string, data []byte, scan bool) []cand {
	// Read as a terminal shows it (terminal.go): offsets are the text's.
	data = withoutTerminalEscapes(data)
	sc := s.getScratch()
	defer s.scratch.Put(sc)
	sc.memo.reset(data)
	defer sc.memo.reset(nil)
	// wins holds each rule's search windows; starts, for rules whose
	// matches begin at a keyword (see compiledRule.atHits), where each
	// keyword hit begins, shifted left by one to hold the leftToPass
	// mark. Both are indexed by rule and reused across calls: only the
	// rules in touched have entries.
	wins, starts := sc.wins, sc.starts
	touch := func(r int) {
		if len(wins[r]) == 0 && len(starts[r]) == 0 {
			sc.touched = append(sc.touched, r)
		}
	}
	for _, r := range s.always {
		touch(r)
		wins[r] = append(wins[r], span{0, len(data)})
	}
	if len(s.kw.out) > 0 {
		s.kw.scanWith(data, &sc.hits, func(i int, rules []uint16) {
			for _, r16 := range rules {
				r := int(r16)
				w := wins[r]
				rule := s.rules[r]
				n := len(w)
				if n > 0 && i+rule.After < w[n-1].end {
					continue // inside the window already planned
				}
				if rule.Gate != nil && !rule.Gate(data, i) {
					continue
				}
				if rule.prepare(); rule.atHits {
					for _, ki := range rule.keywordsEndingAt(data, i) {
						k := rule.lowerKeywords[ki]
						// In a dense run of hits (a line of keywords) the
						// follow automaton is not asked: the run is searched
						// in one pass (denseRun), whatever follows each hit.
						st := i + 1 - len(k)
						if st < 0 || !equalFoldASCII(data[st:i+1], k) || rule.tokenAtKeyword && !wordBoundaryAt(data, st) {
							continue
						}
						dense := !rule.tokenAtKeyword && inDenseRun(starts[r], st)
						if dense {
							if last := &starts[r][len(starts[r])-1]; st-*last>>1 < denseGap/2 && st >= *last>>1 {
								// Inside a dense run a hit is kept every
								// denseGap/2 bytes: the run's one pass reads
								// the hits between, and a line of keywords
								// keeps a start per 32 bytes, not per hit.
								// The start before them is marked: they are
								// searched with it in one pass whatever run
								// the search finds it in (see leftToPass).
								*last |= leftToPass
								continue
							}
						}
						if dense || rule.mayFollow(ki, data, i+1) {
							touch(r)
							starts[r] = append(starts[r], st<<1)
						}
					}
					continue
				}
				// The window is [i-Before, i+After] widened to whole
				// lines, but by at most windowReach bytes each way: a
				// long line is searched around its hits, not whole per
				// hit. Searches never go back past the previous
				// window's end nor start forward before it, so planning
				// all windows costs O(len(data)) per rule.
				floor := 0
				if n > 0 {
					floor = w[n-1].end
				}
				ws := max(i-rule.Before, floor)
				lo := max(floor, ws-windowReach)
				ws = lo + bytes.LastIndexByte(data[lo:ws], '\n') + 1
				we := min(max(i+rule.After, floor), len(data))
				hi := min(len(data), we+windowReach)
				if j := bytes.IndexByte(data[we:hi], '\n'); j >= 0 {
					we += j
				} else {
					we = hi
				}
				if n > 0 && ws <= w[n-1].end+windowMergeGap {
					if we > w[n-1].end {
						w[n-1].end = we
					}
					continue
				}
				touch(r)
				wins[r] = append(w, span{ws, we})
			}
		})
	}
	// In rule order: the order of priority, which taken relies on.
	sort.Ints(sc.touched)
	var out []cand
	examples := publishedExamples()
	// taken holds each accepted candidate: a later (lower-priority)
	// rule's match with the same start ending no later would lose to it
	// in resolve and add nothing to Redact's spans, so it is not
	// validated.
	taken := &sc.taken
	taken.reset()
	importedSkipped := -1 // unknown
	// consider runs a match m of rule r in ctx (at base in data) through
	// the checks every match passes.
	consider := func(r int, rule *compiledRule, ctx []byte, base int, m []int, cut bool) {
		ss, se := rule.secretSpan(m)
		if se <= ss {
			return
		}
		if cut && m[1] == len(ctx) {
			// The context ends where the scanner cut a long line, not
			// where the text does: a match ending there is a truncated
			// run ($, \b and the like matched the cut).
			return
		}
		// Validators read the context (the line, a key before the
		// match): give them a bounded one, so that many candidates on
		// one long line cost each a bounded look.
		reach := max(rule.Before, rule.After, anchoredReach)
		if rule.validReach > 0 {
			reach = rule.validReach
		}
		if len(ctx) > 2*reach+m[1]-m[0] {
			lo := max(0, m[0]-reach)
			hi := min(len(ctx), m[1]+reach)
			ctx = ctx[lo:hi]
			base += lo
			sc.m = append(sc.m[:0], m...) // m is the caller's
			m = sc.m
			for k := range m {
				if m[k] >= 0 {
					m[k] -= lo
				}
			}
			ss, se = ss-lo, se-lo
		}
		if taken.covers(base+ss, base+se) {
			return
		}
		sec := ctx[ss:se]
		if len(sec) < rule.MinLen {
			return
		}
		var ent float64
		if rule.Entropy > 0 {
			if ent = Entropy(sec); ent < entropyFloor(rule.Entropy, sec) {
				return
			}
		}
		if !placeholdersKept && (IsPlaceholder(sec) || urlSample(ctx, ss, se) || secretReferenceRE.Match(sec)) || examples[string(sec)] || elidedAfter(ctx[se:]) && !boldValue(ctx, ss, se) || publicKeyBase64(base64Run(ctx, ss, se)) || publicHalf(data, base+ss, base+se) || commitPin(ctx, ss, se) {
			return
		}
		if scan && rule.password && !placeholdersKept && sc.memo.testFixture(path, sec) {
			return // a weak password in test code: a fixture (fixtures.go)
		}
		if bytes.HasPrefix(sec, []byte("Ag")) && sc.memo.sealedAt(base+ss) {
			return // ciphertext a SealedSecret commits by design (sealed.go)
		}
		if rule.Validate != nil {
			c := Candidate{Secret: sec, Match: ctx[m[0]:m[1]], Context: ctx, Offset: ss, MatchOffset: m[0], memo: &sc.memo, base: base, entropy: ent}
			if scan {
				c.Path = path
			}
			for _, gi := range rule.keyIdx {
				if m[2*gi] >= 0 {
					c.Key = ctx[m[2*gi]:m[2*gi+1]]
					break
				}
			}
			if validatedCounter != nil {
				validatedCounter.Add(int64(len(ctx)))
			}
			if !rule.Validate(c) {
				return
			}
		}
		out = append(out, cand{int32(r), int32(base + ss), int32(base + se)})
		taken.add(base+ss, base+se)
	}
	timedRule, t0 := -1, time.Duration(0)
	timeRule := func(r int) {
		if ruleNanos != nil {
			now := ruleClock()
			if timedRule >= 0 {
				ruleNanos[timedRule].Add(int64(now - t0))
			}
			timedRule, t0 = r, now
		}
	}
	defer timeRule(-1)
	for _, r := range sc.touched {
		taken.endRule()
		timeRule(r)
		rule := s.rules[r]
		ws, sts := wins[r], starts[r]
		if len(ws) == 0 && len(sts) == 0 || scan && !rule.pathMatches(path) ||
			scan && rule.notProse && notesPath(path) {
			continue
		}
		if scan && rule.Source != "" {
			if importedSkipped < 0 {
				importedSkipped = 0
				if gitleaksPathAllowed(path) {
					importedSkipped = 1
				}
			}
			if importedSkipped == 1 {
				continue
			}
		}
		rule.prepare()
		for _, w := range ws {
			ctx := data[w.start:w.end]
			if rule.mayMatch != nil && rule.search == nil && !rule.mayMatch(ctx) { // the gate is the built-in expression's
				continue
			}
			cut := w.end < len(data) && data[w.end] != '\n'
			d, nfa := rule.filterFor(len(ctx))
			if d != nil && !nfa && len(ctx) >= partsMinWindow {
				// A long window (a JSON file of escaped keys, 16 KB after
				// each BEGIN line) is searched in the parts the filter's
				// one pass finds may hold a match, not whole: the search
				// of a large expression reads ~1 µs a byte. Part by part,
				// too, the matches are held a part at a time, not a
				// window's (~90 bytes each: 11 MB on a 4 MB line of short
				// sentences that name a token); a window the filter cannot
				// read (its state budget spent) is
				// searched whole below, and holds them all.
				var ok bool
				if sc.parts, ok = d.parts(ctx, cut, splitEvery, sc.parts[:0]); ok {
					consider := func(m []int) { consider(r, rule, ctx, w.start, m, cut) }
					if rule.starts != nil {
						rule.searchAtStarts(d, ctx, sc.parts, &sc.head, consider)
					} else {
						rule.searchParts(ctx, sc.parts, consider)
					}
					continue
				}
			}
			if d != nil && (nfa && !d.nfaMayMatch(ctx, cut) || !nfa && !d.mayMatch(ctx, false, cut)) {
				continue
			}
			rule.read(len(ctx))
			for _, m := range rule.matches(ctx) {
				consider(r, rule, ctx, w.start, m, cut)
			}
		}
		sort.Ints(sts)
		prev := 0
		var wm []int // a dense run's match, widened
		// lineStart is the start of the line of the last st looked at,
		// found by scanning forward from scanned: the hits are sorted,
		// so finding every hit's line start costs one pass over data.
		lineStart, scanned := 0, 0
		for n := 0; n < len(sts); n++ {
			st, passed := sts[n]>>1, sts[n]&leftToPass != 0
			if st < prev && !passed {
				continue
			}
			// A dense run of hits (a line of keywords) is searched in
			// one pass of the unanchored expression instead of one
			// anchored attempt per hit, each of which may read as far
			// as anchoredReach: the pass costs the run's length.
			k := 0
			if !rule.tokenAtKeyword {
				k = denseRun(sts, n) // (for a token rule, 0 and a scan of the run per hit)
			}
			if k == 0 && passed {
				// Hits after this start were left to a run's pass when
				// they were found, and the starts around it do not make
				// a run here (a gap the average hid, a run entered past
				// its head): the pass reads them all the same. Which
				// hits were kept depends on the rule's state (the follow
				// automaton is built after followAfter hits in the
				// process), so without it what the text holds depended
				// on what was scanned before it.
				k = 1
			}
			if k > 0 {
				from := max(prev, st-1)
				to := min(len(data), sts[n+k-1]>>1+anchoredReach)
				hi := min(len(data), to+anchoredReach)
				if j := bytes.IndexByte(data[to:hi], '\n'); j >= 0 {
					to += j
				} else {
					to = hi
				}
				if from >= to {
					continue // a marked start's hits lie inside the last match
				}
				ctx := data[from:to]
				cut := to < len(data) && data[to] != '\n'
				d := rule.denseFilter(len(ctx))
				if d != nil {
					may := true
					if md := rule.minLenFilter(); md != nil {
						// no match with a secret long enough
						may = md.mayMatch(ctx, false, cut)
					}
					if may {
						may = d.mayMatch(ctx, false, cut)
					}
					if !may {
						prev = max(prev, to)
						n += k - 1
						continue
					}
				}
				found := func(m []int) {
					if from+m[0] < st {
						return // begins before the run
					}
					// The run's text starts one byte before its first
					// hit: widen over the name before it in the text
					// (back to the match before), as a hit searched
					// alone is ("CSRF_TOKEN", not "_TOKEN").
					// (a copy of m: the search reads it after this call)
					lo := max(prev, from-rule.prefixMax)
					wm = append(wm[:0], m...)
					for k := range wm {
						if wm[k] >= 0 {
							wm[k] += from - lo
						}
					}
					wctx := data[lo:to]
					rule.widenPrefix(wctx, wm)
					consider(r, rule, wctx, lo, wm, cut)
					prev = lo + wm[1]
				}
				pos, done := rule.searchAtKeywords(d, ctx, &sc.head, found)
				if !done {
					// the attempts read too much: the rest in parts
					sc.splits = sc.splits[:0]
					if d != nil {
						_, sc.splits, _ = d.scan(ctx, false, cut, splitEvery, sc.splits)
					}
					rule.read(len(ctx))
					searchSplit(rule.searchAll(), ctx, sc.splits, func(m []int) {
						if m[0] >= pos {
							found(m)
						}
					})
				}
				prev = max(prev, to)
				n += k - 1
				continue
			}
			if j := bytes.LastIndexByte(data[scanned:st], '\n'); j >= 0 {
				lineStart = scanned + j + 1
			}
			scanned = st
			// The context: from the start of st's line to the end of the
			// line a match could reach (gitleaks' value-on-the-next-line
			// forms included), at most anchoredReach bytes before st and
			// 2*anchoredReach after it, so that a hit on a long line
			// costs a bounded search.
			ls := max(prev, lineStart, st-anchoredReach)
			if rule.Before > 0 && lineStart > 0 && prev < lineStart {
				// The rule's Validate reads the lines above (a user =
				// name line above password = value): whole lines, up to
				// Before bytes.
				lo := max(prev, lineStart-rule.Before)
				if lo > 0 && data[lo-1] != '\n' {
					if k := bytes.IndexByte(data[lo:lineStart], '\n'); k >= 0 {
						lo += k + 1
					} else {
						lo = lineStart
					}
				}
				ls = max(lo, prev, st-anchoredReach)
			}
			le := min(len(data), st+anchoredReach)
			hi := min(len(data), le+anchoredReach)
			if j := bytes.IndexByte(data[le:hi], '\n'); j >= 0 {
				le += j
			} else {
				le = hi
			}
			// From the byte before st when there is one, so that a word
			// boundary at the start is judged as in the whole text; the
			// match proper starts at st.
			// re is where the expression may read: up to where the
			// filter sees every thread from st dead, and a byte more.
			re := le
			if d, nfa := rule.filterFor(le - st); d != nil {
				var may, ok bool
				var end int
				if nfa {
					may, end, ok = d.nfaReach(data[st:le])
				} else {
					may, end, ok = rule.reach(d, data[st:le])
				}
				if !may {
					continue
				}
				if ok {
					re = min(le, st+end+1)
				}
			}
			if rule.matchMax >= 0 {
				re = min(re, st+rule.matchMax+1) // the match's reach and the byte after it
			}
			var m []int
			from := st
			rule.read(re - st)
			if st > 0 {
				from = st - 1
				if m = rule.anchoredAfterAt(data, st).FindSubmatchIndex(data[from:re]); m != nil {
					m[0] = 1
				}
			} else if rule.readsTextStart() {
				m = rule.anchoredAtStart().FindSubmatchIndex(data[st:re])
			} else {
				// A newline before the text stands for its start (\b, \B
				// and (?m:^) judge both alike), so that the expression
				// compiled for every other hit serves: on a tree of tiny
				// files many start with a keyword, and a second
				// expression per rule cost a compile each.
				sc.head = append(append(sc.head[:0], '\n'), data[:re]...)
				if m = rule.anchoredAfterAt(data, st).FindSubmatchIndex(sc.head); m != nil {
					for k := range m {
						if m[k] >= 0 {
							m[k]--
						}
					}
					m[0] = 0
				}
			}
			if m == nil {
				continue
			}
			for k := range m {
				if m[k] >= 0 {
					m[k] += from - ls
				}
			}
			// Widen over the stripped name prefix, as matches does, and a
			// key group that starts with the match with it.
			rule.widenPrefix(data[ls:le], m)
			consider(r, rule, data[ls:le], ls, m, le < len(data) && data[le] != '\n')
			prev = ls + m[1]
		}
	}
	timeRule(-1) // the last rule's searches end here, not with detect
	if len(s.finders) > 0 {
		// what the rules above found, indexed when a finder first asks
		earlier := len(out)
		var idx overlapIndex
		taken := func(start, end int) bool {
			if idx == nil && earlier > 0 {
				idx = newOverlapIndex(out[:earlier])
			}
			return idx.overlaps(start, end)
		}
		for _, r := range s.finders {
			timeRule(r)
			if rule := s.rules[r]; !scan || rule.pathMatches(path) {
				rule.find(data, taken, func(start, end int) { out = append(out, cand{int32(r), int32(start), int32(end)}) })
			}
		}
	}
	return out
}

// detectScratch is the per-call state of detect, kept for reuse: most
// files are small and make few rules run, and allocating a slot per rule
// for each of them cost more than scanning them.
type detectScratch struct {
	wins    [][]span
	starts  [][]int // keyword hits' starts<<1 | leftToPass
	touched []int   // rules with a window or a start
	splits  []int   // a dense run's split points (prefilterDFA.scan)
	parts   []span  // a long window's parts that may match (prefilterDFA.parts)
	head    []byte
	hits    [4][]hitRec
	memo    textMemo // the allowlists' (see textMemo)
	taken   takenSet
	m       []int // consider's copy of a match
}

// maxScratchHits bounds the hits a pooled scratch keeps room for: a text
// dense with keywords does not leave its buffers to every later call.
const maxScratchHits = 4096

func (s *Scanner) getScratch() *detectScratch {
	if sc, ok := s.scratch.Get().(*detectScratch); ok {
		for _, r := range sc.touched {
			sc.wins[r] = sc.wins[r][:0]
			sc.starts[r] = sc.starts[r][:0]
			// a rule woken at every keyword of a dense file does not
			// leave its buffers to every later call
			if cap(sc.wins[r]) > maxScratchHits {
				sc.wins[r] = nil
			}
			if cap(sc.starts[r]) > maxScratchHits {
				sc.starts[r] = nil
			}
		}
		sc.touched = sc.touched[:0]
		for k, h := range sc.hits {
			if cap(h) > maxScratchHits {
				sc.hits[k] = nil
			}
		}
		if cap(sc.taken.done)+cap(sc.taken.cur) > maxScratchHits {
			sc.taken = takenSet{}
		}
		return sc
	}
	return &detectScratch{wins: make([][]span, len(s.rules)), starts: make([][]int, len(s.rules))}
}

// resolve sorts cs in place by start (then rule, then the longer match
// first) and returns, in a new slice, the matches that survive: among
// overlapping ones, the one from the rule listed first. cs stays the
// callers' sorted list of every candidate (allowLines reads it): one copy
// of a dense file's candidates, not three.
func resolve(cs []cand) []cand {
	if len(cs) == 0 {
		return nil
	}
	slices.SortFunc(cs, func(a, b cand) int {
		if a.start != b.start {
			return cmp.Compare(a.start, b.start)
		}
		if a.rule != b.rule {
			return cmp.Compare(a.rule, b.rule)
		}
		return cmp.Compare(b.end, a.end)
	})
	// Count the survivors first: on a dense text they are 100,000s, and
	// appending them one by one copied them over and over.
	n, last := 0, cand{}
	for _, c := range cs {
		if n > 0 && c.start < last.end {
			if c.rule < last.rule {
				last = c
			}
			continue
		}
		n++
		last = c
	}
	return keepFirstRule(make([]cand, 0, n), cs)
}

// spanned is a match: a cand, or one with more to it.
type spanned interface{ match() cand }

func (c cand) match() cand { return c }

// keepFirstRule appends to out the matches of cs, sorted by start, that
// survive: among overlapping ones, the one from the rule listed first.
// out may be cs[:0].
func keepFirstRule[T spanned](out, cs []T) []T {
	for _, c := range cs {
		m := c.match()
		if n := len(out); n > 0 && m.start < out[n-1].match().end {
			if m.rule < out[n-1].match().rule {
				out[n-1] = c
			}
			continue
		}
		out = append(out, c)
	}
	return out
}

// Scan returns every secret in content, allowed ones included (callers filter
// on Allowed), sorted by Start. path is used for AllowPaths and reported in
// the findings.
func (s *Scanner) Scan(path string, content []byte) []Finding {
	f, _ := s.ScanCapped(path, content, 0)
	return f
}

// ScanCapped is Scan keeping only the first keep findings that are not
// allowed, and the first keep allowed ones (keep <= 0: all of them); it
// returns how many findings each rule had beyond them, allowed ones not
// counted. A file with a hundred thousand findings then costs the memory
// of keep of them, not of all (issue 33: at most 64 MB on any tree).
func (s *Scanner) ScanCapped(path string, content []byte, keep int) ([]Finding, map[string]int) {
	if len(content) > maxText {
		return s.scanLong(path, content, keep)
	}
	return s.scanText(path, content, keep, textAt{})
}

// scanText is ScanCapped of a text of at most maxText bytes that stands
// at at in its file.
func (s *Scanner) scanText(path string, content []byte, keep int, at textAt) ([]Finding, map[string]int) {
	raw := s.detect(path, content, true)
	dec := s.decodedCands(path, content, true)
	raw = dec.withoutJoined(raw)
	cs := resolve(raw) // and raw sorted by start
	al := newAllowLines(content, raw)
	dec.cands = newDecoded(dec.cands, &al)
	if len(cs) == 0 && len(dec.cands) == 0 {
		return nil, nil
	}
	caps := findingCaps{keep: keep}
	pathAllowed := s.pathAllowed(path)
	n := len(cs) + len(dec.cands)
	if keep > 0 {
		n = min(n, 2*keep)
	}
	findings := make([]Finding, 0, n)
	lc := lineCounter{data: content, line: 1, at: at}
	// consider judges the match c, whose secret is decoded when it was
	// found in encoded text, and keeps its finding within the caps.
	consider := func(c cand, decoded *decodedCand) {
		rule := s.rules[c.rule]
		reason, marked := al.lookup(c)
		// A finding's text, fingerprint and position are computed before
		// it is judged only where judging whether it is allowed needs
		// them, the rest once it is kept: past either cap it is only
		// counted or dropped (a file dense with findings spent a third
		// of its scan on the reports of dropped ones).
		var sec, fp, enc string
		if decoded != nil {
			sec, enc = dec.secret(*decoded), dec.encoding(*decoded)
		}
		if sec == "" && (len(s.allowValues) > 0 || len(s.baseline) > 0) {
			sec = string(content[c.start:c.end])
		}
		if len(s.baseline) > 0 {
			fp = Fingerprint(rule.ID, sec)
		}
		line, col := 0, 0
		if len(s.glIgnore) > 0 {
			line, col = lc.pos(int(c.start))
		}
		allowed, why := false, ""
		switch {
		case marked && reason != "":
			allowed, why = true, "inline: "+reason
		case pathAllowed:
			allowed, why = true, "path"
		case s.valueAllowed(sec):
			allowed, why = true, "value"
		case s.baseline[fp]:
			allowed, why = true, "baseline"
		case len(s.glIgnore) > 0 && s.glIgnore.match(path, line, s.gitleaksIDs(&al, c)):
			allowed, why = true, "gitleaksignore"
		}
		if !caps.admit(rule.ID, allowed) {
			return
		}
		if sec == "" {
			sec = string(content[c.start:c.end])
		}
		if fp == "" {
			fp = Fingerprint(rule.ID, sec)
		}
		if line == 0 {
			line, col = lc.pos(int(c.start))
		}
		f := Finding{
			RuleID:      rule.ID,
			Description: rule.Description,
			Path:        path,
			Start:       at.off + int(c.start),
			End:         at.off + int(c.end),
			Redacted:    rule.mask(sec),
			Fingerprint: fp,
			Line:        line,
			Col:         col,
			Allowed:     allowed,
			AllowReason: why,
			Unjustified: marked && reason == "",
			Encoding:    enc,
		}
		f.EndLine, f.EndCol = lc.pos(int(c.end))
		findings = append(findings, f)
	}
	for _, c := range cs {
		consider(c, nil)
	}
	for i := range dec.cands {
		consider(dec.cands[i].cand, &dec.cands[i])
	}
	if len(dec.cands) > 0 {
		slices.SortStableFunc(findings, func(a, b Finding) int { return cmp.Compare(a.Start, b.Start) })
	}
	return findings, caps.more
}

// findingCaps keeps the first keep findings that are not allowed and the
// first keep allowed ones (keep <= 0: all), and counts by rule the ones
// not allowed beyond them (ScanCapped).
type findingCaps struct {
	keep, kept, keptAllowed int
	more                    map[string]int
}

// admit reports whether a finding of rule, allowed or not, is kept.
func (c *findingCaps) admit(rule string, allowed bool) bool {
	switch {
	case c.keep <= 0:
	case allowed && c.keptAllowed >= c.keep:
		return false
	case allowed:
		c.keptAllowed++
	case c.kept >= c.keep:
		c.count(rule, 1)
		return false
	default:
		c.kept++
	}
	return true
}

// count adds n findings of rule to those beyond the caps.
func (c *findingCaps) count(rule string, n int) {
	if c.more == nil {
		c.more = map[string]int{}
	}
	c.more[rule] += n
}

// newDecoded returns the matches found in encoded text whose spans no
// match of the text as written overlaps (that one is reported), and of
// those that overlap each other the one whose rule is listed first.
func newDecoded(dec []decodedCand, al *allowLines) []decodedCand {
	if len(dec) == 0 {
		return nil
	}
	out := dec[:0]
	for _, d := range dec {
		if !al.overlaps(d.cand) {
			out = append(out, d)
		}
	}
	slices.SortFunc(out, func(a, b decodedCand) int {
		if a.start != b.start {
			return cmp.Compare(a.start, b.start)
		}
		return cmp.Compare(a.rule, b.rule)
	})
	return keepFirstRule(out[:0], out)
}

// gitleaksIDs returns the rule IDs a .gitleaksignore entry may name for
// the finding c: its rule, the gitleaks rules folded into it, and every
// rule with a match overlapping it.
func (s *Scanner) gitleaksIDs(al *allowLines, c cand) []string {
	ids := []string{s.rules[c.rule].ID}
	for gl, own := range GitleaksAliases {
		if own == ids[0] {
			ids = append(ids, gl)
		}
	}
	for o := range al.overlapping(int(c.start), int(c.end)) {
		if o.rule != c.rule {
			ids = append(ids, s.rules[o.rule].ID)
		}
	}
	return ids
}

// ruleData matches sotvet's vendored third-party rule files, whose
// examples look like secrets by design (gitleaks' global allowlist exempts
// its own gitleaks.toml the same way). Their findings are allowed ("path"),
// not dropped.
var ruleData = sync.OnceValue(func() *globMatcher {
	g, err := compileGlob("**/secrets/rules/third_party/*/rules/*.y*ml")
	if err != nil {
		panic(err)
	}
	return g
})

func (s *Scanner) pathAllowed(p string) bool {
	if s.allowPath != nil && s.allowPath(p) {
		return true
	}
	cp, ok := cleanPath(p)
	if !ok {
		return false
	}
	if ruleData().match(cp) || ruleData().match("x/"+cp) {
		return true
	}
	for _, g := range s.allowPaths {
		if g.match(cp) {
			return true
		}
	}
	return false
}

func (s *Scanner) valueAllowed(sec string) bool {
	for _, re := range s.allowValues {
		if re.MatchString(sec) {
			return true
		}
	}
	return false
}

// allowLines finds inline allow markers, caching the answer per line so
// that many findings on one long line cost one look at it.
type allowLines struct {
	data    []byte
	raw     []cand // every candidate, sorted by start (resolve)
	maxLen  int    // longest candidate
	cacheLS int    // line start of the cached answer, -1 when none
	cacheLE int
	reason  string
	marked  bool
}

func newAllowLines(data []byte, raw []cand) allowLines {
	a := allowLines{data: data, raw: raw, cacheLS: -1}
	for _, r := range raw {
		a.maxLen = max(a.maxLen, int(r.end-r.start))
	}
	return a
}

// overlapping yields the candidates overlapping [from,to). They start in
// [from-maxLen, to) of the sorted candidates: a look at every candidate
// per finding cost the product of the two on a file dense with findings.
func (a *allowLines) overlapping(from, to int) iter.Seq[cand] {
	return func(yield func(cand) bool) {
		lo := sort.Search(len(a.raw), func(i int) bool { return int(a.raw[i].start) > from-a.maxLen-1 })
		for _, c := range a.raw[lo:] {
			if int(c.start) >= to {
				return
			}
			if int(c.end) > from && !yield(c) {
				return
			}
		}
	}
}

// overlaps reports whether a candidate overlaps c.
func (a *allowLines) overlaps(c cand) bool {
	for range a.overlapping(int(c.start), int(c.end)) {
		return true
	}
	return false
}

// lookup looks for AllowMarker on the first and the last line of the
// candidate's secret. It returns the reason (with any secret in it masked)
// and whether a marker was found.
func (a *allowLines) lookup(c cand) (string, bool) {
	reason, marked := a.line(int(c.start))
	if marked {
		return reason, true
	}
	if bytes.IndexByte(a.data[c.start:c.end], '\n') >= 0 {
		return a.line(int(c.end - 1))
	}
	return "", false
}

// line returns the allow marker's reason on the line holding offset p.
func (a *allowLines) line(p int) (string, bool) {
	data := a.data
	if a.cacheLS >= 0 && a.cacheLS <= p && p < a.cacheLE {
		return a.reason, a.marked
	}
	ls := bytes.LastIndexByte(data[:p], '\n') + 1
	le := bytes.IndexByte(data[p:], '\n')
	if le < 0 {
		le = len(data)
	} else {
		le += p
	}
	a.cacheLS, a.cacheLE = ls, le
	a.reason, a.marked = a.parse(ls, le)
	if le == ls {
		a.cacheLE = le + 1
	}
	return a.reason, a.marked
}

func (a *allowLines) parse(ls, le int) (string, bool) {
	data := a.data
	i := bytes.Index(data[ls:le], []byte(AllowMarker))
	if i < 0 {
		if bytes.Contains(data[ls:le], []byte(GitleaksAllowMarker)) {
			return GitleaksAllowMarker, true
		}
		return "", false
	}
	rs := ls + i + len(AllowMarker)
	rest := data[rs:le]
	trimmed := bytes.TrimLeft(rest, " \t")
	// "-->" closes an HTML comment: it is not the "--" a reason follows.
	if !bytes.HasPrefix(trimmed, []byte("--")) || bytes.HasPrefix(trimmed, []byte("-->")) {
		return "", true
	}
	rs += len(rest) - len(trimmed) + 2
	re := le
	// The reason ends at a comment closer.
	for _, closer := range []string{"-->", "*/"} {
		if j := bytes.Index(data[rs:re], []byte(closer)); j >= 0 {
			re = rs + j
		}
	}
	// Trim blanks and a trailing template-comment closer.
	for {
		t := bytes.TrimRight(data[rs:re], " \t\r")
		t = bytes.TrimSuffix(t, []byte("#}"))
		if len(t) == re-rs {
			break
		}
		re = rs + len(t)
	}
	for rs < re && (data[rs] == ' ' || data[rs] == '\t') {
		rs++
	}
	if rs >= re || !hasWord(data[rs:re]) {
		// Punctuation is no reason.
		return "", true
	}
	return a.maskRegion(rs, re, 200), true
}

// hasWord reports whether b holds a letter or a digit.
func hasWord(b []byte) bool {
	for _, r := range string(b) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

// maskRegion returns data[from:to] with every candidate secret in it masked,
// cut to at most max bytes.
func (a *allowLines) maskRegion(from, to, max int) string {
	var sp []maskSpan
	for c := range a.overlapping(from, to) {
		sp = append(sp, maskSpan{int(c.start), int(c.end), 0}) // an allow reason quoting a secret shows none of it
	}
	var b []byte
	if len(sp) == 0 {
		b = append(b, a.data[from:to]...)
	} else {
		b = redactSpans(a.data, sp, from, to)
	}
	if len(b) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(b[cut]) {
			cut--
		}
		b = append(b[:cut:cut], "..."...)
	}
	return string(b)
}

// maskSpan is a secret's offsets and the length of its public prefix
// (Rule.PublicLen), the bytes at start its mask shows.
type maskSpan struct{ start, end, public int }

// redactSpans returns data[from:to] with the union of spans (clipped to the
// region) replaced by the mask of each merged span: the public prefix of
// the span it begins with (the shortest, when several begin there; none
// when the region cuts it) and MaskSuffix.
func redactSpans(data []byte, sp []maskSpan, from, to int) []byte {
	sort.Slice(sp, func(i, j int) bool {
		if sp[i].start != sp[j].start {
			return sp[i].start < sp[j].start
		}
		return sp[i].public < sp[j].public
	})
	out := make([]byte, 0, to-from)
	pos := from
	for i := 0; i < len(sp); {
		st, en, pub := sp[i].start, sp[i].end, sp[i].public
		i++
		for i < len(sp) && sp[i].start < en {
			if sp[i].end > en {
				en = sp[i].end
			}
			i++
		}
		if st < pos {
			st, pub = pos, 0
		}
		if en > to {
			en = to
		}
		if st >= en {
			continue
		}
		if pub >= en-st {
			pub = 0
		}
		out = append(out, data[pos:st+pub]...)
		out = append(out, MaskSuffix...)
		pos = en
	}
	return append(out, data[pos:to]...)
}

// Redact returns content with every detected secret replaced by its masked
// form. Allowlists are ignored, except AllowValues: a value-allowed secret is
// kept. Every other occurrence of a detected secret's text is masked as well,
// and where matches of different rules overlap their union is masked, so the
// result contains none of the secrets Scan reports. When there is nothing to
// redact, content itself is returned. (A text over a gibibyte is redacted
// a piece at a time, and the other occurrences of a secret are masked
// within its piece.)
func (s *Scanner) Redact(content []byte) []byte {
	if len(content) > maxText {
		return s.redactLong(content)
	}
	raw := s.detect("", content, false)
	var sp []maskSpan
	public := map[string]int{} // distinct secret texts -> their public prefix's length
	// A secret found in encoded text masks the text it was encoded in,
	// all of it, wherever that text occurs, unless a secret as written
	// there is masked already (and shows its public prefix).
	var al allowLines
	dec := s.decodedCands("", content, false)
	raw = dec.withoutJoined(raw)
	if len(dec.cands) > 0 {
		slices.SortFunc(raw, func(a, b cand) int { return cmp.Compare(a.start, b.start) })
		al = newAllowLines(content, raw)
	}
	for _, d := range dec.cands {
		if !al.overlaps(d.cand) && !s.valueAllowed(dec.secret(d)) {
			public[string(content[d.start:d.end])] = 0
			sp = append(sp, maskSpan{int(d.start), int(d.end), 0})
		}
	}
	for _, c := range raw {
		sec := string(content[c.start:c.end])
		if s.valueAllowed(sec) {
			continue
		}
		pub := s.rules[c.rule].publicLen(sec)
		if p, ok := public[sec]; ok {
			pub = min(pub, p)
		}
		public[sec] = pub
		sp = append(sp, maskSpan{int(c.start), int(c.end), pub})
	}
	if len(sp) == 0 {
		return content
	}
	list := make([][]byte, 0, len(public))
	for sec := range public {
		list = append(list, []byte(sec))
	}
	finder := newOccurrenceFinder(list)
	for _, o := range finder.find(content) {
		sp = append(sp, maskSpan{o.start, o.end, public[string(content[o.start:o.end])]})
	}
	out := redactSpans(content, sp, 0, len(content))
	// The masks are prefixes plus "****" and no secret holds "**", so the
	// result cannot contain a secret; make sure anyway. Each round replaces
	// at least one non-"*" byte by "*"s, so this ends.
	for {
		left := finder.find(out)
		if len(left) == 0 {
			return out
		}
		sort.Slice(left, func(i, j int) bool { return left[i].start < left[j].start })
		var b []byte
		pos := 0
		for _, o := range left {
			if o.start < pos {
				continue
			}
			b = append(b, out[pos:o.start]...)
			b = append(b, MaskSuffix...)
			pos = o.end
		}
		out = append(b, out[pos:]...)
	}
}

// RedactString is Redact for strings.
func (s *Scanner) RedactString(str string) string {
	b := s.Redact([]byte(str))
	return string(b)
}

// lineCounter converts increasing byte offsets to 1-based line and column.
type lineCounter struct {
	data      []byte
	off       int // offset of the last position asked
	line      int // its line
	lineStart int // offset of its line's first byte
	at        textAt
}

func (lc *lineCounter) pos(off int) (line, col int) {
	if off < lc.off {
		lc.off, lc.line, lc.lineStart = 0, 1, 0
	}
	seg := lc.data[lc.off:off]
	if n := bytes.Count(seg, []byte{'\n'}); n > 0 {
		lc.line += n
		lc.lineStart = lc.off + bytes.LastIndexByte(seg, '\n') + 1
	}
	lc.off = off
	return lc.at.pos(lc.line, off-lc.lineStart+1)
}

// occurrenceFinder finds every occurrence of a set of byte strings in one
// pass: a 64K-bit filter over the hash of each 4-byte window, then exact
// comparison against the strings starting with those 4 bytes. Strings
// shorter than 4 bytes are searched for one by one.
type occurrenceFinder struct {
	filter [1 << 10]uint64
	byHead map[uint32][][]byte
	short  [][]byte
}

func head4(b []byte) uint32 {
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}

func hash16(k uint32) uint32 { return (k * 0x9E3779B1) >> 16 }

func newOccurrenceFinder(list [][]byte) *occurrenceFinder {
	f := &occurrenceFinder{byHead: map[uint32][][]byte{}}
	for _, s := range list {
		if len(s) == 0 {
			continue
		}
		if len(s) < 4 {
			f.short = append(f.short, s)
			continue
		}
		k := head4(s)
		h := hash16(k)
		f.filter[h>>6] |= 1 << (h & 63)
		f.byHead[k] = append(f.byHead[k], s)
	}
	return f
}

func (f *occurrenceFinder) find(data []byte) []span {
	var out []span
	if len(f.byHead) > 0 {
		for i := 0; i+4 <= len(data); i++ {
			k := head4(data[i : i+4])
			h := hash16(k)
			if f.filter[h>>6]&(1<<(h&63)) == 0 {
				continue
			}
			for _, s := range f.byHead[k] {
				if bytes.HasPrefix(data[i:], s) {
					out = append(out, span{i, i + len(s)})
				}
			}
		}
	}
	for _, s := range f.short {
		for off := 0; off < len(data); {
			i := bytes.Index(data[off:], s)
			if i < 0 {
				break
			}
			out = append(out, span{off + i, off + i + len(s)})
			off += i + 1
		}
	}
	return out
}

// anchoredReach bounds how far past its keyword an anchored match is
// looked for (it is rounded out to the end of a line, up to as far again).
const anchoredReach = 1024

// widenPrefix widens the match m in ctx over the stripped name prefix,
// as matches does, and a key group that starts with the match with it.
func (cr *compiledRule) widenPrefix(ctx []byte, m []int) {
	if cr.prefixSet == nil {
		return
	}
	m0 := m[0]
	m[0] = nameStart(ctx, m0, 0, cr.prefixMax, cr.prefixSet)
	for _, gi := range cr.keyIdx {
		if m[2*gi] == m0 {
			m[2*gi] = m[0]
		}
	}
}

// nameStart returns where the name glued before at begins: back over
// the bytes of set, at most max of them and not before floor, and not
// over an escape's letter ("\tpassword", "\nDB_PASS" in a string: the t
// and the n are the escape's, not the name's).
func nameStart(ctx []byte, at, floor, max int, set *[256]bool) int {
	st := at
	for st > floor && at-st < max && set[ctx[st-1]] {
		st--
	}
	if st < at && escapeLetter(ctx[st]) && escapedAt(ctx, st) {
		st++
	}
	return st
}

// escapedAt reports whether ctx[i] follows an odd run of backslashes: an
// escape's letter ("\t"), not a letter after an escaped backslash
// ("\\t").
func escapedAt(ctx []byte, i int) bool {
	n := 0
	for i-n > 0 && ctx[i-n-1] == '\\' {
		n++
	}
	return n%2 == 1
}

// escapeLetter reports whether b, after a backslash, makes a blank of a
// string's escape: \t, \n, \r.
func escapeLetter(b byte) bool { return b == 't' || b == 'n' || b == 'r' }

// placeholdersKept, set by tests only, turns IsPlaceholder off: the
// held-out measurement tells a sample it misses as a typed placeholder
// from one it misses otherwise.
var placeholdersKept bool

// workCounter, set by tests only, adds up the bytes handed to rule
// expressions: the measure of a scan's work that must grow linearly with
// its input whatever the input's shape.
var workCounter *atomic.Int64

// ruleNanos, set by tests only, adds up the time of each rule's searches,
// read from ruleClock: wall time unless a test reads its thread's CPU.
var (
	ruleNanos []atomic.Int64
	ruleClock = func() time.Duration { return time.Since(processStart) }
)

var processStart = time.Now()

func countWork(n int) {
	if workCounter != nil {
		workCounter.Add(int64(n))
	}
}

// validatedCounter, set by tests only, adds up the context bytes handed
// to validators: a candidate must cost O(its window), whatever the length
// of its line.
var validatedCounter *atomic.Int64

// denseGap and denseHits define a dense run of anchored hits: at least
// denseHits hits, each within denseGap bytes of the one before.
const (
	denseGap  = 64
	denseHits = 32
)

// inDenseRun reports whether a hit at st continues a dense run: the
// last denseHits starts lie within denseGap bytes of each other and of st.
func inDenseRun(sts []int, st int) bool {
	n := len(sts)
	if n < denseHits || st-sts[n-1]>>1 > denseGap {
		return false
	}
	return sts[n-1]>>1-sts[n-denseHits]>>1 <= denseGap*(denseHits-1)
}

// leftToPass marks a start (stored shifted left by one) after which hits
// were not kept, a dense run's pass being left to read them.
const leftToPass = 1

// maxDenseHits bounds the hits of a run searched in one pass (a longer
// run is searched in parts, each a pass from the end of the last match):
// the pass returns all its matches at once, and a 4 MB line of one
// assignment repeated held 150,000 of them, some 50 MB.
const maxDenseHits = 4096

// denseRun returns the length of the dense run of hits starting at
// sts[n], 0 when it is shorter than denseHits, at most maxDenseHits.
func denseRun(sts []int, n int) int {
	k := 1
	// Kept hits of a dense run lie up to denseGap/2 + denseGap apart
	// (see detect): they are one run.
	for n+k < len(sts) && k < maxDenseHits && sts[n+k]>>1-sts[n+k-1]>>1 <= 2*denseGap {
		k++
	}
	if k < denseHits {
		return 0
	}
	return k
}

// splitEvery is how far apart the split points of a dense run's search
// lie at least: Go's regexp reads a text of a few hundred bytes with its
// backtracker, several times faster than with its NFA, which a longer
// text gets.
const splitEvery = 512

// searchSplit calls f with every match of re in ctx, as
// FindAllSubmatchIndex(ctx) returns them, searching ctx in parts cut at
// splits (see prefilterDFA.scan): the part up to a split point q, with
// the byte at q that assertions at q read, gives the matches that start
// before q (no thread started before q lives past it, so none ends after
// it), and the rest starts at q.
func searchSplit(re *ruleRegexp, ctx []byte, splits []int, f func(m []int)) {
	p := 0
	for i := 0; i <= len(splits); i++ {
		q, end := len(ctx), len(ctx)
		if i < len(splits) {
			q = splits[i]
			end = q + 1
		}
		for _, m := range re.FindAllSubmatchIndex(ctx[p:end], -1) {
			if p+m[0] >= q {
				break // the next part's
			}
			for k := range m {
				if m[k] >= 0 {
					m[k] += p
				}
			}
			f(m)
		}
		p = q
	}
}

// partsMinWindow is the shortest window searched in parts: a shorter one
// is a few lines, which the expression reads in about the time the
// filter's pass would.
var partsMinWindow = 4 * splitEvery // a variable: the tests search every window in parts

// searchParts calls f with every match matches(ctx) returns, in order,
// searching only parts (prefilterDFA.parts): the part up to its end q,
// with the byte at q that assertions at q read, gives the matches that
// start in it, as searchSplit's parts do, and a part the filter passed
// over holds none. A match is widened over the stripped name prefix in
// ctx, back to the end of the match before it, as matches widens it.
func (cr *compiledRule) searchParts(ctx []byte, parts []span, f func(m []int)) {
	if len(parts) == 0 {
		return
	}
	re := cr.searchExprIn(ctx)
	if re == nil {
		return
	}
	prev := 0
	for _, p := range parts {
		end := min(p.end+1, len(ctx))
		cr.read(end - p.start)
		for _, m := range re.FindAllSubmatchIndex(ctx[p.start:end], -1) {
			if p.start+m[0] >= p.end && p.end < len(ctx) {
				break // the next part's
			}
			for k := range m {
				if m[k] >= 0 {
					m[k] += p.start
				}
			}
			cr.widenStripped(ctx, m, prev)
			prev = m[1]
			f(m)
		}
	}
}

// searchAtKeywords calls f with the matches of the rule's expression in
// ctx (a dense run of its hits) that searchSplit(searchAll(), ctx, ...)
// finds, in order, by one anchored attempt at each keyword that starts
// at or after the end of the last match: every match of the rule begins
// at one of its keywords, and a search's leftmost-first match is the
// anchored one at the first start that has one. The filter d, when
// there is one, tells where an attempt's threads die (reach), so that
// the expression reads the match and not the run: Go's regexp searching
// a run of a few hundred bytes tried each of its bytes, and cleared its
// backtracker's bit per instruction and byte at each match, some seven
// times what the attempts cost on a run with a hit every 20 bytes.
// When the attempts have read attemptsRead times the run, it stops and
// returns where the matches it has not found begin, with done false:
// the caller searches the run in parts for those (attempts that each
// read far, on a run of keywords whose threads live long, would cost a
// product of hits and run length). It returns 0, false at once on a run
// where a keyword may be spelt with ſ or K: the keywords are tried
// ASCII case-insensitively, but (?i) also takes ſ (U+017F) for s and K
// (U+212A) for k, so a match may begin at a spelling no attempt tries.
// head is scratch for an attempt at the run's start.
func (cr *compiledRule) searchAtKeywords(d *prefilterDFA, ctx []byte, head *[]byte, f func(m []int)) (pos int, done bool) {
	if cr.kwFoldsS && bytes.Contains(ctx, longS) || cr.kwFoldsK && bytes.Contains(ctx, kelvinK) {
		return 0, false
	}
	budget := attemptsRead * len(ctx)
	for s := 0; s < len(ctx); s++ {
		if !cr.keywordStartsAt(ctx, s) {
			continue
		}
		if cr.kwAtWord && !wordBoundaryAt(ctx, s) {
			// the attempt's \b judges ctx[s-1] and ctx[s] (a newline
			// before ctx[0]) as this does: it would fail, and its
			// filter's threads (kingfisher.aws.2's .{0,96}? after
			// AKIA) read on, so that a line of AKIAAKIA… spent the
			// budget and was searched whole, a thread at every byte
			continue
		}
		re := len(ctx)
		if d != nil {
			may, end, ok := cr.reach(d, ctx[s:])
			budget -= end
			if !may {
				if budget < 0 {
					return s + 1, false
				}
				continue
			}
			if ok {
				re = min(re, s+end+1)
			}
		}
		if budget -= re - s; budget < 0 {
			return s, false
		}
		cr.read(re - s)
		var m []int
		off := s - 1 // of the text m indexes, in ctx
		switch {
		case s > 0:
			m = cr.anchoredAfterExpr().FindSubmatchIndex(ctx[s-1 : re])
		case cr.readsTextStart():
			m, off = cr.anchoredAtStart().FindSubmatchIndex(ctx[:re]), 0
		default:
			// a newline stands for the start, as on a sparse hit at
			// offset 0: no second expression per rule
			*head = append(append((*head)[:0], '\n'), ctx[:re]...)
			m = cr.anchoredAfterExpr().FindSubmatchIndex(*head)
		}
		if m != nil {
			for k := range m {
				if m[k] >= 0 {
					m[k] += off
				}
			}
			m[0] = s
		}
		if m == nil {
			continue
		}
		f(m)
		s = m[1] - 1 // the next attempt at the match's end
	}
	return len(ctx), true
}

// ſ and K in UTF-8: (?i) takes them for s and k.
var longS, kelvinK = []byte("\u017f"), []byte("\u212a")

// attemptsRead bounds the bytes searchAtKeywords's attempts read, as a
// multiple of the run's length.
const attemptsRead = 8

// windowMergeGap: a window starting at most this many bytes after the
// previous one's end extends it. Lines of keywords otherwise made a
// window per line, each a span kept and an expression run: 700,000
// lines of "xoxb-" held 180 MB of them. The few bytes between searched
// in addition are text the rule would read in a whole-file search, as
// gitleaks does.
const windowMergeGap = 64

// windowReach bounds how far a rule's window is widened towards whole
// lines around a keyword hit.
const windowReach = 4096

// wordBoundaryAt reports whether \b holds before data[st] (ASCII word
// bytes, as the expressions' \b): a token rule's expression starts with
// one, and a line of glued prefixes (ghp_ghp_…) is then one attempt, not
// one per hit.
func wordBoundaryAt(data []byte, st int) bool {
	after := st < len(data) && isWordByte(data[st])
	return (st > 0 && isWordByte(data[st-1])) != after
}

// equalFoldASCII reports whether b equals the lower-case ASCII k, ignoring
// ASCII case.
func equalFoldASCII(b []byte, k string) bool {
	for i := range len(k) {
		c := b[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != k[i] {
			return false
		}
	}
	return true
}

// kwCache keeps the automata built for other keyword lists than the
// default rules' (a team's rules, a gitleaks configuration), which the
// generated table (kwtable_gen.go) serves: a command builds its scanner
// more than once (the check, the redactor), and the automaton is the
// costly part of the build.
var kwCache sync.Map // string -> *kwMatcher

func cachedKWMatcher(kws []string, rules []int) *kwMatcher {
	if m := builtKWMatcher(kws, rules); m != nil {
		return m
	}
	n := 0
	for _, k := range kws {
		n += len(k) + 8
	}
	b := make([]byte, 0, n)
	for i, k := range kws {
		b = strconv.AppendInt(b, int64(rules[i]), 10)
		b = append(b, 0)
		b = append(b, k...)
		b = append(b, 0)
	}
	key := string(b)
	if m, ok := kwCache.Load(key); ok {
		return m.(*kwMatcher)
	}
	m := newKWMatcher(kws, rules)
	kwCache.Store(key, m)
	return m
}
