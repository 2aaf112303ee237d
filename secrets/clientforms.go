package secrets

import (
	"bytes"
	"encoding/base64"
	"strconv"
	"sync"
)

// Forms found missing on round 27's blind set of source files (issue 33,
// "every major family >= 0.90"): a key handed to an API client's
// constructor, a Discord bot's token wherever the file says it is one, a
// Sentry DSN's key. They rank after every older rule (defaultRules), so
// no older finding changes its rule ID.
const (
	// RuleClientKeyLiteral reports a random literal handed to an API
	// client's constructor: cohere.Client("…"), new OpenAIClient("…"),
	// Twilio's Client(sid, "…"); or to a setter or a builder's step that
	// names a key or a token: sgMail.setApiKey("…"), .apiKey("…"). The
	// call says what the value is, so no name is needed.
	RuleClientKeyLiteral = "client-key-literal"
	// RuleDiscordBotToken reports a Discord bot token: the bot's ID in
	// base64, a timestamp and an HMAC, three parts joined by dots, in a
	// file that names Discord or hands it to login(). The first part
	// must decode to the digits of an ID.
	RuleDiscordBotToken = "discord-bot-token"
	// RuleSentryDSN reports the key of a Sentry DSN
	// (https://<key>@o1.ingest.sentry.io/<project>). Sentry calls the
	// DSN safe to ship in a browser's code: it can only send events, so
	// this is a warning.
	RuleSentryDSN = "sentry-dsn"
	// RuleResendAPIKey reports a Resend API key: re_, 8 characters, _
	// and 24 more.
	RuleResendAPIKey = "resend-api-key"
	// RuleCLIUserPassword reports a password a command line gives after
	// its user: cypher-shell -u neo4j -p '…', mongosh -u admin -p …,
	// curl -u elastic:…. Not mysql's -p with a blank (it prompts, and
	// the word after is a database), nor docker's -p (a port).
	RuleCLIUserPassword = "cli-user-password"
)

// clientRules returns fresh copies of the rules above, in rank order.
func clientRules() []*Rule {
	return freshCopies(clientCompiled())
}

var clientCompiled = sync.OnceValue(func() []*Rule {
	return []*Rule{
		{
			ID:          RuleClientKeyLiteral,
			Description: "API key handed to a client's constructor (cohere.Client(\"…\"), new OpenAIClient(\"…\"))",
			builtinRE: builtinExpr(`(?:\b[a-z_][\w]*\.(?:Async|Rest)?Client(?:V\d)?|\bnew[ \t]+[A-Z][\w]*Client|\b(?:[A-Z][\w]*)?Client(?:\.new|::new)?|\binitClient|\b(?i:twilio))` +
				`[ \t]*\([ \t]*(?:` +
				// an account's ID, then its secret: Twilio's Client(sid,
				// token), Plivo's RestClient(auth_id, token)
				`(?:"[A-Za-z0-9_.@-]{6,64}"|'[A-Za-z0-9_.@-]{6,64}')[ \t]*,[ \t]*` + clientKeyName +
				`(?:"(?P<secret>[A-Za-z0-9_-]{30,100})"|'(?P<secret>[A-Za-z0-9_-]{30,100})')[ \t]*[,)]` +
				// or the key alone
				`|` + clientKeyName + `(?:"(?P<secret>[A-Za-z0-9_-]{25,100})"|'(?P<secret>[A-Za-z0-9_-]{25,100})')[ \t]*[,)])` +
				// or a setter or a builder's step that names it:
				// sgMail.setApiKey("…"), withAccessToken("…"), .apiKey("…")
				`|(?:\b(?:set|with|use)_?(?P<key>(?i:api_?key|api_?token|access_?token|auth_?token|bearer_?token|client_?secret|secret_?key|token|secret))|\.(?P<key>apiKey|api_key|accessToken|authToken|apiToken))` +
				`[ \t]*\([ \t]*(?:"(?P<secret>[A-Za-z0-9_-]{25,100})"|'(?P<secret>[A-Za-z0-9_-]{25,100})')[ \t]*\)`),
			Keywords: []string{"client(", "clientv2(", "client (", "clientv2 (", "client.new(", "client::new(", "twilio(",
				"apikey(", "api_key(", "token(", "secret("},
			Validate: validClientKey,
		},
		{
			ID:          RuleDiscordBotToken,
			Description: "Discord bot token (the bot's ID in base64, a timestamp and an HMAC)",
			builtinRE:   builtinExpr(`(?:^|[^A-Za-z0-9_.-])(?P<secret>[MNO][A-Za-z0-9_-]{22,26}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38})(?:[^A-Za-z0-9_.-]|$)`),
			// the file names Discord (an import, a package, a variable)
			// before the token, or hands it to login()
			Keywords: []string{"discord", "login("},
			Before:   4 << 10,
			After:    16 << 10,
			Validate: validDiscordBotToken,
		},
		{
			ID:          RuleSentryDSN,
			Description: "Sentry DSN's key (https://<key>@o1.ingest.sentry.io/1); a warning: Sentry ships DSNs in browser code",
			builtinRE:   builtinExpr(`\bhttps?://(?P<secret>[0-9a-f]{32})(?::[0-9a-f]{32})?@(?:[a-z0-9-]+\.)*(?:sentry\.io|sentry[a-z0-9-]*\.[a-z0-9.-]+)(?::\d+)?/(?:[a-z0-9_-]+/)?\d+\b`),
			Keywords:    []string{"sentry"},
			Before:      256,
			Entropy:     3,
		},
		{
			ID:          RuleCLIUserPassword,
			Description: "password given on a command line after its user (-u neo4j -p '…', curl -u elastic:…)",
			builtinRE: builtinExpr(`(?:^|[\s;|&(])(?P<cmd>[A-Za-z0-9_.-]+)[^\n;|&]*?[ \t]-(?:u|U|-user|-username)[ \t=]+["']?(?P<key>[A-Za-z0-9_.@-]+)["']?[ \t]+-(?:p|-password)[ \t=]+` +
				`(?:'(?P<secret>[^'\s]{4,128})'|"(?P<secret>[^"\s]{4,128})"|(?P<secret>[^\s'"$\x60-][^\s'"\x60]{3,127}))(?:$|[\s;|&)])` +
				`|\bcurl\b[^\n]*?[ \t](?:-u|--user)[ \t=]+["']?(?P<key>[A-Za-z0-9_.@-]+):(?P<secret>[^\s"'@$\x60]{4,128})["']?(?:$|[\s;|&)])`),
			Keywords: []string{" -u ", " -u=", "--user", " -u\t"},
			Validate: validCLIUserPassword,
		},
		{
			ID:              RuleResendAPIKey,
			Description:     "Resend API key (re_…_…)",
			builtinRE:       builtinExpr(`\b(?P<secret>re_[A-Za-z0-9]{8}_[A-Za-z0-9]{24})\b`),
			Keywords:        []string{"re_"},
			Entropy:         3.5,
			Validate:        func(c Candidate) bool { return mixedClasses(c.Secret[3:]) },
			startsAtKeyword: true,
			tokenAtKeyword:  true,
		},
	}
})

// an argument's name before the key, where the language names it
const clientKeyName = `(?:(?i:api_?key|api_?token|auth_?token|token|key|secret)[ \t]*=[ \t]*)?`

// validClientKey: the literal is a key, not a name or an ID: letters of
// both cases and digits at 3.5 bits a byte, or 32 or more hex digits
// with letters among them; not a UUID.
func validClientKey(c Candidate) bool {
	v := c.Secret
	if IsPlaceholder(v) || allSame(v) {
		return false
	}
	if len(v) == 36 && bytes.Count(v, []byte("-")) == 4 {
		return false // a UUID: an ID
	}
	if mixedClasses(v) {
		return c.secretEntropy() >= 3.5
	}
	hex := len(v) >= 32 && hasDigit(v)
	for _, b := range v {
		if !(b >= '0' && b <= '9' || b >= 'a' && b <= 'f') {
			hex = false
			break
		}
	}
	return hex && bytes.ContainsAny(v, "abcdef")
}

// cliNoPassword are the commands whose -p after -u is no password: a
// prompt (mysql, mariadb: the word after is a database), a port
// (docker, podman, ssh), a path or a profile.
var cliNoPassword = map[string]bool{"mysql": true, "mysqldump": true, "mysqladmin": true, "mariadb": true, "mariadb-dump": true,
	"docker": true, "podman": true, "nerdctl": true, "ssh": true, "scp": true, "sftp": true, "kubectl": true, "mkdir": true,
	"aws": true, "rsync": true, "nc": true, "ncat": true, "iperf": true, "iperf3": true}

// validCLIUserPassword: a chosen password (not a variable, a port, a
// placeholder, the user's name again), not on a command for which -p is
// something else.
func validCLIUserPassword(c Candidate) bool {
	v := c.Secret
	line := c.Context[:c.Offset]
	if j := bytes.LastIndexByte(line, '\n'); j >= 0 {
		line = line[j+1:]
	}
	for _, f := range bytes.Fields(line) {
		if cliNoPassword[string(bytes.TrimLeft(f, "$(`"))] {
			return false
		}
	}
	if bytes.EqualFold(v, c.Key) || IsPlaceholder(v) || referenceInValue(v) || !plausiblePassword(v, wholeLiteral(c)) {
		return false
	}
	numeric := true
	for _, b := range v {
		if (b < '0' || b > '9') && b != ':' && b != '/' {
			numeric = false
		}
	}
	return !numeric && (hasDigit(v) || hasUpper(v) || bytes.ContainsAny(v, "!#%&*+?@^~"))
}

// validDiscordBotToken: the first part is the bot's ID, a snowflake of
// 17 to 20 digits, in base64.
func validDiscordBotToken(c Candidate) bool {
	_, ok := discordTokenID(c.Secret)
	return ok
}

// discordTokenID returns the bot's ID a Discord token's first part holds:
// 17 to 20 digits, no leading zero, in base64.
func discordTokenID(token []byte) (uint64, bool) {
	id, _, _ := bytes.Cut(token, []byte("."))
	raw, err := base64.RawURLEncoding.DecodeString(string(bytes.TrimRight(id, "=")))
	if err != nil || len(raw) < 17 || len(raw) > 20 || raw[0] == '0' {
		return 0, false
	}
	for _, b := range raw {
		if b < '0' || b > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseUint(string(raw), 10, 64)
	return n, err == nil
}
