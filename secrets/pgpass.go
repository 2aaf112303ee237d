package secrets

import (
	"regexp"
	"strings"
)

// RulePgpassPassword reports the password field of a PostgreSQL password
// file: each line of ~/.pgpass (pgpass.conf on Windows) is
// host:port:database:username:password, with "\:" and "\\" escaped, and
// libpq sends the password to any server the first four fields match.
const RulePgpassPassword = "pgpass-password"

func pgpassRule() *Rule {
	// A field holds no blank and no unescaped colon; the port is a
	// number or *. So strict a form is what Redact, which knows no path
	// and runs the rule on every text, can read without taking a log
	// line ("main.go:42: listening on :8080") or an IPv6 address for one.
	field := `(?:\\.|[^:\\\s])+`
	return &Rule{
		ID:          RulePgpassPassword,
		Description: "password field of a PostgreSQL password file (.pgpass: host:port:database:username:password)",
		builtinRE: builtinExpr(`(?m)^(?P<key>[^#:\\\s]` + `(?:\\.|[^:\\\s])*` + `:(?:[0-9]{1,5}|\*):` + field + `:` + field + `):` +
			`(?P<secret>` + field + `)[ \t]*\r?$`),
		MinLen:   4,
		Path:     pgpassFiles,
		Validate: validPgpass,
	}
}

// validPgpass: not the format's own line, "hostname:port:database:username:password",
// which documents a file in a comment-less copy.
func validPgpass(c Candidate) bool {
	fields := strings.Split(strings.ToLower(string(c.Key)), ":")
	return len(fields) != 4 || !pgpassFieldNames[fields[0]] || !pgpassFieldNames[fields[3]]
}

var pgpassFieldNames = map[string]bool{"host": true, "hostname": true, "username": true, "user": true}

// pgpassFiles: ~/.pgpass, Windows' pgpass.conf, and the names a file
// PGPASSFILE points at is given: one per environment (prod.pgpass), a
// mounted secret (/run/secrets/pgpass).
var pgpassFiles = regexp.MustCompile(`(?:^|[/\\])(?:[^/\\]*\.pgpass|pgpass(?:\.conf)?)$`)
