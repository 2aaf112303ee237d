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
	field := `(?:\\.|[^:\\\r\n])*`
	return &Rule{
		ID:          RulePgpassPassword,
		Description: "password field of a PostgreSQL password file (.pgpass: host:port:database:username:password)",
		builtinRE: builtinExpr(`(?m)^(?P<key>[^#:\\\r\n]` + field + `:` + field + `:` + field + `:` + field + `):` +
			`(?P<secret>(?:\\.|[^\\\r\n])+?)[ \t]*\r?$`),
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

var pgpassFiles = regexp.MustCompile(`(?:^|[/\\])(?:\.pgpass|pgpass\.conf)$`)
