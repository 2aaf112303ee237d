package secrets

import "bytes"

// Passwords commands take as an argument with no flag or name that says
// password, found missing in round fifty-four on a helper's labelled
// set of logs, shell histories and CI files: Samba's clients read
// [DOMAIN\]user%password after -U or --user (smbclient(1): the first
// "%" ends the user), and Apache's htpasswd in batch mode (-b) reads the
// password as its last argument. gitleaks and the older rules read
// neither.
const RuleCommandPassword = "command-password"

// commandPasswordRule reads those two commands' passwords, on a command
// line (after sudo, in a pipeline, a "\" continuing it onto the next
// line), in an exec array's items (["smbclient", "//srv/s", "-U",
// "user%…"], one a line in Python's lists), and where docker runs
// htpasswd (docker run --entrypoint htpasswd httpd:2 -Bbn user …). Every
// match starts at its keyword.
func commandPasswordRule() *Rule {
	// an argument: quoted, or no blank, quote or shell operator
	const arg = `(?:'[^'\n]*'|"[^"\n]*"|[^\s'"|;&<>]+)`
	const (
		// htpasswd's image where docker runs it, its flags (-C takes a
		// cost), an argument before the password (the file, the user)
		htImage  = `(?:` + cliSep + `+[a-z0-9][a-z0-9._/-]*:[A-Za-z0-9._-]+)?`
		htFlag   = cliSep + `+-[A-Za-z]+(?:` + cliSep + `+[0-9]{1,2})?`
		htArg    = cliSep + `+(?:'[^'\n]*'|"[^"\n]*"|[^\s'"|;&<>-][^\s'"|;&<>]*)`
		htSecret = cliSep + `+(?:'(?P<secret>[^'\n]+)'|"(?P<secret>[^"\n]+)"|(?P<secret>[^\s'"|;&<>]+))`
		htItem   = `(?:"[^"\n]*"|'[^'\n]*'|[A-Za-z_][A-Za-z0-9_.]*(?:\(\))?)`
	)
	return &Rule{
		ID:          RuleCommandPassword,
		Description: "password a command takes as an argument: Samba's -U 'user%…', htpasswd -b file user '…'",
		builtinRE: builtinExpr(`\b(?:smbclient|rpcclient|smbcacls|smbcquotas|smbget|smbtree|net[ \t]+(?:rpc|ads|rap))(?:\.exe)?(?:` + cliSep + `+` + arg + `){0,12}?` + cliSep + `+(?:-U` + cliSep + `*|--user(?:name)?(?:=|` + cliSep + `+))` +
			`(?:'[^'\n%]*%(?P<secret>[^'\n]+)'|"[^"\n%]*%(?P<secret>[^"\n]+)"|[^\s'"%|;&<>]*%(?P<secret>[^\s'"|;&<>]+))` +
			`|\b(?:smbclient|rpcclient|smbcacls|smbget)["'](?:\s*,\s*["'][^"'\n]*["']){0,8}?\s*,\s*["'](?:(?:-U|--user)["']\s*,\s*["']|--user=)[^"'\n%]*%(?P<secret>[^"'\n]+)["']` +
			// with -n, htpasswd prints the line: the user alone comes
			// before the password (the first alternative, which a
			// flag with an n must take); else the file and the user
			`|\bhtpasswd(?:\.exe)?` + htImage + `(?P<key>(?:` + htFlag + `){0,5}?` + cliSep + `+-[A-Za-z]*n[A-Za-z]*(?:` + htFlag + `){0,5})` + htArg + htSecret +
			`|\bhtpasswd(?:\.exe)?` + htImage + `(?P<key>(?:` + htFlag + `){1,6})` + htArg + htArg + htSecret +
			// an exec array's items: ["htpasswd", "-Bbc", "/auth/htpasswd",
			// "ops", "…"], a variable among them (Python's HTPASSWD)
			`|\bhtpasswd["'](?P<key>(?:\s*,\s*["']-[A-Za-z]+["'](?:\s*,\s*["'][0-9]{1,2}["'])?){1,6})(?:\s*,\s*` + htItem + `){1,2}\s*,\s*["'](?P<secret>[^"'\n]+)["']\s*[\]),]`),
		MinLen:   6,
		Keywords: []string{"smbclient", "rpcclient", "smbcacls", "smbcquotas", "smbget", "smbtree", "net rpc", "net ads", "net rap", "htpasswd"},
		// the lines a "\" continues the command onto, an exec array's
		// items one a line
		After:           400,
		Validate:        validCommandPassword,
		startsAtKeyword: true,
	}
}

// validCommandPassword: the value is a password, as password-flag judges
// one (not a variable or a template, not a placeholder or the name of a
// password). htpasswd's flags must be batch mode's (htpasswdBatch), and
// its value, an argument with nothing around it to say it is one, must
// mix three of lower case, upper case, digits and symbols, a sentence's
// punctuation after it aside: a sentence about the command ("htpasswd -b
// in a Dockerfile, …") has words where the file, the user and the
// password go.
func validCommandPassword(c Candidate) bool {
	if c.Key != nil && (!htpasswdBatch(c.Key, c.Match, c.Offset-c.MatchOffset) || !passwordShaped(bytes.TrimRight(c.Secret, ".,;:)"))) {
		return false
	}
	return validPasswordFlag(c)
}

// htpasswdBatch: htpasswd's flags (flags, in match, whose secret starts
// at at) are batch mode's, which takes the password as an argument (-b;
// not with -D, which deletes, nor -i, which reads it), and the arguments
// before it are the user alone where -n prints instead of writing a
// file, the file and the user otherwise.
func htpasswdBatch(flags, match []byte, at int) bool {
	batch, print := false, false
	for f := range bytes.FieldsSeq(flags) {
		if f = bytes.Trim(f, `,'"`); len(f) == 0 || f[0] != '-' {
			continue // -C's cost, an exec array's commas
		}
		if bytes.ContainsAny(f, "Di") {
			return false
		}
		batch = batch || bytes.IndexByte(f, 'b') >= 0
		print = print || bytes.IndexByte(f, 'n') >= 0
	}
	end := bytes.Index(match, flags) + len(flags)
	if !batch || end < len(flags) || at < end {
		return false
	}
	// no blank inside a quoted file or user; the password's own quote
	// is no argument, nor an exec array's commas and quotes
	args := 0
	for f := range bytes.FieldsFuncSeq(match[end:at], func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == ',' }) {
		if len(bytes.Trim(f, `'"\`)) > 0 {
			args++
		}
	}
	return print && args == 1 || !print && args == 2
}
