package secrets

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"math/bits"
	"slices"
	"strings"
	"sync"
)

// IsPlaceholder reports whether a matched value is an obvious placeholder or
// an already-redacted value rather than a secret. Every rule applies it,
// the same way, to the value it would report:
//
//   - masked or elided: it holds "**", "##", "..." or "\u2026";
//   - a template or a reference: a <...> part (also as &lt;...&gt;),
//     ${...}, #{...}, {{...}}, $(...), a $VAR or a %VAR%;
//   - "my" and capitalised words, or words joined by "_" or "-", or
//     the one word that names the value: myPassword, myServerName,
//     my_password, my-api-key, mypassword, mytoken;
//   - a format string's field: {password}, {webhook.token};
//   - two symbols only, eight or more times: 00x0xx0x, xx00xx00;
//   - a placeholder word: "example", "placeholder", "redacted", "changeme",
//     "dummy", "xxxx", "your_key" and the like (placeholderWords), or one of
//     placeholderWholeWords as a whole word ("TokenHere", "my-fake-key");
//   - a stand-in: words that name a value, one of them a test's mark
//     ("mock-token", "test-api-key"), except in base64 (a Secret's data);
//   - a made-up sequence: six or more consecutive letters or digits in
//     order or in reverse ("abcdef", "123456", "zyxwvu"), "1a2b3c" or
//     "a1b2c3" interleaved, or one character six times in a row;
//   - the example UUID everybody copies, 550e8400-e29b-41d4-a716-4466554400xx;
//   - the mark a tool writes where it hid the value, a word in square
//     brackets: GitLab's [MASKED], Rails' [FILTERED], Sentry's [Filtered].
//
// A random token holds such a sequence with a probability of about one in
// a million per position for base62 text (one in a hundred thousand for
// hex), which is the price of not reporting the samples people type.
func IsPlaceholder(v []byte) bool { return isPlaceholder(v, true) }

// isPlaceholder is IsPlaceholder; withStandIns is false for a value
// decoded from base64, which a Secret's data holds whatever it is: there
// "test123" is the password the manifest sets, not a document's sample.
func isPlaceholder(v []byte, withStandIns bool) bool {
	// The marks the first tests look for, one pass over v first: most
	// values (random tokens) hold none, and a line dense with candidates
	// paid a dozen passes each.
	if string(v) == `""` || string(v) == "''" {
		return true // an empty value, quoted
	}
	if redactionMark(v) {
		return true
	}
	marked := false
	for _, c := range v {
		if placeholderMarks[c] {
			marked = true
			break
		}
	}
	if marked && placeholderMarked(v) {
		return true
	}
	if bytes.HasPrefix(v, []byte("my")) && myNameRE.Match(v) {
		return true // myPassword, myServerName: the documentation's stand-in
	}
	if fewSymbols(v) {
		return true // 0000x0x0xx00, xx00xx00: a mask, not a value
	}
	var buf [128]byte
	l := buf[:0]
	if len(v) > len(buf) {
		l = make([]byte, len(v)) // once, not doubling up to a PEM block's size
	} else {
		l = buf[:len(v)]
	}
	for i, c := range v { // by index: an append a byte cost a PEM block 3 ns a byte
		l[i] = lower(c)
	}
	if placeholderWordIn(l, v) {
		return true
	}
	if withStandIns && len(l) > 2 && l[0] == 'm' && l[1] == 'y' && standInWords[string(l[2:])] {
		return true // mypassword: myPassword, written in lower case (a Secret's data may set it)
	}
	if madeUpSequence(l) {
		return true
	}
	if bytes.HasPrefix(l, []byte("550e8400-e29b-41d4-a716-4466554400")) {
		return true // the UUID every reader of RFC 4122 and Wikipedia copies as an example
	}
	if upperNouns[string(v)] {
		return true // PASSWORD, TOKEN: the name of the value stands in for it
	}
	if instructionCaps(v) {
		return true // REPLACE_IN_CLUSTER, SET_BY_VAULT: what to do, not a value
	}
	if anyWordAmongWords(v, placeholderWholeWords, placeholderWholeShape) {
		return true // "your-api-key-here", not a token's chance "…iFOoB…"
	}
	if withStandIns && (standIn(l) || fakeBody(l)) {
		return true
	}
	return placeholderInBase64(v)
}

// standInWords name a value ("secret", "token"), or say it is one for
// tests ("test", "mock"; testMarks).
var standInWords = map[string]bool{
	"test": true, "tests": true, "testing": true, "mock": true, "mocked": true, "fake": true, "dummy": true,
	"demo": true, "sample": true, "fixture": true, "stub": true, "only": true,
	"secret": true, "password": true, "passwd": true, "pass": true, "pwd": true, "token": true,
	"key": true, "api": true, "apikey": true, "auth": true, "access": true, "credential": true, "credentials": true,
}

// standInWordsAt holds standInWords by their first byte, the longest
// first: fakeBody asks at each word of a body which is the longest that
// starts there, and a walk of the map per candidate was a few percent of
// a scan of a tree of secrets.
var standInWordsAt = func() (at [256][]string) {
	for w := range standInWords {
		at[w[0]] = append(at[w[0]], w)
	}
	for _, ws := range at {
		slices.SortFunc(ws, func(a, b string) int { return cmp.Or(len(b)-len(a), strings.Compare(a, b)) })
	}
	return at
}()

var testMarks = map[string]bool{"test": true, "tests": true, "testing": true, "mock": true, "mocked": true,
	"fake": true, "dummy": true, "demo": true, "sample": true, "fixture": true, "stub": true}

// standIn reports whether the lower-cased value l stands in for a secret:
// two or more standInWords, one of them a test's mark, and at most six
// digits between separators ("mock-token", "test-api-key",
// "testing-only"). A weak password ("test123", "Secret123") is one mark
// or one name and digits: it may be a real one.
func standIn(l []byte) bool {
	if len(l) > 40 {
		return false
	}
	words, digits, marked := 0, 0, false
	for i := 0; i < len(l); {
		switch c := l[i]; {
		case 'a' <= c && c <= 'z':
			j := i
			for j < len(l) && 'a' <= l[j] && l[j] <= 'z' {
				j++
			}
			w := string(l[i:j])
			if !standInWords[w] {
				return false
			}
			words++
			marked = marked || testMarks[w]
			i = j
		case '0' <= c && c <= '9':
			digits++
			i++
		case c == '-' || c == '_' || c == '.':
			i++
		default:
			return false
		}
	}
	return marked && words >= 2 && digits <= 6
}

// placeholderMarks are the bytes placeholderMarked's tests need, one of
// them at least: "*#.<&$%{" and the first byte of "…".
var placeholderMarks = func() (m [256]bool) {
	for _, c := range []byte("*#.<&$%{\xe2") {
		m[c] = true
	}
	return m
}()

// placeholderMarked holds IsPlaceholder's tests of marks: ** ## ... …,
// <...>, template and variable references, %VAR%, {field}.
func placeholderMarked(v []byte) bool {
	if bytes.Contains(v, []byte("**")) || bytes.Contains(v, []byte("##")) || bytes.Contains(v, []byte("...")) || bytes.Contains(v, []byte("\u2026")) {
		return true
	}
	if i := bytes.IndexByte(v, '<'); i >= 0 && bytes.IndexByte(v[i:], '>') > 0 {
		return true
	}
	if i := bytes.Index(v, []byte("&lt;")); i >= 0 && bytes.Contains(v[i:], []byte("&gt;")) {
		return true // <...> escaped for HTML or XML
	}
	if bytes.Contains(v, []byte("${")) || bytes.Contains(v, []byte("{{")) || bytes.Contains(v, []byte("$(")) || bytes.Contains(v, []byte("#{")) {
		return true
	}
	if len(v) > 1 && v[0] == '$' && (v[1] == '_' || 'A' <= v[1] && v[1] <= 'Z' || 'a' <= v[1] && v[1] <= 'z') {
		return true
	}
	if len(v) > 2 && v[0] == '%' && v[len(v)-1] == '%' && envRefRE.Match(v[1:len(v)-1]) {
		return true // %DB_PASSWORD%: a Windows environment variable
	}
	if formatVerbRE.Match(v) {
		return true // %s, %v, {}, {0}: a format string's slot, filled at run time
	}
	return braceRefRE.Match(v) // {password}, {webhook.token}: a format string's field
}

// upperNouns, written in capitals as the whole value, name what should be
// there.
var upperNouns = map[string]bool{"PASSWORD": true, "PASSWD": true, "PASS": true, "PWD": true, "SECRET": true, "TOKEN": true, "APIKEY": true, "API_KEY": true, "KEY": true}

// instructionVerbs open a value written in capitals that says what to
// put there ("REPLACE_IN_CLUSTER", "SET-FROM-VAULT", "FILL_ME_IN").
var instructionVerbs = map[string]bool{"REPLACE": true, "CHANGE": true, "SET": true, "FILL": true, "INSERT": true,
	"PROVIDE": true, "ENTER": true, "UPDATE": true, "SUPPLY": true, "INJECT": true, "INJECTED": true, "ADD": true, "PUT": true}

// instructionObjects, second after the verb, say where the value comes
// from or who puts it ("FILL_ME_IN", "SET_BY_EXTERNAL_SECRETS").
var instructionObjects = map[string]bool{"ME": true, "IN": true, "HERE": true, "BY": true, "FROM": true, "AT": true,
	"YOUR": true, "THE": true, "VIA": true, "ON": true, "TO": true, "WITH": true, "LATER": true, "REAL": true}

// instructionCaps: v is two or more words of capital letters joined by
// "_" or "-", no digits, the first an instruction verb and the second
// saying where from, or at most two words after the verb. A password in
// capitals has digits or symbols, does not start with an order, or is a
// passphrase of several words that happens to (ADD-FALCON-MARBLE-ORBIT).
func instructionCaps(v []byte) bool {
	if len(v) < 6 || len(v) > 64 || v[0] < 'A' || v[0] > 'Z' {
		return false
	}
	first, second, words := -1, -1, 1
	for i, c := range v {
		switch {
		case 'A' <= c && c <= 'Z':
		case c == '_' || c == '-':
			if first < 0 {
				first = i
			} else if second < 0 {
				second = i
			}
			words++
			if i+1 == len(v) || v[i+1] == '_' || v[i+1] == '-' {
				return false
			}
		default:
			return false
		}
	}
	if first <= 0 || !instructionVerbs[string(v[:first])] {
		return false
	}
	if second < 0 {
		second = len(v)
	}
	return words <= 3 || instructionObjects[string(v[first+1:second])]
}

var (
	myNameRE = lazyRE.New(`^my(?:(?:[A-Z][a-z]+){1,4}|(?:[_-][a-z]+){1,4})$`)
	// A field name: letters (no digits: {ZqL5kVrX1n8tA2} is a value in
	// braces) or an upper-case variable name.
	braceRefRE = lazyRE.New(`\{[ \t]*(?:[A-Za-z_][A-Za-z_.-]+|[A-Z][A-Z0-9_]+)[ \t]*\}`)
	envRefRE   = lazyRE.New(`^[A-Za-z_][A-Za-z0-9_]*$`)
	// A printf verb or a positional brace field, alone: the whole value.
	// The quotes and escapes a format string closes with may follow
	// ("%s\n'").
	formatVerbRE = lazyRE.New(`^(?:%[-+# 0]*[0-9]*(?:\.[0-9]+)?[sdvqxXf]|\{[0-9]*\})(?:\\[nrt]|["'])*$`)
)

// holdsPlaceholderWord reports whether l holds one of placeholderWords,
// trying at each byte only the words that begin with it and go on with
// the byte after it: in base64 most letters begin a word, and a PEM
// block tried a word at nearly every byte.
func holdsPlaceholderWord(l []byte) bool { return placeholderWordIn(l, nil) }

// placeholderWordIn is holdsPlaceholderWord of l, the lowered v; with v,
// "xxxx" that random text around it makes a chance ("XXxx" in the body
// of a private key, one key in 600) is passed over (randomAroundWord), as
// a stop word is, but for a run of six x's or more, which chance does
// not write. The other words are five letters or more, which chance does
// not spell either, and stay wherever they are: AWS's documented example
// key ends "…bPxRfiCYEXAMPLEKEY" among random letters.
func placeholderWordIn(l, v []byte) bool {
	first, second := placeholderWordIndex()
	for i := 0; i+1 < len(l); i++ { // every word is two bytes or more
		for m := first[l[i]] & second[l[i+1]]; m != 0; m &= m - 1 {
			w := placeholderWordBytes[bits.TrailingZeros64(m)]
			if !bytes.HasPrefix(l[i:], w) {
				continue
			}
			if v == nil || string(w) != "xxxx" || xRun(l[i:]) >= 6 || !randomAroundWord(v, i, i+len(w)) {
				return true
			}
		}
	}
	return false
}

// xRun is the length of the run of x's l starts with.
func xRun(l []byte) int {
	n := 0
	for n < len(l) && l[n] == 'x' {
		n++
	}
	return n
}

// placeholderWordIndex maps a byte to the set of placeholderWords that begin
// with it, and to the set whose second byte it is. Its panics are for
// whoever edits placeholderWords: TestPlaceholderWordsSame trips them.
var placeholderWordIndex = sync.OnceValues(func() (*[256]uint64, *[256]uint64) {
	var first, second [256]uint64
	if len(placeholderWords) > 64 {
		panic("secrets: more than 64 placeholder words")
	}
	for i, w := range placeholderWords {
		if len(w) < 2 {
			panic("secrets: a placeholder word of one byte")
		}
		first[w[0]] |= 1 << i
		second[w[1]] |= 1 << i
	}
	return &first, &second
})

var placeholderWordBytes = func() [][]byte {
	var out [][]byte
	for _, w := range placeholderWords {
		out = append(out, []byte(w))
	}
	return out
}()

var placeholderWords = []string{
	"example", "placeholder", "redacted", "changeme", "change_me", "change-me",
	"replace_me", "replace-me", "replaceme", "xxxx", "your_", "your-", "yourkey",
	"yourtoken", "yoursecret", "yourpassword", "dummy", "sample_", "notarealkey",
	"not-a-real", "not_a_real", "notreal", "randomstring", "tokenhere", "keyhere",
	"secrethere", "passwordhere", "insert_", "insert-",
}

// placeholderWholeWords are placeholders only as whole words of a value
// (see valueWords): as substrings they occur in real tokens.
var placeholderWholeWords = map[string]bool{
	"here": true, "your": true, "fake": true, "insert": true, "foo": true,
	"foobar": true, "lorem": true, "ipsum": true, "todo": true, "fixme": true,
	"sample": true, "test": false,
}

var placeholderWholeShape = shapeOf(placeholderWholeWords)

// madeUpSequence reports whether the lower-cased value is typed rather
// than random: runs of four or more consecutive letters or digits in
// order or in reverse ("abcd", "4321"), of one character repeated, or of
// "1a2b"/"a1b2" pairs cover at least half of it, or one such ordered run
// is eight long ("12345678", "zyxwvuts"). Random base64 rarely holds such
// runs, and the leading "AAAA" of base64 of zero bytes is not half of a
// real token.
func madeUpSequence(l []byte) bool {
	if len(l) < 8 {
		return false
	}
	// covered marks, a bit a byte, what the runs cover: on the stack up
	// to 2 KB, a PEM block's size (cleared at every call: most values
	// are short).
	var buf [32]uint64
	var covered []uint64
	if n := (len(l) + 63) / 64; n <= len(buf) {
		covered = buf[:n]
	} else {
		covered = make([]uint64, n)
	}
	mark := func(from, to int) { markBits(covered, from, to) }
	// Ordered and repeated runs, of the three kinds in one pass: up, down
	// and repeated, each run ended where its kind breaks.
	up, down, same := 0, 0, 0 // where each kind's current run starts
	for i := 1; i <= len(l); i++ {
		okUp, okDown, okSame := false, false, false
		if i < len(l) {
			a, b := l[i-1], l[i]
			if k := alnumKind[a]; k != 0 && k == alnumKind[b] {
				okUp, okDown = b == a+1, a == b+1
			}
			okSame = a == b
		}
		if !okUp {
			if n := i - up; n >= 8 {
				return true
			} else if n >= 4 {
				mark(up, i)
			}
			up = i
		}
		if !okDown {
			if n := i - down; n >= 8 {
				return true
			} else if n >= 4 {
				mark(down, i)
			}
			down = i
		}
		if !okSame {
			if i-same >= 4 {
				mark(same, i)
			}
			same = i
		}
	}
	// Interleaved pairs: x0 y0 x1 y1 ... with x and y each counting up.
	for i := 0; i+4 <= len(l); i++ {
		x, y := l[i], l[i+1]
		if kx, ky := alnumKind[x], alnumKind[y]; kx == 0 || ky == 0 || kx == ky {
			continue
		}
		j := i + 2
		for j+1 < len(l) && l[j] == l[j-2]+1 && l[j+1] == l[j-1]+1 {
			j += 2
		}
		if j-i >= 6 {
			mark(i, j)
		}
	}
	if stepLetters(l) {
		return true
	}
	n := 0
	for _, w := range covered {
		n += bits.OnesCount64(w)
	}
	return 2*n >= len(l)
}

// markBits sets bits [from, to) of covered.
func markBits(covered []uint64, from, to int) {
	for k := from; k < to; k++ {
		covered[k/64] |= 1 << (k % 64)
	}
}

// fewSymbols reports whether a value of eight or more letters and digits
// uses at most two of them, case aside: no token is made of two symbols.
func fewSymbols(v []byte) bool {
	var a, b byte
	n := 0
	for _, c := range v {
		c = lower(c)
		if !isAlnumLower(c) {
			continue
		}
		n++
		switch {
		case a == 0 || c == a:
			a = c
		case b == 0 || c == b:
			b = c
		default:
			return false
		}
	}
	return n >= 8
}

// alnumKind is 1 for a lower-case ASCII letter, 2 for a digit, 0 for
// any other byte: madeUpSequence's test of two bytes, a load each.
var alnumKind = func() (k [256]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		k[c] = 1
	}
	for c := '0'; c <= '9'; c++ {
		k[c] = 2
	}
	return k
}()

func isAlnumLower(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }

func isDigitByte(c byte) bool { return '0' <= c && c <= '9' }

// stepLetters reports whether the letters of the value, read apart from
// its digits and separators, mostly step by one through the alphabet
// ("a1b2c3d4-e5f6-g7h8", "d4c3b2a1-f6e5-h8g7"): at least twelve letters,
// three steps in five up or down by one, some step past f (the letters of
// hex, a-f, step by one one time in four). A random
// token's letters step by one about one time in thirteen.
func stepLetters(l []byte) bool {
	var prev byte
	n, steps, beyondHex := 0, 0, false
	for _, c := range l {
		if c < 'a' || c > 'z' {
			continue
		}
		if n > 0 && (c == prev+1 || c+1 == prev) {
			steps++
			// a hex body's letters step by one one time in four
			beyondHex = beyondHex || c > 'f' || prev > 'f'
		}
		prev = c
		n++
	}
	return n >= 12 && beyondHex && 5*steps >= 3*(n-1)
}

// placeholderInBase64: v is base64 of printable text that is a
// placeholder (a Secret's data: base64 of "$API_TOKEN" or "changeme").
func placeholderInBase64(v []byte) bool {
	if len(v) < 8 || len(v)%4 != 0 {
		return false
	}
	dec, err := base64.StdEncoding.DecodeString(string(v))
	return err == nil && placeholderDecoded(dec)
}

// placeholderDecoded: decoded base64 is one printable value, not a
// document (a .dockercfg's JSON may name example.com beside a real
// auth), and that value is a placeholder.
func placeholderDecoded(dec []byte) bool {
	dec = bytes.TrimSpace(dec)
	if len(dec) == 0 || len(dec) > 512 {
		return false
	}
	for _, b := range dec {
		if b < 0x20 || b > 0x7e || b == '"' {
			return false
		}
	}
	return isPlaceholder(dec, false) || standsForSecret(dec)
}

// sampleURLPassword reports whether ctx[ss:se] is the password of a URL's
// userinfo that only names itself ("password", "secret") on a host that
// stands in for one (localhost, 127.0.0.1, example.com, db.example):
// postgres://user:password@localhost/mydb is a document's sample.
func sampleURLPassword(ctx []byte, ss, se int) bool {
	if ss == 0 || ctx[ss-1] != ':' || se >= len(ctx) || ctx[se] != '@' || se-ss > 16 {
		return false
	}
	// postgres://postgres:postgres@localhost: an image's default on a
	// stand-in host; on a real one (prod-db.corp.internal, 10.2.3.4) the
	// same pair is a credential that opens it
	if !urlUserRepeated(ctx, ss, se) && !passwordNonValues[strings.ToLower(string(ctx[ss:se]))] {
		return false
	}
	host := ctx[se+1:]
	if i := bytes.IndexAny(host, ":/?#\"'` \t\r\n)]>"); i >= 0 {
		host = host[:i]
	}
	h := strings.ToLower(string(host))
	return h == "localhost" || h == "host" || h == "hostname" || h == "[::1]" || strings.HasPrefix(h, "127.") ||
		strings.HasSuffix(h, ".localhost") || strings.HasSuffix(h, ".example") || strings.HasSuffix(h, ".test") ||
		h == "example.com" || h == "example.org" || h == "example.net" || strings.HasSuffix(h, ".example.com") ||
		strings.HasSuffix(h, ".example.org") || strings.HasSuffix(h, ".example.net")
}

// urlUserRepeated reports whether ctx[ss:se], the password of a URL's
// userinfo, repeats the user name before it (scheme://user:user@host):
// an image's default account on a stand-in host (sampleURLPassword), which
// url-credentials does not report either, whichever rule reads the URL.
func urlUserRepeated(ctx []byte, ss, se int) bool {
	u := ss - 1 // the ':'
	for u > 0 && ctx[u-1] != '/' && ctx[u-1] != ':' && ctx[u-1] != '@' && !isSpaceOrQuote(ctx[u-1]) {
		u--
	}
	return u >= 2 && ctx[u-1] == '/' && ctx[u-2] == '/' && bytes.Equal(ctx[u:ss-1], ctx[ss:se])
}

func isSpaceOrQuote(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '"' || c == '\'' || c == '`'
}

// redactionMark reports whether v is a word (or words) of letters in
// square brackets, the whole value: what a CI system or a framework's
// log filter writes in a value's place ([MASKED], [FILTERED], [REDACTED],
// [hidden secret]). A drawn value holds no such shape.
func redactionMark(v []byte) bool {
	if len(v) < 5 || v[0] != '[' || v[len(v)-1] != ']' {
		return false
	}
	for _, c := range v[1 : len(v)-1] {
		if !isLetterByte(c) && c != ' ' && c != '_' && c != '-' {
			return false
		}
	}
	return true
}
