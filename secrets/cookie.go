package secrets

// RuleSessionCookie reports a session cookie's value in a Cookie or
// Set-Cookie header: captured HTTP traffic (a HAR file, a proxy log, a
// curl command pasted into a ticket) carries it, and whoever holds it is
// logged in as that user until the session ends.
const RuleSessionCookie = "session-cookie"

// sessionCookieNames are the cookie names frameworks give a session, or
// a login token kept in a cookie.
const sessionCookieNames = `(?:[A-Za-z0-9_.-]*sess(?:ion)?(?:[_.-]?(?:id|key|token))?|sid|connect\.sid|JSESSIONID|PHPSESSID|ASP\.NET_SessionId|` +
	`[A-Za-z0-9_.-]*auth[_.-]?token|[A-Za-z0-9_.-]*access[_.-]?token|remember[_.-]?(?:user[_.-]?)?token|__Secure-[A-Za-z0-9_.-]*session[A-Za-z0-9_.-]*)`

func sessionCookieRule() *Rule {
	return &Rule{
		ID:          RuleSessionCookie,
		Description: "session cookie value in a Cookie or Set-Cookie header",
		// The header's name, then (a HAR entry) its value on the next
		// line, then the pairs before the session's.
		// curl's -b and --cookie take the pairs as an argument.
		builtinRE: builtinExpr(`(?i)(?:\b(?:set-)?cookie["']?(?:[ \t]*[:=,][ \t]*|[ \t]+)(?:\r?\n[ \t]*"value"[ \t]*:[ \t]*)?|[ \t]-b[ \t]+)["']?` +
			// the pairs before the session's, however many (a browser
			// sends dozens of analytics cookies first)
			`(?:[^;\r\n]*;[ \t]*)*?` +
			`(?P<key>` + sessionCookieNames + `)=(?P<secret>[A-Za-z0-9%._~+/-]{16,}={0,2})`),
		Entropy:  3, // a 32-digit hex session id (Tomcat's JSESSIONID) has 3.3 to 4
		MinLen:   16,
		Keywords: []string{"cookie", " -b "},
		After:    256,
		Validate: validSessionCookie,
	}
}

// validSessionCookie: a value of letters and digits both, not a word list
// ("not-a-real-session"), not a cleared cookie ("deleted").
func validSessionCookie(c Candidate) bool {
	v := c.Secret
	if !hasDigit(v) || !(hasUpper(v) || hasLower(v)) {
		return false
	}
	if wordListRE.Match(v) {
		return false
	}
	return !hasPrefixFold(v, "deleted")
}
