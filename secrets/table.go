package secrets

import (
	"bytes"
	"regexp"
	"strings"
	"unicode/utf8"
)

// RuleTableSecret reports a value in a markdown table whose column header
// names a secret:
//
//	| env | owner | mailgun api key |
//	|-----|-------|-----------------|
//	| dev | ops   | `key-235a…`     |
//
// A reader takes the header as the name of every value below it, as an
// assignment's key names its value; the rules that need a name on the
// value's own line see none there.
const RuleTableSecret = "table-secret"

const (
	// tableLineMax bounds a table line: a longer one is not a row, and no
	// look-back for a line's start reads further.
	tableLineMax = 1 << 10
	// tableReach is how far below its header a row is read, and how far
	// a row looks up for its header. Rows are read once each (tableMemo),
	// so the reach costs nothing per row: at 16 KB a table's rows past the
	// 550th went unread; a table of over a megabyte is past this one.
	tableReach = 1 << 20
	// tableGateReach is how near a keyword its cell's pipe is looked for.
	tableGateReach = 96
)

func tableSecretRule() *Rule {
	return &Rule{
		ID:          RuleTableSecret,
		Description: "value in a markdown table cell whose column header or row name names a password, secret, token or API key",
		// A cell's value, from the pipe that opens it. The closing pipe
		// is not consumed, so that the next cell can match;
		// validTableSecret reads it.
		builtinRE: builtinExpr("\\|[ \\t]*[\x60'\"]?(?P<secret>[^\\s|\x60'\"]{8,200})"),
		MinLen:    8,
		Keywords: append([]string{"password", "passwd", "secret", "token", "api key", "api_key", "apikey", "access key", "credential", "key",
			// the abbreviations an inventory's header writes (| IP | ID | PW |)
			"pw", "pwd", "p/w"},
			// other languages' headers (localizedSecretHeader)
			localizedHeaderKeywords...),
		Gate:     tableHeaderGate,
		Before:   tableReach,
		After:    tableReach,
		Validate: validTableSecret,
		// the row's line, and a byte before the look back for its start
		// (lineStart), so that a line longer than tableLineMax is still
		// none
		validReach: tableLineMax + 1,
		Path:       proseFiles,
	}
}

// proseFiles are the files people write prose and tables in: markdown and
// other text formats, files without an extension (README, NOTES), and
// logs, where chats are exported (IRC, Slack, Teams saved as text) and
// terminal sessions kept (script(1)). Source code is full of "key:" and
// "||", and states its secrets as assignments, which the other rules
// read.
var proseFiles = regexp.MustCompile(`(?i)(?:\.(?:` + strings.Join(proseExtensions, "|") + `)|(?:^|/)[^./]+)$`)

var proseExtensions = []string{"md", "markdown", "mdx", "mdown", "mkd", "txt", "text", "rst", "adoc", "asciidoc", "org", "wiki", "textile", "log"}

// isProseFile is proseFiles.MatchString(path), read from the path's end
// where it is ASCII: a scan asks it of every file that wakes a prose
// rule, and the expression, anchored only at its end, was tried at every
// byte of the path (3 µs a file, 5 % of a scan of many small files). A
// path with other bytes (a Kelvin sign is a k to (?i)) goes to the
// expression.
func isProseFile(path string) bool {
	for i := 0; i < len(path); i++ {
		if path[i] >= utf8.RuneSelf {
			return proseFiles.MatchString(path)
		}
	}
	if dot := strings.LastIndexByte(path, '.'); dot >= 0 {
		ext := path[dot+1:]
		for _, e := range proseExtensions {
			if strings.EqualFold(ext, e) {
				return true
			}
		}
	}
	base := path[strings.LastIndexByte(path, '/')+1:]
	return base != "" && strings.IndexByte(base, '.') < 0
}

// tableHeaderGate passes a keyword with a pipe within tableGateReach of
// it on its line: a table's header (its column names a secret) or row
// (its first cell does: "| Signing key | `…` |"). validTableSecret
// judges the table; the gate's look is bounded, so a line dense with
// keywords costs each hit a few bytes.
func tableHeaderGate(data []byte, i int) bool {
	lo, hi := max(0, i-tableGateReach), min(len(data), i+tableGateReach)
	return bytes.IndexByte(data[lo:hi], '|') >= 0
}

// lineStart returns the start of the line holding data[i], looking back at
// most tableLineMax bytes.
func lineStart(data []byte, i int) (int, bool) {
	lo := max(0, i-tableLineMax)
	if j := bytes.LastIndexByte(data[lo:i], '\n'); j >= 0 {
		return lo + j + 1, true
	}
	return 0, lo == 0
}

// pipeRow reports whether line (from its start) is a table row written
// with a leading pipe.
func pipeRow(line []byte) bool {
	line = bytes.TrimLeft(line, " \t")
	return len(line) > 0 && line[0] == '|'
}

// delimiterRow reports whether line is a table's delimiter row: pipes,
// dashes, colons and blanks, with a dash.
func delimiterRow(line []byte) bool {
	line = bytes.TrimRight(bytes.TrimLeft(line, " \t"), " \t\r")
	if len(line) < 3 || line[0] != '|' || bytes.IndexByte(line, '-') < 0 {
		return false
	}
	for _, c := range line {
		switch c {
		case '|', '-', ':', ' ', '\t':
		default:
			return false
		}
	}
	return true
}

// Column kinds, read from a table's header.
const (
	colOther  = iota
	colSecret // the header names a secret: "mailgun api key"
	colValue  // the header says its cells are the values the row names: "Value"
	colToken  // the header is "token" alone: a secret, or a word of a text (NLP)
)

// tableMemo is what a text's candidates learnt of the table rows around
// them: the stretch of rows last read, whether it is a table's body (rows
// below a delimiter row and header) and the kinds of its columns. A
// table's candidates come in order, so each row is read once, not once
// per candidate; rows outside any table are remembered too, so a text of
// pipe rows without a header costs no more.
type tableMemo struct {
	valid  bool
	from   int  // first row of the stretch (a table's first row below its delimiter)
	readTo int  // its rows are known to run unbroken up to here
	body   bool // the stretch is a table's body
	kinds  []byte
}

// tableAt returns, for the row starting at row in the memo's text, the
// kinds of its table's columns, and whether the row is in a table's body
// within tableReach of its header.
func (tm *textMemo) tableAt(row int) ([]byte, bool) { return tm.table.at(tm.data, row) }

func (t *tableMemo) at(data []byte, row int) ([]byte, bool) {
	if t.valid && row >= t.from {
		// Read on from where the rows were known to run unbroken: a
		// delimiter row on the way starts another table.
		for t.readTo < row {
			e := lineEndWithin(data, t.readTo, tableLineMax)
			line := data[t.readTo:e]
			if e >= len(data) || e-t.readTo >= tableLineMax || !pipeRow(line) || delimiterRow(line) {
				break
			}
			t.readTo = e + 1
		}
		if t.readTo >= row {
			// A row further below its header than tableReach is read as
			// one that looked up that far and found none: the same
			// answer, whatever the rows read before it.
			return t.kinds, t.body && row-t.from < tableReach
		}
	}
	t.kinds, t.from, t.body = tableAbove(data, row)
	t.valid, t.readTo = true, row
	return t.kinds, t.body
}

// tableAbove walks up from the row starting at row in data, over rows, to
// a delimiter row and the header above it. It returns the header's column
// kinds, the first row of the stretch walked (the body's first row when a
// header is found) and whether one is, within tableReach.
func tableAbove(data []byte, row int) (kinds []byte, from int, body bool) {
	ls := row
	for row-ls < tableReach && ls > 0 {
		prev, ok := lineStart(data, ls-1)
		if !ok {
			break
		}
		line := data[prev : ls-1]
		if delimiterRow(line) {
			if prev == 0 {
				return nil, ls, false
			}
			hs, ok := lineStart(data, prev-1)
			if !ok || !pipeRow(data[hs:prev-1]) {
				return nil, ls, false
			}
			return headerKinds(data[hs : prev-1]), ls, true
		}
		if !pipeRow(line) {
			break
		}
		ls = prev
	}
	return nil, ls, false
}

func validTableSecret(c Candidate) bool {
	ctx := c.Context
	// The value fills its cell: a quote closes what one opened, then
	// blanks and the next pipe.
	j := c.Offset + len(c.Secret)
	if q := ctx[c.Offset-1]; q == '`' || q == '\'' || q == '"' {
		if j >= len(ctx) || ctx[j] != q {
			return false
		}
		j++
	}
	for j < len(ctx) && (ctx[j] == ' ' || ctx[j] == '\t') {
		j++
	}
	if j >= len(ctx) || ctx[j] != '|' {
		return false
	}
	// a chosen password of words joined by '.', '-' or '_'
	// ("Pebble_bramble538") counts under a header that names a secret
	tv := tableValue(c)
	if !tv && !wordsPassword(c.Secret) && !labelledPasswordValue(c) {
		return false // no value under any name (the last: a password's row)
	}
	ls, ok := lineStart(ctx, c.MatchOffset)
	if !ok || !pipeRow(ctx[ls:]) || delimiterRow(ctx[ls:lineEndWithin(ctx, ls, tableLineMax)]) {
		return false
	}
	cells := splitCells(ctx[ls:c.MatchOffset])
	col := len(cells) // the value's cell follows those before it
	var kinds []byte
	var inBody bool
	if tm := c.memo; tm != nil {
		kinds, inBody = tm.tableAt(c.base + ls)
	} else {
		var t tableMemo
		kinds, inBody = t.at(ctx, ls)
	}
	if !inBody || col >= len(kinds) {
		return false
	}
	switch kinds[col] {
	case colSecret:
		return tv || wordsPassword(c.Secret) // the column's header names it
	case colToken:
		// "token" alone also heads the tokens of a text or a model's
		// name: only a value as random as a generated one counts.
		v := c.Secret
		return tv && isHexLower(v) && len(v) >= 32 || mixedClasses(v) && c.secretEntropy() >= 3.8
	case colValue:
		// A row that names its value: "| Bind password | … |" under
		// "| Field | Value |". A row's other cells (a date, a commit, a
		// run) are named by their own headers.
		name := bytes.Trim(cells[0], " \t*_`")
		if col > 0 && !tv && passwordRowName(name) {
			// a password's row gives its value as plainly as a field's
			// label does ("| parolă | Mamaliga_88 |", "| PSK |
			// Pampero.Sur.Viento.77 |")
			return labelledPasswordValue(c)
		}
		return tv && col > 0 && (namesSecret(name) || localizedSecretHeader(name))
	}
	return false
}

// passwordRowName reports a row's name that names a password, not any
// secret: a value under it is judged as a password's field
// (labelledPasswordValue), a token's by its randomness.
func passwordRowName(name []byte) bool {
	n := bytes.ToLower(name)
	return bytes.Contains(n, []byte("password")) || bytes.Contains(n, []byte("passphrase")) || localizedSecretHeader(name)
}

// splitCells returns the cells of a row's text up to a cell's opening
// pipe, without the row's leading pipe: "| a | b " holds "a" and "b".
// An escaped pipe (\|) is text.
func splitCells(row []byte) [][]byte {
	row = bytes.TrimLeft(row, " \t")
	if len(row) == 0 || row[0] != '|' {
		return nil
	}
	var cells [][]byte
	start := 1
	for i := 1; i < len(row); i++ {
		if row[i] == '|' && row[i-1] != '\\' {
			cells = append(cells, row[start:i])
			start = i + 1
		}
	}
	return append(cells, row[start:])
}

// tableValue judges a value named by a table or a sentence as
// generic-secret does, less strictly on its characters (a chosen password
// holds punctuation): not a URL, a path, a variable's name, words, a
// field reference, an identifier, a flag or a description ("AES-256-GCM",
// "30d-sliding-window", "v2.14.3-rc1"); digits or mixed case; random
// enough.
func tableValue(c Candidate) bool { return tableValueAbove(c, 3) }

// tableValueAbove is tableValue with minEntropy for its floor.
func tableValueAbove(c Candidate, minEntropy float64) bool {
	v := c.Secret
	switch {
	case bytes.Contains(v, []byte("://")), bytes.IndexByte(v, ':') >= 0:
		return false // a URL, a time; url-credentials reads URLs
	case looksLikePath(v), envNameRE.Match(v), wordListRE.Match(v), isPublicKey(v), memberChain(v):
		return false
	case bytes.ContainsAny(v, "()[]{}"):
		return false // code: a call, an index
	case (v[0] == '+' || v[len(v)-1] == '+' || v[0] == '-') && !quotedToken(c):
		return false // code: a concatenation ("+Mask(p)+"), a flag
	case !hasDigit(v) && !(hasUpper(v) && hasLower(v)):
		return false
	case identifierValue(v) && !bytes.ContainsAny(v, identifierNever), described(v):
		return false
	case bytes.HasPrefix(v, []byte("eyJ")) && bytes.IndexByte(v, '.') < 0:
		return false // base64 of a JSON object alone: a JWT's header, not its signature
	}
	if isHexLower(v) {
		// as for named-key-value: the digests of nothing, and hex the
		// line says is a commit, a digest or an id, are none
		return !knownDigests[string(v)] && !c.lineNamesDigest()
	}
	return c.secretEntropy() >= minEntropy
}

// quotedToken: the value is all a quote or a code span holds, 20 bytes
// or more of base64's alphabets, whose "+" and "-" a random key starts
// or ends with one time in twenty ("`+MCZY…`", "`-oZPp…`"); a flag or a
// concatenation is no such token.
func quotedToken(c Candidate) bool {
	i, j := c.Offset-1, c.Offset+len(c.Secret)
	if i < 0 || j >= len(c.Context) || c.Context[i] != c.Context[j] || strings.IndexByte("`'\"", c.Context[i]) < 0 || len(c.Secret) < 20 {
		return false
	}
	for _, b := range c.Secret {
		if !isAlnum(b) && strings.IndexByte("+/=-_", b) < 0 {
			return false
		}
	}
	return hasDigit(c.Secret) && hasLetter(c.Secret)
}

// identifierNever are bytes no name in code holds: a value with one is
// a chosen password, however its letters fall into syllables
// ("IOb?5YIXeIFruzt" reads as three words and a number).
const identifierNever = "!?#%^&*~@"

// described reports whether v is made of two or more parts between
// "-", "/", "." and "_" that are each a word, a number, a number with a
// unit or a word with a number ("32-byte-random", "RS256/JWKS",
// "kms/alias/prod-2026", "ed25519-2026"): a description or a name, where a
// random token's parts mix letters and digits many times over.
func described(v []byte) bool {
	parts := 0
	for _, p := range bytes.FieldsFunc(v, func(r rune) bool { return r == '-' || r == '/' || r == '.' || r == '_' }) {
		parts++
		if !namePart(p) {
			return false
		}
	}
	return parts >= 2
}

// namePart: at most five characters ("gpt4o", "rc1", "v2"), or letters
// then digits or digits then letters (one change of class, no number
// over six digits), at most twelve.
func namePart(p []byte) bool {
	if len(p) <= 5 {
		return true
	}
	if len(p) > 12 {
		return false
	}
	changes, digits := 0, 0
	for _, c := range p {
		if isDigitByte(c) {
			if digits++; digits > 6 {
				return false // a long number is an id's or a random token's
			}
		} else {
			digits = 0
		}
	}
	for i := 1; i < len(p); i++ {
		a, b := p[i-1], p[i]
		if !isAlnumLower(lower(a)) || !isAlnumLower(lower(b)) {
			return false
		}
		if isDigitByte(a) != isDigitByte(b) {
			changes++
		}
	}
	if changes > 1 {
		return false
	}
	// A run of letters is a word when it has a vowel and reads one case
	// or starts with a capital: "Random", "byte", "GCM"; not "kXLqZ".
	letters := bytes.TrimFunc(p, func(r rune) bool { return '0' <= r && r <= '9' })
	return len(letters) <= 4 || bytes.ContainsAny(bytes.ToLower(letters), "aeiouy") &&
		(bytes.Equal(letters, bytes.ToLower(letters)) || bytes.Equal(letters, bytes.ToUpper(letters)) ||
			bytes.Equal(letters[1:], bytes.ToLower(letters[1:])))
}

// lineEndWithin returns where the line holding data[i] ends, or i+reach
// if it ends further on.
func lineEndWithin(data []byte, i, reach int) int {
	hi := min(len(data), i+reach)
	if j := bytes.IndexByte(data[i:hi], '\n'); j >= 0 {
		return i + j
	}
	return hi
}

// lineStartWithin returns where the line holding data[i] starts, or
// i-reach if it starts further back.
func lineStartWithin(data []byte, i, reach int) int {
	lo := max(0, i-reach)
	if j := bytes.LastIndexByte(data[lo:i], '\n'); j >= 0 {
		return lo + j + 1
	}
	return lo
}

// valueHeaders name a column whose cells are the values their rows name.
var valueHeaders = map[string]bool{"value": true, "values": true,
	// Wert, valor, valeur, valore, waarde
	"wert": true, "valor": true, "valeur": true, "valore": true, "waarde": true,
	// and in the languages of prose-password-intl's nouns
	"valoare": true, "значение": true, "значення": true, "wartość": true, "hodnota": true, "érték": true, "değer": true,
	"arvo": true, "värde": true, "værdi": true, "verdi": true, "τιμή": true, "vrijednost": true, "вредност": true, "стойност": true}

// lastWord is the last of a header's words before a qualifier in
// brackets: a column of values is often named for which ones it holds
// ("Initial value", "Current value", as Postman's environments list
// them, "Default value", "Value (prod)").
func lastWord(header string) string {
	header = strings.TrimSpace(header)
	if strings.HasSuffix(header, ")") || strings.HasSuffix(header, "]") {
		if i := strings.LastIndexAny(header, "(["); i > 0 {
			header = strings.TrimSpace(header[:i])
		}
	}
	if i := strings.LastIndexAny(header, " \t"); i >= 0 {
		return header[i+1:]
	}
	return header
}

// headerKinds splits a header row into cells and judges each: a name of
// a secret (as validGeneric judges a name), a column of values, or other.
// passwordAbbreviations head a column of passwords in an inventory's or
// a runbook's table ("| IP | ID | PW |"): a header of its own, not a word
// of a name ("PW ratio" is no header of passwords).
var passwordAbbreviations = map[string]bool{"pw": true, "pwd": true, "p/w": true, "pw.": true}

func headerKinds(header []byte) []byte {
	cells := splitCells(bytes.TrimRight(header, " \t\r"))
	kinds := make([]byte, len(cells))
	for i, cell := range cells {
		name := bytes.Trim(cell, " \t*_`")
		switch lower := string(bytes.ToLower(name)); {
		case lower == "token" || lower == "tokens":
			kinds[i] = colToken
		case len(name) > 0 && (namesSecret(name) || localizedSecretHeader(name)) || passwordAbbreviations[lower]:
			kinds[i] = colSecret
		case len(name) == 0 || valueHeaders[lower] || valueHeaders[lastWord(lower)]:
			kinds[i] = colValue
		}
	}
	return kinds
}
