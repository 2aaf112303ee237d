package secrets

import (
	"bytes"
	"encoding/base64"
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
)

// gapRules are the rules for those formats, each written from the
// provider's documentation of the format (see docs/secrets.md).
func gapRules() []*Rule {
	return []*Rule{
		{
			// 84 characters since 2024, with the fixed signatures "JQQJ"
			// at offset 52 and "AZDO" at offset 76.
			ID:          RuleAzureDevOpsPAT,
			Description: "Azure DevOps personal access token",
			builtinRE:   builtinExpr(`\b(?P<secret>[A-Za-z0-9]{52}JQQJ[A-Za-z0-9]{20}AZDO[A-Za-z0-9]{4})\b`),
			Entropy:     3,
			Keywords:    []string{"jqqj"},
		},
		{
			// A shared access signature URL: sig= is the HMAC-SHA256 of
			// the other parameters, base64 (44 characters, "=" often
			// written %3D); sv= (the version) names it a SAS.
			ID:          RuleAzureSAS,
			Description: "Azure shared access signature (sig= of a SAS URL or token)",
			builtinRE:   builtinExpr(`[?&;]sig=(?P<secret>[A-Za-z0-9%+/]{40,120}(?:%3[Dd]|=){0,2})`),
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
			builtinRE:   builtinExpr(`"auth"\s*:\s*"(?P<secret>[A-Za-z0-9+/]{8,}={0,2})"`),
			Keywords:    []string{`"auth"`},
			Validate:    validDockerAuth,
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
			// bot<id>:<35 characters>, the secret part beginning "AA".
			ID:          RuleTelegramBot,
			Description: "Telegram bot token",
			builtinRE:   builtinExpr(`\b(?P<secret>[0-9]{8,10}:AA[A-Za-z0-9_-]{33})(?:[^A-Za-z0-9_-]|$)`),
			Entropy:     3.5,
			Keywords:    []string{":aa"},
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
			// and its value with no assignment sign between them. Only a
			// value that looks random (20 or more characters, upper and
			// lower case and digits) is one.
			ID:          RuleNamedKey,
			Description: "credential value written after its name without an assignment sign",
			builtinRE: builtinExpr(`(?i)\b(?P<key>(?:api|access|secret|private|auth)[ _-]?(?:key|token)|password|passwd)` +
				`[ \t]+(?-i:(?P<secret>[A-Za-z0-9+/_.~-]{20,200}={0,2}))(?:[^A-Za-z0-9+/_.~=-]|$)`),
			Entropy:  3.8,
			Keywords: []string{"key ", "token ", "password ", "passwd "},
			Gate:     namedKeyGate,
			Validate: func(c Candidate) bool { return mixedClasses(c.Secret) && !wordListRE.Match(c.Secret) },
		},
	}
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
		if b < 0x20 || b > 0x7e {
			return false
		}
	}
	return !IsPlaceholder(pass)
}

// namedKeyGate passes a "key "/"token "/... hit followed, after blanks,
// by a run of at least 20 value characters holding a digit and both
// cases: prose after the word ("the key to", "token budget") stops here.
func namedKeyGate(data []byte, i int) bool {
	j := i + 1
	for j < len(data) && (data[j] == ' ' || data[j] == '\t') {
		j++
	}
	start := j
	var up, low, dig bool
	for j < len(data) && j-start <= 200 {
		c := data[j]
		switch {
		case 'A' <= c && c <= 'Z':
			up = true
		case 'a' <= c && c <= 'z':
			low = true
		case '0' <= c && c <= '9':
			dig = true
		case c == '+' || c == '/' || c == '_' || c == '.' || c == '~' || c == '-' || c == '=':
		default:
			return j-start >= 20 && up && low && dig
		}
		j++
	}
	return j-start >= 20 && up && low && dig
}
