package secrets

import (
	"bytes"
	"time"
)

// Provider formats that name themselves by their shape, with no word near
// them that says whose they are, found missing on detect-secrets' plugin
// tests (round forty-four). Ranked after every older rule, so no older
// finding changes ID.
const (
	// A Mailchimp API key without the word mailchimp near it (gitleaks'
	// and Kingfisher's rules want it): its data center suffix names it.
	RuleMailchimpKey = "mailchimp-dc-api-key"
	// A Discord bot token with no word near it that names Discord
	// (discord-bot-token wants one): its first part is a snowflake ID in
	// base64.
	RuleDiscordBotTokenBare = "discord-bot-token-bare"
)

// bareFormatRules returns the rules above, in rank order.
func bareFormatRules() []*Rule {
	return []*Rule{
		{
			ID:          RuleMailchimpKey,
			Description: "Mailchimp API key (32 hex digits and its data center, -us1 to -us21)",
			builtinRE:   builtinExpr(`(?:^|[^A-Za-z0-9_-])(?P<secret>[0-9a-f]{32}-us[0-9]{1,2})(?:[^A-Za-z0-9_-]|$)`),
			Keywords:    []string{"-us"},
			Gate:        mailchimpGate,
			Validate:    mailchimpValid,
		},
		{
			ID:          RuleDiscordBotTokenBare,
			Description: "Discord bot token with no name near it (the bot's ID in base64, a timestamp and an HMAC)",
			builtinRE:   builtinExpr(`(?:^|[^A-Za-z0-9_.-])(?P<secret>[MNO][A-Za-z0-9_-]+\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]+)\.?(?:[^A-Za-z0-9_.-]|$)`),
			// The lengths are the gate's (the ID's) and the validator's
			// (the HMAC's): counted in the expression, they made its
			// filter's machine give up on a long line of near misses.
			Keywords: []string{"."},
			Gate:     discordTokenGate,
			Validate: discordTokenBareValid,
		},
	}
}

// discordTokenGate holds at a dot (at i) only where a Discord token's
// first dot can stand: six token bytes and a dot after it, and before it
// 23 to 27 token bytes from an M, N or O after no token byte. Most
// dots end a sentence or join words and fail at the byte seven on.
func discordTokenGate(data []byte, i int) bool {
	if i+7 >= len(data) || data[i+7] != '.' {
		return false
	}
	for _, c := range data[i+1 : i+7] {
		if !isTokenByte(c) {
			return false
		}
	}
	j := i
	for j > 0 && i-j < 27 && isTokenByte(data[j-1]) {
		j--
	}
	if n := i - j; n < 23 || j > 0 && (isTokenByte(data[j-1]) || data[j-1] == '.') {
		return false
	}
	return data[j] == 'M' || data[j] == 'N' || data[j] == 'O'
}

// isTokenByte: a byte of base64url.
func isTokenByte(c byte) bool { return isAlnumByte(c) || c == '_' || c == '-' }

// discordTokenBareValid: with no name to say Discord, the token's shape
// must: its first part the digits of a snowflake ID (discordTokenID)
// whose time is Discord's (from 2015 to a year from now), and its HMAC
// drawn (capitals, small letters and digits).
func discordTokenBareValid(c Candidate) bool {
	n, ok := discordTokenID(c.Secret)
	if !ok {
		return false
	}
	const discordEpoch = 1420070400000 // 2015-01-01, in ms
	if time.UnixMilli(int64(n>>22) + discordEpoch).After(time.Now().AddDate(1, 0, 0)) {
		return false
	}
	id, _, _ := bytes.Cut(c.Secret, []byte("."))
	hmac := c.Secret[bytes.LastIndexByte(c.Secret, '.')+1:]
	return len(id) <= 27 && 27 <= len(hmac) && len(hmac) <= 38 && mixedClasses(hmac)
}

// mailchimpGate holds at a keyword hit ("-us", its "s" at i) only where
// a key can end: 32 lower-case hex digits before the "-", after no
// letter or digit, and a digit after the "s". "-us" is in "en-us", "-use"
// and "-user" far more often than in a key; this reads a few bytes.
func mailchimpGate(data []byte, i int) bool {
	st := i - 34
	if st < 0 || i+1 >= len(data) || !isDigitByte(data[i+1]) || st > 0 && isAlnumByte(data[st-1]) {
		return false
	}
	return allLowerHex(data[st : i-2])
}

// mailchimpValid: a data center Mailchimp has (us1 to us21, with room
// for a few more), and 32 digits that read as drawn (entropyFloor's hex
// floor).
func mailchimpValid(c Candidate) bool {
	hex, dc := c.Secret[:32], c.Secret[35:]
	if dc[0] == '0' || len(dc) == 2 && dc[0] > '3' {
		return false
	}
	return Entropy(hex) >= entropyFloor(3.5, hex)
}
