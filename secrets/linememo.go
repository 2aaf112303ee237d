package secrets

import (
	"bytes"
	"regexp/syntax"
	"sort"
)

// textMemo is what the allowlists of one scanned text remember between
// its candidates. A "line" allowlist expression reads the candidate's
// line (up to 2 KB of it, see Candidate.Line): on a line dense with
// candidates (a 4 MB line of token= every 21 bytes holds 200,000) each
// one re-read the same bytes. With the memo an expression's literals are
// found once per stretch of text, and a candidate asks whether one lies
// inside its line (a binary search), so the cost is linear in the text,
// not candidates times line length; the expression itself runs only when
// a literal is there, and remembers a match or a window without one.
//
// Every answer is the one the expression gives on Candidate.Line: the
// memo only skips runs whose outcome is known.
type textMemo struct {
	data []byte
	sets []setMemo // few: one per line allowlist of the rules that ran
	// paths holds each path allowlist's answer for the text's path, the
	// same for all its candidates: asked once, not per candidate.
	paths []pathMemo
	// keys holds, for each kind of name judgement (keyGeneric and the
	// like), the last name judged and its verdict: a line dense with
	// candidates repeats one name ("token=… token=…").
	keys [keyKinds]keyVerdict
	// table is the last markdown table table-secret judged a row of.
	table tableMemo
	// sealed holds the text's SealedSecret ciphertext ranges (sealed.go).
	sealed sealedMemo
	// login holds where the text says "cred" and "login" (loginNounIn).
	login loginMemo
	// testCode is whether the text is test code (testFixture): 0 not
	// yet asked, 1 yes, 2 no.
	testCode int8
	// bundle is whether the text is a translation bundle
	// (messageBundle), as testCode.
	bundle int8
	// bundlePath is whether bundleFor, the text's path, names a
	// translation bundle (bundleAt), as testCode.
	bundlePath int8
	bundleFor  string
	// hashCols remembers the last statement or list a hash's column
	// was looked up in (hashcolumn.go).
	hashCols hashColMemo
}

// The kinds of name judgement textMemo.keyJudged remembers.
const (
	keyGeneric         = iota // validGeneric's
	keyGitleaksGeneric        // genericKeyIsSecret's
	keyKinds
)

type keyVerdict struct {
	key       []byte
	ok, valid bool
}

// keyJudged returns judge(key), from the memo when the last name of this
// kind was key.
func (tm *textMemo) keyJudged(kind int, key []byte, judge func([]byte) bool) bool {
	kv := &tm.keys[kind]
	if kv.valid && bytes.Equal(kv.key, key) {
		return kv.ok
	}
	kv.ok = judge(key)
	kv.key = append(kv.key[:0], key...)
	kv.valid = true
	return kv.ok
}

type pathMemo struct {
	rs   *regexSet
	path string
	hit  bool
}

func (tm *textMemo) reset(data []byte) {
	tm.data = data
	clear(tm.sets)
	tm.sets = tm.sets[:0]
	clear(tm.paths)
	tm.paths = tm.paths[:0]
	for i := range tm.keys {
		tm.keys[i].valid = false
	}
	tm.table.valid = false
	tm.sealed = sealedMemo{blocks: tm.sealed.blocks[:0]}
	tm.login = loginMemo{cred: tm.login.cred[:0], login: tm.login.login[:0]}
	tm.testCode, tm.bundle, tm.bundlePath, tm.bundleFor = 0, 0, 0, ""
	tm.hashCols = hashColMemo{}
}

// pathMatches reports whether an expression of rs matches path, as
// rs.any([]byte(path)) does.
func (tm *textMemo) pathMatches(rs *regexSet, path string) bool {
	for _, pm := range tm.paths {
		if pm.rs == rs && pm.path == path {
			return pm.hit
		}
	}
	hit := rs.any([]byte(path))
	tm.paths = append(tm.paths, pathMemo{rs, path, hit})
	return hit
}

// setMemo is a regexSet's memo over one text.
type setMemo struct {
	rs *regexSet
	// the line last looked up: data[lineLo:lineHi] holds no newline, and
	// lineHi is a newline's offset or len(data). Candidates of one rule
	// come in text order, so each line is looked up about once.
	lineLo, lineHi int
	// [lo, hi) is the stretch whose literal occurrences ex holds.
	lo, hi int
	ex     []exprMemo
}

// exprMemo is what is known of one expression of the set.
type exprMemo struct {
	// occurrences of the expression's literals lying wholly in [lo, hi):
	// starts ascending, minEnd[k] the least end of occurrences k and on.
	starts, minEnd []int
	// for an expression without zero-width assertions, whose matches do
	// not depend on where the text is cut: a match [hitLo, hitHi) (a
	// window holding it matches) and a window [missLo, missHi) without
	// one (a window inside it does not match).
	hitLo, hitHi, missLo, missHi int
	// the last window asked and its answer, for any expression: the
	// candidates of a short line all ask for the same line.
	lastLo, lastHi int
	last           bool
}

// memoSpan is how much text past a window's start a set indexes at once:
// a window leaving the stretch indexes the next one, so the index costs
// about one pass over the text per set.
const memoSpan = 16 << 10

func (tm *textMemo) set(rs *regexSet) *setMemo {
	for i := range tm.sets {
		if tm.sets[i].rs == rs {
			return &tm.sets[i]
		}
	}
	tm.sets = append(tm.sets, setMemo{rs: rs, lineLo: 0, lineHi: -1, lo: 0, hi: -1})
	sm := &tm.sets[len(tm.sets)-1]
	sm.ex = make([]exprMemo, len(rs.res))
	for i := range sm.ex {
		sm.ex[i] = exprMemo{hitLo: -1, hitHi: -1, missLo: 0, missHi: -1, lastLo: 0, lastHi: -1}
	}
	return sm
}

// lineOf returns the start of p's line and the offset of the newline
// ending it (or len(data)), for p in [0, len(data)].
func (sm *setMemo) lineOf(data []byte, p int) (int, int) {
	if sm.lineLo <= p && p <= sm.lineHi {
		return sm.lineLo, sm.lineHi
	}
	lo := bytes.LastIndexByte(data[:p], '\n') + 1
	hi := len(data)
	if j := bytes.IndexByte(data[p:], '\n'); j >= 0 {
		hi = p + j
	}
	sm.lineLo, sm.lineHi = lo, hi
	return lo, hi
}

// lineIn returns the bounds in data of c.Line().
func (sm *setMemo) lineIn(data []byte, c Candidate) (int, int) {
	ms := c.base + c.MatchOffset
	me := ms + len(c.Match)
	lo, _ := sm.lineOf(data, ms)
	_, hi := sm.lineOf(data, me)
	return max(lo, c.base), min(hi, c.base+len(c.Context))
}

// lineMatches reports whether any expression of the set matches c.Line(),
// as rs.any(c.Line()) does.
func (tm *textMemo) lineMatches(rs *regexSet, c Candidate) bool {
	sm := tm.set(rs)
	s, e := sm.lineIn(tm.data, c)
	if s < sm.lo || e > sm.hi {
		sm.index(tm.data, s, e)
	}
	for i := range rs.res {
		if sm.matches(tm.data, i, s, e) {
			return true
		}
	}
	return false
}

// index finds the occurrences of every expression's literals in a
// stretch of text from s holding [s, e).
func (sm *setMemo) index(data []byte, s, e int) {
	sm.lo, sm.hi = s, min(len(data), max(e, s+memoSpan))
	text := data[sm.lo:sm.hi]
	rs := sm.rs
	for i := range sm.ex {
		x := &sm.ex[i]
		x.starts, x.minEnd = x.starts[:0], x.minEnd[:0]
		lits := rs.litsOf[i]
		if lits == nil {
			continue
		}
		type occ struct{ s, e int }
		var occs []occ
		for _, l := range lits {
			eachOccurrence(text, l, rs.foldOf[i], func(k int) { occs = append(occs, occ{sm.lo + k, sm.lo + k + len(l)}) })
		}
		if len(lits) > 1 {
			sort.Slice(occs, func(a, b int) bool { return occs[a].s < occs[b].s })
		}
		for _, o := range occs {
			x.starts = append(x.starts, o.s)
			x.minEnd = append(x.minEnd, o.e)
		}
		for k := len(x.minEnd) - 2; k >= 0; k-- {
			x.minEnd[k] = min(x.minEnd[k], x.minEnd[k+1])
		}
	}
}

// eachOccurrence calls f with the offset of every occurrence of l in b,
// overlapping ones included (l lower case and compared ignoring ASCII
// case when fold, as holdsLiteral does). l is not empty: a set keeps
// literals of two bytes or more (litsOf).
func eachOccurrence(b, l []byte, fold bool, f func(int)) {
	if !fold {
		for k := 0; ; {
			j := bytes.Index(b[k:], l)
			if j < 0 {
				return
			}
			f(k + j)
			k += j + 1
		}
	}
	c0, c1 := l[0], l[0]
	if 'a' <= c0 && c0 <= 'z' {
		c1 = c0 - ('a' - 'A')
	}
	for k := 0; k+len(l) <= len(b); k++ {
		if (b[k] == c0 || b[k] == c1) && equalFoldBytes(b[k:k+len(l)], l) {
			f(k)
		}
	}
}

// matches reports whether expression i matches data[s:e], as rs.any
// would find, from the memo when it knows.
func (sm *setMemo) matches(data []byte, i, s, e int) bool {
	rs, x := sm.rs, &sm.ex[i]
	if rs.litsOf[i] != nil {
		// Every match holds one of the literals: none wholly in the
		// window, no match.
		k := sort.SearchInts(x.starts, s)
		if k == len(x.starts) || x.minEnd[k] > e {
			return false
		}
	} else if f := rs.first[i]; f >= 0 && (e <= s || int(data[s]) != f) {
		return false
	}
	if x.lastLo == s && x.lastHi == e {
		return x.last
	}
	// (set only for an expression without assertions)
	switch {
	case x.hitLo >= s && x.hitHi <= e:
		return true
	case x.missLo <= s && e <= x.missHi:
		return false
	}
	var v bool
	if rs.cutFree[i] {
		// Where it is, the match is remembered: one search, not a
		// match and then a search.
		var m []int
		if rs.mayMatch(i, data[s:e]) {
			m = rs.res[i].get().FindIndex(data[s:e])
		}
		if v = m != nil; v {
			x.hitLo, x.hitHi = s+m[0], s+m[1]
		} else {
			x.missLo, x.missHi = s, e
		}
	} else {
		v = rs.match(i, data[s:e])
	}
	x.lastLo, x.lastHi, x.last = s, e, v
	return v
}

// cutFree reports whether re holds no zero-width assertion: then whether
// a text matches depends on the substrings it holds, not on where it was
// cut from a longer one.
func cutFree(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return false
	}
	for _, sub := range re.Sub {
		if !cutFree(sub) {
			return false
		}
	}
	return true
}
