package secrets

import (
	"bytes"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"fmt"
	"strings"
)

// Rule IDs of the formats issue 33 found both sotvet and gitleaks missing.
const (
	RuleAzureDevOpsPAT   = "azure-devops-pat"
	RuleAzureSAS         = "azure-sas-signature"
	RuleAzureAccountKey  = "azure-account-key"
	RuleAzureACRPassword = "azure-acr-password"
	RuleDockerHubPAT     = "dockerhub-pat"
	RuleDockerAuth       = "docker-config-auth"
	RuleGoogleOAuth      = "google-oauth-access-token"
	RuleSlackRefresh     = "slack-refresh-token"
	RuleTelegramBot      = "telegram-bot-token"
	RuleNamedKey         = "named-key-value"
	RuleK8sBootstrap     = "kubernetes-bootstrap-token"

	// Found missing on an independently written labelled set (issue 33,
	// "labelled data you did not write").
	RuleAzureDevOpsPATLegacy = "azure-devops-pat-legacy"
	RuleDiscordWebhook       = "discord-webhook"
	RuleGoogleClientSecret   = "google-oauth-client-secret"
	RuleStripeWebhookSecret  = "stripe-webhook-secret"
	RuleBitbucketAppPassword = "bitbucket-app-password"
	RuleMailgunKey           = "mailgun-api-key"

	// Found missing on a second such set, round eighteen; ranked last.
	RuleFCMServerKey = "fcm-server-key"

	// Found missing on a peer's own test suite (CredSweeper's samples),
	// round thirty-five; ranked last as well.
	RuleSalesforceAccessToken = "salesforce-access-token"
	RuleNATSSeed              = "nats-nkey-seed"
	RuleGoogleRefreshToken    = "google-oauth-refresh-token"

	// Twitter's (X's) own documented token, which gitleaks' rule misses.
	RuleTwitterAppBearer = "twitter-app-bearer-token"

	// Laravel Sanctum's API tokens, which no rule of the three sources
	// reads: "<id>|<random>".
	RuleSanctumToken = "laravel-sanctum-token"

	// Two formats found missing on TruffleHog's detector tests, round
	// thirty-eight: Tableau's personal access token secret and
	// SpectralOps' personal API key.
	RuleTableauPATSecret = "tableau-pat-secret"
	RuleSpectralOpsKey   = "spectralops-personal-key"
	// And an Atlassian organization's admin API key, which no rule of the
	// three sources reads (vendor-token reports one of an unexpected
	// length).
	RuleAtlassianAdminKey = "atlassian-admin-api-key"
)

// signedFormatRules are provider formats whose shape names them, no name
// on the line needed, written from each provider's documentation:
//   - a Salesforce access token (a session ID): the org's ID, 15
//     characters beginning "00D", an "!", and the session's part, about
//     96 characters of letters, digits, "." and "_" ("00D…!AR…");
//   - a NATS NKey seed: "S", the key's type (U user, A account, O
//     operator, N server, C cluster, X curve), and 56 characters of
//     base32, 58 in all (docs.nats.io, "NKeys");
//   - a Google OAuth 2.0 refresh token: "1//0" and some 40 to 200
//     characters of base64url (developers.google.com, OAuth 2.0
//     Playground output; the access token it refreshes is ya29.);
//   - a Twitter (X) app-only bearer token: 21 "A"s, then some 80 to 100
//     characters of letters, digits and the URL escapes of its "+", "/"
//     and "=" (docs.x.com, "Bearer tokens": the decommissioned token it
//     shows has 21 "A"s then "ML", which gitleaks' twitter-bearer-token,
//     A{22} after a "twitter" name, does not match);
//   - a Laravel Sanctum API token as createToken()->plainTextToken gives
//     it: the token's database id, "|", and 40 random letters and digits,
//     since Laravel 11 after the configured token_prefix and before the
//     random part's CRC32 in 8 hex digits (laravel.com/docs, "Sanctum",
//     "Issuing API Tokens"; clients send it as "Bearer 1|…");
//   - a Tableau personal access token's secret: 16 random bytes in
//     base64 (22 characters and "=="), ":", and 32 letters and digits
//     (help.tableau.com, "Personal Access Tokens"; the REST API's
//     personalAccessTokenSecret);
//   - a SpectralOps personal API key: "spu-" and 32 lower-case letters
//     and digits;
//   - an Atlassian organization's admin API key: "ATCTT3" and 186
//     characters of base64url and "=", as an Atlassian API token's
//     ("ATATT3", gitleaks' atlassian-api-token) ends: "=" and a checksum
//     of 8 hex digits.
func signedFormatRules() []*Rule {
	return []*Rule{
		{
			ID:          RuleSanctumToken,
			Description: "Laravel Sanctum API token (id|token)",
			builtinRE:   builtinExpr(`(?:^|[^A-Za-z0-9_|])[0-9]{1,12}\|(?P<secret>[A-Za-z0-9_]{40,})(?:[^A-Za-z0-9_]|$)`),
			Entropy:     4,
			Keywords:    []string{"0|", "1|", "2|", "3|", "4|", "5|", "6|", "7|", "8|", "9|"},
			Gate:        sanctumGate,
			Validate:    sanctumValid,
		},
		{
			ID:          RuleTwitterAppBearer,
			Description: "Twitter (X) app-only bearer token",
			builtinRE:   builtinExpr(`(?:^|[^A-Za-z0-9%_-])(?P<secret>A{21}[A-Za-z0-9%]{81,101})(?:[^A-Za-z0-9%]|$)`),
			Entropy:     3.5,
			Keywords:    []string{"aaaaaaaaaaaaaaaaaaaaa"},
			Gate:        twitterBearerGate,
			Validate:    twitterBearerValid,
		},
		{
			ID:          RuleSalesforceAccessToken,
			Description: "Salesforce access token (session ID: org ID, \"!\", session)",
			builtinRE:   builtinExpr(`\b(?P<secret>00D[A-Za-z0-9]{12}![A-Za-z0-9._]{80,})(?:[^A-Za-z0-9._]|$)`),
			Entropy:     4,
			Keywords:    []string{"00d"},
			Validate:    func(c Candidate) bool { return len(c.Secret) <= 160 },
		},
		{
			ID:          RuleNATSSeed,
			Description: "NATS NKey seed (private key)",
			builtinRE:   builtinExpr(`(?:^|[^A-Za-z0-9_])(?P<secret>S[UAONCX][A-Z2-7]{56})(?:[^A-Za-z0-9_]|$)`),
			Entropy:     3.5,
			Keywords:    []string{"su", "sa", "so", "sn", "sc", "sx"},
			Gate:        natsSeedGate,
		},
		{
			ID:          RuleGoogleRefreshToken,
			Description: "Google OAuth 2.0 refresh token",
			builtinRE:   builtinExpr(`(?:^|[^A-Za-z0-9_/-])(?P<secret>1//0[A-Za-z0-9_-]{40,})(?:[^A-Za-z0-9_-]|$)`),
			Entropy:     4,
			Keywords:    []string{"1//0"},
			Validate:    func(c Candidate) bool { return len(c.Secret) <= 220 && mixedClasses(c.Secret[4:]) },
		},
		{
			ID:          RuleTableauPATSecret,
			Description: "Tableau personal access token secret (base64==:secret)",
			builtinRE:   builtinExpr(`(?:^|[^A-Za-z0-9+/])(?P<secret>[A-Za-z0-9+/]{21}[AQgw]==:[A-Za-z0-9]{32})(?:[^A-Za-z0-9]|$)`),
			Entropy:     3.5,
			Keywords:    []string{"==:"},
			Gate:        tableauSecretGate,
			Validate:    func(c Candidate) bool { return mixedClasses(c.Secret[25:]) },
		},
		{
			ID:          RuleSpectralOpsKey,
			Description: "SpectralOps personal API key (spu-)",
			builtinRE:   builtinExpr(`\b(?P<secret>spu-[a-z0-9]{32})(?:[^A-Za-z0-9_-]|$)`),
			Entropy:     3.5,
			Keywords:    []string{"spu-"},
			Validate:    func(c Candidate) bool { return hasDigit(c.Secret[4:]) && hasLower(c.Secret[4:]) },
		},
		{
			ID:          RuleAtlassianAdminKey,
			Description: "Atlassian organization admin API key (ATCTT3)",
			builtinRE:   builtinExpr(`\b(?P<secret>ATCTT3[A-Za-z0-9_=-]{186})(?:[^A-Za-z0-9_=-]|$)`),
			Entropy:     4,
			Keywords:    []string{"atctt3"},
			Validate:    func(c Candidate) bool { return mixedClasses(c.Secret[6:]) },
		},
	}
}

// tableauSecretGate holds at a keyword hit ("==:", its ":" at i) only
// where a secret can stand: 22 base64 characters before the "==" whose
// last is one that 16 bytes end in (A, Q, g or w: the four bits past the
// 128 are zero), and 32 letters and digits after the ":".
func tableauSecretGate(data []byte, i int) bool {
	st := i - 24
	if st < 0 || i+33 > len(data) || strings.IndexByte("AQgw", data[i-3]) < 0 {
		return false
	}
	for _, c := range data[st : i-2] {
		if !isAlnum(c) && c != '+' && c != '/' {
			return false
		}
	}
	for _, c := range data[i+1 : i+33] {
		if !isAlnum(c) {
			return false
		}
	}
	return true
}

// twitterBearerValid holds a token that escapes at least one "+", "/" or
// "=" (%2B, %2F, %3D), as every documented token does: base64 never holds
// a "%", so a base64 blob that starts with zero bytes ("AAAA…") is not
// taken for one.
func twitterBearerValid(c Candidate) bool {
	rest := bytes.ToUpper(c.Secret[21:])
	return bytes.Contains(rest, []byte("%2B")) || bytes.Contains(rest, []byte("%2F")) || bytes.Contains(rest, []byte("%3D"))
}

// twitterBearerGate holds at a keyword hit (21 "a"s in any case) only
// where a token can start: 21 upper-case "A"s at the start of a word (not
// after "_" or "-": the A-runs of other tokens, ghp_AAAA…). A
// run of "A"s is a hit at every byte past its 21st; only its first can
// start a token (4 MB of them cost 1 s of expression work ungated).
func twitterBearerGate(data []byte, i int) bool {
	st := i - 20
	if st < 0 || st > 0 && (isAlnum(data[st-1]) || strings.IndexByte("%_-", data[st-1]) >= 0) {
		return false
	}
	for _, c := range data[st : i+1] {
		if c != 'A' {
			return false
		}
	}
	return true
}

// sanctumGate holds at a keyword hit (a digit and "|": a compact table's
// cells, "x==1||y") only where a token can follow: 40 letters and digits
// after the pipe, of both cases and with a digit (sanctumValid), so that a
// table of commits or digests is turned down here, before the expression.
//
// The 40 are read after the token_prefix (Laravel 11's, ending in "_"),
// as sanctumValid reads them: read from the pipe, "app_" took four of
// them, and a token whose first 36 random characters held no digit, one
// draw in five hundred, was turned down.
func sanctumGate(data []byte, i int) bool {
	from := i + 1
	for j := from; j < len(data) && j < i+1+sanctumPrefixMax && isWordByte(data[j]); j++ {
		if data[j] == '_' {
			from = j + 1
		}
	}
	if from+40 > len(data) {
		return false
	}
	var upper, lower, digit bool
	for _, c := range data[from : from+40] {
		switch {
		case 'A' <= c && c <= 'Z':
			upper = true
		case 'a' <= c && c <= 'z':
			lower = true
		case '0' <= c && c <= '9':
			digit = true
		case c != '_':
			return false
		}
	}
	return upper && lower && digit
}

// sanctumPrefixMax is the longest token_prefix sanctumGate skips.
const sanctumPrefixMax = 24

// sanctumValid holds a token whose random part (the 40 characters before
// the CRC32, after a prefix ending in "_") mixes upper case, lower case and
// digits, as Str::random(40) does but for about one draw in two billion: a
// commit or a digest in a compact table (|3|<40 hex>|) does not.
func sanctumValid(c Candidate) bool {
	v := c.Secret
	if len(v) > 80 {
		return false
	}
	if i := bytes.LastIndexByte(v, '_'); i >= 0 {
		v = v[i+1:] // the token_prefix
	}
	if len(v) != 40 && (len(v) != 48 || bytes.IndexFunc(v[40:], func(r rune) bool { return !('0' <= r && r <= '9' || 'a' <= r && r <= 'f') }) >= 0) {
		return false
	}
	r := v[:40]
	return hasUpper(r) && hasLower(r) && hasDigit(r)
}

// natsSeedGate holds at a keyword hit ("su", "sa", …: two letters many
// words hold) only where a seed can start: at a word's start, upper
// case, with 56 more upper-case base32 characters after it.
func natsSeedGate(data []byte, i int) bool {
	st := i - 1 // the hit's first byte: keywords are two bytes
	if st < 0 || data[st] != 'S' || st > 0 && isAlnum(data[st-1]) || st+58 > len(data) {
		return false
	}
	for _, c := range data[st+2 : st+58] {
		if !('A' <= c && c <= 'Z' || '2' <= c && c <= '7') {
			return false
		}
	}
	return true
}

// fcmServerKeyRule is Firebase Cloud Messaging's legacy server key: an
// "AAAA" project prefix of 11 characters, a colon, and a token that
// begins "APA91b" (152 characters in all, as Firebase's console shows
// them). Its shape names it: no provider name is needed on its line.
func fcmServerKeyRule() *Rule {
	return &Rule{
		ID:          RuleFCMServerKey,
		Description: "Firebase Cloud Messaging legacy server key",
		builtinRE:   builtinExpr(`(?:^|[^A-Za-z0-9_-])(?P<secret>AAAA[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{100,200})(?:[^A-Za-z0-9_-]|$)`),
		Entropy:     4,
		Keywords:    []string{":apa91b"},
	}
}

// gapRules are the rules for those formats, each written from the
// provider's documentation of the format (see docs/secrets.md).
func gapRules() []*Rule {
	return []*Rule{
		{
			// 84 characters since 2024, with the fixed signatures "JQQJ"
			// at offset 52 and "AZDO" at offset 76; copied with two more
			// and "==" (Microsoft's annotated key format allows it).
			ID:          RuleAzureDevOpsPAT,
			Description: "Azure DevOps personal access token",
			builtinRE:   builtinExpr(`\b(?P<secret>[A-Za-z0-9]{52}JQQJ[A-Za-z0-9]{20}AZDO[A-Za-z0-9]{4}(?:[A-Za-z0-9]{2}==)?)(?:[^A-Za-z0-9+/=_-]|$)`),
			Entropy:     3,
			Keywords:    []string{"jqqj"},
		},
		{
			// A shared access signature URL: sig= is the HMAC-SHA256 of
			// the other parameters, base64 (44 characters, "=" often
			// written %3D); sv= (the version) names it a SAS. The
			// trigger URLs of Logic Apps and Power Automate flows (Teams'
			// Workflows webhooks among them) sign the same way in base64url
			// without padding: 43 characters of "-" and "_" too
			// (".../workflows/<id>/triggers/manual/paths/invoke?api-version=
			// 2016-10-01&sp=...&sv=1.0&sig=...").
			ID:          RuleAzureSAS,
			Description: "Azure shared access signature (sig= of a SAS URL or token)",
			builtinRE:   builtinExpr(`[?&;]sig=(?P<secret>[A-Za-z0-9%+/_-]{40,120}(?:%3[Dd]|=){0,2})`),
			Entropy:     3.5,
			Keywords:    []string{"sig="},
			Validate: func(c Candidate) bool {
				l := c.Line()
				return bytes.Contains(l, []byte("sv=")) || bytes.Contains(l, []byte("se=")) || bytes.Contains(l, []byte("sr="))
			},
		},
		{
			// A storage account key is 64 random bytes in base64: 86
			// characters and "==". Outside a connection string it is
			// reported near the words that name it.
			ID:          RuleAzureAccountKey,
			Description: "Azure storage account key (88-character base64 near storage or account)",
			builtinRE:   builtinExpr(`(?:^|[^A-Za-z0-9+/])(?P<secret>[A-Za-z0-9+/]{86}==)`),
			Entropy:     4.5,
			Keywords:    []string{"storage", "accountkey", "account_key", "account-key", "azure", "az storage"},
			Before:      512,
			After:       512,
			Validate:    func(c Candidate) bool { return mixedClasses(c.Secret) },
		},
		{
			// Admin and token passwords of Azure Container Registry carry
			// "+ACR" at offset 42 of 52; any value given to docker login
			// for an *.azurecr.io registry is one too.
			ID:          RuleAzureACRPassword,
			Description: "Azure Container Registry password",
			builtinRE: builtinExpr(`(?:^|[^A-Za-z0-9+/])(?P<secret>[A-Za-z0-9+/]{42}\+ACR[A-Za-z0-9+/]{6})` +
				`|(?i:azurecr\.io\b[^\n]{0,200}?(?:-p|--password)[ =]+)["']?(?P<secret>[A-Za-z0-9+/=_-]{20,})`),
			Entropy:  3.5,
			Keywords: []string{"+acr", "azurecr.io"},
		},
		{
			ID:          RuleDockerHubPAT,
			Description: "Docker Hub personal or organisation access token",
			builtinRE:   builtinExpr(`\b(?P<secret>dckr_(?:pat|oat)_[A-Za-z0-9_-]{27,})(?:[^A-Za-z0-9_-]|$)`),
			Entropy:     3.3,
			Keywords:    []string{"dckr_pat_", "dckr_oat_"},
		},
		{
			// ~/.docker/config.json: "auths": {"host": {"auth": base64 of
			// user:password}}.
			ID:          RuleDockerAuth,
			Description: "Docker registry credential (config.json auth, base64 of user:password)",
			// also escaped once or more inside a string: GitLab runner's
			// DOCKER_AUTH_CONFIG="{\"auths\":…}", a config.json in YAML
			builtinRE: builtinExpr(`\\*"auth\\*"\s*:\s*\\*"(?P<secret>[A-Za-z0-9+/]{8,}={0,2})\\*"`),
			Keywords:  []string{`"auth"`, `auth\`},
			Validate:  validDockerAuth,
		},
		{
			ID:          RuleGoogleOAuth,
			Description: "Google OAuth 2.0 access token",
			builtinRE:   builtinExpr(`\b(?P<secret>ya29\.[A-Za-z0-9_-]{30,})`),
			Entropy:     4,
			Keywords:    []string{"ya29."},
		},
		{
			ID:          RuleSlackRefresh,
			Description: "Slack refresh or configuration token (xoxe-, xoxe.xoxp-)",
			builtinRE:   builtinExpr(`\b(?P<secret>xoxe(?:\.xox[bparose])?-\d-[A-Za-z0-9]{60,250})\b`),
			Entropy:     4,
			Keywords:    []string{"xoxe-", "xoxe."},
		},
		{
			// bot<id>:<35 characters>, the secret part beginning "AA";
			// in the Bot API's URLs it follows "bot" directly
			// (https://api.telegram.org/bot<token>/getMe).
			ID:          RuleTelegramBot,
			Description: "Telegram bot token",
			builtinRE:   builtinExpr(`(?:\b|bot)(?P<secret>[0-9]{8,10}:AA[A-Za-z0-9_-]{33})(?:[^A-Za-z0-9_-]|$)`),
			Entropy:     3.5,
			Keywords:    []string{":aa"},
		},
		{
			// Before 2024 a PAT was 52 characters of lower-case base32
			// (a-z, 2-7) with no signature: reported near a word that
			// names Azure DevOps.
			ID:          RuleAzureDevOpsPATLegacy,
			Description: "Azure DevOps personal access token (52-character format, near a name of Azure DevOps)",
			builtinRE:   builtinExpr(`(?:^|[^A-Za-z0-9_])(?P<secret>[a-z2-7]{52})(?:[^A-Za-z0-9_]|$)`),
			Entropy:     4,
			Keywords:    []string{"devops", "adopat", "ado_pat", "ado-pat", "ado.pat", "azdo", "vsts", "dev.azure.com", "visualstudio.com"},
			Before:      256,
			After:       256,
			Validate:    func(c Candidate) bool { return hasDigit(c.Secret) },
		},
		{
			// https://discord.com/api/webhooks/<id>/<token>: the token
			// (68 characters today) is the credential.
			ID:          RuleDiscordWebhook,
			Description: "Discord webhook URL token",
			builtinRE:   builtinExpr(`\bhttps?://(?:(?:ptb|canary)\.)?discord(?:app)?\.com/api/(?:v[0-9]{1,2}/)?webhooks/[0-9]{17,20}/(?P<secret>[A-Za-z0-9_-]{60,})`),
			Entropy:     4,
			Keywords:    []string{"discord.com/api/", "discordapp.com/api/"},
		},
		{
			// OAuth client secrets of Google Cloud carry "GOCSPX-" and
			// 28 characters since 2021.
			ID:          RuleGoogleClientSecret,
			Description: "Google OAuth client secret",
			builtinRE:   builtinExpr(`\b(?P<secret>GOCSPX-[A-Za-z0-9_-]{28})(?:[^A-Za-z0-9_-]|$)`),
			Entropy:     3.5,
			Keywords:    []string{"gocspx-"},
		},
		{
			// The signing secret of a Stripe webhook endpoint.
			ID:          RuleStripeWebhookSecret,
			Description: "Stripe webhook signing secret",
			builtinRE:   builtinExpr(`\b(?P<secret>whsec_[A-Za-z0-9+/=]{32,})`),
			Entropy:     3.5,
			Keywords:    []string{"whsec_"},
			Validate:    func(c Candidate) bool { return len(c.Secret) <= 120 },
		},
		{
			// Bitbucket app passwords begin "ATBB" (Atlassian API tokens,
			// "ATATT", have gitleaks' rule).
			ID:          RuleBitbucketAppPassword,
			Description: "Bitbucket app password",
			builtinRE:   builtinExpr(`\b(?P<secret>ATBB[A-Za-z0-9_=-]{24,})`),
			Entropy:     3.5,
			Keywords:    []string{"atbb"},
			Validate:    func(c Candidate) bool { return len(c.Secret) <= 80 && mixedClasses(c.Secret[4:]) },
		},
		{
			// Mailgun's private API keys since 2023: 32, 8 and 8 hex
			// digits; reported near the word mailgun.
			ID:          RuleMailgunKey,
			Description: "Mailgun private API key (32-8-8 hex, near mailgun)",
			builtinRE:   builtinExpr(`\b(?P<secret>[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8})\b`),
			Entropy:     3,
			Keywords:    []string{"mailgun"},
			Before:      256,
			After:       256,
		},
		{
			// <token-id>.<token-secret>: 6 and 16 characters of [a-z0-9]
			// (kubernetes.io, "Authenticating with Bootstrap Tokens"),
			// after a name that says bootstrap.
			ID:          RuleK8sBootstrap,
			Description: "Kubernetes bootstrap token",
			builtinRE:   builtinExpr(`(?i)bootstrap[A-Za-z0-9_-]{0,24}["']?[ \t]*[:=]?[ \t]*["']?\b(?P<secret>(?-i:[a-z0-9]{6}\.[a-z0-9]{16}))\b`),
			Keywords:    []string{"bootstrap"},
		},
		{
			// "AWS secret key wJalr...", "Stripe API key sk_...": a name
			// and its value with no assignment sign between them, or the
			// words prose puts there ("the API token is …", "auth token
			// (…)", "the bind password, enter …"). Only a value that looks
			// random is one: 20 or more characters of upper and lower
			// case and digits, or 32 or more of hex.
			ID:          RuleNamedKey,
			Description: "credential value written after its name without an assignment sign",
			builtinRE: builtinExpr(`(?i)\b(?P<key>(?:api|access|secret|private|auth|application|app|org|bot|vault|bearer|refresh|session|service)[ _-]?(?:key|token)|(?:client|signing|session|webhook)[ _-]?secret|password|passwd|passphrase)` +
				`(?:[ \t]+(?:(?:is|was|to|enter)[ \t]+)?|,[ \t]*enter[ \t]+)[\x60"'(]?(?-i:(?P<secret>[A-Za-z0-9+/_.~=-]{19,199}[A-Za-z0-9+/_~=-]))\.*(?:[^A-Za-z0-9+/_.~=-]|$)` +
				// a password stated in prose may hold any symbol; the
				// value never ends in the sentence's full stop
				`|(?i)\b(?P<key>password|passwd|passphrase)(?:[ \t]+(?:is|was|enter)[ \t]+[\x60"']?|,[ \t]*enter[ \t]+[\x60"']?|[ \t]+\()(?P<secret>[^\s\x60"',;()]{11,63}[^\s\x60"',;().])\.*(?:[\s\x60"',;)]|$)`),
			Entropy:  3,
			Keywords: []string{"key ", "token ", "password ", "passwd ", "secret ", "passphrase ", "key,", "token,", "secret,", "password,"},
			Gate:     namedKeyGate,
			Validate: validNamedKey,
		},
	}
}

// validNamedKey: a random-looking value, not words.
func validNamedKey(c Candidate) bool {
	v := c.Secret
	if wordListRE.Match(v) || !hasSymbol(v) && identifierValue(v) {
		return false
	}
	if passwordName(c.Key) && !hasSymbol(v) && len(v) < 20 {
		// a short password in prose: "the keystore password (…)"
		return mixedClasses(v) && Entropy(v) >= 3.5
	}
	if hasSymbol(v) {
		// the prose form of a password: generated ones mix all four
		// classes; a path, a URL or code is none
		return mixedClasses(v) && Entropy(v) >= 3.5 && !bytes.ContainsAny(v, "/:()[]{}<>$")
	}
	if isHexLower(v) {
		// a commit id, a digest or a UUID written after a name is
		// still one when the line says so
		return len(v) >= 32 && !knownDigests[string(v)] && !c.lineNamesDigest()
	}
	return mixedClasses(v) && Entropy(v) >= 3.8
}

// namesDigest: a word of the line says its hex is data about something
// (a commit, a digest, an id), as the last word of a generic key does.
func namesDigest(line []byte) bool { return anyValueWord(line, hexMetaWords) }

// knownDigests are the digests of nothing (the empty input, Git's empty
// blob and tree), quoted in docs and logs after any name.
var knownDigests = func() map[string]bool {
	m := map[string]bool{}
	for _, in := range []string{"", "blob 0\x00", "tree 0\x00"} {
		b := []byte(in)
		m[fmt.Sprintf("%x", md5.Sum(b))] = true
		m[fmt.Sprintf("%x", sha1.Sum(b))] = true
		m[fmt.Sprintf("%x", sha256.Sum256(b))] = true
		m[fmt.Sprintf("%x", sha512.Sum512(b))] = true
	}
	return m
}()

// hexMetaWords: the words of genericMetaWords that name what a hex
// string is when it is not a secret, and the two it lacks (commit, uuid).
var hexMetaWords = func() map[string]bool {
	m := map[string]bool{"commit": true, "uuid": true}
	for w := range genericMetaWords {
		if w == "id" || w == "ids" || w == "hash" || w == "digest" || w == "checksum" || w == "fingerprint" || w == "md5" || strings.HasPrefix(w, "sha") {
			m[w] = true
		}
	}
	return m
}()

// identifierValue: v reads as a name in code, not a random value: three
// or more runs of letters, each with a vowel and no more consonants in a
// row than words hold ("DecryptPayloadV2Handler", "id_ed25519_ProdDeploy"),
// with at most two numbers (a letter and digits, "V2", is one).
func identifierValue(v []byte) bool {
	words, nums, ok := valueWords(v)
	return ok && words >= 3 && nums <= 2
}

// valueWords counts the words and numbers of v as identifierValue reads
// them (nextValueWord's words, cut where letters and digits meet; a
// letter and digits, "V2", one number); ok is false where a run of
// letters is no word (wordish).
func valueWords(v []byte) (words, nums int, ok bool) {
	var buf [64]byte
	for i := 0; ; {
		w, next := nextValueWord(v, i, buf[:0])
		if next < 0 {
			break
		}
		i = next
		for len(w) > 0 {
			n := 0
			digit := '0' <= w[0] && w[0] <= '9'
			for n < len(w) && ('0' <= w[n] && w[n] <= '9') == digit {
				n++
			}
			run := w[:n]
			w = w[n:]
			if !digit && n == 1 && len(w) > 0 && '0' <= w[0] && w[0] <= '9' {
				digit = true // v2, a version: one number
				for len(w) > 0 && '0' <= w[0] && w[0] <= '9' {
					w = w[1:]
				}
			}
			if digit {
				nums++
			} else if wordish(run) {
				words++
			} else {
				return 0, 0, false
			}
		}
	}
	return words, nums, true
}

// wordish: a run of lower-case letters that could be a word: two or
// more letters, a vowel, at most four consonants in a row.
func wordish(r []byte) bool {
	if len(r) < 2 {
		return false
	}
	vowel, cons := false, 0
	for _, c := range r {
		if bytes.IndexByte([]byte("aeiouy"), c) >= 0 {
			vowel, cons = true, 0
			continue
		}
		if cons++; cons > 4 {
			return false
		}
	}
	return vowel
}

// validDockerAuth: the value decodes to user:password with both parts
// present and printable.
func validDockerAuth(c Candidate) bool {
	dec, err := base64.StdEncoding.DecodeString(string(c.Secret))
	if err != nil {
		return false
	}
	user, pass, ok := bytes.Cut(dec, []byte(":"))
	if !ok || len(user) == 0 || len(pass) < 4 {
		return false
	}
	for _, b := range dec {
		if (b < 0x20 || b > 0x7e) && b != '\n' && b != '\r' && b != '\t' {
			return false // not text; a JSON key's password (GCR's _json_key) has line breaks
		}
	}
	// "user:pass" is a sample, as "my_username:my_password" (IsPlaceholder)
	return !IsPlaceholder(pass) && !passwordNonValues[strings.ToLower(string(pass))]
}

// passwordName: the key names a password rather than a key or token.
func passwordName(key []byte) bool {
	k := bytes.ToLower(key)
	return bytes.HasPrefix(k, []byte("pass"))
}

// hasSymbol: v holds a character that is neither a letter, a digit nor
// one of base64's and tokens' separators.
func hasSymbol(v []byte) bool {
	for _, c := range v {
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9') && bytes.IndexByte([]byte("+/_.~=-"), c) < 0 {
			return true
		}
	}
	return false
}

// valueByte: c may be inside a value of named-key-value's first form.
func valueByte(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || bytes.IndexByte([]byte("+/_.~=-"), c) >= 0
}

// namedKeyGate passes a "key "/"token "/... hit followed, after blanks
// and at most one of the words prose puts between a name and its value
// (is, was, to, enter) and an opening quote, by a run of at least 20 value
// characters holding a digit and both cases, or of 32 hex digits: prose
// after the word ("the key to", "token budget") stops here.
func namedKeyGate(data []byte, i int) bool {
	j := i + 1
	skip := func() {
		for j < len(data) && (data[j] == ' ' || data[j] == '\t') {
			j++
		}
	}
	skip()
	for _, w := range []string{"is ", "was ", "to ", "enter "} {
		if bytes.HasPrefix(data[j:], []byte(w)) {
			j += len(w)
			skip()
			break
		}
	}
	if j < len(data) && (data[j] == '`' || data[j] == '"' || data[j] == '\'' || data[j] == '(') {
		j++
	}
	start := j
	var up, low, dig, nonHex, sym bool
	// a password may be short: 12 characters of every class
	pw := false
	for _, w := range []string{"password", "passwd", "passphrase"} {
		if k := i + 1 - len(w) - 1; k >= 0 && bytes.EqualFold(data[k:k+len(w)], []byte(w)) {
			pw = true
		}
	}
	ok := func(n int) bool {
		return n >= 20 && up && low && dig || n >= 32 && !nonHex || (sym || pw) && n >= 12 && up && low && dig
	}
	for j < len(data) && j-start <= 200 {
		c := data[j]
		switch {
		case 'A' <= c && c <= 'Z':
			up, nonHex = true, true
		case 'a' <= c && c <= 'z':
			low = true
			nonHex = nonHex || c > 'f'
		case '0' <= c && c <= '9':
			dig = true
		case c == '.' && (j+1 == len(data) || !valueByte(data[j+1])):
			return ok(j - start) // the sentence's full stop
		case c == '+' || c == '/' || c == '_' || c == '.' || c == '~' || c == '-' || c == '=':
			nonHex = true
		case c > ' ' && c < 0x7f && c != '`' && c != '"' && c != '\'' && c != ',' && c != ';':
			nonHex, sym = true, true
		default:
			return ok(j - start)
		}
		j++
	}
	return ok(j - start)
}
