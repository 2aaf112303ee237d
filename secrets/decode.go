package secrets

import (
	"bytes"
	"encoding/base64"
	"slices"
	"sort"
)

// Encoded secrets. A token written base64-encoded in a config blob, hex in
// an environment value or percent-encoded in a URL is a secret all the
// same, and gitleaks finds it: since 8.21 it decodes such text and scans
// what it decodes to, five layers deep by default (--max-decode-depth).
// The scanner does as much. Each pass finds the encoded runs of the text
// the pass before decoded (the first, of the whole file), decodes those
// that decode to printable ASCII, and scans a view of the decoded runs in
// their lines; a match counts when its secret lies in text that pass
// decoded, and is reported on the encoded text it came from. A view
// holds the runs' lines only, cut to decodeContext bytes on each side of a
// run, and about viewBatch bytes of them: a pass costs what its runs
// decode to, not the file again, and holds a view at a time.

// maxDecodeDepth is how many layers of encoding are decoded (gitleaks'
// default --max-decode-depth).
const maxDecodeDepth = 5

// decodeContext is how much of a decoded run's line, on each side of it,
// its view holds: room for the name a value is assigned to.
const decodeContext = 256

// minBase64Run and minHexRun are the shortest runs tried, as gitleaks:
// 16 base64 characters are 12 bytes, 32 hex digits 16.
const (
	minBase64Run = 16
	minHexRun    = 32
)

// decodedCand is a match in decoded text: the span of the original
// content it was encoded in, where its secret is in its set's arena, and
// the number of the encodings it was found under.
type decodedCand struct {
	cand
	sec, secLen int32
	enc         uint16
}

// decodedSet is what decodedCands found in one text: its matches, their
// secrets one after another, and the chains of encodings by number.
type decodedSet struct {
	cands  []decodedCand
	arena  []byte
	chains []string
}

func (d *decodedSet) secret(c decodedCand) string {
	return string(d.arena[c.sec : c.sec+c.secLen])
}

// encoding names c's encodings, outermost first ("percent+base64").
func (d *decodedSet) encoding(c decodedCand) string { return d.chains[c.enc] }

// piece is a stretch of a view's text and the original content it stands
// for: the same bytes (copied), or text decoded from from:to under the
// encodings numbered enc. Offsets are 32 bits: a dense file's views hold
// hundreds of thousands of pieces.
type piece struct {
	at, from, to int32
	enc          uint16
	copied       bool
}

// view is text decoded from a file: pieces cover text, and tokens are the
// spans of text that the pass which made it decoded.
type view struct {
	text   []byte
	pieces []piece
	tokens []token
}

// token is a span of a view's text decoded from one encoded run, and the
// number of the encodings it was under.
type token struct {
	start, end int32
	enc        uint16
}

// decoding is the state of one text's passes: the chains of encodings
// seen, numbered (0 is none), and each depth's pass.
type decoding struct {
	chains []string
	passes []*pass
}

// pass is the state of the pass at one depth: the decoded bytes and
// escape runs of the segments of the view it is building.
type pass struct {
	d    *decoding
	buf  []byte
	runs []escapeRun
	// fine is how many more escape runs the pass maps back one by one
	fine int
}

// pass returns the pass at depth, reset.
func (d *decoding) pass(depth int) *pass {
	for len(d.passes) < depth {
		d.passes = append(d.passes, &pass{d: d})
	}
	p := d.passes[depth-1]
	p.buf, p.runs, p.fine = p.buf[:0], p.runs[:0], maxFineRuns
	return p
}

// maxFineRuns is how many runs of escapes a pass maps back one by one;
// past it a token maps back whole (a line of tokens each of a few
// escapes would otherwise cost a piece an escape).
const maxFineRuns = 1 << 12

// chain returns the number of kind under the encodings numbered outer.
func (d *decoding) chain(outer uint16, kind string) uint16 {
	name := kind
	if outer != 0 {
		name = d.chains[outer] + "+" + kind
	}
	for i, c := range d.chains {
		if c == name {
			return uint16(i)
		}
	}
	d.chains = append(d.chains, name)
	return uint16(len(d.chains) - 1)
}

// decodedCands returns the matches in data's encoded text once decoded,
// up to maxDecodeDepth layers, each on the span of data its secret was
// encoded in. scan is detect's.
func (s *Scanner) decodedCands(path string, data []byte, scan bool) decodedSet {
	var set decodedSet
	if len(data) > maxText {
		return set // a view's offsets are 32 bits: ScanCapped and Redact give pieces
	}
	d := &decoding{chains: []string{""}}
	terminalViews(data, d, func(tv *view) { s.collectDecoded(path, scan, tv, &set) })
	v := &view{text: data, pieces: []piece{{at: 0, from: 0, to: int32(len(data)), copied: true}}, tokens: []token{{0, int32(len(data)), 0}}}
	s.scanDecoded(path, scan, d, v, 1, &set)
	set.chains = d.chains
	return set
}

// collectDecoded adds to set the matches in nv that lie in its decoded
// text (its tokens), on the spans of data they stand for.
func (s *Scanner) collectDecoded(path string, scan bool, nv *view, set *decodedSet) {
	for _, c := range s.detect(path, nv.text, scan) {
		t, ok := nv.tokenAt(int(c.start), int(c.end))
		if !ok {
			continue
		}
		from, to := nv.orig(int(c.start), int(c.end))
		set.cands = append(set.cands, decodedCand{cand{c.rule, int32(from), int32(to)}, int32(len(set.arena)), int32(c.end - c.start), t.enc})
		set.arena = append(set.arena, nv.text[c.start:c.end]...)
	}
}

// scanDecoded scans the views of what v's tokens decode to, and what
// theirs do, down to maxDecodeDepth, adding their matches to set.
func (s *Scanner) scanDecoded(path string, scan bool, d *decoding, v *view, depth int, set *decodedSet) {
	if depth > maxDecodeDepth {
		return
	}
	d.pass(depth).views(v, func(nv *view) {
		s.collectDecoded(path, scan, nv, set)
		s.scanDecoded(path, scan, d, nv, depth+1, set)
	})
}

// tokenAt returns the first token text[s:e] overlaps: text this view's
// pass decoded.
func (v *view) tokenAt(s, e int) (token, bool) {
	i := sort.Search(len(v.tokens), func(i int) bool { return int(v.tokens[i].end) > s })
	if i < len(v.tokens) && int(v.tokens[i].start) < e {
		return v.tokens[i], true
	}
	return token{}, false
}

// pieceAt returns the index of the piece holding text offset p.
func (v *view) pieceAt(p int) int {
	return sort.Search(len(v.pieces), func(i int) bool { return int(v.pieces[i].at) > p }) - 1
}

// orig returns the original span text[s:e] stands for.
func (v *view) orig(s, e int) (from, to int) {
	a, b := v.pieces[v.pieceAt(s)], v.pieces[v.pieceAt(e-1)]
	from, to = int(a.from), int(b.to)
	if a.copied {
		from = int(a.from) + s - int(a.at)
	}
	if b.copied {
		to = int(b.from) + e - int(b.at)
	}
	return from, to
}

// encodingIn returns the number of the encodings of the first decoded
// piece of text[s:e], 0 when it was written plainly.
func (v *view) encodingIn(s, e int) uint16 {
	for _, p := range v.pieces[v.pieceAt(s) : v.pieceAt(e-1)+1] {
		if p.enc != 0 {
			return p.enc
		}
	}
	return 0
}

// segment is an encoded run of a view's text and what it decodes to
// (buf[dec:decEnd] of its pass). A percent-encoded token decodes run by
// run: runs[runFrom:runTo] of its pass are its escapes, none when it maps
// back whole.
type segment struct {
	start, end     int32
	dec, decEnd    int32
	runFrom, runTo int32
	kind           string
}

type escapeRun struct {
	start, end int32 // the escapes in the view's text
	n          int32 // bytes they decode to
}

// viewBatch is about how much text a view holds: a pass builds views of
// its windows until one holds this much, and scans each before it goes
// on, so what a pass holds is bounded, not what a dense file decodes to.
const viewBatch = 64 << 10

// views calls yield with views of the runs of v's tokens that decode,
// in order, each of whole windows and about viewBatch bytes.
func (p *pass) views(v *view, yield func(*view)) {
	var (
		segs []segment
		wins []viewWindow
		size int
		open bool // whether a window takes more segments
		w    viewWindow
	)
	// flush yields the view of the closed windows and keeps the
	// segments of the open one, the last keep.
	flush := func(keep int) {
		if len(wins) > 0 {
			yield(p.build(v, segs[:len(segs)-keep], wins))
		}
		rest := segs[len(segs)-keep:]
		if len(rest) > 0 {
			p.rebase(rest)
		} else {
			p.buf, p.runs = p.buf[:0], p.runs[:0]
		}
		segs = append(segs[:0], rest...)
		wins, size = wins[:0], 0
	}
	add := func(sg segment) {
		s, e := v.window(int(sg.start), int(sg.end))
		segs = append(segs, sg)
		// A window grows to take the segments its context meets, up to
		// about viewBatch bytes (a long line of them is many windows,
		// each with its context).
		if open && s <= w.end && w.end-w.start < viewBatch {
			w.end = max(w.end, e)
			w.segs = len(segs)
			return
		}
		if open {
			wins = append(wins, w)
			size += w.end - w.start + 1
		}
		w, open = viewWindow{s, e, len(segs)}, true
		if size >= viewBatch {
			flush(1)
			w.segs = 1
		}
	}
	for _, t := range v.tokens {
		p.findSegments(v.text, int(t.start), int(t.end), add)
	}
	if open {
		wins = append(wins, w)
	}
	flush(0)
}

// viewWindow is a span of a view's text that the next one holds, and the
// index past its last segment.
type viewWindow struct{ start, end, segs int }

// rebase moves the decoded bytes and escape runs of segs, the last ones
// found, to the start of the pass's buffers.
func (p *pass) rebase(segs []segment) {
	dec, run := segs[0].dec, segs[0].runFrom
	p.buf = p.buf[:copy(p.buf, p.buf[dec:])]
	p.runs = p.runs[:copy(p.runs, p.runs[run:])]
	for i := range segs {
		segs[i].dec -= dec
		segs[i].decEnd -= dec
		segs[i].runFrom -= run
		segs[i].runTo -= run
	}
}

// build returns the view of wins, windows of v's text whose segments are
// segs, in order.
func (p *pass) build(v *view, segs []segment, wins []viewWindow) *view {
	// What a run decodes to is no longer than the run: the view fits in
	// its windows, and its pieces are about two a segment or escape run.
	size := 0
	for _, w := range wins {
		size += w.end - w.start + 1
	}
	nv := &view{
		text:   make([]byte, 0, size),
		pieces: make([]piece, 0, 2*len(segs)+2*len(p.runs)+len(wins)+1),
		tokens: make([]token, 0, len(segs)),
	}
	i := 0
	for _, w := range wins {
		if len(nv.text) > 0 {
			nv.addSeparator()
		}
		pos := w.start
		for _, sg := range segs[i:w.segs] {
			if call, quote, ok := decoderCall(v.text[pos:sg.start]); ok {
				// the literal stands where the call did
				nv.addCopied(v, pos, pos+call)
				nv.addCopied(v, pos+quote, int(sg.start))
			} else {
				nv.addCopied(v, pos, int(sg.start))
			}
			p.addSegment(nv, v, sg)
			pos = int(sg.end)
		}
		nv.addCopied(v, pos, w.end)
		i = w.segs
	}
	return nv
}

// decoderCallRE matches, at the end of the text before an encoded run,
// a call of a decoder its literal opens, in a call that makes text of
// what it decodes or not (Java's new String(…), .NET's
// Encoding.UTF8.GetString(…), Python's str(…)): Python's b64decode, unhexlify,
// bytes.fromhex and unquote, JavaScript's atob, Buffer.from and
// decodeURIComponent, Ruby's decode64, PHP's base64_decode, hex2bin and
// rawurldecode, Java's getDecoder().decode and decodeBase64, .NET's
// FromBase64String, Go's DecodeString, SQL's UNHEX and FROM_BASE64,
// Terraform's base64decode.
var decoderCallRE = lazyRE.New(`(?i)(?:(?:new\s+)?(?:[\w$]+\.)*(?:GetString|String|str|bytes)\(\s*)?(?:[\w$]+(?:\(\))?\.)*(?:(?:urlsafe_|standard_)?b64decode|decodebytes|decodestring|unhexlify|a2b_hex|a2b_base64|fromhex|unquote(?:_plus|_to_bytes)?|atob|Buffer\.from|decodeURI(?:Component)?|unescape|(?:strict_|urlsafe_)?decode64|base64_?decode|hex2bin|rawurldecode|urldecode|(?:get(?:Url|Mime)?Decoder\(\)\.)decode|decodeBase64|parseBase64Binary|decodeHex|From(?:Base64|Hex)String|UrlDecode|DecodeString|unhex|from_base64)\(\s*\[?\s*[bu]?["'` + "`" + `]$`)

// decoderCall reports whether before ends with a decoder's call and the
// quote its literal opens with, and where the call and the quote begin:
// a view of the literal decoded then reads as it was assigned, "key =
// '…'", where "key = b64decode('…')" is code.
func decoderCall(before []byte) (call, quote int, ok bool) {
	// The expression ends with "(", a quote and the run: without them
	// there is no call, and its search, tried at each of the 96 bytes,
	// cost a line of runs joined by dots or blanks some 15 µs a run.
	if n := len(before); n < 2 || before[n-1] != '"' && before[n-1] != '\'' && before[n-1] != '`' {
		return 0, 0, false
	}
	from := max(0, len(before)-96)
	if bytes.IndexByte(before[from:], '(') < 0 {
		return 0, 0, false
	}
	m := decoderCallRE.FindIndex(before[from:])
	if m == nil {
		return 0, 0, false
	}
	return from + m[0], len(before) - 1, true
}

// window returns the span of s:e's line in v's text within decodeContext
// bytes of it.
func (v *view) window(s, e int) (int, int) {
	lo := max(0, s-decodeContext)
	if k := bytes.LastIndexByte(v.text[lo:s], '\n'); k >= 0 {
		lo += k + 1
	}
	hi := min(len(v.text), e+decodeContext)
	if k := bytes.IndexByte(v.text[e:hi], '\n'); k >= 0 {
		hi = e + k
	}
	return lo, hi
}

// addCopied appends v.text[s:e] unchanged, with the pieces it spans.
func (nv *view) addCopied(v *view, s, e int) {
	for s < e {
		i := v.pieceAt(s)
		p := v.pieces[i]
		end := e
		if i+1 < len(v.pieces) {
			end = min(e, int(v.pieces[i+1].at))
		}
		np := p
		np.at = int32(len(nv.text))
		if p.copied {
			np.from = p.from + int32(s) - p.at
			np.to = np.from + int32(end-s)
		}
		nv.pieces = append(nv.pieces, np)
		nv.text = append(nv.text, v.text[s:end]...)
		s = end
	}
}

// addDecoded appends decoded text standing for v.text[s:e], s < e, under
// the encodings numbered enc.
func (nv *view) addDecoded(v *view, decoded []byte, s, e int, enc uint16) {
	from, to := v.orig(s, e)
	nv.pieces = append(nv.pieces, piece{at: int32(len(nv.text)), from: int32(from), to: int32(to), enc: enc})
	nv.text = append(nv.text, decoded...)
}

// addSeparator appends a newline between two windows, standing for the
// empty span where the window before it ends.
func (nv *view) addSeparator() {
	p := nv.pieces[len(nv.pieces)-1]
	end := p.to
	if p.copied {
		end = p.from + int32(len(nv.text)) - p.at
	}
	nv.pieces = append(nv.pieces, piece{at: int32(len(nv.text)), from: end, to: end})
	nv.text = append(nv.text, '\n')
}

// addSegment appends sg decoded to nv, and marks it as decoded text.
func (p *pass) addSegment(nv, v *view, sg segment) {
	start := len(nv.text)
	enc := p.d.chain(v.encodingIn(int(sg.start), int(sg.end)), sg.kind)
	decoded := p.buf[sg.dec:sg.decEnd]
	if sg.runFrom == sg.runTo {
		nv.addDecoded(v, decoded, int(sg.start), int(sg.end), enc)
	} else {
		pos, at := int(sg.start), int32(0)
		for _, r := range p.runs[sg.runFrom:sg.runTo] {
			nv.addCopied(v, pos, int(r.start))
			// an escape run of a text decoded before is under its
			// encodings too
			nv.addDecoded(v, decoded[at:at+r.n], int(r.start), int(r.end), p.d.chain(v.encodingIn(int(r.start), int(r.end)), sg.kind))
			at += r.n
			pos = int(r.end)
		}
		nv.addCopied(v, pos, int(sg.end))
	}
	nv.tokens = append(nv.tokens, token{int32(start), int32(len(nv.text)), enc})
}

// findSegments appends to segs the runs of text[lo:hi] that decode to
// printable ASCII: tokens holding percent escapes or HTML character
// references first, then runs of base64 or hex outside them (their
// base64 is the next pass's).
func (p *pass) findSegments(text []byte, lo, hi int, emit func(segment)) {
	i := lo
	for i < hi {
		// the next escape, the end of the text if none
		esc := hi
		for k := i; k < hi; {
			j := bytes.IndexAny(text[k:hi], "%&")
			if j < 0 {
				break
			}
			if k += j; isEscape(text, k, hi) {
				esc = k
				break
			}
			k++
		}
		ts, te := hi, hi
		if esc < hi {
			ts, te = tokenAround(text, lo, hi, esc)
		}
		p.findRuns(text, i, ts, emit)
		if ts >= hi {
			break
		}
		if sg, ok := p.decodeEscapedToken(text, ts, te); ok {
			emit(sg)
		}
		i = te
	}
}

// tokenAround returns the token of text[lo:hi] holding p: the bytes on
// either side up to a blank, a quote or an angle bracket.
func tokenAround(text []byte, lo, hi, p int) (int, int) {
	s, e := p, p
	for s > lo && tokenByte(text[s-1]) {
		s--
	}
	for e < hi && tokenByte(text[e]) {
		e++
	}
	return s, e
}

func tokenByte(c byte) bool {
	return c > ' ' && c != 0x7f && c != '"' && c != '\'' && c != '`' && c != '<' && c != '>'
}

// isEscape reports whether text[p:e] starts with a percent escape or an
// HTML character reference.
func isEscape(text []byte, p, e int) bool {
	_, n := escapeAt(text, p, e)
	return n > 0
}

// escapeAt decodes the escape text[p:e] starts with: a percent escape
// (%2F), or an HTML character reference of a printable ASCII character,
// named (&quot; &apos; &lt; &gt; &amp;) or numbered (&#34; &#x22;), as
// an HTML page, an XML file or a diagram's export (draw.io's value="…")
// writes the quotes and brackets around a value. n is the escape's
// length, 0 when text[p:e] starts with none.
func escapeAt(text []byte, p, e int) (b byte, n int) {
	switch text[p] {
	case '%':
		if p+2 < e && isHexDigit(text[p+1]) && isHexDigit(text[p+2]) {
			return hexVal(text[p+1])<<4 | hexVal(text[p+2]), 3
		}
	case '&':
		return htmlReference(text[p:min(e, p+maxReference)])
	}
	return 0, 0
}

// maxReference is the longest character reference escapeAt reads:
// "&#x0007E;".
const maxReference = 10

// htmlReference decodes the character reference ref starts with.
func htmlReference(ref []byte) (byte, int) {
	end := bytes.IndexByte(ref, ';')
	if end < 2 {
		return 0, 0
	}
	name := ref[1:end]
	if name[0] != '#' {
		for _, r := range htmlNamed {
			if string(name) == r.name {
				return r.b, end + 1
			}
		}
		return 0, 0
	}
	digits, base := name[1:], 10
	if len(digits) > 0 && (digits[0] == 'x' || digits[0] == 'X') {
		digits, base = digits[1:], 16
	}
	v := 0
	for _, c := range digits {
		d := int(hexVal(c))
		if !isHexDigit(c) || d >= base {
			return 0, 0
		}
		v = v*base + d
	}
	if len(digits) == 0 || v > 0x7e {
		return 0, 0
	}
	return byte(v), end + 1
}

// htmlNamed are the named references escapeAt decodes: those HTML and XML
// use for the characters around a value.
var htmlNamed = [...]struct {
	name string
	b    byte
}{{"quot", '"'}, {"apos", '\''}, {"lt", '<'}, {"gt", '>'}, {"amp", '&'}}

// decodeEscapedToken decodes the escapes of text[s:e], run by run; a run
// that decodes to anything but printable ASCII stays as it is. While the
// pass has fine runs left its runs map back one by one, else the token
// maps back whole. The token's kind is "html" when it holds a character
// reference, else "percent".
func (p *pass) decodeEscapedToken(text []byte, s, e int) (segment, bool) {
	sg := segment{start: int32(s), end: int32(e), dec: int32(len(p.buf)), runFrom: int32(len(p.runs)), kind: "percent"}
	pos := s
	for pos < e {
		if !isEscape(text, pos, e) {
			pos++
			continue
		}
		rs, at := pos, len(p.buf)
		ok := true
		for pos < e {
			b, n := escapeAt(text, pos, e)
			if n == 0 {
				break
			}
			if text[pos] == '&' {
				sg.kind = "html"
			}
			ok = ok && printableASCII(b)
			p.buf = append(p.buf, b)
			pos += n
		}
		if !ok {
			p.buf = p.buf[:at]
			continue
		}
		p.runs = append(p.runs, escapeRun{int32(rs), int32(pos), int32(len(p.buf) - at)})
	}
	runs := p.runs[sg.runFrom:]
	if len(runs) == 0 {
		return sg, false
	}
	sg.decEnd, sg.runTo = int32(len(p.buf)), int32(len(p.runs))
	if p.fine >= len(runs) {
		p.fine -= len(runs)
		return sg, true
	}
	// The token decodes whole: its text with the runs decoded.
	whole := make([]byte, 0, e-s)
	pos, at := s, sg.dec
	for _, r := range runs {
		whole = append(whole, text[pos:r.start]...)
		whole = append(whole, p.buf[at:at+r.n]...)
		at += r.n
		pos = int(r.end)
	}
	whole = append(whole, text[pos:e]...)
	p.buf, p.runs = append(p.buf[:sg.dec], whole...), p.runs[:sg.runFrom]
	sg.decEnd, sg.runTo = int32(len(p.buf)), sg.runFrom
	return sg, true
}

// findRuns appends to segs the runs of base64 or hex in text[lo:hi] that
// decode to printable ASCII.
func (p *pass) findRuns(text []byte, lo, hi int, emit func(segment)) {
	i := lo
	for i < hi {
		if !base64Byte(text[i]) {
			i++
			continue
		}
		s := i
		for i < hi && base64Byte(text[i]) {
			i++
		}
		e := i
		for i < hi && i-e < 3 && text[i] == '=' {
			i++
		}
		if e-s < minBase64Run || afterBasic(text[lo:s]) {
			continue
		}
		at := len(p.buf)
		if end, kind, ok := p.wrappedRun(text, s, e, i, hi); ok {
			emit(segment{start: int32(s), end: int32(end), dec: int32(at), decEnd: int32(len(p.buf)), kind: kind})
			i = end
			continue
		}
		var ok bool
		kind, end := "base64", i
		if allHex(text[s:e]) && e-s >= minHexRun {
			p.buf, ok = appendHexRun(p.buf, text[s:e])
			kind, end = "hex", e
		} else {
			p.buf, ok = appendBase64Run(p.buf, text[s:e], i-e, true)
		}
		if ok {
			emit(segment{start: int32(s), end: int32(end), dec: int32(at), decEnd: int32(len(p.buf)), kind: kind})
		} else {
			p.buf = p.buf[:at]
		}
	}
}

// afterBasic reports whether before ends in the Basic scheme's name and
// blanks: its credential is read by the rules that know it is base64
// (a user and a password), which report what it decodes to, and drop
// what decodes to no pair ("Basic dGhpc2lz…"), where its text decoded
// would read as a credential written plainly.
func afterBasic(before []byte) bool {
	b := bytes.TrimRight(before, " \t")
	if len(b) == len(before) || len(b) < 5 {
		return false
	}
	return bytes.EqualFold(b[len(b)-5:], []byte("basic")) && (len(b) == 5 || !isAlnumByte(b[len(b)-6]))
}

// minWrapped is the shortest line of a run wrapped over lines: the base64
// command wraps at 76, PEM and OpenSSL at 64, xxd -p at 60.
const minWrapped = 40

// wrappedRun decodes, into the pass's buffer, the run text[s:e] (pads
// to pe) continued on the lines below it, as base64 and hex dumps wrap:
// each line blanks and a run of the first's length, the last no longer
// and it alone padded. Lines decode one by one (a wrapped line is whole
// groups of four, or two), and the block ends before the first that
// does not decode to printable ASCII, so no line is read twice. It
// returns where the block ends and its encoding; not ok when fewer than
// two lines decode.
func (p *pass) wrappedRun(text []byte, s, e, pe, hi int) (end int, kind string, ok bool) {
	w := e - s
	hex := allHex(text[s:e])
	if w < minWrapped || pe != e || hex && w%2 != 0 || !hex && w%4 != 0 || !lineEndAt(text, e, hi) {
		return 0, "", false
	}
	kind = "base64"
	if hex {
		kind = "hex"
	}
	decode := func(run []byte, pads int) bool {
		var ok bool
		if hex {
			p.buf, ok = appendHexRun(p.buf, run)
		} else {
			p.buf, ok = appendBase64Run(p.buf, run, pads, false) // a line may cut a character in two
		}
		return ok
	}
	at := len(p.buf)
	if !decode(text[s:e], 0) {
		p.buf = p.buf[:at]
		return 0, "", false
	}
	lines, end := 1, e
	for {
		// the next line: blanks, a run, its pads, its end
		k := end
		if k < hi && text[k] == '\r' {
			k++
		}
		k++ // the newline lineEndAt saw
		for k < hi && (text[k] == ' ' || text[k] == '\t') {
			k++
		}
		rs := k
		for k < hi && base64Byte(text[k]) && (!hex || isHexDigit(text[k])) && k-rs <= w {
			k++
		}
		re := k
		for k < hi && k-re < 3 && text[k] == '=' {
			k++
		}
		n := re - rs
		if n == 0 || n > w || !lineEndAt(text, k, hi) || k > re && hex {
			break
		}
		mark := len(p.buf)
		if !decode(text[rs:re], k-re) {
			p.buf = p.buf[:mark]
			break
		}
		lines, end = lines+1, k
		if n < w || k > re {
			break // the last line
		}
	}
	if lines < 2 {
		p.buf = p.buf[:at]
		return 0, "", false
	}
	return end, kind, true
}

// lineEndAt reports whether text[k:] starts a line's end, or the text's.
func lineEndAt(text []byte, k, hi int) bool {
	return k >= hi || text[k] == '\n' || text[k] == '\r' && k+1 < hi && text[k+1] == '\n'
}

func base64Byte(c byte) bool { return base64Bytes[c] }

// base64Bytes holds the bytes of both base64 alphabets: every byte of
// every scanned file is looked up in it.
var base64Bytes = func() (t [256]bool) {
	for _, c := range []byte("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_") {
		t[c] = true
	}
	return t
}()

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func hexVal(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// printableASCII reports whether b is a byte of printable text: tab to
// carriage return, and space to '~'.
func printableASCII(b byte) bool { return b >= '\t' && b <= '~' && (b <= '\r' || b >= ' ') }

func allPrintable(b []byte) bool {
	for _, c := range b {
		if !printableASCII(c) {
			return false
		}
	}
	return true
}

// appendHexRun appends to dst an even run of hex digits holding a digit
// (a run of letters a-f is a word) decoded, if it decodes to printable
// ASCII.
func appendHexRun(dst, run []byte) ([]byte, bool) {
	if len(run)%2 != 0 || bytes.IndexAny(run, "0123456789") < 0 {
		return dst, false
	}
	for i := 0; i < len(run); i += 2 {
		b := hexVal(run[i])<<4 | hexVal(run[i+1])
		if !printableASCII(b) {
			return dst, false
		}
		dst = append(dst, b)
	}
	return dst, true
}

// appendBase64Run appends to dst a run of base64 followed by pads '='
// decoded, if it decodes to printable ASCII (or, with utf16, to printable
// ASCII in UTF-16LE, appended as ASCII): standard or URL alphabet,
// not both, padded right or not at all, holding a digit, a symbol or a
// pad (a run of letters alone is a word; base64 of text holds no digit
// more often than a random run does).
func appendBase64Run(dst, run []byte, pads int, utf16 bool) ([]byte, bool) {
	std := bytes.IndexAny(run, "+/") >= 0
	url := bytes.IndexAny(run, "-_") >= 0
	if std && url || !std && !url && pads == 0 && bytes.IndexAny(run, "0123456789") < 0 {
		return dst, false
	}
	if len(run)%4 == 1 || pads > 0 && (len(run)+pads)%4 != 0 {
		return dst, false
	}
	enc := base64.RawStdEncoding
	if url {
		enc = base64.RawURLEncoding
	}
	// Most runs are not encoded text: their first bytes say so before
	// the rest is decoded.
	var head [3]byte
	n, err := enc.Decode(head[:], run[:4])
	if err != nil || !allPrintable(head[:n]) && !(utf16 && n == 3 && utf16Text(head[:2]) && printableASCII(head[2])) {
		return dst, false
	}
	at := len(dst)
	dst = slices.Grow(dst, enc.DecodedLen(len(run)))
	n, err = enc.Decode(dst[at:at+enc.DecodedLen(len(run))], run)
	dec := dst[at : at+n]
	switch {
	case err != nil:
	case allPrintable(dec):
		return dst[:at+n], true
	case utf16 && utf16Text(dec):
		// UTF-16LE, as PowerShell's -EncodedCommand and .NET's
		// Encoding.Unicode write text: its ASCII, one byte a character
		for i := 0; i < n/2; i++ {
			dec[i] = dec[2*i]
		}
		return dst[:at+n/2], true
	}
	return dst[:at], false
}

// utf16Text reports whether b is printable ASCII written as UTF-16LE:
// pairs of a printable byte and a zero.
func utf16Text(b []byte) bool {
	if len(b)%2 != 0 {
		return false
	}
	for i := 0; i < len(b); i += 2 {
		if !printableASCII(b[i]) || b[i+1] != 0 {
			return false
		}
	}
	return true
}
