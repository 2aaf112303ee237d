package secrets

import (
	"bytes"
	"net"
	"strings"
)

// Redis's AUTH command, found missing in round fifty-one on a helper's
// labelled set: the password is the command's last argument, written
// where redis-cli, a session or a client sends it. No name says
// "password", and the word AUTH is everywhere in code (OAuth, author,
// AUTH_TOKEN): redisAuthGate holds only where the command stands.
const RuleRedisAuth = "redis-auth-password"

// redisAuthRule reads the password after AUTH in its spellings:
//
//   - as text: a redis-cli prompt's line, redis-cli's arguments, a
//     session's, a here-document's or an echoed line ("AUTH pw",
//     "AUTH user pw", the password quoted or not);
//   - as a client's call: Do("AUTH", "pw"), execute_command('AUTH',
//     'user', 'pw'), sendCommand(['AUTH', 'pw']), send_command('auth',
//     ['pw']), sendCommand(Command.AUTH, "pw"), call([:auth, "pw"]),
//     cmd("AUTH").arg("pw");
//   - as a client's auth method: jedis.auth("pw"), $redis->auth('pw');
//   - as the protocol's array, written with its escapes
//     (*2\r\n$4\r\nAUTH\r\n$27\r\npw\r\n) or captured with its line
//     breaks.
//
// Every match starts at the keyword, so a line dense with AUTH is tried
// at each hit the gate holds, not searched in one pass.
func redisAuthRule() *Rule {
	// a value of a shell line or a session: no blank, quote, escape or
	// shell operator (an unquoted | or ; ends the command)
	const bare = `[^\s"'\x60\\|&;<>(){}]`
	// a call's quoted argument, the password at least 6 bytes
	const q, arg, pw = `["'\x60]`, `[^"'\x60\s\\]+`, `[^"'\x60\s\\]{6,}`
	// the user, when the call passes one, then the password, the last
	// argument
	const args = `(?:` + q + `(?P<key>` + arg + `)` + q + `[ \t]*,[ \t]*)?` + q + `(?P<secret>` + pw + `)` + q + `[ \t]*(?:[\]);}]|$)`
	return &Rule{
		ID:          RuleRedisAuth,
		Description: "Redis AUTH command's password (redis-cli, a session, a client's AUTH call or the protocol's array)",
		builtinRE: builtinExpr(`(?:AUTH|auth|Auth)(?:` +
			// text
			`[ \t]+(?:(?P<key>` + bare + `+)[ \t]+)?(?:"(?P<secret>[^"\s\\]{6,})"|'(?P<secret>[^'\s\\]{6,})'|(?P<secret>` + bare + `{6,}))(?:$|[\s"'\x60\\|&;<>(){}])` +
			// a call's arguments after "AUTH" (or an enum's or a symbol's
			// AUTH, then a comma), in a list or not
			`|["']?[ \t]*,[ \t]*\[?[ \t]*` + args +
			// a client's auth method: jedis.auth("pw"), $redis->auth('pw')
			`|[ \t]*\([ \t]*` + args +
			// a command builder's argument: cmd("AUTH").arg("pw")
			`|["'][ \t]*\)[ \t]*\.[ \t]*(?:arg|Arg|args|Args)[ \t]*\([ \t]*` + q + `(?P<secret>` + pw + `)` + q +
			// the protocol's array, written with its escapes or captured
			// with its line breaks
			`|\\r\\n\$\d{1,3}\\r\\n(?:(?P<key>[^\s\\"']+)\\r\\n\$\d{1,3}\\r\\n)?(?P<secret>[^\s\\"']{6,})\\r\\n` +
			`|\r?\n\$\d{1,3}\r?\n(?:(?P<key>\S+)\r?\n\$\d{1,3}\r?\n)?(?P<secret>\S{6,})(?:\r?\n|$)` +
			`)`),
		Keywords:        []string{"auth"},
		Gate:            redisAuthGate,
		Validate:        validRedisAuth,
		startsAtKeyword: true,
	}
}

// redisAuthGate holds at a hit of "auth" (its last byte at i) that is
// the command, at a word's start:
//
//   - AUTH in capitals after a blank, a quote, a bracket, a prompt or a
//     string's \n escape, followed by a blank (its arguments), a quote
//     (a call's next argument), a comma or the \r\n escape;
//   - an enum's or a symbol's (Command.AUTH, :auth) before a comma;
//   - auth in small letters (Auth too) after a prompt's "> ", as a
//     call's quoted first argument ("auth", ...), opening a string
//     before a blank (echo -e "auth pw\nkeys *"), or a client's method
//     (jedis.auth(, $redis->auth();
//   - AUTH on its own line of a captured array, the next line its
//     argument's length ($28).
func redisAuthGate(data []byte, i int) bool {
	st := i - 3
	if i+1 >= len(data) {
		return false
	}
	w, next := data[st:i+1], data[i+1]
	var prev, prev2 byte = '\n', '\n'
	if st > 0 {
		prev = data[st-1]
	}
	if st > 1 {
		prev2 = data[st-2]
	}
	quote := prev == '"' || prev == '\'' || prev == '\x60'
	prompt := prev == ' ' && prev2 == '>'
	switch string(w) {
	case "AUTH":
	case "auth":
		switch {
		case prompt:
		case quote && next == prev: // a call's "auth"
		case quote && next == ' ': // a string sent as it is
		case prev == ':' && next == ',': // a Ruby symbol
		case (prev == '.' || prev == '>' && prev2 == '-') && next == '(': // jedis.auth(, $redis->auth(
			return true
		default:
			return false
		}
	case "Auth":
		if !prompt {
			return false
		}
	default:
		return false
	}
	switch {
	case prev == '.' || prev == ':':
		return next == ',' // Command.AUTH, "pw"; [:auth, "pw"]
	case prev == ' ', prev == '\t', prev == '\n', quote, prev == '[', prev == '>':
	case prev == 'n' && prev2 == '\\': // "…\r\nAUTH"
	default:
		return false
	}
	switch next {
	case ' ', '\t', '"', '\'', ',':
		return true
	case '\\':
		return i+2 < len(data) && data[i+2] == 'r'
	case '\r', '\n': // a captured array's next line, its length
		j := i + 1
		if data[j] == '\r' {
			j++
		}
		return j+1 < len(data) && data[j] == '\n' && data[j+1] == '$'
	}
	return false
}

// saslMechanisms are what follows AUTH in SMTP, IMAP, POP3 and FTP
// (AUTH PLAIN <base64>, AUTH LOGIN, AUTH TLS): another protocol's
// command, whose next argument is no Redis password.
var saslMechanisms = map[string]bool{
	"PLAIN": true, "LOGIN": true, "CRAM-MD5": true, "DIGEST-MD5": true, "SCRAM-SHA-1": true, "SCRAM-SHA-256": true,
	"XOAUTH2": true, "OAUTHBEARER": true, "GSSAPI": true, "NTLM": true, "EXTERNAL": true, "ANONYMOUS": true,
	"TLS": true, "SSL": true, "TLS-C": true, "TLS-P": true,
}

// validRedisAuth: the password is chosen, not a stand-in, a variable, a
// template or a format verb, and has letters and digits or symbols
// (prose that goes on after the word AUTH, "send AUTH before ROLE", has
// words); the argument before it, when there is one, is a user name, not
// a SASL mechanism.
func validRedisAuth(c Candidate) bool {
	v := c.Secret
	if bytes.HasPrefix(c.Match, []byte(`auth`)) && len(c.Match) > 4 && (c.Match[4] == '"' || c.Match[4] == '\'' || c.Match[4] == '\x60') && !sentByCall(c.Context, c.MatchOffset-1) {
		return false // []string{"auth", "addPrefix@file"}: a list of words
	}
	if c.Key != nil && saslMechanisms[strings.ToUpper(string(c.Key))] || saslMechanisms[strings.ToUpper(string(v))] {
		return false
	}
	if c.Key != nil && (c.Key[0] == '$' || c.Key[0] == '%' || bytes.ContainsAny(c.Key, "{}[]")) {
		return false // a variable or a template before it: code assembling the command
	}
	if len(v) > 200 || v[0] == '$' || v[0] == '%' || bytes.ContainsAny(v, "{}[]`") || referenceInValue(v) || isPlaceholder(v, true) {
		return false
	}
	// redis.conf's foobared, the internet's hunter2, a sentence's word
	if l := strings.ToLower(string(v)); directiveExamples[l] || passwordFixtures[l] || sentenceWord(v) {
		return false
	}
	if end := c.Offset + len(v); v[0] == '*' || v[0] == '&' || end < len(c.Context) && c.Context[end] == '(' {
		return false // C's AUTH *authunix_create(...): a declaration
	}
	if addressValue(v) {
		return false // "AUTH ok 10.0.0.7:6379" in a log: the server's address
	}
	if !hasDigit(v) && !hasSymbol(v) && !drawnLetters(v) {
		return false // a word: "SCTP AUTH Information Structure"
	}
	return (hasLower(v) || hasUpper(v)) && c.secretEntropy() >= 2.5
}

// sentByCall reports whether the quoted argument whose opening quote is
// at q is the first of a call that sends a command: "auth" in small
// letters is a word of any list, but Do(ctx, "auth", …),
// send_command("auth", …) and sendCommand(["auth", …]) send it. The
// call's name must say so: do, call, send, exec, command, cmd, raw.
func sentByCall(ctx []byte, q int) bool {
	i := q - 1
	for i >= 0 && (ctx[i] == ' ' || ctx[i] == '\t' || ctx[i] == '[') {
		i--
	}
	if i >= 0 && ctx[i] == ',' { // Do(ctx, "auth", …): the arguments before it
		for i >= 0 && ctx[i] != '(' && ctx[i] != '\n' && q-i < 80 {
			i--
		}
	}
	if i < 0 || ctx[i] != '(' {
		return false
	}
	e := i
	for i > 0 && isWordByte(ctx[i-1]) {
		i--
	}
	name := strings.ToLower(string(ctx[i:e]))
	for _, w := range []string{"do", "call", "send", "exec", "command", "cmd", "raw"} {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}

// addressValue reports whether v is a host's address: an IP address or
// a DNS name, with a port or not.
func addressValue(v []byte) bool {
	h := v
	if i := bytes.LastIndexByte(v, ':'); i > 0 && i < len(v)-1 && isDigits(v[i+1:]) {
		h = v[:i]
	}
	h = bytes.Trim(h, "[]")
	return net.ParseIP(string(h)) != nil || isHostname(h)
}
