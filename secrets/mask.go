package secrets

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"math/bits"
	"regexp/syntax"
	"slices"
	"sync"
	"unicode"
	"unicode/utf8"
)

// MaskSuffix ends every redacted value.
const MaskSuffix = "****"

// Mask returns the redacted form of a secret whose rule is not known:
// MaskSuffix alone. No character of a value is public unless its rule's
// expression fixes it (see Rule.Mask): a password, a PIN or a passphrase
// shows nothing, not even its length.
func Mask(secret string) string { return MaskSuffix }

// Mask returns the redacted form of secret, a value r matched: the text
// r's expression fixes at the start of its secret, a provider's public
// prefix such as "ghp_", "AKIA", "xoxb-", "sk-ant-api03-" or "-----BEGIN",
// followed by MaskSuffix; MaskSuffix alone when the expression fixes no
// such text (a password, a generic secret, a connection string's
// password) or when the secret does not begin with it.
//
// The prefix is a literal of the expression, worked out once per
// expression from the secret's group (see publicPrefixes): a literal under
// (?i) counts only where the secret spells it in the literal's own
// letters, all lower case or all upper case; a small class between two
// literals (gh[pousr]_) counts as its alternatives; nothing past the
// first class, repetition or control character counts, and the prefix is
// always shorter than the secret. So no character a random or chosen part
// of the value holds is ever shown.
func (r *Rule) Mask(secret string) string {
	return secret[:r.PublicLen(secret)] + MaskSuffix
}

// PublicLen returns the length in bytes of the prefix of secret that
// r.Mask shows: 0 when there is none.
func (r *Rule) PublicLen(secret string) int {
	src, ok := r.exprSource()
	if !ok {
		return 0
	}
	return publicPrefixesOf(src, r.SecretGroup).shown(secret)
}

// mask is Rule.Mask, with the rule's public prefixes looked up once.
func (cr *compiledRule) mask(secret string) string {
	return secret[:cr.publicLen(secret)] + MaskSuffix
}

// publicLen is Rule.PublicLen, with the rule's public prefixes looked up
// once.
func (cr *compiledRule) publicLen(secret string) int {
	cr.publicOnce.Do(func() {
		if src, ok := cr.exprSource(); ok {
			cr.public = publicPrefixesOf(src, cr.SecretGroup)
		}
	})
	return cr.public.shown(secret)
}

// preparePublic works out the rule's public prefixes from the parse of
// its expression prepare made, before anything may change that tree: a
// tree that wakes every rule masks the findings of hundreds, and a parse
// for each was a twentieth of its scan.
func (cr *compiledRule) preparePublic(full *syntax.Regexp) {
	cr.publicOnce.Do(func() { cr.public = publicPrefixesOfTree(full, cr.SecretGroup) })
}

// exprSource returns the rule's expression as written.
func (r *Rule) exprSource() (string, bool) {
	switch {
	case r.Regex != nil:
		return r.Regex.String(), true
	case r.builtinRE != nil:
		return r.builtinRE.src, true
	case r.lazy != nil:
		return r.lazy.src, true
	}
	return "", false
}

// publicKey identifies the secret of an expression: its source and the
// rule's SecretGroup.
type publicKey struct {
	src   string
	group int
}

// publicCache holds the public prefixes of each expression masked so far:
// they are worked out once per expression, not per finding.
var publicCache sync.Map // publicKey -> publicPrefixes

func publicPrefixesOf(src string, group int) publicPrefixes {
	k := publicKey{src, group}
	if v, ok := publicCache.Load(k); ok {
		return v.(publicPrefixes)
	}
	p := computePublicPrefixes(src, group)
	publicCache.Store(k, p)
	return p
}

// publicPrefixes are the literal texts a secret of an expression may begin
// with, longest first; none when its secret begins with no literal.
type publicPrefixes []literalPrefix

// literalPrefix is one literal: its runes, and for each whether it was
// written under (?i) (a rune with other cases; as regexp/syntax keeps it,
// the smallest of its cases).
type literalPrefix struct {
	runes []rune
	fold  []bool
}

// shown returns the byte length of the longest prefix of p that secret
// begins with and is longer than, 0 when none.
func (p publicPrefixes) shown(secret string) int {
	for _, l := range p {
		if n, ok := l.prefixOf(secret); ok && n < len(secret) {
			return n
		}
	}
	return 0
}

// prefixOf returns the byte length of l in secret when secret begins with
// l: its runes as written, and its folded letters all in lower case or all
// in upper case (the text's own case of a literal matched under (?i) is
// then the literal's).
func (l literalPrefix) prefixOf(secret string) (int, bool) {
	n := 0
	lower, upper := true, true
	for i, want := range l.runes {
		r, size := utf8.DecodeRuneInString(secret[n:])
		if size == 0 || r == utf8.RuneError {
			return 0, false
		}
		switch {
		case !l.fold[i]:
			if r != want {
				return 0, false
			}
		default:
			lo, up := unicode.ToLower(want), unicode.ToUpper(want)
			if lo == up {
				if r != want {
					return 0, false
				}
				break
			}
			lower = lower && r == lo
			upper = upper && r == up
			if !lower && !upper {
				return 0, false
			}
		}
		n += size
	}
	return n, true
}

// Bounds of the prefix analysis: the literals an expression's secret may
// begin with are kept while there are at most maxPublicLits of them, and
// a class of at most smallClass runes between two literals (gh[pousr]_)
// counts as its alternatives.
const (
	maxPublicLits = 1024
	smallClass    = 5
)

// computePublicPrefixes works out the literals a secret of the expression
// src begins with: those of each group that may hold the secret (the
// groups named "secret"; else group SecretGroup; else the unnamed
// groups), and of the whole match when it may be the secret (no such
// group, or one a match may pass by).
func computePublicPrefixes(src string, group int) publicPrefixes {
	re, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return nil
	}
	return publicPrefixesOfTree(re, group)
}

// publicPrefixesOfTree is computePublicPrefixes of a parsed expression,
// which it reads and does not change.
func publicPrefixesOfTree(re *syntax.Regexp, group int) publicPrefixes {
	var named, numbered, unnamed []*syntax.Regexp
	var walk func(*syntax.Regexp)
	walk = func(n *syntax.Regexp) {
		if n.Op == syntax.OpCapture {
			switch {
			case n.Name == "secret":
				named = append(named, n)
			case group > 0 && n.Cap == group:
				numbered = append(numbered, n)
			case n.Name == "":
				unnamed = append(unnamed, n)
			}
		}
		for _, s := range n.Sub {
			walk(s)
		}
	}
	walk(re)
	cands := unnamed
	switch {
	case len(named) > 0:
		cands = named
	case group > 0:
		cands = numbered
	}
	var lits []prefixLit
	for _, c := range cands {
		lits = append(lits, prefixLits(c)...)
	}
	if len(cands) == 0 || !alwaysThrough(re, cands) {
		lits = append(lits, prefixLits(re)...)
	}
	var out publicPrefixes
	seen := map[string]bool{}
	for _, l := range lits {
		runes, fold := l.s[:len(l.s)-l.tail], l.fold[:len(l.s)-l.tail]
		for i, r := range runes {
			if r < ' ' || r == 0x7f {
				runes, fold = runes[:i], fold[:i] // a mask never spans lines
				break
			}
		}
		k := string(runes) + "\x00" + fmt.Sprint(fold)
		if len(runes) == 0 || seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, literalPrefix{runes, fold})
	}
	slices.SortStableFunc(out, func(a, b literalPrefix) int { return len(b.runes) - len(a.runes) })
	return out
}

// alwaysThrough reports whether every match of re passes through one of
// the groups caps.
func alwaysThrough(re *syntax.Regexp, caps []*syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpCapture:
		return slices.Contains(caps, re) || alwaysThrough(re.Sub[0], caps)
	case syntax.OpConcat:
		for _, s := range re.Sub {
			if alwaysThrough(s, caps) {
				return true
			}
		}
		return false
	case syntax.OpAlternate:
		for _, s := range re.Sub {
			if !alwaysThrough(s, caps) {
				return false
			}
		}
		return len(re.Sub) > 0
	case syntax.OpPlus:
		return alwaysThrough(re.Sub[0], caps)
	case syntax.OpRepeat:
		return re.Min > 0 && alwaysThrough(re.Sub[0], caps)
	}
	return false
}

// prefixLit is a literal a match of an expression may begin with.
type prefixLit struct {
	s    []rune
	fold []bool
	// open: the match may be the literal and then whatever follows the
	// expression (so a concatenation extends it).
	open bool
	// tail: the last tail runes come from a small class; they count only
	// once a literal follows.
	tail int
}

// prefixLits returns the literals a match of re begins with, at most
// maxPublicLits of them; a match may begin with no more than the empty one.
func prefixLits(re *syntax.Regexp) []prefixLit {
	closed := func(ls []prefixLit) []prefixLit {
		out := make([]prefixLit, len(ls))
		for i, l := range ls {
			l.open = false
			out[i] = l
		}
		return out
	}
	switch re.Op {
	case syntax.OpLiteral:
		s := slices.Clone(re.Rune)
		fold := make([]bool, len(s))
		for i, r := range s {
			fold[i] = re.Flags&syntax.FoldCase != 0 && unicode.SimpleFold(r) != r
		}
		return []prefixLit{{s: s, fold: fold, open: true}}
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText,
		syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return []prefixLit{{open: true}}
	case syntax.OpCapture:
		return prefixLits(re.Sub[0])
	case syntax.OpCharClass:
		var runes []rune
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				if len(runes) == smallClass {
					return []prefixLit{{}}
				}
				runes = append(runes, r)
			}
		}
		var out []prefixLit
		for _, r := range runes {
			out = append(out, prefixLit{s: []rune{r}, fold: []bool{false}, open: true, tail: 1})
		}
		if len(out) == 0 {
			return []prefixLit{{}}
		}
		return out
	case syntax.OpConcat:
		cur := []prefixLit{{open: true}}
		for _, sub := range re.Sub {
			if !slices.ContainsFunc(cur, func(l prefixLit) bool { return l.open }) {
				break
			}
			next := prefixLits(sub)
			var out []prefixLit
			for _, c := range cur {
				if !c.open {
					out = append(out, c)
					continue
				}
				for _, n := range next {
					out = append(out, joinLits(c, n))
				}
			}
			if len(out) > maxPublicLits {
				return []prefixLit{commonLit(out)}
			}
			cur = out
		}
		return cur
	case syntax.OpAlternate:
		var out []prefixLit
		for _, sub := range re.Sub {
			out = append(out, prefixLits(sub)...)
		}
		if len(out) > maxPublicLits {
			return []prefixLit{commonLit(out)}
		}
		return out
	case syntax.OpQuest, syntax.OpStar, syntax.OpPlus, syntax.OpRepeat:
		if re.Op == syntax.OpRepeat && re.Max == 0 {
			return []prefixLit{{open: true}}
		}
		sub := prefixLits(re.Sub[0])
		if re.Op == syntax.OpPlus || re.Op == syntax.OpRepeat && re.Min > 0 {
			return closed(sub)
		}
		// An optional part: a literal ((?:sk-)?) may begin the match or
		// not; an optional class or run ([ A-Z0-9]{0,32}) ends the
		// literal, though what follows it is written out too.
		if !slices.ContainsFunc(sub, func(l prefixLit) bool { return len(l.s) > l.tail }) {
			if slices.ContainsFunc(sub, func(l prefixLit) bool { return !l.open }) {
				return []prefixLit{{}}
			}
			return []prefixLit{{open: true}} // zero-width only
		}
		if re.Op == syntax.OpQuest {
			return append(sub, prefixLit{open: true})
		}
		return append(closed(sub), prefixLit{open: true})
	}
	return []prefixLit{{}}
}

// joinLits returns the literal c then n. A class's rune counts only after
// a literal: a class the match begins with (or follows a class with) ends
// the literal.
func joinLits(c, n prefixLit) prefixLit {
	if n.tail > 0 && len(c.s)-c.tail == 0 {
		c.open = false
		return c
	}
	j := prefixLit{
		s:    append(slices.Clip(c.s), n.s...),
		fold: append(slices.Clip(c.fold), n.fold...),
		open: n.open,
		tail: n.tail,
	}
	if n.tail == len(n.s) {
		j.tail = c.tail + n.tail
	}
	return j
}

// commonLit returns the longest literal every one of ls begins with
// (without the class runes not yet followed by a literal), closed.
func commonLit(ls []prefixLit) prefixLit {
	if len(ls) == 0 {
		return prefixLit{}
	}
	n := len(ls[0].s) - ls[0].tail
	for _, l := range ls[1:] {
		n = min(n, len(l.s)-l.tail)
		for i := 0; i < n; i++ {
			if l.s[i] != ls[0].s[i] || l.fold[i] != ls[0].fold[i] {
				n = i
				break
			}
		}
	}
	return prefixLit{s: ls[0].s[:n], fold: ls[0].fold[:n]}
}

// Fingerprint identifies a finding without storing its secret: the hex
// SHA-256 of ruleID, a NUL byte and the secret. It does not depend on the
// file or the position, so a baseline survives edits that move lines.
func Fingerprint(ruleID, secret string) string {
	h := sha256.New()
	h.Write([]byte(ruleID))
	h.Write([]byte{0})
	h.Write([]byte(secret))
	return hex.EncodeToString(h.Sum(nil))
}

// entropyFloor is the floor a rule's entropy floor sets for sec. Floors
// are written for values of a token's alphabet (62 or 64 symbols); a
// value of hex digits of one case draws from 16, and a random one of 32
// digits falls under 3.5 bits one time in five (a Datadog or Algolia key
// missed as often). From 16 digits the floor of such a value is at most
// 4 - 28/n bits, under which a random value of n hex digits falls about
// one time in a thousand (of 40,000 random values a length, the
// thousandth lowest measured 2.48 bits at 16 digits, 3.12 at 32, 3.27 at
// 40, 3.55 at 64; the floor is 2.25, 3.13, 3.3, 3.56). A shorter hex
// value keeps the floor: too little to tell a key from an id.
//
// A UUID (8-4-4-4-12 hex digits of one case) draws from 17 symbols, the
// four dashes always among them: a random one falls under 3.5 bits about
// one time in twenty-three (an npm or Snyk token, a Heroku API key
// missed as often), under 3.27 about one time in a thousand (of 200,000
// random version-4 UUIDs, the thousandth lowest measured 3.28 bits).
func entropyFloor(floor float64, sec []byte) float64 {
	if n := len(sec); n >= 16 && oneCaseHex(sec) {
		return min(floor, 4-28/float64(n))
	}
	if uuidOfOneCase(sec) {
		return min(floor, 3.27)
	}
	return floor
}

// uuidOfOneCase reports whether s is a UUID's 8-4-4-4-12 hex digits of
// one case.
func uuidOfOneCase(s []byte) bool {
	if len(s) != 36 {
		return false
	}
	var digits [32]byte
	n := 0
	for i, c := range s {
		if i == 8 || i == 13 || i == 18 || i == 23 {
			if c != '-' {
				return false
			}
			continue
		}
		digits[n] = c
		n++
	}
	return oneCaseHex(digits[:])
}

// oneCaseHex reports whether s is hex digits of one case.
func oneCaseHex(s []byte) bool {
	lower, upper := false, false
	for _, c := range s {
		switch {
		case '0' <= c && c <= '9':
		case 'a' <= c && c <= 'f':
			lower = true
		case 'A' <= c && c <= 'F':
			upper = true
		default:
			return false
		}
	}
	return !(lower && upper)
}

// Entropy is the Shannon entropy of s in bits per byte.
func Entropy(s []byte) float64 {
	if len(s) == 0 {
		return 0
	}
	// The bytes seen are visited in byte order through a bitmap, not by
	// walking all 256 counts: Entropy runs on every candidate, and a
	// line dense with short ones spent more on the walk than on the
	// logarithms. The sum is taken in the same order as before.
	var counts [256]int
	var seen [4]uint64
	for _, c := range s {
		counts[c]++
		seen[c>>6] |= 1 << (c & 63)
	}
	n := float64(len(s))
	e := 0.0
	var terms *[entropyTableMax + 1]float64
	if len(s) <= entropyTableMax {
		terms = &entropyTable()[len(s)]
	}
	for w, bm := range seen {
		for ; bm != 0; bm &= bm - 1 {
			c := counts[w<<6|bits.TrailingZeros64(bm)]
			if terms != nil {
				e -= terms[c]
				continue
			}
			p := float64(c) / n
			e -= float64(p * math.Log2(p)) // rounded as the table's terms
		}
	}
	return e
}

// entropyTableMax is the longest value whose entropy terms are looked up:
// a line dense with short candidates spent a third of their validation on
// the logarithms.
const entropyTableMax = 64

// entropyTable holds, for each length n and count c <= n, the term
// p*log2(p) of p = c/n, computed as Entropy computes it, so that a looked
// up sum is the same float64, bit for bit.
var entropyTable = sync.OnceValue(func() *[entropyTableMax + 1][entropyTableMax + 1]float64 {
	var t [entropyTableMax + 1][entropyTableMax + 1]float64
	for n := 1; n <= entropyTableMax; n++ {
		for c := 1; c <= n; c++ {
			p := float64(c) / float64(n)
			t[n][c] = float64(p * math.Log2(p))
		}
	}
	return &t
})
