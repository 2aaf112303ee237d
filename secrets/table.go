package secrets

import "bytes"

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
	// a row looks up for its header.
	tableReach = 16 << 10
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
		Keywords:  []string{"password", "passwd", "secret", "token", "api key", "api_key", "apikey", "access key", "credential", "key"},
		Gate:      tableHeaderGate,
		Before:    tableReach,
		After:     tableReach,
		Validate:  validTableSecret,
	}
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

// tableMemo is what a text's candidates learnt of the table rows around
// them: the stretch of rows last read, whether it is a table's body (rows
// below a delimiter row and header) and which of its columns' headers
// name a secret. A table's candidates come in order, so each row is read
// once, not once per candidate; rows outside any table are remembered
// too, so a text of pipe rows without a header costs no more.
type tableMemo struct {
	valid     bool
	from      int    // first row of the stretch
	readTo    int    // its rows are known to run unbroken up to here
	body      bool   // the stretch is a table's body
	secretCol []bool // by column, from the header; nil when none names a secret
}

// tableAt returns, for the row starting at row in the memo's text, its
// table's secret columns and whether the row is in a table's body.
func (tm *textMemo) tableAt(row int) ([]bool, bool) { return tm.table.at(tm.data, row) }

func (t *tableMemo) at(data []byte, row int) ([]bool, bool) {
	if t.valid && row >= t.from {
		// Read on from where the rows were known to run unbroken: a
		// delimiter row on the way starts another table.
		for t.readTo < row {
			e := lineEndWithin(data, t.readTo)
			line := data[t.readTo:e]
			if e >= len(data) || e-t.readTo >= tableLineMax || !pipeRow(line) || delimiterRow(line) {
				break
			}
			t.readTo = e + 1
		}
		if t.readTo >= row {
			return t.secretCol, t.body
		}
	}
	t.secretCol, t.from, t.body = tableAbove(data, row)
	t.valid, t.readTo = true, row
	return t.secretCol, t.body
}

// tableAbove walks up from the row starting at row in data, over rows, to
// a delimiter row and the header above it. It returns the header's secret
// columns, the first row of the stretch walked (the body's first row when
// a header is found) and whether one is, within tableReach.
func tableAbove(data []byte, row int) (cols []bool, from int, body bool) {
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
			return headerSecretColumns(data[hs : prev-1]), ls, true
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
	if !tableValue(c) || ctx[c.Offset-1] != '`' && identifierValue(c.Secret) {
		return false // a name in a cell: SigningSecretFromVaultV2
	}
	ls, ok := lineStart(ctx, c.MatchOffset)
	if !ok || !pipeRow(ctx[ls:]) || delimiterRow(ctx[ls:lineEndWithin(ctx, ls)]) {
		return false
	}
	col := bytes.Count(ctx[ls:c.MatchOffset], []byte("|")) - bytes.Count(ctx[ls:c.MatchOffset], []byte("\\|"))
	var cols []bool
	var inBody bool
	if tm := c.memo; tm != nil {
		cols, inBody = tm.tableAt(c.base + ls)
	} else {
		var t tableMemo
		cols, inBody = t.at(ctx, ls)
	}
	if !inBody {
		return false
	}
	if col < len(cols) && cols[col] {
		return true // the column's header names it
	}
	if col == 0 {
		return false
	}
	// A row that names its value: "| Bind password | … |".
	first := bytes.TrimLeft(ctx[ls:c.MatchOffset], " \t")[1:]
	if k := bytes.IndexByte(first, '|'); k >= 0 {
		first = first[:k]
	}
	name := bytes.Trim(first, " \t*_`")
	return len(name) > 0 && namesSecret(name)
}

// tableValue judges the value as generic-secret does, less strictly on
// its characters (a chosen password holds punctuation): not a URL, a
// path, a variable's name, words or a field reference; digits or mixed
// case; random enough.
func tableValue(c Candidate) bool {
	v := c.Secret
	switch {
	case bytes.Contains(v, []byte("://")), bytes.IndexByte(v, ':') >= 0:
		return false // a URL, a time; url-credentials reads URLs
	case looksLikePath(v), envNameRE.Match(v), wordListRE.Match(v), isPublicKey(v):
		return false
	case bytes.ContainsAny(v, "()[]{}"), v[0] == '+', v[len(v)-1] == '+':
		return false // code: a call, an index, a concatenation ("+Mask(p)+")
	case !hasDigit(v) && identChainRE.Match(v):
		return false
	case !hasDigit(v) && !(hasUpper(v) && hasLower(v)):
		return false
	}
	if isHexLower(v) {
		// as for named-key-value: the digests of nothing, and hex the
		// line says is a commit, a digest or an id, are none
		return !knownDigests[string(v)] && !namesDigest(c.Line())
	}
	return c.secretEntropy() >= 3
}

// lineEndWithin returns the end of the line starting at ls, at most
// tableLineMax on.
func lineEndWithin(data []byte, ls int) int {
	hi := min(len(data), ls+tableLineMax)
	if j := bytes.IndexByte(data[ls:hi], '\n'); j >= 0 {
		return ls + j
	}
	return hi
}

// headerSecretColumns splits a header row into cells and judges each as
// validGeneric judges a name.
func headerSecretColumns(header []byte) []bool {
	header = bytes.TrimSpace(header)
	cells := bytes.Split(header, []byte("|"))
	// The leading pipe opens cell 0: cells[0] is the empty text before it.
	out := make([]bool, 0, len(cells))
	any := false
	for _, cell := range cells[1:] {
		name := bytes.Trim(cell, " \t*_`")
		ok := len(name) > 0 && namesSecret(name)
		out = append(out, ok)
		any = any || ok
	}
	if !any {
		return nil
	}
	return out
}
