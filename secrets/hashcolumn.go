package secrets

import (
	"bytes"
	"strings"
)

// cryptHashRE matches the head of a crypt(3) hash: md5crypt, bcrypt,
// Apache's apr1, sha256crypt, sha512crypt.
var cryptHashRE = lazyRE.New(`^\$(?:1|2[abxy]?|apr1|5|6)\$`)

// A crypt(3) hash named a hash by a line above its own (issue 33, round
// 27's labelled set): a seed's INSERT names its columns once, and its
// rows below give the values
//
//	INSERT INTO accounts (id, login, pwd_hash) VALUES
//	  (7, 'ops', '$2y$10$…'),
//
// (or pg_dump's COPY accounts (id, login, pwd_hash) FROM stdin; and
// tab-separated rows), as a CSV's header does for its rows and a YAML or JSON key for the
// list under it (`password_hashes:` then `- '$2b$…'`). What the column
// names is what namesItsHash reads on the value's line: a hash stored in
// place of the password. /etc/shadow, .htpasswd and a column that names
// no hash (`password`, `secret`) say no such thing.

// hashColumnName reports whether a column or key's name says it holds a
// hash: "hash" in it (password_hash, pwd_hash, hashed_password), a name
// ending in "digest" (password_digest), Devise's encrypted_password and
// Authlogic's crypted_password.
func hashColumnName(name string) bool {
	l := strings.ToLower(name)
	return strings.Contains(l, "hash") || strings.HasSuffix(l, "digest") || strings.HasSuffix(l, "digests") ||
		strings.Contains(l, "encrypted_password") || strings.Contains(l, "crypted_password") ||
		strings.Contains(l, "encryptedpassword") || strings.Contains(l, "cryptedpassword")
}

// hashColBack is how far back (bytes) a row's statement header or a list
// item's key is looked for: a seed's INSERT of a few hundred rows.
const hashColBack = 64 << 10

// hashColMemo remembers, for the text's last candidates, the lines read
// forward looking for an INSERT's header: each line is read once per
// rule whose candidates come in text order.
type hashColMemo struct {
	valid bool
	upto  int  // lines before upto were read
	hdr   int  // the last INSERT or COPY header's start before upto, -1 when none
	ended bool // the header's statement ended before upto
	copy  bool // the header is a COPY's: tab-separated rows up to \.
	// the CSV header's verdict: 0 not asked, 1 a header, 2 none
	csv     int8
	csvCols []string
	csvSep  byte
}

// hashColumn reports whether the hash at pos in data lies under a column
// or a key, named on a line above, that names a hash.
func (tm *textMemo) hashColumn(pos int, val []byte) bool {
	data := tm.data
	if pos < 0 || pos > len(data) {
		return false
	}
	ls := bytes.LastIndexByte(data[:pos], '\n') + 1
	le := len(data)
	if j := bytes.IndexByte(data[pos:], '\n'); j >= 0 {
		le = pos + j
	}
	line := data[ls:le]
	at := pos - ls
	if tm.sqlColumn(ls, line, at) || tm.csvColumn(ls, line, at) {
		return true
	}
	return listKeyNamesHash(data, ls, line)
}

// sqlColumn: the value is a field of a row tuple "(…, '$2b$…', …)" of an
// INSERT whose column list, on the header line above, names the field's
// column a hash.
func (tm *textMemo) sqlColumn(ls int, line []byte, at int) bool {
	data := tm.data
	m := &tm.hashCols
	if !m.valid || m.upto > ls || ls-m.upto > hashColBack {
		m.valid, m.hdr, m.ended, m.copy = true, -1, false, false
		m.upto = max(0, ls-hashColBack)
		if m.upto > 0 {
			if j := bytes.IndexByte(data[m.upto:ls], '\n'); j >= 0 {
				m.upto += j + 1
			} else {
				m.upto = ls
			}
		}
	}
	for m.upto < ls {
		e := ls
		if j := bytes.IndexByte(data[m.upto:ls], '\n'); j >= 0 {
			e = m.upto + j
		}
		l := bytes.TrimSpace(data[m.upto:e])
		switch {
		case insertHeader(l):
			m.hdr, m.ended, m.copy = m.upto, bytes.HasSuffix(l, []byte(";")), false
		case copyHeader(l):
			m.hdr, m.ended, m.copy = m.upto, false, true
		case m.copy:
			m.ended = m.ended || string(l) == "\\."
		default:
			m.ended = m.ended || bytes.HasSuffix(l, []byte(";"))
		}
		m.upto = e + 1
	}
	m.upto = ls
	hdr := m.hdr
	var idx int
	if t := bytes.TrimSpace(line); insertHeader(t) {
		hdr = ls // the header's own line
	} else if hdr < 0 || m.ended {
		return false
	}
	if m.copy && hdr != ls {
		// a row of COPY … FROM stdin: fields parted by tabs
		idx = bytes.Count(line[:at], []byte("\t"))
	} else {
		var ok bool
		if idx, ok = tupleField(line, at); !ok {
			return false
		}
	}
	he := len(data)
	if j := bytes.IndexByte(data[hdr:], '\n'); j >= 0 {
		he = hdr + j
	}
	cols := insertColumns(data[hdr:he])
	return idx < len(cols) && hashColumnName(cols[idx])
}

// copyHeader: PostgreSQL's COPY of rows that follow it, as pg_dump
// writes a table: COPY public.users (id, password_hash) FROM stdin;
func copyHeader(l []byte) bool {
	return len(l) > 12 && bytes.EqualFold(l[:5], []byte("copy ")) && bytes.IndexByte(l, '(') > 0 &&
		bytes.Contains(bytes.ToLower(l), []byte("from stdin"))
}

// insertHeader: an INSERT statement's first line that lists its columns.
func insertHeader(l []byte) bool {
	return len(l) > 12 && bytes.EqualFold(l[:7], []byte("insert ")) && bytes.IndexByte(l, '(') > 0
}

// insertColumns returns the column list of an INSERT line:
// INSERT INTO t (a, "b", `c`) VALUES.
func insertColumns(l []byte) []string {
	i := bytes.IndexByte(l, '(')
	if i < 0 {
		return nil
	}
	j := bytes.IndexByte(l[i:], ')')
	if j < 0 {
		return nil
	}
	var cols []string
	for _, c := range bytes.Split(l[i+1:i+j], []byte(",")) {
		cols = append(cols, strings.Trim(string(bytes.TrimSpace(c)), "\"`[]'"))
	}
	return cols
}

// tupleField returns the number of the field of a row tuple that the
// value at line[at] is quoted in: the line (after its indentation)
// opens the tuple, commas outside quotes and inner parentheses part its
// fields.
func tupleField(line []byte, at int) (int, bool) {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	if insertHeader(line[i:]) {
		// the first row on the header's line: INSERT … VALUES (…
		v := bytes.Index(bytes.ToLower(line), []byte("values"))
		if v < 0 {
			return 0, false
		}
		i = v + len("values")
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
	}
	if i >= len(line) || line[i] != '(' || at <= i {
		return 0, false
	}
	field, depth := 0, 0
	var q byte
	for k := i + 1; k < at; k++ {
		b := line[k]
		switch {
		case q != 0:
			if b == q {
				q = 0
			}
		case b == '\'' || b == '"':
			q = b
		case b == '(':
			depth++
		case b == ')':
			if depth == 0 {
				return 0, false // the tuple closed before the value
			}
			depth--
		case b == ',' && depth == 0:
			field++
		}
	}
	return field, q != 0
}

// csvColumn: in a table of comma-, semicolon- or tab-separated values
// whose first line is a header of names, the value's field is under a
// name that names a hash.
func (tm *textMemo) csvColumn(ls int, line []byte, at int) bool {
	m := &tm.hashCols
	if ls == 0 {
		return false
	}
	if m.csv == 0 {
		m.csv = 2
		data := tm.data
		he := bytes.IndexByte(data, '\n')
		if he < 0 {
			return false
		}
		hdr := bytes.TrimRight(data[:he], "\r")
		for _, sep := range []byte{',', '\t', ';', '|'} {
			if bytes.Count(hdr, []byte{sep}) == 0 {
				continue
			}
			cols := strings.Split(string(hdr), string(sep))
			if headerNames(cols) {
				m.csv, m.csvCols, m.csvSep = 1, cols, sep
				break
			}
		}
	}
	if m.csv != 1 {
		return false
	}
	field := 0
	var q byte
	for k := 0; k < at && k < len(line); k++ {
		switch b := line[k]; {
		case q != 0:
			if b == q {
				q = 0
			}
		case b == '"':
			q = b
		case b == m.csvSep:
			field++
		}
	}
	return field < len(m.csvCols) && hashColumnName(m.csvCols[field])
}

// headerNames: every field a name (letters, digits, _ - . and blanks,
// quoted or not), at least one a letter's.
func headerNames(cols []string) bool {
	if len(cols) < 2 {
		return false
	}
	for i, c := range cols {
		c = strings.Trim(strings.TrimSpace(c), "\"")
		if c == "" || len(c) > 64 {
			return false
		}
		for _, b := range []byte(c) {
			if !(isWordByte(b) || b == '-' || b == '.' || b == ' ') {
				return false
			}
		}
		cols[i] = c
	}
	return true
}

// listKeyNamesHash: the value's line is an item of a YAML list ("- '…'")
// or a JSON array ("'…',"), and the key the list is under, on the first
// line above that is not an item, names a hash (password_hashes:,
// "bcryptDigests": [).
func listKeyNamesHash(data []byte, ls int, line []byte) bool {
	t := bytes.TrimSpace(line)
	yaml := bytes.HasPrefix(t, []byte("- "))
	if !yaml && !(len(t) > 0 && (t[0] == '"' || t[0] == '\'')) {
		return false
	}
	indent := len(line) - len(bytes.TrimLeft(line, " \t"))
	lo := max(0, ls-hashColBack/16)
	for e := ls - 1; e > lo; {
		s := bytes.LastIndexByte(data[lo:e], '\n') + 1 + lo
		l := data[s:e]
		e = s - 1
		lt := bytes.TrimSpace(l)
		if len(lt) == 0 {
			continue
		}
		in := len(l) - len(bytes.TrimLeft(l, " \t"))
		if yaml && bytes.HasPrefix(lt, []byte("- ")) && in == indent ||
			!yaml && (lt[0] == '"' || lt[0] == '\'') && !bytes.Contains(lt, []byte("\":")) && !bytes.Contains(lt, []byte("':")) {
			continue // another item
		}
		var key []byte
		switch {
		case yaml && bytes.HasSuffix(lt, []byte(":")) && in <= indent:
			key = lt[:len(lt)-1]
		case !yaml && bytes.HasSuffix(lt, []byte("[")):
			key = bytes.TrimSpace(bytes.TrimSuffix(lt[:len(lt)-1], []byte(":")))
			key = bytes.TrimRight(key, ":= \t")
		default:
			return false
		}
		return hashColumnName(strings.Trim(string(key), "\"' "))
	}
	return false
}
