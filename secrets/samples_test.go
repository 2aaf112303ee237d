package secrets

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"strings"
	"time"
)

// Every key-shaped test value is built at run time from a deterministic
// pseudo-random generator, so no committed file holds anything that looks
// like a real credential (and other scanners have nothing to trip on).

type fakeGen struct{ s uint64 }

func newFakeGen(seed string) *fakeGen {
	h := fnv.New64a()
	h.Write([]byte(seed))
	return &fakeGen{s: h.Sum64() | 1}
}

// next is splitmix64.
func (g *fakeGen) next() uint64 {
	g.s += 0x9e3779b97f4a7c15
	z := g.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

const (
	alphaUpper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	alphaLower = "abcdefghijklmnopqrstuvwxyz"
	alphaDigit = "0123456789"
	base62     = alphaUpper + alphaLower + alphaDigit
	base64std  = base62 + "+/"
	base64url  = base62 + "-_"
	base32up   = alphaUpper + "234567"
	hexLower   = "0123456789abcdef"
)

func (g *fakeGen) from(alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[g.next()%uint64(len(alphabet))]
	}
	return string(b)
}

// mixed is like from but guarantees an upper-case letter, a lower-case
// letter and a digit (as real random tokens of this length have).
func (g *fakeGen) mixed(alphabet string, n int) string {
	for {
		s := g.from(alphabet, n)
		if mixedClasses([]byte(s)) && !IsPlaceholder([]byte(s)) {
			return s
		}
	}
}

// letters returns n random letters with both cases present.
func (g *fakeGen) letters(n int) string {
	for {
		s := g.from(alphaUpper+alphaLower, n)
		if hasUpper([]byte(s)) && hasLower([]byte(s)) && !IsPlaceholder([]byte(s)) {
			return s
		}
	}
}

func (g *fakeGen) bytes(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(g.next())
	}
	return b
}

// pemBlock builds an armored private key block with a random body.
func (g *fakeGen) pemBlock(label string, bodyBytes int, sep string) string {
	body := base64.StdEncoding.EncodeToString(g.bytes(bodyBytes))
	var b strings.Builder
	b.WriteString("-----" + "BEGIN " + label + "-----" + sep)
	for len(body) > 64 {
		b.WriteString(body[:64] + sep)
		body = body[64:]
	}
	b.WriteString(body + sep)
	b.WriteString("-----" + "END " + label + "-----")
	return b.String()
}

func b64url(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }

// Prefixes, split so that no committed line carries a recognisable token
// prefix next to token-shaped text.
var (
	pGHP    = "gh" + "p_"
	pGHO    = "gh" + "o_"
	pGHS    = "gh" + "s_"
	pGHR    = "gh" + "r_"
	pGHPAT  = "github" + "_pat_"
	pGLPAT  = "gl" + "pat-"
	pAKIA   = "AK" + "IA"
	pASIA   = "AS" + "IA"
	pAIza   = "AI" + "za"
	pSKANT  = "sk" + "-ant-"
	pSK     = "sk" + "-"
	pSKPROJ = "sk" + "-proj-"
	pHF     = "h" + "f_"
	pXOXB   = "xo" + "xb-"
	pXOXP   = "xo" + "xp-"
	pSKLIVE = "sk" + "_live_"
	pRKLIVE = "rk" + "_live_"
	pNPM    = "np" + "m_"
	pPYPI   = "pypi-" + "AgEIcHlwaS5vcmc"
	pHOOKS  = "https://hooks." + "slack.com/services/"
	pHVS    = "hv" + "s."
)

// sample is one labelled test document. For a true positive, rule and
// secret name the single finding expected; for a false positive, fpFor names
// the rule the sample is meant to tempt and no finding is expected.
type sample struct {
	name   string
	rule   string
	secret string
	text   string
	fpFor  string
	path   string // the file's path, for a rule limited to some files; else a markdown file's
}

// ntlmAuthenticate returns an NTLM AUTHENTICATE message in base64 whose
// NT challenge response is ntLen random bytes, for user "ops" in domain
// "CORP".
func ntlmAuthenticate(g *fakeGen, ntLen int) string {
	utf16 := func(s string) []byte {
		var b []byte
		for _, c := range s {
			b = append(b, byte(c), 0)
		}
		return b
	}
	domain, user, ws := utf16("CORP"), utf16("ops"), utf16("WS01")
	lm := make([]byte, 24)
	nt := []byte(g.from(base62, ntLen))
	const header = 64
	msg := make([]byte, header)
	copy(msg, "NTLMSSP\x00")
	msg[8] = 3
	off := header
	field := func(at int, data []byte) {
		binary.LittleEndian.PutUint16(msg[at:], uint16(len(data)))
		binary.LittleEndian.PutUint16(msg[at+2:], uint16(len(data)))
		binary.LittleEndian.PutUint32(msg[at+4:], uint32(off))
		off += len(data)
	}
	field(12, lm)
	field(20, nt)
	field(28, domain)
	field(36, user)
	field(44, ws)
	binary.LittleEndian.PutUint32(msg[60:], 0xa2888205) // flags
	for _, d := range [][]byte{lm, nt, domain, user, ws} {
		msg = append(msg, d...)
	}
	return base64.StdEncoding.EncodeToString(msg)
}

func sha256Of(s string) []byte { d := sha256.Sum256([]byte(s)); return d[:] }

func tp(name, rule, secret, text string) sample {
	return sample{name: name, rule: rule, secret: secret, text: text}
}

func fp(name, fpFor, text string) sample { return sample{name: name, fpFor: fpFor, text: text} }

// corpusSamples returns the labelled corpus.
func corpusSamples() []sample {
	g := newFakeGen("sotvet-secrets-corpus")
	var s []sample

	// gcp-service-account
	{
		pk := strings.ReplaceAll(g.pemBlock("PRIVATE KEY", 1190, "\n"), "\n", `\n`) + `\n`
		json := "{\n  \"type\": \"service_account\",\n  \"project_id\": \"cto-planb-sandbox\",\n  \"private_key_id\": \"" + g.from(hexLower, 40) + "\",\n" +
			"  \"private_key\": \"" + pk + "\",\n  \"client_email\": \"harness@cto-planb-sandbox.iam.gserviceaccount.com\",\n  \"client_id\": \"" + g.from(alphaDigit, 21) + "\"\n}\n"
		s = append(s, tp("gcp sa json", RuleGCPServiceAccount, pk, json))
		s = append(s, fp("gcp sa skeleton", RuleGCPServiceAccount,
			"```json\n{\n  \"type\": \"service_account\",\n  \"project_id\": \"<project>\",\n  \"private_key\": \"-----BEGIN "+"PRIVATE KEY-----\\n...\\n-----END "+"PRIVATE KEY-----\\n\"\n}\n```\n"))
		s = append(s, fp("gcp prose", RuleGCPServiceAccount,
			"- credential_source_class: `gcp-service_account-json-via-credctl`; the private_key never enters SOT.\n"))
	}

	// private-key
	{
		for _, c := range []struct{ label, wrap string }{
			{"RSA PRIVATE KEY", "```\n%s\n```\n"},
			{"EC PRIVATE KEY", "key.pem:\n%s\n"},
			{"OPENSSH PRIVATE KEY", "```text\n%s\n```\n"},
			{"PGP PRIVATE KEY BLOCK", "%s\n"},
			{"DSA PRIVATE KEY", "    %s\n"},
			{"PRIVATE KEY", "- backend log excerpt:\n\n```\n%s\n```\n"},
			{"ENCRYPTED PRIVATE KEY", "%s\n"},
		} {
			blk := g.pemBlock(c.label, 600, "\n")
			s = append(s, tp("pem "+c.label, RulePrivateKey, blk, strings.Replace(c.wrap, "%s", blk, 1)))
		}
		s = append(s, fp("pem public key", RulePrivateKey, g.pemBlock("PUBLIC KEY", 270, "\n")+"\n"))
		s = append(s, fp("pem certificate", RulePrivateKey, g.pemBlock("CERTIFICATE", 700, "\n")+"\n"))
		s = append(s, fp("pem elided", RulePrivateKey, "```\n-----BEGIN RSA "+"PRIVATE KEY-----\n...\n-----END RSA "+"PRIVATE KEY-----\n```\n"))
		s = append(s, fp("pem prose", RulePrivateKey, "- Never paste `-----BEGIN OPENSSH "+"PRIVATE KEY-----` blocks into task files; use credctl.\n"))
	}

	// github-token
	{
		t1 := pGHP + g.mixed(base62, 36)
		s = append(s, tp("ghp env", RuleGitHubToken, t1, "export GITHUB_TOKEN="+t1+"\n"))
		t2 := pGHS + g.mixed(base62, 36)
		s = append(s, tp("ghs in clone url", RuleGitHubToken, t2, "git clone https://x-access-token:"+t2+"@github.com/svrnty/sandbox.git\n"))
		t3 := pGHO + g.mixed(base62, 36)
		s = append(s, tp("gho json", RuleGitHubToken, t3, `{"oauth_token": "`+t3+`", "scope": "repo"}`+"\n"))
		t4 := pGHR + g.mixed(base62, 76)
		s = append(s, tp("ghr yaml", RuleGitHubToken, t4, "refresh: "+t4+"\n"))
		s = append(s, fp("ghp placeholder", RuleGitHubToken, "GITHUB_TOKEN="+pGHP+strings.Repeat("x", 36)+"\n"))
		s = append(s, fp("ghp prose", RuleGitHubToken, "Classic tokens start with `"+pGHP+"`; fine-grained ones with `"+pGHPAT+"`.\n"))
	}

	// github-fine-grained-pat
	{
		t := pGHPAT + g.mixed(base62, 22) + "_" + g.mixed(base62, 59)
		s = append(s, tp("github_pat env", RuleGitHubFineGrained, t, "GH_TOKEN="+t+"\n"))
		s = append(s, fp("github_pat redacted", RuleGitHubFineGrained, "- token used: `"+pGHPAT+"11AB****`\n"))
	}

	// gitlab-pat
	{
		t := pGLPAT + g.mixed(base62, 20)
		s = append(s, tp("glpat header", RuleGitLabToken, t, "curl --header \"PRIVATE-TOKEN: "+t+"\" https://gitlab.svrnty.dev/api/v4/projects\n"))
		s = append(s, fp("glpat placeholder", RuleGitLabToken, "PRIVATE-TOKEN: "+pGLPAT+"xxxxxxxxxxxxxxxxxxxx\n"))
	}

	// aws
	{
		id := pAKIA + g.from(base32up, 16)
		sk := g.mixed(base64std, 40)
		ini := "[default]\naws_access_key_id = " + id + "\naws_secret_access_key = " + sk + "\n"
		s = append(s, tp("aws id", RuleAWSAccessKeyID, id, "aws_access_key_id = "+id+"\n"))
		s = append(s, tp("aws secret ini", RuleAWSSecretAccessKey, sk, "aws_secret_access_key = "+sk+"\n"))
		s = append(s, sample{name: "aws pair ini", text: ini}) // checked in TestAWSPair
		sk2 := g.mixed(base64std, 40)
		sts := pASIA + g.from(base32up, 16)
		s = append(s, tp("aws sts json secret", RuleAWSSecretAccessKey, sk2, `  "SecretAccessKey": "`+sk2+`",`+"\n"))
		s = append(s, tp("aws sts json id", RuleAWSAccessKeyID, sts, `  "AccessKeyId": "`+sts+`",`+"\n"))
		s = append(s, fp("aws docs example id", RuleAWSAccessKeyID, "aws_access_key_id = "+pAKIA+"IOSFODNN7"+"EXAMPLE\n"))
		s = append(s, fp("aws docs example secret", RuleAWSSecretAccessKey, "aws_secret_access_key = "+strings.Join([]string{"wJalrXUtnFEMI", "K7MDENG", "bPxRfiCYEXAMPLEKEY"}, "/")+"\n"))
		s = append(s, fp("aws env ref", RuleAWSSecretAccessKey, "AWS_SECRET_ACCESS_KEY=${AWS_SECRET_ACCESS_KEY}\n"))
		s = append(s, fp("asia prose", RuleAWSAccessKeyID, "Region list: ASIA-PACIFIC, ASIAPACIFIC2026 and EU-WEST.\n"))
	}

	// gcp-api-key
	{
		k := pAIza + g.mixed(base64url, 35)
		s = append(s, tp("gcp api key", RuleGCPAPIKey, k, "GOOGLE_API_KEY="+k+"\n"))
		s = append(s, fp("gcp api key placeholder", RuleGCPAPIKey, "GOOGLE_API_KEY="+pAIza+"Sy"+strings.Repeat("X", 33)+"\n"))
	}

	// azure-storage-key
	{
		k := base64.StdEncoding.EncodeToString(g.bytes(64))
		cs := "DefaultEndpointsProtocol=https;AccountName=ctoplanbsandbox;AccountKey=" + k + ";EndpointSuffix=core.windows.net"
		s = append(s, tp("azure conn string", RuleAzureStorageKey, k, "AZURE_STORAGE_CONNECTION_STRING=\""+cs+"\"\n"))
		s = append(s, fp("azure placeholder", RuleAzureStorageKey, "AccountName=devstore;AccountKey=<account-key>;EndpointSuffix=core.windows.net\n"))
		s = append(s, fp("azure dev", RuleAzureStorageKey, "AZURE_STORAGE_CONNECTION_STRING=UseDevelopmentStorage=true\n"))
	}

	// anthropic / openai
	{
		a := pSKANT + "api03-" + g.mixed(base64url, 93) + "AA"
		s = append(s, tp("anthropic env", RuleAnthropicAPIKey, a, "ANTHROPIC_API_KEY="+a+"\n"))
		s = append(s, fp("anthropic redacted", RuleAnthropicAPIKey, "- ANTHROPIC_API_KEY: `"+pSKANT+"****` (redacted)\n"))
		p := pSKPROJ + g.mixed(base64url, 156)
		s = append(s, tp("openai proj", RuleOpenAIAPIKey, p, "OPENAI_API_KEY=\""+p+"\"\n"))
		l := pSK + g.mixed(base62, 48)
		s = append(s, tp("openai legacy argv", RuleOpenAIAPIKey, l, "codex exec --api-key "+l+" --model gpt-5.5\n"))
		s = append(s, fp("sk inside word", RuleOpenAIAPIKey, "- run: `task-sk-list-for-provider-admission-checks-2026` and `risk-"+pSK+g.mixed(base62, 40)+"`\n"))
		s = append(s, fp("sk-learn", RuleOpenAIAPIKey, "Install scikit-learn (not sk-learn) for the metrics notebook.\n"))
		s = append(s, fp("openai placeholder", RuleOpenAIAPIKey, "OPENAI_API_KEY="+pSKPROJ+"your-key-here-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n"))
	}

	// huggingface
	{
		h := pHF + g.letters(34)
		s = append(s, tp("hf token", RuleHuggingFaceToken, h, "HF_TOKEN="+h+"\n"))
		s = append(s, fp("hf identifiers", RuleHuggingFaceToken, "Set HF_HUB_ENABLE_HF_TRANSFER=1 and call hf_hub_download_with_retries_for_models().\n"))
	}

	// slack
	{
		t := pXOXB + g.from(alphaDigit, 12) + "-" + g.from(alphaDigit, 13) + "-" + g.mixed(base62, 24)
		s = append(s, tp("slack bot", RuleSlackToken, t, "SLACK_BOT_TOKEN="+t+"\n"))
		t2 := pXOXP + g.from(alphaDigit, 12) + "-" + g.from(alphaDigit, 12) + "-" + g.from(alphaDigit, 13) + "-" + g.from(hexLower, 32)
		s = append(s, tp("slack user", RuleSlackToken, t2, "token: "+t2+"\n"))
		s = append(s, fp("slack placeholder", RuleSlackToken, "SLACK_BOT_TOKEN="+pXOXB+"your-token\n"))
		path := "T" + g.from(alphaUpper+alphaDigit, 10) + "/B" + g.from(alphaUpper+alphaDigit, 10) + "/" + g.mixed(base62, 24)
		s = append(s, tp("slack webhook", RuleSlackWebhook, path, "- notify: "+pHOOKS+path+"\n"))
		s = append(s, fp("slack webhook docs", RuleSlackWebhook, pHOOKS+"T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX\n"))
	}

	// stripe, npm, pypi
	{
		st := pSKLIVE + g.mixed(base62, 99)
		s = append(s, tp("stripe sk", RuleStripeKey, st, "STRIPE_SECRET_KEY="+st+"\n"))
		rk := pRKLIVE + g.mixed(base62, 24)
		s = append(s, tp("stripe rk", RuleStripeKey, rk, "stripe: {restricted: "+rk+"}\n"))
		s = append(s, fp("stripe test", RuleStripeKey, "Use sk_test_ keys in fixtures; never "+pSKLIVE+"xxxxxxxxxxxxxxxxxxxxxxxx.\n"))
		n := pNPM + g.mixed(base62, 36)
		s = append(s, tp("npmrc", RuleNPMToken, n, "//registry.npmjs.org/:_authToken="+n+"\n"))
		s = append(s, fp("npm env", RuleNPMToken, "npm_config_registry=https://registry.npmjs.org/ npm_lifecycle_event=test\n"))
		py := pPYPI + g.mixed(base64url, 140)
		s = append(s, tp("pypirc", RulePyPIToken, py, "[pypi]\nusername = __token__\npassword = "+py+"\n"))
		s = append(s, fp("pypi prose", RulePyPIToken, "Upload with a scoped PyPI token (`pypi-...`) from credctl.\n"))
	}

	// jwt
	{
		j := b64url(`{"alg":"HS256","typ":"JWT"}`) + "." + b64url(`{"sub":"cto-harness","iat":1780000000,"scope":"runs:write"}`) + "." + g.from(base64url, 43)
		s = append(s, tp("jwt cookie", RuleJWT, j, "Set-Cookie: session="+j+"; HttpOnly\n"))
		j2 := b64url(`{"alg":"RS256","kid":"k1"}`) + "." + b64url(`{"iss":"hermes","aud":"cto"}`) + "." + g.from(base64url, 342)
		s = append(s, tp("jwt bearer", RuleJWT, j2, "curl -H \"Authorization: Bearer "+j2+"\" https://hermes.internal/api\n"))
		notJWT := b64url(`{"status":"pass","case":"stage2"}`) + "." + b64url(`{"run":"r-0042"}`) + "." + g.from(base64url, 20)
		s = append(s, fp("three b64 parts without alg", RuleJWT, "- evidence_blob: `"+notJWT+"`\n"))
		s = append(s, fp("b64 fact bullet", RuleJWT, "- summary_b64: `"+b64url(`{"status":"pass","changed_files":["strings.py"]}`)+"`\n"))
	}

	// kubernetes Secret data
	{
		v := base64.StdEncoding.EncodeToString([]byte("svc-" + g.mixed(base62, 24)))
		s = append(s, tp("k8s secret data", RuleK8sSecretData, v,
			"apiVersion: v1\nkind: Secret\nmetadata:\n  name: hermes-db\ntype: Opaque\ndata:\n  password: "+v+"\n"))
		v2 := base64.StdEncoding.EncodeToString(g.bytes(45))
		s = append(s, tp("k8s secret data block scalar", RuleK8sSecretData, v2,
			"apiVersion: v1\ndata:\n  tls.key: |\n    "+v2+"\nkind: Secret\n"))
		s = append(s, fp("k8s configmap data", RuleK8sSecretData,
			"apiVersion: v1\nkind: ConfigMap\ndata:\n  mode: "+base64.StdEncoding.EncodeToString([]byte("strict-review"))+"\n"))
		s = append(s, fp("k8s secret then configmap", RuleK8sSecretData,
			"kind: Secret\nmetadata:\n  name: a\n---\nkind: ConfigMap\ndata:\n  blob: "+base64.StdEncoding.EncodeToString([]byte("not-a-credential-at-all"))+"\n"))
		s = append(s, fp("k8s secret template", RuleK8sSecretData, "kind: Secret\ndata:\n  token: {{ .Values.token | b64enc }}\n"))
		b64 := func(v string) string { return base64.StdEncoding.EncodeToString([]byte(v)) }
		s = append(s, fp("k8s secret settings", RuleK8sSecretData, "kind: Secret\ndata:\n  LOG_LEVEL: "+b64("info")+"\n  REGION: "+b64("eu-west-1")+"\n"))
		s = append(s, fp("k8s secret placeholder", RuleK8sSecretData, "kind: Secret\ndata:\n  api-token: "+b64("$API_TOKEN")+"\n  password: "+b64("<your-password>")+"\n"))
		s = append(s, tp("k8s secret weak password", RuleK8sSecretData, b64("open-sesame"), "kind: Secret\ndata:\n  db-password: "+b64("open-sesame")+"\n"))
		s = append(s, tp("k8s secret pw key", RuleK8sSecretData, b64("open-sesame"), "kind: Secret\ndata:\n  MYSQL_ROOT_PW: "+b64("open-sesame")+"\n"))
		s = append(s, tp("k8s secret passcode key", RuleK8sSecretData, b64("blue-harbor"), "kind: Secret\ndata:\n  door_passcode: "+b64("blue-harbor")+"\n"))
	}

	// private key material outside an armored block
	{
		seed := g.bytes(32)
		der := append([]byte{0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20}, seed...)
		body := base64.StdEncoding.EncodeToString(der)
		s = append(s, tp("pkcs8 body without armor", RuleKeyMaterial, body, "stderr: key body "+body+"\n"))
		hexDER := hex.EncodeToString(der)
		s = append(s, tp("pkcs8 der in hex", RuleKeyMaterial, hexDER, "leak="+hexDER+"\n"))
		pemText := "-----" + "BEGIN PRIVATE KEY-----\n" + body + "\n-----" + "END PRIVATE KEY-----\n"
		hexPEM := hex.EncodeToString([]byte(pemText))
		s = append(s, tp("pem file in hex", RuleKeyMaterial, hexPEM, "backend: "+hexPEM+"\n"))
		b64PEM := base64.StdEncoding.EncodeToString([]byte(pemText))
		s = append(s, tp("pem file in base64", RuleKeyMaterial, b64PEM, "SIGNING_KEY_B64="+b64PEM+"\n"))
		rawHex := hex.EncodeToString(append(seed, g.bytes(32)...))
		s = append(s, tp("hex ed25519 key under a private name", RuleKeyMaterial, rawHex, "ed25519_private_key: "+rawHex+"\n"))
		trunc := g.pemBlock("PRIVATE KEY", 600, "\n")
		trunc = trunc[:strings.Index(trunc, "-----"+"END")]
		bodyOnly := strings.TrimSuffix(trunc[strings.Index(trunc, "\n")+1:], "\n")
		s = append(s, tp("pem without end line", RuleKeyMaterial, bodyOnly, "log: "+trunc))
		digest := hex.EncodeToString(g.bytes(32))
		s = append(s, fp("sha256 digest", RuleKeyMaterial, "- base_sha256: `"+digest+"`\n- tree: "+digest+"\n"))
		s = append(s, fp("seed digest", RuleKeyMaterial, "seed_sha256: "+hex.EncodeToString(g.bytes(32))+"\n"))
		pub := base64.StdEncoding.EncodeToString(append([]byte{0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00}, g.bytes(32)...))
		s = append(s, fp("ed25519 public key", RuleKeyMaterial, "-----"+"BEGIN PUBLIC KEY-----\n"+pub+"\n-----"+"END PUBLIC KEY-----\n"))
		cert := base64.StdEncoding.EncodeToString([]byte("-----" + "BEGIN CERTIFICATE-----\n" + base64.StdEncoding.EncodeToString(g.bytes(90)) + "\n"))
		s = append(s, fp("certificate in base64", RuleKeyMaterial, "ca: "+cert+"\n"))
	}

	// bearer
	{
		b := g.mixed(base62+"._-", 48)
		s = append(s, tp("bearer header", RuleBearerToken, b, "Authorization: Bearer "+b+"\n"))
		basic := base64.StdEncoding.EncodeToString([]byte("cto-harness:" + g.mixed(base62, 20)))
		s = append(s, tp("basic header", RuleBearerToken, basic, `{"headers": {"Authorization": "Basic `+basic+`"}}`+"\n"))
		s = append(s, fp("bearer placeholder", RuleBearerToken, "Authorization: Bearer <token>\n"))
		s = append(s, fp("bearer env", RuleBearerToken, "curl -H \"Authorization: Bearer $CTO_TOKEN\" -H 'Authorization: Bearer ${HERMES_TOKEN}'\n"))
		s = append(s, fp("authorization prose", RuleBearerToken, "- Authorization: required from JP before any Target Repository mutation.\n"))
	}

	// url-credentials
	{
		pw := g.mixed(base62, 18)
		s = append(s, tp("postgres url", RuleURLCredentials, pw, "DATABASE_URL=postgres://cto_app:"+pw+"@db.svrnty.internal:5432/cto\n"))
		short := "hunter" + "2"
		s = append(s, tp("short password", RuleURLCredentials, short, "- mirror: https://jp:"+short+"@git.svrnty.dev/cto-planb.git\n"))
		s = append(s, fp("plain url", RuleURLCredentials, "Source URL: `https://github.com/workos/case.git` (git clone --depth 1 https://github.com/workos/case.git)\n"))
		s = append(s, fp("docs creds", RuleURLCredentials, "e.g. `https://user:password@example.com/repo.git` or `https://user:s3cr3tvalue@host.example/x`\n"))
		s = append(s, fp("ssh url", RuleURLCredentials, "origin: ssh://git@git.svrnty.dev:2222/svrnty/cto-planb.git\n"))
		s = append(s, fp("port path at", RuleURLCredentials, "GET http://hermes:8080/runs/@latest and postgres://app:${DB_PASSWORD}@db:5432/cto\n"))
		// A mail server's login is an e-mail address, often written
		// unescaped: the userinfo ends at the last "@".
		mail := g.mixed(base62, 14)
		s = append(s, tp("e-mail login url", RuleURLCredentials, mail, "SMTP_URL=\"smtps://alerts.bot@gmail.com:"+mail+"@smtp.gmail.com:465\"\n"))
		s = append(s, fp("e-mail user and port", RuleURLCredentials, "Relay: smtp://notify@svrnty.dev:587, replies to ops@svrnty.dev:587 are dropped\n"))
	}

	// endpoint-value
	{
		// Endpoint values are assembled so that no source line assigns one.
		ep := func(name, pre, value, post string) sample {
			return tp(name, RuleEndpointValue, value, pre+value+post)
		}
		http := "http" + "://"
		s = append(s, ep("endpoint env", "CTO_HARNESS_CASE_LOCAL_BASE_URL=", http+"100.101.102.103:8000/v1", "\n"))
		s = append(s, ep("endpoint fact bullet", "- CTO_HARNESS_CASE_LOCAL_BASE_URL: `", http+"spark1.tail0a1b2.ts.net:8000/v1", "`\n"))
		s = append(s, ep("endpoint backticked key", "- `CTO_HARNESS_CASE_LOCAL_BASE_URL`: `", "https"+"://spark1.svrnty.internal/v1", "`\n"))
		s = append(s, ep("endpoint yaml", "provider:\n  openai_api_base: ", http+"10.20.30.40:8000/v1", "\n"))
		s = append(s, ep("endpoint json", `{"OPENAI_BASE_URL": "`, "https"+"://gateway.svrnty.internal:8443/v1", `"}`+"\n"))
		s = append(s, ep("endpoint host:port", "export SPARK_ENDPOINT=", "spark1"+":8000", "\n"))
		s = append(s, ep("endpoint camel", "  baseUrl: \"", http+"192.168.7.21:11434", "\"\n"))
		s = append(s, fp("endpoint name alone", RuleEndpointValue, "Current non-secret readiness check showed `CTO_HARNESS_CASE_LOCAL_BASE_URL` is missing.\n"))
		s = append(s, fp("endpoint admitted-ca", RuleEndpointValue, "- CTO_HARNESS_CASE_LOCAL_BASE_URL: `<admitted-ca>`\n"))
		s = append(s, fp("endpoint var", RuleEndpointValue, "CTO_HARNESS_CASE_LOCAL_BASE_URL=${SPARK_BASE_URL}\nOPENAI_BASE_URL=$SPARK_URL\n"))
		s = append(s, fp("endpoint localhost", RuleEndpointValue, "OPENAI_BASE_URL=http://localhost:8000/v1\nSPARK_ENDPOINT=127.0.0.1:8000\n"))
		s = append(s, fp("endpoint example", RuleEndpointValue, "- OPENAI_API_BASE: `https://api.example.com/v1`\n- SPARK_ENDPOINT: `http://spark.example:8000`\n"))
		s = append(s, fp("endpoint status", RuleEndpointValue, "- CTO_HARNESS_CASE_LOCAL_BASE_URL: missing\n- endpoint: present (value not recorded)\n"))
		s = append(s, fp("database url", RuleEndpointValue, "DATABASE_URL=postgres://db.svrnty.internal:5432/cto\n"))
		s = append(s, ep("endpoint own port on a public name", "OPENAI_API_BASE=", "https"+"://gpu.acme-labs.io:8443/v1", "\n"))
		s = append(s, fp("endpoint public api", RuleEndpointValue, "\"BaseUrl\": \"https://api.ccbl3s.net/\"\nendpoint: https://api.fyoow5.com/v2\n  baseUrl: 'https://api.2l4ffa.com',\nOPENAI_BASE_URL=https://api.openai.com:443/v1\n"))
		s = append(s, ep("endpoint tailnet", "OLLAMA_BASE_URL=", "https"+"://gpu-box.tail1234.ts.net/", "\n"))
		s = append(s, ep("endpoint lan", "- model endpoint: `", "http"+"://inference.lan/v1", "`\n"))
		s = append(s, fp("endpoint prose", RuleEndpointValue, "- Do not store endpoint secrets or credential values in SOT, argv, task file, backend logs, report, trace, generated config, or commit.\n"))
	}

	// generic-secret
	{
		p1 := g.mixed(base62, 20)
		s = append(s, tp("generic password yaml", RuleGenericSecret, p1, "database:\n  password: "+p1+"\n"))
		p2 := g.mixed(base62+"!@#%^", 32)
		s = append(s, tp("generic client_secret json", RuleGenericSecret, p2, `{"client_id": "cto-panel", "client_secret": "`+p2+`"}`+"\n"))
		p3 := g.from(hexLower, 40)
		for !hasDigit([]byte(p3)) || !hasLower([]byte(p3)) {
			p3 = g.from(hexLower, 40)
		}
		s = append(s, tp("generic api token env", RuleGenericSecret, p3, "CTO_API_TOKEN="+p3+"\n"))
		p4 := g.mixed(base62, 24)
		s = append(s, tp("generic fact bullet", RuleGenericSecret, p4, "- webhook_secret: `"+p4+"`\n"))
		p5 := g.mixed(base62, 16)
		s = append(s, tp("generic camel", RuleGenericSecret, p5, "const apiKey = '"+p5+"';\n"))
		p6 := g.mixed(base62, 22)
		s = append(s, tp("generic flag", RuleGenericSecret, p6, "hermes login --password="+p6+" --user jp\n"))
		// Hex carries at most 4 bits a character: a 32-digit token under
		// 3.5 bits is still one; base64 may start with "/".
		hx := g.from(hexLower, 32)
		for Entropy([]byte(hx)) >= 3.5 {
			hx = g.from(hexLower, 32)
		}
		s = append(s, tp("generic hex token", RuleGenericSecret, hx, "TWILIO_AUTH_TOKEN = '"+hx+"'\n"))
		sl := "/" + g.mixed(base62, 12) + "+" + g.mixed(base62, 18) + "/o"
		s = append(s, tp("generic base64 with a leading slash", RuleGenericSecret, sl, "export SESSION_SECRET="+sl+"\n"))
		sealed := "apiVersion: bitnami.com/v1alpha1\nkind: SealedSecret\nspec:\n  encryptedData:\n    api-key: AgB" + g.mixed(base64std, 380) + "==\n\n" +
			"    password: AgC" + g.mixed(base64std, 300) + "\n  template:\n    metadata:\n      name: payments\n"
		s = append(s, fp("sealed secret ciphertext", RuleGenericSecret, sealed))
		s = append(s, fp("publishable key", RuleGenericSecret, "STRIPE_PUBLISHABLE_KEY=\"pk_live_"+g.mixed(base62, 99)+"\"\nstripe_api_key = \"pk_test_"+g.mixed(base62, 24)+"\"\n"))
		s = append(s, fp("sealed secret in a how-to", RuleGenericSecret, "We commit SealedSecrets:\n\n```yaml\nencryptedData:\n  password: AgB"+g.mixed(base64std, 200)+"\n```\n"))
		pw := g.mixed(base62, 24)
		s = append(s, tp("generic after a sealed map", RuleGenericSecret, pw, sealed+"stringData:\n  password: "+pw+"\n"))
		s = append(s, fp("generic secret path", RuleGenericSecret, "SECRET_FILE_LOCATION=x\nsession_secret=/run/secrets/session_secret_v2\n"))
		s = append(s, fp("credential class", RuleGenericSecret, `  "credential_source_class": "pi-models-json-local-provider-no-secret",`+"\n"))
		s = append(s, fp("secrets never", RuleGenericSecret, "# Copy to .env and customize. Secrets NEVER go here — use credctl.\n"))
		s = append(s, fp("token budget", RuleGenericSecret, "- token budget: 200000 tokens per run; max_tokens: 32768\n"))
		s = append(s, fp("password reset", RuleGenericSecret, "The password reset flow is out of scope.\n"))
		s = append(s, fp("token digest", RuleGenericSecret, "- token_sha256: `"+g.from(hexLower, 64)+"`\n"))
		s = append(s, fp("password env name", RuleGenericSecret, "password_env: CTO_DB_PASSWORD\ntoken: CTO_HARNESS_CASE_TOKEN\n"))
		s = append(s, fp("secret ref url", RuleGenericSecret, "secret_ref: credctl://vault/cto-planb/openai-codex\n"))
		s = append(s, fp("api key var", RuleGenericSecret, "api_key: ${OPENAI_API_KEY}\npassword: changeme\nsecret: <admitted-ca>\n"))
		s = append(s, fp("secret values none", RuleGenericSecret, "- secret_values: none recorded\n- Secret scan covers: `report.json`, `report.md`, `trace.jsonl`\n"))
		s = append(s, fp("token path", RuleGenericSecret, "token_path: ~/.hermes/profiles/cto-planb/token.json\n"))
		s = append(s, fp("tokenizer", RuleGenericSecret, "tokenizer: Qwen/Qwen3.6-35B-A3B-tokenizer\n"))
		s = append(s, fp("quoted prose", RuleGenericSecret, "token: \"rotate every 90 days after review\"\nsecret_handling: credctl-only (never SOT)\n"))
		s = append(s, fp("redacted", RuleGenericSecret, "password: "+Mask(p1)+"\n"))
	}

	// The formats of issue 33's gaps, built from each provider's
	// documented shape.
	{
		pat := g.mixed(base62, 52) + "JQ" + "QJ" + g.mixed(base62, 20) + "AZ" + "DO" + g.mixed(base62, 4)
		s = append(s, tp("azure devops pat", RuleAzureDevOpsPAT, pat, "git clone https://dev.azure.com/org/_git/repo # PAT "+pat+"\n"))
		s = append(s, fp("azure devops prose", RuleAzureDevOpsPAT, "New Azure DevOps PATs are 84 characters and carry JQ"+"QJ and AZ"+"DO signatures.\n"))
		sig := g.mixed(base64std, 43) + "%3D"
		s = append(s, tp("azure sas url", RuleAzureSAS, sig, "https://acct.blob.core.windows.net/c/b.txt?sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-12-31T00:00:00Z&sig="+sig+"\n"))
		s = append(s, fp("azure sas doc", RuleAzureSAS, "The SAS token ends in sig=<signature>; sv= names the version.\n"))
		ak := g.mixed(base64std, 86) + "=="
		s = append(s, tp("azure account key json", RuleAzureAccountKey, ak, "az storage account keys list output:\n[{\\\"keyName\\\": \\\"key1\\\", \\\"value\\\": \\\""+ak+"\\\"}]\n"))
		s = append(s, fp("azure account key digest", RuleAzureAccountKey, "storage digest: "+strings.Repeat("A", 86)+"==\n"))
		acr := g.mixed(base62, 42) + "+AC" + "R" + g.mixed(base62, 6)
		s = append(s, tp("acr password", RuleAzureACRPassword, acr, "acr admin password: "+acr+"\n"))
		acr2 := g.mixed(base62, 32)
		s = append(s, tp("acr docker login", RuleAzureACRPassword, acr2, "docker login myreg.azurecr.io -u myreg -p "+acr2+"\n"))
		s = append(s, fp("acr docs", RuleAzureACRPassword, "docker login myreg.azurecr.io -u myreg --password-stdin < pw.txt\n"))
		dk := "dckr" + "_pat_" + g.mixed(base62+"_-", 27)
		s = append(s, tp("docker hub pat", RuleDockerHubPAT, dk, "docker login -u jp -p "+dk+"\n"))
		s = append(s, fp("docker hub prefix prose", RuleDockerHubPAT, "Docker Hub tokens start with dckr"+"_pat_.\n"))
		auth := base64.StdEncoding.EncodeToString([]byte("jp:" + g.mixed(base62, 24)))
		s = append(s, tp("docker config auth", RuleDockerAuth, auth, "{\n  \"auths\": {\n    \"https://index.docker.io/v1/\": {\n      \"auth\": \""+auth+"\"\n    }\n  }\n}\n"))
		s = append(s, fp("docker config helper", RuleDockerAuth, "{\"auths\": {\"ghcr.io\": {}}, \"credsStore\": \"desktop\", \"auth\": \"\"}\n"))
		ya := "ya" + "29." + g.mixed(base62+"_-", 150)
		s = append(s, tp("google access token", RuleGoogleOAuth, ya, "curl -H 'X-Goog-Token: "+ya+"' https://www.googleapis.com/drive/v3/files\n"))
		s = append(s, fp("google token prose", RuleGoogleOAuth, "Google access tokens start with ya"+"29. and last an hour.\n"))
		xe := "xo" + "xe-1-" + g.mixed(base62, 146)
		s = append(s, tp("slack refresh", RuleSlackRefresh, xe, "refresh: "+xe+"\n"))
		xe2 := "xo" + "xe.xoxp-1-" + g.mixed(base62, 160)
		s = append(s, tp("slack config token", RuleSlackRefresh, xe2, "SLACK_CONFIG="+xe2+"\n"))
		s = append(s, fp("slack refresh prose", RuleSlackRefresh, "Slack refresh tokens begin xo"+"xe-1- and rotate.\n"))
		tg := g.from(alphaDigit[1:], 1) + g.from(alphaDigit, 9) + ":A" + "A" + g.mixed(base62+"_-", 33)
		s = append(s, tp("telegram bot token", RuleTelegramBot, tg, "bot "+tg+"\n"))
		s = append(s, fp("telegram time", RuleTelegramBot, "At 12345678:AA the bot replied.\n"))
		nk := g.mixed(base62+"/+", 40)
		s = append(s, tp("named key without sign", RuleNamedKey, nk, "AWS secret key "+nk+"\n"))
		s = append(s, fp("named key prose", RuleNamedKey, "The secret key rotation happens every 90 days; the access token budget is 200000.\n"))
		// The words prose puts between a name and its value.
		nk2 := g.mixed(base62, 36)
		s = append(s, tp("named key, is", RuleNamedKey, nk2, "The API token is "+nk2+", please rotate it.\n"))
		nk3 := g.mixed(base62, 34)
		s = append(s, tp("named key, in parentheses", RuleNamedKey, nk3, "Heads up: the old org token ("+nk3+") was pasted in the ticket.\n"))
		nk4 := g.mixed(base62+"+", 24)
		s = append(s, tp("named key, enter", RuleNamedKey, nk4, "2. When asked for the bind password, enter "+nk4+"\n"))
		nk5 := g.mixed(base62, 8) + "%" + g.mixed(base62, 6) + "*" + g.mixed(base62, 6)
		s = append(s, tp("named key, password with symbols", RuleNamedKey, nk5, "The keystore pass"+"word is "+nk5+", please rotate it.\n"))
		nk6 := g.from(hexLower, 40)
		s = append(s, tp("named key, application key in backticks", RuleNamedKey, nk6, "Use the application key `"+nk6+"` to call the API.\n"))
		nk7 := g.mixed(base62, 16)
		s = append(s, tp("named key, short password in parentheses", RuleNamedKey, nk7, "Heads up: the old keystore pass"+"word ("+nk7+") was pasted.\n"))
		nk8 := g.from(hexLower, 32)
		s = append(s, tp("named key, comma enter", RuleNamedKey, nk8, "2. When asked for the secret key, enter "+nk8+"\n"))
		s = append(s, fp("named key, parenthesised words", RuleNamedKey, "The password (see the vault) is rotated; the password (optional) is unused.\n"))
		s = append(s, fp("named key, prose after is", RuleNamedKey, "The password is rotated monthly; the API token is stored in the vault.\nThe password is /etc/app/password.txt and the token is ${API_TOKEN}.\n"))
		// Hex that the line says is a commit, a digest or an id; the
		// digests of nothing; code identifiers after "to"/"is".
		s = append(s, fp("named key, commit id", RuleNamedKey, "The access token is "+g.from(hexLower, 40)+" in the commit that fixed it.\n"))
		s = append(s, fp("named key, digest of nothing", RuleNamedKey, "The session token is "+hex.EncodeToString(sha256Of(""))+".\n"))
		s = append(s, fp("named key, uuid", RuleNamedKey, "Use the app key "+g.from(hexLower, 32)+" for the request id.\n"))
		s = append(s, fp("named key, identifiers", RuleNamedKey, "The session key to DecryptPayloadV2Handler is derived.\nSet the signing secret to SigningSecretFromVaultV2 in prod.\n"+
			"Client secret is Base64EncodedStringV2 sent.\nThe private key is id_ed25519_ProdDeploy2024 in ~/.ssh.\n"))
		nk9 := g.mixed(base62, 30)
		s = append(s, tp("named key, end of sentence", RuleNamedKey, nk9, "The session token is "+nk9+".\n"))
		nk11 := g.from(hexLower, 40)
		s = append(s, tp("named key, hex at the end of a sentence", RuleNamedKey, nk11, "The bot token is "+nk11+".\n"))
		nk12 := g.mixed(base62, 9) + "!" + g.mixed(base62, 6)
		s = append(s, tp("named key, password at the end of a sentence", RuleNamedKey, nk12, "The vault pass"+"word is "+nk12+".\n"))
		nk10 := g.from(hexLower, 40)
		s = append(s, tp("named key, hex in prose", RuleNamedKey, nk10, "The access token is "+nk10+" in the old config.\n"))
		// A table's column or row names the value; a sentence names it
		// with the words a reader reads as an assignment.
		ts1 := g.mixed(base62, 24)
		s = append(s, tp("table column", RuleTableSecret, ts1, "| env | owner | api token |\n|---|---|---|\n| dev | ops | `"+ts1+"` |\n| prod | ops | see vault |\n"))
		ts2 := g.from(hexLower, 40)
		s = append(s, tp("table row", RuleTableSecret, ts2, "| Setting | Value |\n|---|---|\n| Issuer | edge.internal |\n| Signing key | "+ts2+" |\n"))
		s = append(s, fp("table, references and names", RuleTableSecret, "| service | secret | tokens |\n|---|---|---|\n| api | see 1Password | 128000 |\n| web | `${WEB_SECRET}` | v2.3.1-rc4 |\n| db | SigningSecretFromVaultV2 | 2026-11-30 |\n"))
		ts3 := g.from(hexLower, 40)
		s = append(s, tp("table row under an initial value column", RuleTableSecret, ts3, "| Variable | Initial value | Current value |\n|---|---|---|\n| baseUrl | https://api.example.net/v1 | |\n| apiKey | "+ts3+" | |\n"))
		ts4 := g.mixed(base62, 40)
		s = append(s, tp("table row under a value column qualified in brackets", RuleTableSecret, ts4, "|  | Value (staging) | Value (prod) |\n|---|---|---|\n| client_id | portal-stg | portal |\n| client_secret | `see vault` | `"+ts4+"` |\n"))
		s = append(s, fp("table of default values, none a secret", RuleTableSecret, "| Setting | Default value |\n|---|---|\n| api_token | none |\n| token_ttl | 3600s |\n| secret_store | vault |\n"))
		s = append(s, fp("table, commit in a token's row", RuleTableSecret, "| Change | Token |\n|---|---|\n| rotate the token | "+g.from(hexLower, 40)+" commit |\n"))
		ps1 := g.mixed(base62, 18)
		s = append(s, tp("prose, set to", RuleProseSecret, ps1, "I set DB_PASS"+"WORD to "+ps1+" on the prod box.\n"))
		ps2 := g.mixed(base64std, 44)
		s = append(s, tp("prose, use as", RuleProseSecret, ps2, "Use `"+ps2+"` as the signing key until we move it.\n"))
		ps3 := g.mixed(base62, 22)
		s = append(s, tp("prose, for staging", RuleProseSecret, ps3, "The client secret for the staging tenant: "+ps3+"\n"))
		s = append(s, fp("prose, settings and names", RuleProseSecret, "Set TOKEN_TTL to 3600 and the key rotation period to 30d.\nUse SigningSecretFromVaultV2 as the signing key name.\nThe API key for the relay: see the vault.\n"))
		pl := g.mixed(base62+"!#%^&*?", 14) + g.from(base62, 1)
		s = append(s, tp("prose, login pair", RuleProseLogin, pl, "You can login with admin / "+pl+" until SSO is wired up.\n"))
		s = append(s, fp("prose, login pair without a password", RuleProseLogin, "You can login with admin / your SSO password.\nSign in with alice / alice.smith@example.com\nLog in as admin / see 1Password.\n"))

		tgURL := g.from(alphaDigit[1:], 1) + g.from(alphaDigit, 8) + ":A" + "A" + g.mixed(base62+"_-", 33)
		s = append(s, tp("telegram bot api url", RuleTelegramBot, tgURL, "curl https://api.telegram.org/bot"+tgURL+"/getMe\n"))

		// Formats an independently written labelled set found missing.
		ado := g.from(alphaLower+"234567", 52)
		s = append(s, tp("azure devops legacy pat", RuleAzureDevOpsPATLegacy, ado, "export AZURE_DEVOPS_EXT_PAT="+ado+"\n"))
		s = append(s, fp("azure devops legacy, onion address", RuleAzureDevOpsPATLegacy, "devops mirror: http://"+g.from(alphaLower+"234567", 56)+".onion/\n"))
		dw := g.mixed(base62+"_-", 68)
		s = append(s, tp("discord webhook", RuleDiscordWebhook, dw, "DISCORD_WEBHOOK=https://disc"+"ord.com/api/webhooks/"+g.from(alphaDigit[1:], 1)+g.from(alphaDigit, 18)+"/"+dw+"\n"))
		// no "_": the imported kingfisher.discord.1 would match it too
		dw2 := g.mixed(base62+"-", 68)
		s = append(s, tp("discord webhook, reported once", RuleDiscordWebhook, dw2, "hook: https://disc"+"ord.com/api/webhooks/"+g.from(alphaDigit[1:], 1)+g.from(alphaDigit, 17)+"/"+dw2+"\n"))
		s = append(s, fp("discord webhook template", RuleDiscordWebhook, "POST https://disc"+"ord.com/api/webhooks/{webhook.id}/{webhook.token}\n"))
		gc := "GOC" + "SPX-" + g.mixed(base62+"_-", 28)
		s = append(s, tp("google client secret", RuleGoogleClientSecret, gc, "The client secret ("+gc+") was pasted in the ticket.\n"))
		s = append(s, fp("google client secret prose", RuleGoogleClientSecret, "Client secrets now begin with GOC"+"SPX- and are shown once.\n"))
		wh := "wh" + "sec_" + g.mixed(base62, 32)
		s = append(s, tp("stripe webhook secret", RuleStripeWebhookSecret, wh, "  default = \""+wh+"\"\n"))
		s = append(s, fp("stripe webhook secret placeholder", RuleStripeWebhookSecret, "STRIPE_WEBHOOK_SECRET=wh"+"sec_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n"))
		bb := "AT" + "BB" + g.mixed(base62, 32)
		s = append(s, tp("bitbucket app password", RuleBitbucketAppPassword, bb, "When asked for the app password, enter "+bb+"\n"))
		s = append(s, fp("bitbucket prose", RuleBitbucketAppPassword, "App passwords begin with AT"+"BB and cannot be viewed again.\n"))
		mg := g.from(hexLower, 32) + "-" + g.from(hexLower, 8) + "-" + g.from(hexLower, 8)
		s = append(s, tp("mailgun private key", RuleMailgunKey, mg, "Set the Mailgun private key to `"+mg+"` first.\n"))
		s = append(s, fp("mailgun, not near the name", RuleMailgunKey, "request "+g.from(hexLower, 32)+"-"+g.from(hexLower, 8)+"-"+g.from(hexLower, 8)+" failed\n"))

		bt := g.from(alphaLower+alphaDigit, 6) + "." + g.from(alphaLower+alphaDigit, 16)
		s = append(s, tp("kubernetes bootstrap token", RuleK8sBootstrap, bt, "kubeadm join 10.0.0.1:6443 --tls-bootstrap-token "+bt+"\n"))
		s = append(s, fp("bootstrap prose", RuleK8sBootstrap, "The bootstrap token expires after 24h; see kubeadm token create.\n"))

		// password-literal: chosen passwords, no entropy floor (split so
		// that the source holds no password line)
		pw1, pw2, pw3, pw4 := "hun"+"ter2x#", "Sun"+"flower7", "blue"+"berry9", "open"+"-sesame"
		s = append(s, tp("password quoted", RulePasswordLiteral, pw1, "db_password = \""+pw1+"\"\n"))
		s = append(s, tp("password connection string", RulePasswordLiteral, pw2, "Server=db1;User Id=app;Pass"+"word="+pw2+";Database=app\n"))
		s = append(s, tp("password in prose", RulePasswordLiteral, pw3, "The default pass"+"word is '"+pw3+"' until first login.\n"))
		s = append(s, tp("password comparison", RulePasswordLiteral, pw4, "if creds.Secret != \""+pw4+"\" {\n"))
		s = append(s, fp("password required", RulePasswordLiteral, "password: required\npassword = os.environ[\"DB_PASSWORD\"]\n"))
		s = append(s, fp("password prose", RulePasswordLiteral, "Password: see the vault. The password is rotated monthly.\n"))
		s = append(s, fp("password label", RulePasswordLiteral, "usernameLabel:\"Username:\",passwordLabel:\"Password:\",remember:\"Remember me\"\n"))
		s = append(s, fp("password template", RulePasswordLiteral, "password = \"${DB_PASSWORD}\"\npassword: \"&lt;YOUR_PASSWORD&gt;\"\n"))
		s = append(s, fp("tests pass", RulePasswordLiteral, "- tests pass: 40/40, lint pass: clean; bypass = on\n"))
		s = append(s, fp("password route", RulePasswordLiteral, "put '/forgot-password' => \"sites/passwords#update\"\n"))
	}

	// prefixed-token: a provider prefix, a body its rule does not expect
	{
		// 22 after the prefix: under the 24 to 130 of Nosey Parker's rule
		// (np.hashicorp.4, which takes a token of 28 since round 47)
		t1 := pHVS + g.mixed(base62, 22)
		s = append(s, tp("vault token, short", RulePrefixedToken, t1, "Rotate the vault value "+t1+" pasted in the log.\n"))
		t1b := pHVS + g.mixed(base62, 28)
		s = append(s, tp("vault service token of 28, by nosey parker's rule", "np.hashicorp.4", t1b, "Rotate the vault value "+t1b+" pasted in the log.\n"))
		s = append(s, fp("vault token prefix in prose", "np.hashicorp.4", "Service tokens start with "+pHVS+" and batch tokens with hvb.; see the Vault docs.\n"))
		t2 := pGHP + g.mixed(base62, 30)
		s = append(s, tp("github token, short", RulePrefixedToken, t2, "pasted "+t2+" into the chat\n"))
		t3 := pSKANT + "api03-" + g.mixed(base62+"-_", 80)
		s = append(s, tp("anthropic key, non-canonical length", RulePrefixedToken, t3, "- credential used: `"+t3+"`\n"))
		s = append(s, fp("prefixed words", RulePrefixedToken, "Slack bot tokens look like "+pXOXB+"not-a-real-token-value.\n"))
		s = append(s, fp("prefixed placeholder", RulePrefixedToken, "VAULT_TOKEN="+pHVS+"xxxxxxxxxxxxxxxxxxxxxxxx\n"))
		a1 := g.mixed(base62, 32)
		s = append(s, tp("generic auth value", gitleaksGenericID, a1, "client_auth = \""+a1+"\"\n"))
		s = append(s, fp("markdown list with commas", gitleaksGenericID, "- Reviewed lanes: 16-guard 13/15, 18-secrets-peer2, 13-fidelity2.\n"))
		s = append(s, fp("placeholder sequence", RuleGenericSecret, "api_key = \"1a2b3c4d5e6f7g8h9i0j\"\npassword: zyxwvutsrqponmlk\n"))
		s = append(s, fp("placeholder url password", RuleURLCredentials, "DATABASE_URL=postgres://app:abcdef123456@db.internal:5432/app\n"))
		s = append(s, fp("prefix in prose", RulePrefixedToken, "Service tokens begin with `"+pHVS+"` and batch tokens with `hv"+"b.`.\n"))
	}
	{
		// Last, so that the values drawn above do not move.
		g := newFakeGen("pgpass and session cookies")
		// pgpass-password (a path rule: the sample's file is named .pgpass)
		pg := g.mixed(base62, 10) + "?" + g.mixed(base62, 6)
		s = append(s, sample{name: "pgpass line", rule: RulePgpassPassword, secret: pg, path: ".pgpass",
			text: "# prod replica\ndb-prod.cluster-1.eu-west-1.rds.amazonaws.com:5432:orders:app_rw:" + pg + "\n"})
		pe := g.mixed(base62, 8) + "\\:" + g.mixed(base62, 8)
		s = append(s, sample{name: "pgpass escaped colon", rule: RulePgpassPassword, secret: pe, path: "conf/pgpass.conf",
			text: "*:*:*:report\\:ro:" + pe + "\n"})
		s = append(s, sample{name: "pgpass placeholder", fpFor: RulePgpassPassword, path: ".pgpass",
			text: "localhost:5432:*:postgres:<local-password>\n# host:port:database:username:password\nlocalhost:5432:*:app:${PGPASSWORD}\n"})
		// session-cookie
		sid := g.mixed(base64url, 43)
		s = append(s, tp("session cookie in a HAR", RuleSessionCookie, sid, "            {\n              \"name\": \"Cookie\",\n              \"value\": \"_ga=GA1.2.1611588.1073048632; sessionid="+sid+"\"\n            },\n"))
		js := strings.ToUpper(g.from(hexLower, 32))
		s = append(s, tp("set-cookie header", RuleSessionCookie, js, "< Set-Cookie: JSESSIONID="+js+"; Path=/; Secure; HttpOnly\n"))
		cs := "s%3A" + g.mixed(base64url, 32) + "." + g.mixed(base62, 20)
		s = append(s, tp("curl cookie", RuleSessionCookie, cs, "curl -H 'Cookie: theme=dark; connect.sid="+cs+"' https://app.internal/api/me\n"))
		cb := g.mixed(base62, 32)
		s = append(s, tp("curl -b", RuleSessionCookie, cb, "curl -sS -b 'sessionid="+cb+"; csrftoken=x1' https://staging.internal/admin/\n"))
		s = append(s, sample{name: "pgpass format line", fpFor: RulePgpassPassword, path: ".pgpass", text: "hostname:port:database:username:password\n"})
		s = append(s, fp("sealed secret json", RuleGenericSecret, "{\n  \"kind\": \"SealedSecret\",\n  \"spec\": {\n    \"encryptedData\": {\n      \"tls.key\": \"AgB"+g.mixed(base64std, 300)+"\",\n      \"api_token\": \"AgC"+g.mixed(base64std, 200)+"\"\n    }\n  }\n}\n"))
		// name-value-secret
		nv1 := g.mixed(base62, 20)
		s = append(s, tp("k8s env entry", RuleNameValueSecret, nv1, "spec:\n  containers:\n    - name: api\n      env:\n        - name: LOG_LEVEL\n          value: info\n        - name: DB_PASS"+"WORD\n          value: \""+nv1+"\"\n"))
		nv2 := g.mixed(base62, 32)
		s = append(s, tp("ecs task json", RuleNameValueSecret, nv2, "\"environment\": [\n  {\n    \"name\": \"STRIPE_API_TOKEN\",\n    \"value\": \""+nv2+"\"\n  }\n]\n"))
		nv3 := g.mixed(base62, 24)
		s = append(s, tp("postman variable", RuleNameValueSecret, nv3, "\"variable\": [{\"key\": \"api_key\", \"value\": \""+nv3+"\", \"type\": \"string\"}]\n"))
		nv4 := g.mixed(base62, 24)
		s = append(s, tp("terraform variable default", RuleNameValueSecret, nv4, "variable \"vercel_token\" {\n  type      = string\n  sensitive = true\n  default   = \""+nv4+"\"\n}\n"))
		s = append(s, fp("name-value, another entry's value", RuleNameValueSecret, "        - name: API_TOKEN\n          valueFrom:\n            secretKeyRef: {name: api, key: token}\n        - name: BUILD_ID\n          value: \""+g.mixed(base62, 20)+"\"\n"))
		s = append(s, fp("name-value placeholders", RuleNameValueSecret, "- name: DB_PASSWORD\n  value: \"${DB_PASSWORD}\"\n{\"key\": \"api_key\", \"value\": \"{{api_key}}\"}\nvariable \"db_password\" {\n  default = null\n}\n- name: SESSION_SECRET\n  value: changeme\n"))
		s = append(s, fp("anti-forgery tokens", RuleNameValueSecret, "<input type=\"hidden\" name=\"authenticity_token\" value=\""+g.mixed(base64url, 86)+"\" />\ncsrf_token: "+g.mixed(base62, 40)+"\n"))
		nv5, nv6 := g.mixed(base62, 20), g.mixed(base62, 20)
		s = append(s, tp("compact json env", RuleNameValueSecret, nv6, "[{\"name\":\"LOG_LEVEL\",\"value\":\""+nv5+"x\"},{\"name\":\"API_TOKEN\",\"value\":\""+nv6+"\"}]\n"))
		nv7 := g.mixed(base62, 22)
		s = append(s, tp("terraform variable, lines between", RuleNameValueSecret, nv7, "variable \"db_password\" {\n  nullable    = false\n  description = \"the orders database's password, rotated every ninety days by the platform team and never echoed by any job\"\n  default     = \""+nv7+"\"\n}\n"))
		s = append(s, fp("html form fields", RuleNameValueSecret, "<input type=\"hidden\" name=\"csrfmiddlewaretoken\" value=\""+g.mixed(base62, 64)+"\">\n<input type=\"hidden\" name=\"_token\" value=\""+g.mixed(base62, 40)+"\">\n"))
		var many strings.Builder
		for i := range 30 {
			fmt.Fprintf(&many, "_ga_%d=GA1.1.%d; ", i, 1000+i)
		}
		sc := g.mixed(base62, 32)
		s = append(s, tp("session cookie after thirty others", RuleSessionCookie, sc, "Cookie: "+many.String()+"laravel_session="+sc+"\n"))
		s = append(s, fp("rfc 6265 example cookie", RuleSessionCookie, "Set-Cookie: SID=31d4d96e407aad42; Path=/; Secure; HttpOnly\n"))
		gh := "ghp_" + g.mixed(base62, 36)
		s = append(s, tp("token under encryptedData of no SealedSecret", RuleGitHubToken, gh, "app:\n  encryptedData:\n    github: "+gh+"\n"))
		s = append(s, fp("session cookie placeholders", RuleSessionCookie, "Cookie: sessionid=<session-id>\nSet-Cookie: sessionid=deleted; expires=Thu, 01 Jan 1970 00:00:00 GMT\ncookie: theme=dark; lang=en-US; tz=Europe/Paris\nThe session cookie (sessionid) is HttpOnly.\nCookie: PHPSESSID=${SESSION}\n"))
	}

	// the forms of peerforms.go (from CredSweeper's samples)
	{
		chosen := func() string { // a chosen password: three classes of characters
			for {
				v := g.letters(6) + g.from(alphaDigit, 2) + g.from("!#*", 1) + g.letters(2)
				if !IsPlaceholder([]byte(v)) {
					return v
				}
			}
		}
		p1, p2, p3, p4, p5 := chosen(), chosen(), chosen(), chosen(), chosen()
		s = append(s, tp("password after a colon", RulePasswordPair, p1, "- staging db: ID:deploy PW:"+p1+"\n"))
		s = append(s, fp("password pair, words and references", RulePasswordPair, "Password: Required\npassword: ${DB_PASSWORD}\npw: see-the-vault\nbypass: Ab12!cdEf\n"))
		s = append(s, tp("password option", RuleSecretOption, p2, "Run `mysqldump -u root --password "+p2+" app` nightly.\n"))
		s = append(s, fp("password option, no value", RuleSecretOption, "Use `docker login --password-stdin` or `--password $PASS`, never `--token <token>`.\n"))
		s = append(s, tp("sql password", RuleSQLPassword, p3, "```sql\nCREATE USER etl WITH PASSWORD '"+p3+"';\n```\n"))
		s = append(s, fp("sql password, no value", RuleSQLPassword, "```sql\nALTER USER etl PASSWORD EXPIRE;\nCREATE USER app IDENTIFIED BY :pw;\n```\n"))
		s = append(s, tp("env fallback", RuleEnvDefaultSecret, p4, "    POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:-"+p4+"}\n"))
		s = append(s, fp("env fallback, a word", RuleEnvDefaultSecret, "    POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:-postgres}\n    DB_HOST: ${DB_HOST:-"+p5+"}\n"))
		lowerAlnum := alphaLower + alphaDigit
		for _, c := range []struct{ rule, token, fpText string }{
			{"cloudflare-api-token", "cf" + "ut_" + g.mixed(base62, 48), "Cloudflare tokens now start with cf" + "ut_ or cf" + "at_.\n"},
			{"docker-swarm-join-token", "SWM" + "TKN-1-" + g.from(lowerAlnum, 50) + "-" + g.from(lowerAlnum, 25), "Join tokens look like SWM" + "TKN-1-….\n"},
			{"docker-swarm-unlock-key", "SWM" + "KEY-1-" + g.mixed(base62, 43), "The unlock key (SWM" + "KEY-1-…) is printed once.\n"},
			{"llamacloud-api-key", "ll" + "x-" + g.mixed(base62, 48), "Keys start with ll" + "x- and are 52 characters long.\n"},
			{"together-api-key", "tg" + "p_v1_" + g.mixed(base62, 43), "Keys start with tg" + "p_v1_.\n"},
			{"vercel-token", "vc" + "p_" + g.mixed(base62, 56), "Tokens start with vc" + "p_ or vc" + "i_.\n"},
			{"netlify-pat", "nf" + "p_" + g.mixed(base62, 36), "Netlify tokens start with nf" + "p_.\n"},
			{"posthog-personal-api-key", "ph" + "x_" + g.mixed(base62, 43), "posthog.init('ph" + "c_" + g.mixed(base62, 43) + "')\n"},
			{"postman-collection-token", "PM" + "AT-" + g.from(alphaUpper+alphaDigit, 26), "Collection tokens start with PM" + "AT-.\n"},
			{"bitbucket-http-access-token", "BB" + "DC-" + "M" + "D" + "I" + "x" + g.mixed(base62, 40), "Data Center tokens start with BB" + "DC-.\n"},
			{"akamai-client-token", "ak" + "ab-" + g.from(lowerAlnum, 16) + "-" + g.from(lowerAlnum, 16), "host: ak" + "ab-" + g.from(lowerAlnum, 16) + "-" + g.from(lowerAlnum, 16) + ".luna.akamaiapis.net\n"},
			{"figma-pat", "fi" + "gd_" + g.mixed(base62, 40), "Figma tokens start with fi" + "gd_.\n"},
			{"supabase-access-token", "sb" + "p_v0_" + g.from(hexLower, 40), "Management tokens start with sb" + "p_v0_.\n"},
			{"gitlab-runner-workspace-token", "gl" + "rtr-" + g.mixed(base62, 28), "Runner registration tokens start with gl" + "rtr-.\n"},
			{"heroku-hrku-key", "HR" + "KU-" + g.mixed(base62, 60), "Keys start with HR" + "KU-.\n"},
			{"defined-networking-key", "dn" + "key-" + g.from(base32up, 26) + "-" + g.from(base32up, 52), "Keys start with dn" + "key-.\n"},
			{"instagram-access-token", "IG" + "QVJ" + g.mixed(base62, 150), "Tokens start with IG" + "QVJ.\n"},
		} {
			s = append(s, tp(c.rule, c.rule, c.token, "- leaked in the build log: `"+c.token+"`\n"))
			s = append(s, fp(c.rule+", prose", c.rule, c.fpText))
		}
	}
	{
		// Last, so that the values drawn above do not move: other
		// languages, abbreviations, vendor prefixes (languages.go).
		g := newFakeGen("other languages, abbreviations, vendor prefixes")
		p1, p2, p3 := g.mixed(base62, 14), g.mixed(base62, 12), g.mixed(base62, 13)
		s = append(s, tp("german password", RuleProseSecretIntl, p1, "Das neue Pass"+"wort lautet "+p1+" für den Build-Server.\n"))
		s = append(s, tp("spanish password", RuleProseSecretIntl, p2, "La contra"+"seña de la base de datos es `"+p2+"`.\n"))
		s = append(s, tp("italian password", RuleProseSecretIntl, p3, "La pass"+"word è "+p3+" fino a venerdì.\n"))
		s = append(s, fp("german password in a vault", RuleProseSecretIntl, "Das neue Passwort liegt im Tresor unter `infra/db`; es muss 12 Zeichen lang sein.\n"))
		s = append(s, fp("spanish keyword", RuleProseSecretIntl, "La palabra clave es OAuth2Flow2024 en el índice.\n"))
		s = append(s, fp("french stand-in", RuleProseSecretIntl, "Le mot de passe est `VotreMotDePasse1` dans le modèle.\n"))
		p4, p5 := g.mixed(base62, 12), g.mixed(base62, 14)
		s = append(s, tp("pw abbreviation", RuleProsePasswordShort, p4, "the pw for the kiosk account is "+p4+"\n"))
		s = append(s, tp("user/pass pair", RuleProsePasswordShort, p5, "user / pass: ops / "+p5+"\n"))
		s = append(s, fp("pw reset", RuleProsePasswordShort, "pw reset link expires after 24h (ticket OPS-4411); creds: ask ops\n"))
		s = append(s, fp("boarding pass", RuleProsePasswordShort, "boarding pass: ABX4K2Q9LM, gate B42\nuser / pass: admin / ********\n"))
		t1 := "ATA" + "TT3" + g.mixed(base62+"-_", 185)
		t2 := "ke" + "y-" + g.from(alphaLower+alphaDigit, 31) + "7"
		s = append(s, tp("atlassian token one short", RuleVendorToken, t1, "pasted "+t1+" into the runbook\n"))
		s = append(s, sample{name: "mailgun key as a terraform default", rule: RuleVendorToken, secret: t2, path: "infra/vars.tf",
			text: "variable \"relay\" {\n  default = \"" + t2 + "\"\n}\n"})
		s = append(s, fp("key- words", RuleVendorToken, "default = \"key-value-store-primary-region\"\nsee the ATA"+"TT3xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx docs\n"))
		// Heroku's prefix before an older key's UUID (one cut short is
		// prefixed-token's: HRKU-AA is its rule's prefix); Bedrock's
		// before a body of its own shape.
		t3, t4 := "HR"+"KU-"+g.uuid(), "HR"+"KU-AA"+g.mixed(base62, 50)
		t5 := "bedrock-api" + "-key-" + g.mixed(base62, 32)
		s = append(s, tp("heroku prefix before a uuid", RuleVendorToken, t3, t3+"\n"))
		s = append(s, tp("heroku key cut short", RulePrefixedToken, t4, "pasted "+t4+" into the runbook\n"))
		s = append(s, tp("bedrock key of another shape", RuleVendorToken, t5, "Calls failed with "+t5+" until Tuesday.\n"))
		s = append(s, fp("heroku and bedrock prefixes in prose", RuleVendorToken,
			"Keys start with HR"+"KU- (see HR"+"KU-docs-and-rotation-policy); bedrock-api"+"-key-rotation-schedule-for-production is a runbook.\n"+
				"Wrong prefix: bedrock-api"+"-key-YmVkcm9jay5hbWF6b25hd3MuY29x\n"))
	}

	// the forms of codeforms.go (secrets written in code)
	{
		pw := g.letters(7) + g.from(alphaDigit, 3) + g.letters(5)
		s = append(s, tp("password passed to a setter", RulePasswordArgument, pw, "```java\nds.setPassword(\""+pw+"\");\n```\n"))
		s = append(s, fp("password setter, a lookup", RulePasswordArgument, "```java\nds.setPassword(System.getenv(\"DB_PASSWORD\"));\nds.setPassword(\"${DB_PASS}\");\n```\n"))
		key := g.mixed(base62, 44)
		s = append(s, tp("jwt signing key literal", RuleSigningSecret, key, "```js\nreturn jwt.sign(claims, '"+key+"', { expiresIn: '1h' });\n```\n"))
		s = append(s, fp("jwt signing key, a lookup", RuleSigningSecret, "```js\nreturn jwt.sign(claims, process.env.JWT_SECRET);\n```\n```go\nsum := sha256.Sum256([]byte(\"hello world\"))\n```\n"))
		basic := base64.StdEncoding.EncodeToString([]byte("ops:" + pw))
		s = append(s, tp("basic credential an nginx proxy sets", RuleBasicAuthHeader, basic, "```nginx\nproxy_set_header Authorization \"Basic "+basic+"\";\n```\n"))
		s = append(s, fp("basic credential placeholder pair", RuleBasicAuthHeader, "```nginx\nproxy_set_header Authorization \"Basic "+base64.StdEncoding.EncodeToString([]byte("username:password"))+"\";\n```\n"))
		fcm := "AAAA" + g.from(base62, 7) + ":APA91b" + g.from(base62+"-_", 134)
		s = append(s, tp("fcm server key", RuleFCMServerKey, fcm, "{\n  \"server_key\": \""+fcm+"\"\n}\n"))
		s = append(s, fp("fcm key named, not given", RuleFCMServerKey, "The FCM server key (AAAA…:APA91b…) lives in the vault under push/fcm.\n"))
		// signedFormatRules (gaps.go), split so no line of this file holds one
		sf := "00" + "D" + g.from(base62, 12) + "!AR" + g.from(base62, 40) + "." + g.from(base62, 53) // no "...", an elision
		s = append(s, tp("salesforce access token in a log", RuleSalesforceAccessToken, sf, "2026-11-29 12:01 sf session "+sf+" expires in 2h\n"))
		s = append(s, fp("salesforce org id alone", RuleSalesforceAccessToken, "Org ID: 00"+"D5g000004Xyz1AB! Support ticket 00"+"D-1234.\n"))
		seed := "S" + "U" + g.from("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 56)
		s = append(s, tp("nats user seed in a creds file", RuleNATSSeed, seed, "-----BEGIN USER NKEY SEED-----\n"+seed+"\n------END USER NKEY SEED------\n"))
		s = append(s, fp("nats public key and words", RuleNATSSeed, "user: U"+g.from("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 55)+"\nSUMMARY OF THE SAFETY SUBSYSTEM SAYS SUCCESS\n"))
		rt := "1/" + "/0" + g.from(base62, 2) + g.from(base62+"-_", 96)
		s = append(s, tp("google refresh token in a cache line", RuleGoogleRefreshToken, rt, "adc cache: "+rt+" (user ops@example.com)\n"))
		s = append(s, fp("floor division and a URL", RuleGoogleRefreshToken, "```python\nx = 1//0\n```\nhttps://example.com/1//0\n"))
		tw := strings.Repeat("A", 21) + g.from("BCDEFGHIJKLMNOPQRSTUVWXYZ", 1) + g.from(base62, 10) + "%2B" + g.from(base62, 30) + "%3D" + g.from(base62, 50)
		s = append(s, tp("twitter app bearer token in a log line", RuleTwitterAppBearer, tw, "2026-12-04 12:00:01 bot: started with "+tw+" (app-only)\n"))
		s = append(s, fp("base64 of zero bytes, no escape", RuleTwitterAppBearer, "blob: "+strings.Repeat("A", 24)+g.from(base62, 90)+"/"+g.from(base62, 8)+"\n"))
		sanctum := g.mixed(base62, 40)
		s = append(s, tp("laravel sanctum token in a curl line", RuleSanctumToken, sanctum, "curl -H \"Authorization: Bearer 12|"+sanctum+"\" https://app.test/api/user\n"))
		sanctum11 := "app_" + g.mixed(base62, 40) + g.from(hexLower, 8)
		s = append(s, tp("laravel 11 sanctum token with its prefix and checksum", RuleSanctumToken, sanctum11, "[2026-12-04 10:02:11] local.INFO: issued 3|"+sanctum11+" to ci@app.test\n"))
		s = append(s, fp("compact table of commits and an or", RuleSanctumToken, "|#|commit|\n|-|-|\n|1|"+g.from(hexLower, 40)+"|\n|2|"+strings.ToUpper(g.from(hexLower, 40))+"|\n\n```c\nif (x==1||y) return;\n```\n"))
		// round thirty-eight's, drawn from a sequence of their own so that
		// the draws of the samples after them stay as they were
		g38 := newFakeGen("signed formats, round thirty-eight")
		tab := g38.from(base62+"+/", 21) + g38.from("AQgw", 1) + "=" + "=:" + g38.mixed(base62, 32)
		s = append(s, tp("tableau pat secret in a log line", RuleTableauPATSecret, tab, "12:01:07 signed in to prod-useast-a.online.tableau.com as ci-extract ("+tab+")\n"))
		s = append(s, tp("tableau pat secret on a line of its own", RuleTableauPATSecret, tab, "pat ci-extract\n"+tab+"\nserver=prod-useast-a.online.tableau.com\n"))
		s = append(s, fp("base64 before == and a colon, not 16 bytes", RuleTableauPATSecret, "iv "+g38.from(base62, 21)+"B=="+":"+g38.mixed(base62, 32)+"\nif (a ==: b) {}\nhash "+g38.from(base62, 21)+"w=="+":"+g38.from(hexLower, 32)+"\n"))
		spu := "sp" + "u-" + g38.from(hexLower, 32)
		s = append(s, tp("spectralops key in a scan log", RuleSpectralOpsKey, spu, "[DEBUG] spectral scan --dsn using token "+spu+"\n"))
		s = append(s, fp("spu- and a word", RuleSpectralOpsKey, "sp"+"u-configuration-management-for-teams-x spu-"+strings.Repeat("a", 32)+"\n"))
		atctt := "ATC" + "TT3xFfGN0" + g38.from(base62+"_-", 171) + "=" + strings.ToUpper(g38.from(hexLower, 8))
		s = append(s, tp("atlassian admin api key", RuleAtlassianAdminKey, atctt, "ORG_ADMIN_KEY="+atctt+"\n"))
		s = append(s, fp("atlassian admin api key, a placeholder and a word", RuleAtlassianAdminKey, "ORG_ADMIN_KEY=ATC"+"TT3"+strings.Repeat("x", 186)+"\nATC"+"TT3-"+strings.Repeat("configuration-", 14)+"\n"))
		s = append(s, tp("atlassian admin api key cut short", RuleVendorToken, atctt[:180], "pasted "+atctt[:180]+" into the runbook\n"))
		bbdc := "BB" + "DC-MTk4MDE0MzAyMDIzO" + g38.from(base62, 9) + "+" + g38.from(base62, 8) + "/" + g38.from(base62, 8)
		s = append(s, tp("bitbucket data center token with base64's + and /", "bitbucket-http-access-token", bbdc, "git clone https://x-token-auth:"+bbdc+"@git.company.example:7990/scm/app.git\n"))
		dbpw := g.letters(6) + g.from(alphaDigit, 4) + "#" + g.letters(2)
		s = append(s, tp("password passed with its quoted name", RulePasswordNameArgument, dbpw, "```php\ndefine( 'DB_PASSWORD', '"+dbpw+"' );\n```\n"))
		s = append(s, fp("a field name and an error code", RulePasswordNameArgument, "```php\n$form->addError('password', 'too_short');\ndefine('DB_PASSWORD', getenv('DB_PASSWORD'));\n```\n"))
	}

	// the forms of notesforms.go (passwords in notes)
	{
		p1 := g.letters(6) + g.from(alphaDigit, 2) + "*" + g.letters(5)
		p2 := g.letters(5) + g.from(alphaDigit, 3) + "#" + g.letters(4)
		p3 := g.letters(7) + g.from(alphaDigit, 2) + "!" + g.letters(3)
		s = append(s, tp("wi-fi passphrase with no copula", RuleProsePasswordPhrase, p1, "- Lab Wi-Fi: SSID `lab-2g`, pass"+"phrase "+p1+"\n"))
		s = append(s, fp("passphrase rule, no value", RuleProsePasswordPhrase, "The pass"+"phrase must be at least 14 characters; set the pass"+"word to something only you know.\n"))
		s = append(s, tp("creds pair after words", RuleProseLoginPair, p2, "creds for the qa broker -> `qa-mq` / `"+p2+"`\n"))
		s = append(s, fp("creds pair, a placeholder", RuleProseLoginPair, "creds for the qa broker -> `qa-mq` / `<redacted>`; the login window is 10:30 to 11:45\n"))
		s = append(s, tp("password below its label", RuleProsePasswordBelow, p3, "Benutzer: svc_print\nPass"+"wort:\n"+p3+"\n"))
		s = append(s, fp("password label, a pointer below", RuleProsePasswordBelow, "Pass"+"word:\n(ask the on-call, it rotates weekly)\n\nWhat's the pass"+"word policy?\nIt's 12 characters minimum.\n"))
		k1 := g.mixed(base62, 40)
		s = append(s, tp("sshpass password flag", RulePasswordFlag, p1, "```sh\nsshpass -p '"+p1+"' ssh ops@10.0.3.9 uptime\n```\n"))
		s = append(s, fp("sshpass from the environment", RulePasswordFlag, "```sh\nsshpass -p \"$SSHPASS\" ssh ops@10.0.3.9 uptime\nsshpass -f ~/.pw ssh ops@10.0.3.9\n```\n"))
		s = append(s, tp("signing key bytes", RuleSigningKeyBytes, k1, "```csharp\nvar key = new SymmetricSecurityKey(Encoding.UTF8.GetBytes(\""+k1+"\"));\n```\n"))
		s = append(s, fp("bytes of a payload", RuleSigningKeyBytes, "```csharp\nvar body = Encoding.UTF8.GetBytes(\"{\\\"hello\\\": 1}\");\nvar key = new SymmetricSecurityKey(Encoding.UTF8.GetBytes(config[\"Jwt:Key\"]));\n```\n"))
		s = append(s, tp("url password with a raw hash", RuleURLPasswordHash, p2, "    postgres://app:"+p2+"@db-3.internal:5432/app\n"))
		s = append(s, fp("url with a fragment", RuleURLPasswordHash, "See https://wiki.acme.example/page#intro and postgres://app:${PG_PASS}#@db:5432/app\n"))
	}

	// the vendor forms of vendorcontext.go
	{
		tok := g.mixed(base62+"_-", 40)
		s = append(s, tp("bearer token in a header literal", RuleBearerLiteral, tok, "```go\nreq.Header.Set(\"Authorization\", \"Bearer "+tok+"\")\n```\n"))
		s = append(s, fp("bearer header built from a variable", RuleBearerLiteral, "```go\nreq.Header.Set(\"Authorization\", \"Bearer \"+token)\nreq.Header.Set(\"Authorization\", \"Bearer ${API_TOKEN}\")\n```\n"))
		okta := "00" + g.mixed(base62+"_-", 40)
		s = append(s, tp("okta token in a note", RuleOktaToken, okta, "The Okta sync job stopped when the admin who made its credential left.\nA new one for the service account, "+okta+", is in use now.\n"))
		s = append(s, fp("okta, no token", RuleOktaToken, "The Okta sync job stopped on Saturday; the ops team reran it from the console.\nBatch 00"+g.from("0123456789", 40)+" shipped.\n"))
		heroku := g.uuid()
		s = append(s, tp("heroku key under a heroku block", RuleHerokuKeyNear, heroku, "```php\n$config['heroku_api_key'] = '"+heroku+"';\n```\n"))
		s = append(s, fp("heroku app id", RuleHerokuKeyNear, "heroku:\n  app_id: "+g.uuid()+"\n"))
		mg := g.from("0123456789abcdef", 32) + "-" + g.from("0123456789abcdef", 8) + "-" + g.from("0123456789abcdef", 8)
		s = append(s, tp("mailgun key by its sending domain", RuleMailgunDomainKey, mg, "Sending domain mg.shop.example uses key "+mg+" for now.\n"))
		s = append(s, fp("mailgun-shaped hex by an image", RuleMailgunDomainKey, "Thumbnail img.cdn.example/"+mg+".png\n"))
		xpw := g.letters(6) + "-" + g.letters(5) + g.from(alphaDigit, 3)
		s = append(s, tp("password as an XML element's text", RuleXMLPasswordElement, xpw, "```xml\n<server>\n  <password>"+xpw+"</password>\n</server>\n```\n"))
		s = append(s, fp("XML password element from a property", RuleXMLPasswordElement, "```xml\n<password>${env.REPO_PASSWORD}</password>\n```\n"))
		mpw := g.mixed(base62, 14)
		s = append(s, tp("password glued to mysql -p", RuleMySQLGluedPassword, mpw, "```sh\nmysqldump -u backup -p'"+mpw+"' shop > shop.sql\n```\n"))
		s = append(s, fp("mysql -p that prompts", RuleMySQLGluedPassword, "```sh\nmysql -u root -p shop\nmysql -u root -p\"$MYSQL_PWD\" shop\n```\n"))
		ppw := "Tq" + g.mixed(base62, 14)
		s = append(s, tp("password after its name in a runbook", RuleProsePasswordPlain, ppw, "Log in as monitor / password "+ppw+" from the bastion.\n"))
		s = append(s, fp("password policy sentence", RuleProsePasswordPlain, "The password of the kiosk is rotated every month by the on-call engineer.\n"))
		cpw := "Harbor" + g.from(alphaDigit, 4) + "lantern"
		s = append(s, tp("password in a Japanese handover", RuleProseSecretCJK, cpw, "- 本番DBのパスワードは「"+cpw+"」です。\n"))
		s = append(s, fp("password rule in Japanese", RuleProseSecretCJK, "- パスワードは12文字以上にしてください。\n"))
		// (no draw from g: the samples after keep their values)
		tpw := "Bosporus" + "#" + "4417kq"
		s = append(s, tp("password after its noun in a Turkish handover", RuleProsePasswordIntl, tpw, "- Ofis wifi şifresi ise "+tpw+"\n"))
		jks := "AQAAABAAAAAg" + "k7Rz2Qv9XcLmN4pW8sTbYe1HuJ5fGdA3"
		s = append(s, tp("token in Jenkins' credentials.xml", RuleXMLSecretElement, jks, "```xml\n<org.jenkinsci.plugins.plaincredentials.impl.StringCredentialsImpl>\n  <id>deploy-token</id>\n  <secret>{"+jks+"}</secret>\n</org.jenkinsci.plugins.plaincredentials.impl.StringCredentialsImpl>\n```\n"))
		s = append(s, fp("a list's cursor in an XML response", RuleXMLSecretElement, "```xml\n<ListSecretsResult>\n  <NextToken>"+"AAQAAxM2Nzk0OTEy"+"ZDQ1ZTk4MjQ3YjU2</NextToken>\n</ListSecretsResult>\n```\n"))
		lsk := "lsv2_pt_" + "7c0e1f9a4b2d48e3a5f6c9d8b1e2a3f4" + "_" + "9e8d7c6b5a"
		s = append(s, tp("LangSmith key in a list of keys", RuleLangSmithAPIKey, lsk, "Tracing keys by project:\n- evals: "+lsk+"\n"))
		s = append(s, fp("LangSmith key's prefix in a sentence", RuleLangSmithAPIKey, "LangSmith personal tokens start with lsv2_pt_ and service keys with lsv2_sk_.\n"))
		pck := "pcsk_" + "3Hq7Zx" + "_" + "Vt8Kp2Lm9Wx4Rb6Nc1Hd5Jf0Gs3TyQa7Ue2Io8Pk4Mn6Bv9Cx1Zl5Dr3Fw7Gy0Hj"
		s = append(s, tp("Pinecone key passed to the client", RulePineconeAPIKey, pck, "```python\npc = Pinecone(\""+pck+"\")\n```\n"))
		s = append(s, fp("Pinecone key placeholder", RulePineconeAPIKey, "Set PINECONE_API_KEY to your key (it starts with pcsk_).\n"))
		rtk := "rootly_" + "4f9a2c7e1b8d3f6a0c5e9b2d7f4a1c8e" + "3b6d9f2a5c8e1b4d7f0a3c6e9b2d5f8a"
		s = append(s, tp("Rootly key in a list of keys", RuleRootlyAPIKey, rtk, "Incident bot keys:\n- staging: "+rtk+"\n"))
		s = append(s, fp("Rootly key's shape described", RuleRootlyAPIKey, "A Rootly API key is rootly_ followed by 64 hex digits.\n"))
		dka := "ZGVwbG95OlR4N3FMMm1WOXdLNHBS" // deploy:Tx7qL2mV9wK4pR
		s = append(s, tp("registry credential escaped in a runner's config", RuleDockerAuth, dka, "```toml\nenvironment = [\"DOCKER_AUTH_CONFIG={\\\"auths\\\":{\\\"registry.acme.io\\\":{\\\"auth\\\":\\\""+dka+"\\\"}}}\"]\n```\n"))
		s = append(s, fp("registry credential of the docs' sample", RuleDockerAuth, "```json\n{\"auths\":{\"\":{\"auth\":\"dXNlcjpwYXNz\"}}}\n```\n"))
		ixk := "Zq8Lm2Vt9Wx4" + "Kp7Rb3Nc6Hd1Jf5Gs0Ty"
		s = append(s, tp("secret assigned to an environment index", RuleIndexedSecret, ixk, "```python\nos.environ[\"OPENAI_API_KEY\"] = \""+ixk+"\"\n```\n"))
		s = append(s, fp("secret index read from the environment", RuleIndexedSecret, "```python\nos.environ[\"OPENAI_API_KEY\"] = os.getenv(\"VAULT_OPENAI_KEY\")\nsettings['api_token'] = '${API_TOKEN}'\n```\n"))
		s = append(s, fp("password policy in Polish", RuleProsePasswordIntl, "Hasło do VPN: minimum 12 znaków, zmiana co 90 dni.\n"))
	}
	// the kinds of secret in notes of noteskinds.go
	{
		pin := "7" + g.from("0123456789", 2) + "3" + g.from("0123456789", 2)
		s = append(s, tp("door code in an announcement", RuleProsePIN, pin, "> The door code for the print room is now **"+pin+"**.\n"))
		s = append(s, fp("PIN length in a policy", RuleProsePIN, "PIN length: 6 digits; the default PIN is 0000 until you set one.\n"))
		words := "quarry pewter wicket juniper"
		s = append(s, tp("passphrase of words in a runbook", RuleProsePassphraseWords, words, "The backup disk's passphrase is \""+words+"\".\n"))
		s = append(s, fp("passphrase rule", RuleProsePassphraseWords, "The passphrase must be four words or more, not \"correct horse battery staple\".\n"))
		tok := "Rk" + g.mixed(base62, 30)
		s = append(s, tp("bearer token in a sentence", RuleProseBearer, tok, "Authorization header: Bearer "+tok+"\n"))
		s = append(s, fp("bearer in a sentence, no token", RuleProseBearer, "The Authorization header takes Bearer tokens from the identity service.\n"))
		rk := g.from("0123456789abcdef", 40)
		s = append(s, tp("recovery key in an email", RuleProseRecoveryKey, rk, "The recovery key for the backup vault is "+rk+" - keep it offline.\n"))
		s = append(s, fp("recovery key's fingerprint", RuleProseRecoveryKey, "The recovery key fingerprint is "+g.from("0123456789abcdef", 40)+".\n"))
		code := g.from("abcdefghjkmnpqrstuvwxyz", 2) + g.from("23456789", 2) + "-" + g.from("abcdefghjkmnpqrstuvwxyz", 2) + g.from("23456789", 2)
		s = append(s, tp("recovery codes under their label", RuleRecoveryCodes, code, "Backup codes for the shared 2FA:\n\n```\n"+code+"\n```\n"))
		s = append(s, fp("recovery codes placeholder", RuleRecoveryCodes, "Backup codes for the shared 2FA:\n\n```\nxxxx-xxxx\n```\n"))
	}
	// the formats and code forms of typedforms.go
	{
		h := "0123456789abcdef"
		uuid := g.from(h, 8) + "-" + g.from(h, 4) + "-4" + g.from(h, 3) + "-a" + g.from(h, 3) + "-" + g.from(h, 12)
		s = append(s, tp("launchdarkly sdk key", RuleLaunchDarklySDKKey, "sdk-"+uuid, "```go\nclient, _ := ld.MakeClient(\"sdk-"+uuid+"\", 5*time.Second)\n```\n"))
		s = append(s, fp("launchdarkly mobile key", RuleLaunchDarklySDKKey, "```kotlin\nLDConfig.Builder(AutoEnvAttributes.Enabled).mobileKey(\"mob-"+uuid+"\").build()\n```\n"))
		bt := "access_token$production$" + g.from(alphaLower+alphaDigit, 16) + "$" + g.from(h, 32)
		s = append(s, tp("braintree access token", RuleBraintreeAccessToken, bt, "BRAINTREE_ACCESS_TOKEN="+bt+"\n"))
		s = append(s, fp("braintree token format in docs", RuleBraintreeAccessToken, "The token looks like `access_token$production$<merchant_id>$<hash>`.\n"))
		ak := g.from(h, 32)
		s = append(s, tp("algolia key handed to APIKey", RuleSecretTypeLiteral, ak, "```kotlin\nval client = ClientSearch(ApplicationID(\"LATENCY\"), APIKey(\""+ak+"\"))\n```\n"))
		rp := g.from(alphaLower+alphaDigit, 20)
		s = append(s, tp("redis requirepass", RuleConfigDirectivePassword, rp, "port 6379\nrequirepass "+rp+"\nmaxmemory 2gb\n"))
		s = append(s, fp("redis.conf's documented sample", RuleConfigDirectivePassword, "# requirepass foobared\nrequirepass ${REDIS_PASSWORD}\n"))
		s = append(s, fp("a cloud Secret resource", RuleSecretTypeLiteral, "```ts\nconst s = new aws.secretsmanager.Secret(\"dbPassword2024Prod\");\nval key = APIKey(BuildConfig.ALGOLIA_KEY)\n```\n"))
	}
	// seed phrases (seedphrase.go): words drawn from the list here, so
	// that no phrase is written in the source
	{
		words := strings.Fields(bip39English)
		phrase := func(n int, sep string) string {
			ws := make([]string, n)
			for i := range ws {
				ws[i] = words[g.next()%uint64(len(words))]
			}
			return strings.Join(ws, sep)
		}
		p12 := phrase(12, " ")
		s = append(s, tp("seed phrase below its label", RuleSeedPhrase, p12, "# wallet\n\nRecovery phrase (write it down):\n"+p12+"\n\nDevice PIN is with Sam.\n"))
		p24 := phrase(24, "\n")
		s = append(s, tp("seed phrase one word a line", RuleSeedPhrase, p24, "words:\n"+p24+"\n"))
		pe := phrase(12, " ")
		s = append(s, sample{name: "seed phrase in an env file", rule: RuleSeedPhrase, secret: pe, path: ".env", text: "MNEMONIC=\"" + pe + "\"\n"})
		var numbered strings.Builder
		for i, w := range strings.Fields(phrase(12, " ")) {
			fmt.Fprintf(&numbered, "%d. %s ", i+1, w)
		}
		pn := strings.TrimSuffix(strings.TrimPrefix(numbered.String(), "1. "), " ")
		s = append(s, tp("seed phrase numbered", RuleSeedPhrase, pn, "Frase de recuperación:\n\n1. "+pn+"\n"))
		s = append(s, fp("seed phrase eleven words", RuleSeedPhrase, "Recovery phrase: "+phrase(11, " ")+"\n"))
		s = append(s, fp("seed phrase test vector", RuleSeedPhrase, "```js\nconst mnemonic = '"+strings.Split(strings.TrimSpace(bip39Vectors), "\n")[3]+"';\n```\n"))
		s = append(s, fp("seed phrase development default", RuleSeedPhrase, "mnemonic: \"test test test test test test test test test test test junk\"\n"))
		s = append(s, fp("seed phrase word list excerpt", RuleSeedPhrase, "The list begins: "+strings.Join(words[100:114], ", ")+".\n"))
		s = append(s, fp("seed phrase prose", RuleSeedPhrase, "Keep the recovery phrase offline: write the twelve words on paper, store them in the safe, and never type them into a website or a chat.\n"))
	}
	// pkcs12-known-password: the store is the secret, whole (stores
	// OpenSSL writes: TestPKCS12OpenSSL)
	{
		known, _ := buildTestPFX("notasecret", 2048, true)
		own, _ := buildTestPFX(g.from(alphaDigit, 20), 2048, true)
		trust, _ := buildTestPFX("changeit", 2048, false)
		s = append(s, sample{name: "pkcs12 under notasecret", rule: RulePKCS12KnownPassword, secret: string(known), path: "svc-account.p12", text: string(known)})
		s = append(s, sample{name: "pkcs12 under a password of its own", fpFor: RulePKCS12KnownPassword, path: "client.pfx", text: string(own)})
		s = append(s, sample{name: "pkcs12 trust store", fpFor: RulePKCS12KnownPassword, path: "truststore.p12", text: string(trust)})
	}
	// the code forms of clientforms.go
	{
		ck := g.mixed(alphaUpper+alphaLower+alphaDigit, 40)
		s = append(s, tp("key handed to a client", RuleClientKeyLiteral, ck, "```python\nimport cohere\n\nco = cohere.Client(\""+ck+"\")\n```\n"))
		s = append(s, fp("client given an address", RuleClientKeyLiteral, "```python\nclient = weaviate.Client(\"http://localhost:8080\")\nc = queue.Client(\"orders-service-consumer-group-eu-west-1\")\n```\n"))
		id := "1" + g.from(alphaDigit, 17)
		b64 := alphaUpper + alphaLower + alphaDigit + "-_"
		dt := base64.RawURLEncoding.EncodeToString([]byte(id)) + "." + g.from(b64, 6) + "." + g.from(b64, 38)
		s = append(s, tp("discord bot token", RuleDiscordBotToken, dt, "```js\nimport { Client } from 'discord.js';\n\nconst client = new Client({ intents: [] });\nclient.login('"+dt+"');\n```\n"))
		s = append(s, fp("discord three-part value of no ID", RuleDiscordBotToken, "```js\n// discord\nconst build = 'NmFiY2RlZmdoaWprbG1ub3Bx.aB3dEf.notAnHmacJustThirtyCharsLongXyZ';\n```\n"))
		sk := g.from(hexLower, 32)
		s = append(s, tp("sentry dsn", RuleSentryDSN, sk, "```js\nSentry.init({ dsn: 'https://"+sk+"@o4504.ingest.us.sentry.io/4507' });\n```\n"))
		s = append(s, fp("sentry dsn placeholder", RuleSentryDSN, "SENTRY_DSN=https://<key>@o0.ingest.sentry.io/0\n"))
		rk := "re_" + g.mixed(alphaUpper+alphaLower+alphaDigit, 8) + "_" + g.mixed(alphaUpper+alphaLower+alphaDigit, 24)
		s = append(s, tp("resend api key", RuleResendAPIKey, rk, "```ts\nconst resend = new Resend('"+rk+"');\n```\n"))
		s = append(s, fp("resend key placeholder", RuleResendAPIKey, "```ts\nconst resend = new Resend('re_123456789');\nconst store_settings_value = score_abcdefgh_ijklmnopqrstuvwxyzabcdef;\n```\n"))
		var codes []string
		for range 8 {
			codes = append(codes, g.from(hexLower, 5)+"-"+g.from(hexLower, 5))
		}
		list := strings.Join(codes, "\n")
		cpw := g.mixed(alphaUpper+alphaLower+alphaDigit, 14)
		s = append(s, tp("password after its user on a command line", RuleCLIUserPassword, cpw, "```sh\ncypher-shell -a neo4j://graph:7687 -u neo4j -p '"+cpw+"' \"RETURN 1\"\n```\n"))
		s = append(s, fp("-p that is no password", RuleCLIUserPassword, "```sh\nmysql -u root -p shopdb\ndocker run -u 1000 -p 8080:80 nginx\nmongosh -u admin -p \"$MONGO_PASSWORD\"\n```\n"))
		s = append(s, tp("one-time codes listed", RuleOneTimeCodes, list, "Printed 3 May, keep offline:\n\n"+list+"\n\nEach works once.\n"))
		s = append(s, fp("a list of part numbers", RuleOneTimeCodes, "Spare parts:\n\n- KX-4411-A\n- KX-4412-B\n- KX-5120-A\n- KX-5121-C\n"))
		// a Logic Apps (Power Automate, Teams Workflows) trigger URL as
		// Microsoft's "Call, trigger, or nest logic apps" documents it:
		// base64url, 43 characters
		lsig := g.mixed(base62+"_-", 43)
		s = append(s, tp("logic apps trigger url", RuleAzureSAS, lsig, "FLOW_URL=https://prod-27.westus.logic.azure.com:443/workflows/"+g.from(hexLower, 32)+"/triggers/manual/paths/invoke?api-version=2016-10-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig="+lsig+"\n"))
		s = append(s, fp("logic apps trigger url template", RuleAzureSAS, "POST https://prod-27.westus.logic.azure.com:443/workflows/{id}/triggers/manual/paths/invoke?api-version=2016-10-01&sv=1.0&sig={signature}\n"))
		// a 32-digit hex key whose digits repeat more than most: 3.38
		// bits, under the rules' 3.5, as one random hex key in five is
		// (entropyFloor)
		lowHex := "eb1ee50eb8290b34" + "4881e91f2fb8c3eb"
		s = append(s, tp("algolia key of few distinct digits", RuleSecretTypeLiteral, lowHex, "```kotlin\nval client = ClientSearch(ApplicationID(\"LATENCY\"), APIKey(\""+lowHex+"\"))\n```\n"))
	}
	// login-label-pair: a login after the labels that name its two parts
	{
		pw := g.mixed(base62, 11) + "!"
		s = append(s, tp("id/pw labels", RuleLoginLabelPair, pw, "- staging bastion ID/PW -> opsadmin/"+pw+"\n"))
		s = append(s, fp("id/pw instructions", RuleLoginLabelPair, "- Enter your ID/PW on the SSO page; ID/PW: admin/${ADMIN_PASSWORD} in CI.\n"))
	}
	// host-login-pair: a login after a host's address, and a route and a
	// port after one
	{
		pw := g.mixed(base62, 9) + "#" + g.from("0123456789", 2)
		s = append(s, tp("login after an address", RuleHostLoginPair, pw, "- db01 (10.0.4.12): admin/"+pw+"\n"))
		s = append(s, fp("route and port after an address", RuleHostLoginPair, "- route 10.0.0.0/8 via 10.0.0.1 tcp/443; release 1.4.0.2 docs/Setup3.md\n"))
	}
	// jwk-private-key: a key set's private member, and a public key set
	{
		d := base64.RawURLEncoding.EncodeToString(g.bytes(32))
		x := base64.RawURLEncoding.EncodeToString(g.bytes(32))
		s = append(s, tp("jwk private key", RuleJWKPrivateKey, d, "```json\n{\"keys\": [{\"kty\": \"EC\", \"crv\": \"P-256\", \"x\": \""+x+"\", \"y\": \""+x+"\", \"d\": \""+d+"\"}]}\n```\n"))
		s = append(s, fp("jwk public key", RuleJWKPrivateKey, "```json\n{\"keys\": [{\"kty\": \"OKP\", \"crv\": \"Ed25519\", \"x\": \""+x+"\", \"use\": \"sig\"}]}\n```\n"))
	}
	// OpenRouter and SonarQube tokens in prose, with no name beside them
	{
		h := newFakeGen("openrouter, sonarqube")
		or, sq := "sk-or"+"-v1-"+h.from(hexLower, 64), "sq"+"p_"+h.from(hexLower, 40)
		s = append(s, tp("openrouter key in prose", "openrouter-api-key", or, "- The router key for the worker is `"+or+"`, rotate it.\n"))
		s = append(s, fp("openrouter key format in prose", "openrouter-api-key", "OpenRouter keys start with sk-or-v1- and hold 64 hex digits.\n"))
		s = append(s, tp("sonarqube project token in prose", "sonarqube-token", sq, "The analysis runs with "+sq+" until Friday.\n"))
		s = append(s, fp("sonarqube token format in prose", "sonarqube-token", "Project tokens start with sqp_, user tokens with squ_.\n"))
	}
	// A Mailchimp key named by its data center alone, and locales and a
	// digest's parts that are none (round forty-four)
	{
		h := newFakeGen("mailchimp, round forty-four")
		mc := h.from(hexLower, 32) + "-us" + "19"
		s = append(s, tp("mailchimp key by its data center", RuleMailchimpKey, mc, "The nightly audience sync posts with "+mc+".\n"))
		s = append(s, fp("locales and a digest's parts", RuleMailchimpKey, "Pages ship in en-us and es-us; the cache key is "+h.from(hexLower, 32)+"-us and "+h.from(hexLower, 32)+"-2.\n"))
		dt := h.discordToken(time.Date(2020, 6, 1, 0, 0, 0, 0, time.UTC))
		s = append(s, tp("discord bot token with no name near it", RuleDiscordBotTokenBare, dt, "Paste "+dt+" into the bot's settings.\n"))
		s = append(s, fp("three dotted parts that are no token", RuleDiscordBotTokenBare, "Build "+h.mixed(base62, 24)+"."+h.mixed(base62, 6)+"."+h.mixed(base62, 27)+" failed.\n"))
	}
	// Formats told by their structure, with no name near them (round
	// forty-seven, structformats.go)
	{
		h := newFakeGen("structure, round forty-seven")
		hex := func() string {
			for {
				if v := h.from(hexLower, 32); strings.ContainsAny(v, "abcdef") && strings.ContainsAny(v, alphaDigit) {
					return v
				}
			}
		}
		ds := "sk-" + hex()
		s = append(s, tp("deepseek key in a coloured log line", RuleDeepSeekKey, ds, "```\n\x1b[93m"+ds+"\x1b[0m accepted by api.deepseek.com\n```\n"))
		s = append(s, fp("sk- and hex that is no key", RuleDeepSeekKey, "The branch task-"+hex()+" and the key sk-"+hex()[:24]+" (cut) are not keys.\n"))
		// a 16-character ID, the older length, which gitleaks' ID rule does
		// not take; in a constructor, client-key-literal reports the secret
		id, sec := "LTAI"+h.mixed(base62, 12), h.mixed(base62, 30)
		s = append(s, tp("alibaba secret after its id", RuleAlibabaSecretAfterID, sec, "- uploader: "+id+" / "+sec+"\n"))
		s = append(s, fp("alibaba id with its secret from the environment", RuleAlibabaSecretAfterID, "```python\nauth = oss2.Auth(\""+id+"\", os.environ[\"OSS_SECRET\"])\nbucket = oss2.Bucket(auth, \"https://oss-cn-hangzhou.aliyuncs.com\", \"releaseartifactsbucketeast2026\")\n```\n"))
		ntlm := ntlmAuthenticate(h, 24)
		s = append(s, tp("ntlm authenticate header", RuleNTLMAuthenticate, ntlm, "```\nAuthorization: NTLM "+ntlm+"\n```\n"))
		s = append(s, fp("ntlm negotiate header", RuleNTLMAuthenticate, "```\nAuthorization: NTLM TlRMTVNTUAABAAAAB4IIogAAAAAAAAAAAAAAAAAAAAAGAbEdAAAADw==\n```\n"))
		db := h.from(alphaLower+alphaDigit, 11) + "AAAAAAAAAA" + h.mixed(base62, 43)
		s = append(s, tp("dropbox long-lived token bare", RuleDropboxLongLivedBare, db, "Paste `"+db+"` into the backup job.\n"))
		s = append(s, fp("base64 with a run of A", RuleDropboxLongLivedBare, "```\nssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI"+h.mixed(base64std, 43)+" ops@bastion\n```\n"))
	}
	// Round forty-nine: formats and forms a helper's cases and
	// CredSweeper's samples found missing (structformats.go,
	// macroforms.go, peerforms.go)
	{
		h := newFakeGen("round forty-nine")
		// Microsoft's annotated key of another platform than Azure
		// DevOps (ACOG: Azure AI services), and an ADO PAT copied
		// with two more characters and "==".
		cask := h.mixed(base62, 52) + "JQ" + "QJ99" + h.mixed(base62, 18) + "AC" + "OG" + h.mixed(base62, 4)
		s = append(s, tp("azure ai services key in prose", RuleAzureAnnotatedKey, cask, "The speech resource's key "+cask+" was rotated on Monday.\n"))
		s = append(s, fp("annotated key of one letter", RuleAzureAnnotatedKey, "example: "+strings.Repeat("o", 52)+"JQ"+"QJ99AEAAAAAAAAAAAAAAAAAZFURg67\n"))
		ado := h.mixed(base62, 52) + "JQ" + "QJ" + h.mixed(base62, 20) + "AZ" + "DO" + h.mixed(base62, 6) + "=="
		s = append(s, tp("azure devops pat of 88", RuleAzureDevOpsPAT, ado, "pat: "+ado+"\n"))
		cosmo := "cosmo_" + h.from(hexLower, 32)
		s = append(s, tp("wundergraph cosmo key in prose", RuleWunderGraphCosmoKey, cosmo, "Router deploys authenticate with "+cosmo+" (staging).\n"))
		s = append(s, fp("cosmo_ identifiers", RuleWunderGraphCosmoKey, "The cosmo_router and cosmo_"+strings.Repeat("0", 32)+" fixtures are not keys.\n"))
		pha := "ph" + "a_" + h.mixed(base62, 43)
		s = append(s, tp("posthog oauth access token", "posthog-personal-api-key", pha, "- exported from the app: "+pha+"\n"))
		s = append(s, fp("posthog project key is public", RuleGenericSecret, "NEXT_PUBLIC_POSTHOG_KEY=ph"+"c_"+h.mixed(base62, 43)+"\n"))
		tok := h.mixed(base62, 32)
		s = append(s, tp("token defined as a C macro", RuleMacroSecret, tok, "#define UPLOAD_TOKEN \""+tok+"\"\n"))
		hex := h.from(hexLower, 48)
		s = append(s, tp("token defined in an RPM spec", RuleMacroSecret, hex, "%define token "+hex+"\n"))
		s = append(s, fp("macro defined to another macro", RuleMacroSecret, "#define API_TOKEN DEFAULT_API_TOKEN\n#define TOKEN_LENGTH 64\nset(API_KEY_FILE \"${CMAKE_SOURCE_DIR}/keys/dev.key\")\n"))
		s = append(s, fp("a macro's name as its string", RuleMacroSecret, "#define LN_secretBag            \"secretBag\"\n#define SN_setct_CapTokenTBS            \"setct-CapTokenTBS\"\n#define SN_id_regCtrl_regToken          \"id-regCtrl-regToken\"\n"))
		pw := h.mixed(base62, 10) + "#" + h.mixed(base62, 4)
		s = append(s, tp("net user password", RuleNetUserPassword, pw, "net user svc_backup "+pw+" /add /y\n"))
		s = append(s, fp("net user prompting for the password", RuleNetUserPassword, "net user svc_backup * /add\nnet user %SVC_USER% %SVC_PASSWORD% /add\n"))
		hash := "*" + h.from("0123456789ABCDEF", 40)
		s = append(s, tp("mysql native password hash", RuleSQLPassword, hash, "ALTER USER 'legacy'@'%' IDENTIFIED WITH mysql_native_password AS '"+hash+"';\n"))
		s = append(s, fp("mysql auth_socket names an OS user", RuleSQLPassword, "CREATE USER 'ops'@'localhost' IDENTIFIED WITH auth_socket AS 'ops';\n"))
		spw := h.mixed(base62, 12) + "%3"
		s = append(s, tp("mysql set password for", RuleSQLPassword, spw, "SET PASSWORD FOR 'web'@'%' = '"+spw+"';\n"))
		// the forms and near misses of a second helper's set
		gpw := h.mixed(base62, 10) + "!" + h.mixed(base62, 3)
		s = append(s, tp("mysql set password in a call's string", RuleSQLPassword, gpw, "db.Exec(\"SET PASSWORD FOR 'svc'@'%' = '"+gpw+"'\")\n"))
		old := "*" + h.from("0123456789ABCDEF", 40)
		s = append(s, tp("mysql 5 grant by password hash", RuleSQLPassword, old, "GRANT ALL ON *.* TO 'a'@'%' IDENTIFIED BY PASSWORD '"+old+"';\n"))
		s = append(s, fp("the manual's stand-ins", RuleSQLPassword, "CREATE USER 'jeffrey'@'localhost' IDENTIFIED BY 'auth_string';\nALTER USER 'u'@'%' IDENTIFIED WITH mysql_native_password AS '*2470C0C06DEE42FD1618BB99005ADCA2EC9D1E19';\n"))
		upw := h.mixed(base62, 9) + "@" + h.mixed(base62, 4)
		s = append(s, tp("net use with the user first", RuleNetUserPassword, upw, "net use \\\\10.0.0.5\\IPC$ /user:administrator \""+upw+"\"\n"))
		env := h.from(hexLower, 32)
		s = append(s, tp("cmake environment variable", RuleMacroSecret, env, "set(ENV{API_KEY} \""+env+"\")\n"))
		cond := h.mixed(base62, 40)
		s = append(s, tp("spec conditional global", RuleMacroSecret, cond, "%{!?token: %global token "+cond+"}\n"))
		s = append(s, fp("macros naming what a secret is not", RuleMacroSecret, "#define TOKEN_NAMESPACE_UUID \"6ba7b810-9dad-11d1-80b4-00c04fd430c8\"\n#define SECRET_KEY_ATTRIBUTE kSecAttrAccessibleWhenUnlockedThisDeviceOnly\n#define PASSWORD_HASHER PBKDF2PasswordHasher\n"))
		s = append(s, fp("healthcare prefixes", "posthog-personal-api-key", "public class phr_PatientMedicationHistoryReconciliationService {}\nclass phs_SyndromicSurveillanceMessageTransformerVersion2 {}\n"))
		cont := h.from(hexLower, 32)
		s = append(s, tp("macro continued on the next line", RuleMacroSecret, cont, "#define API_KEY \\\n    \""+cont+"\"\n"))
		next := h.mixed(base62, 36)
		s = append(s, tp("cmake set with its value on the next line", RuleMacroSecret, next, "set( UPLOAD_TOKEN\n     \""+next+"\" )\n"))
		sethash := "*" + h.from("0123456789ABCDEF", 40)
		s = append(s, tp("mysql set password to a hash", RuleSQLPassword, sethash, "SET PASSWORD FOR 'd'@'%' = '"+sethash+"';\n"))
		s = append(s, fp("a css class", RuleWunderGraphCosmoKey, ".cosmo_"+h.from(hexLower, 32)+" { display: none; }\n"))
	}
	// Formats told by their shape and structure alone (round fifty,
	// structformats.go)
	{
		h := newFakeGen("round fifty")
		mg := h.from(hexLower, 32) + "-" + h.from(hexLower, 8) + "-" + h.from(hexLower, 8)
		s = append(s, tp("mailgun key with no name near it", RuleMailgunKeyBare, mg, "- `"+mg+"`\n"))
		s = append(s, fp("ids and digests of near shapes", RuleMailgunKeyBare, "request_id: "+h.uuid()+"\nchecksum: "+h.from(hexLower, 32)+"-3e13-af7f\nETag: \""+h.from(hexLower, 32)+"-12\"\nbuild "+h.from(hexLower, 32)+"-"+h.from(hexLower, 8)+"-dirty\n"))
		pat := base64.StdEncoding.EncodeToString(append([]byte("482716390155:"), h.bytes(20)...))
		s = append(s, tp("jira data center pat", RuleAtlassianDCToken, pat, "Paste "+pat+" into the export job's settings.\n"))
		cf := base64.URLEncoding.EncodeToString(append([]byte("1934057215:"), h.bytes(22)...))
		s = append(s, tp("confluence pat in the url alphabet", RuleAtlassianDCToken, cf, "confluence.pat="+cf+"\n"))
		text := base64.StdEncoding.EncodeToString([]byte("20240601:the-nightly-build-was-ok"))
		s = append(s, fp("base64 of an id and text, and of no id", RuleAtlassianDCToken, "state: "+text+"\nblob: "+base64.StdEncoding.EncodeToString(h.bytes(33))+"\n"))
	}
	// Redis's AUTH command (round fifty-one, redisauth.go)
	{
		h := newFakeGen("round fifty-one")
		pw := h.mixed(base62, 14) + "#"
		s = append(s, tp("redis-cli prompt", RuleRedisAuth, pw, "127.0.0.1:6379> AUTH "+pw+"\nOK\n"))
		acl := h.mixed(base62, 18)
		s = append(s, tp("redis-cli acl arguments", RuleRedisAuth, acl, "redis-cli -h cache.internal -p 6380 AUTH worker '"+acl+"'\n"))
		call := h.mixed(base62, 20)
		s = append(s, tp("client auth call", RuleRedisAuth, call, "r.execute_command(\"AUTH\", \"worker\", \""+call+"\")\n"))
		resp := h.mixed(base62, 16)
		s = append(s, tp("resp array", RuleRedisAuth, resp, "printf '*2\\r\\n$4\\r\\nAUTH\\r\\n$16\\r\\n"+resp+"\\r\\n' | nc localhost 6379\n"))
		jedis := h.mixed(base62, 17) + "!"
		s = append(s, tp("client auth method", RuleRedisAuth, jedis, "jedis.auth(\""+jedis+"\");\n"))
		capt := h.mixed(base62, 22)
		s = append(s, tp("captured resp array", RuleRedisAuth, capt, "*2\r\n$4\r\nAUTH\r\n$22\r\n"+capt+"\r\n"))
		cont := h.mixed(base62, 19) + "~"
		s = append(s, tp("redis-cli -a on a continued line", RulePasswordFlag, cont, "redis-cli --no-auth-warning \\\n  -a \""+cont+"\" \\\n  ping\n"))
		arr := h.mixed(base62, 21)
		s = append(s, tp("redis-cli -a in an exec array", RulePasswordFlag, arr, "test: [\"CMD\", \"redis-cli\", \"-a\", \""+arr+"\", \"ping\"]\n"))
		vk := h.mixed(base62, 16) + "@"
		s = append(s, tp("valkey-cli --pass", RulePasswordFlag, vk, "valkey-cli -h valkey.internal --user deploy --pass "+vk+" ping\n"))
		// a chosen password of words and digits closed by a "!" is no
		// sentence's word (sentenceWord)
		chosen := h.from(alphaUpper, 1) + h.from(alphaLower, 6) + "-" + h.from(alphaUpper, 1) + h.from(alphaLower, 5) + "-" + h.from(alphaDigit, 2) + "!"
		s = append(s, tp("chosen words at a prompt", RuleRedisAuth, chosen, "staging.internal:6379> auth "+chosen+"\n"))
		s = append(s, fp("a directive's capitalised sentence word", RuleConfigDirectivePassword, "requirepass Rotated.\n"))
		s = append(s, fp("auth of other protocols, variables and stand-ins", RuleRedisAuth, "AUTH PLAIN "+base64.StdEncoding.EncodeToString([]byte("\x00alerts\x00"+h.mixed(base62, 12)))+"\nredis-cli AUTH \"$REDIS_PASSWORD\"\nc.Do(\"AUTH\", os.Getenv(\"REDIS_PASSWORD\"))\n127.0.0.1:6379> AUTH foobared\nsend AUTH before ROLE when the master has requirepass\nIf AUTH Nevertheless-fails, the pool drops it.\nMiddlewares: []string{\"auth\", \"addPrefixTest@anotherprovider\"}\n$this->auth($password);\nAUTH ok 10.0.4.7:6379\n"))
	}
	// Round fifty-three: generated passwords with a dot between drawn
	// letters are no member chain (memberChain), and a pgpass file by
	// another name (pgpassFiles).
	{
		h := newFakeGen("round fifty-three")
		my := h.mixed(base62, 5) + "." + h.mixed(base62, 19)
		glued := "-p" + my // apart, so that this file holds no such line
		s = append(s, tp("mysql -p glued, a dot in the draw", RuleMySQLGluedPassword, my, "mysql -h 127.0.0.1 -u root "+glued+" -e 'SHOW PROCESSLIST'\n"))
		chat := h.mixed(base62, 5) + "." + h.mixed(base62, 15)
		s = append(s, tp("a chat's password, a dot in the draw", RuleProsePasswordPhrase, chat, "[09:15] anna.zielinska: hasło: "+chat+"\n[09:16] marek: dzięki\n"))
		s = append(s, fp("member chains where a password goes", RuleGenericSecret, "db_password = settings.DATABASES.replica"+"\n"+"API_TOKEN = self.config.apiToken"+"\n"+"SECRET_KEY = os.environ.SECRET_KEY"+"\n"))
		s = append(s, fp("member chains glued to mysql -p", RuleMySQLGluedPassword, "mysql -u app -p$MYSQL_PWD shop\nmysql -u app -pconfig.db.password shop\n"))
		pp := h.mixed(base62, 21)
		s = append(s, sample{name: "pgpass file of an environment", rule: RulePgpassPassword, secret: pp, path: "deploy/prod.pgpass",
			text: "pg-analytics.prod.acme.internal:5432:analytics:report_reader:" + pp + "\n"})
		ms := h.mixed(base62, 18)
		s = append(s, sample{name: "pgpass mounted as a secret", rule: RulePgpassPassword, secret: ms, path: "run/secrets/pgpass",
			text: "db:5432:*:app:" + ms + "\n"})
		sq := h.mixed(base62, 9) + "%" + h.mixed(base62, 8)
		s = append(s, tp("sqlcmd -P in a pipeline", RulePasswordFlag, sq, "  - pwsh: |\n      sqlcmd -S tcp:sql-prod.database.windows.net,1433 -d Orders -U sqladmin -P '"+sq+"' -b -i $_.FullName\n"))
		s = append(s, fp("sqlcmd's variables and prompts", RulePasswordFlag, "sqlcmd -S db -U sa -P $(DbPassword) -Q 'select 1'\nsqlcmd -S db -U sa -P \"%SA_PASSWORD%\" -i init.sql\nosql.exe -S db -E\n"))
		s = append(s, fp("a helm chart's existing secret", RulePasswordLiteral, "externalDatabase:\n  existingSecret: \"keycloak-db-credentials\"\n  existingSecretPasswordKey: \"password\"\n"))
		s = append(s, fp("values encrypted for their tool", RulePasswordLiteral, "mail.smtp.password=ENC("+h.mixed(base64std, 44)+")\nspring.datasource.password='{cipher}"+h.mixed(base64std, 64)+"'\n"))
		dk := h.from(hexLower, 64)
		s = append(s, tp("a discord bot's key", "discord-api-token", dk, "discord_bot_key = \""+dk+"\"\n"))
		s = append(s, fp("a key its name calls public", "discord-api-token", "const DISCORD_PUBLIC_KEY = '"+h.from(hexLower, 64)+"';\n"))
	}
	// round fifty-four: logs are where chats are exported and terminal
	// sessions kept, and the prose rules read them
	{
		h := newFakeGen("round fifty-four")
		de := h.mixed(base62, 6) + "#" + h.mixed(base62, 7)
		s = append(s, sample{name: "an irssi log's password, in German", rule: RuleProseSecretIntl, secret: de, path: "irclogs/libera/#infra.log",
			text: "14:02 < jana> kannst du mir den zugang zum staging-grafana geben?\n14:03 < piet> Benutzer ist admin, das Passwort: " + de + "\n14:03 < piet> bitte gleich ändern\n"})
		pl := h.mixed(base62, 8) + "!" + h.mixed(base62, 5)
		s = append(s, sample{name: "a chat exported to a log, in Polish", rule: RuleProsePasswordPhrase, secret: pl, path: "exports/zespol-ops.log",
			text: "2024-05-11 09:41:02\tmarta\tdostęp do panelu: login operator\n2024-05-11 09:41:20\tmarta\thasło: " + pl + "\n"})
		s = append(s, sample{name: "a service's log of password events", fpFor: RuleProsePasswordPhrase, path: "var/log/auth-service.log",
			text: "2024-05-11T09:41:02Z WARN login failed: invalid password for user=marta attempts=3\n2024-05-11T09:41:20Z INFO password: [REDACTED] policy=strong min_length=12\n2024-05-11T09:42:00Z INFO password reset email sent to m***@example.com\n"})
		s = append(s, sample{name: "a chat log that keeps the password elsewhere", fpFor: RuleProseSecretIntl, path: "irclogs/libera/#infra.log",
			text: "14:02 < jana> wo ist das Passwort für staging?\n14:03 < piet> das Passwort liegt im Vault unter secret/staging/grafana\n"})
		// Samba's -U user%password and htpasswd's batch mode ("ht" +
		// "passwd": this file's own lines hold no such command)
		sm := h.mixed(base62, 9) + "+" + h.mixed(base62, 6)
		s = append(s, tp("smbclient's user and password in a cron script", RuleCommandPassword, sm, "#!/bin/sh\nsmbclient //nas.lan/backup -U 'HOME\\backup%"+sm+"' -c 'put /var/backups/db.sql db.sql'\n"))
		rp := h.mixed(base62, 16)
		s = append(s, tp("rpcclient's, an exec array's items one a line", RuleCommandPassword, rp, "subprocess.run([\n    \"rpcclient\",\n    \"-U\",\n    \"svc_audit%"+rp+"\",\n    \"dc01\",\n])\n"))
		ht := h.mixed(base62, 14)
		s = append(s, tp("htpasswd -b in a Dockerfile", RuleCommandPassword, ht, "FROM nginx:1.27\nRUN ht"+"passwd -Bbc /etc/nginx/.htpasswd ops "+ht+"\n"))
		hn := h.mixed(base62, 18)
		s = append(s, tp("htpasswd -nb where docker runs it", RuleCommandPassword, hn, "docker run --rm --entrypoint ht"+"passwd httpd:2.4 -Bbn registry "+hn+" > auth/htpasswd\n"))
		s = append(s, fp("Samba and htpasswd with nothing to read", RuleCommandPassword, "smbclient //nas/backup -U \"backup%$SMB_PASSWORD\" -c ls\n"+
			"smbclient -U 'DOMAIN\\username%PASSWORD' //server/share\nsmbclient //nas/backup -U backup -A /etc/samba/creds\n"+
			"htpasswd -B /etc/nginx/.htpasswd admin\nhtpasswd -D /etc/nginx/.htpasswd admin\nhtpasswd -nb user password\n"))
		nu := h.mixed(base62, 12)
		s = append(s, tp("net use, the device a PowerShell variable", RuleNetUserPassword, nu, "$share = 'S:'\nnet use $share \\\\fs01\\data "+nu+" /user:CORP\\ops /persistent:no\n"))
		s = append(s, fp("a URL whose password GitLab masked", RuleURLCredentials, "$ git clone https://gitlab-ci-token:[MASKED]@gitlab.example.com/platform/charts.git\n"))
		// a secret a command printed, on the line after it
		vf := h.mixed(base62, 20)
		s = append(s, tp("vault's field in a runbook's session", RulePrintedSecret, vf, "```console\n$ vault kv get -field=password secret/prod/orders-db\n"+vf+"\n$ exit\n```\n"))
		kd := h.mixed(base62, 11) + "-" + h.mixed(base62, 6) + "!"
		s = append(s, tp("a Kubernetes secret decoded, a prompt of user and host", RulePrintedSecret, kd, "ops@bastion:~$ kubectl -n shop get secret pg -o jsonpath='{.data.password}' | base64 --decode\n"+kd+"\nops@bastion:~$\n"))
		s = append(s, fp("commands that print no secret", RulePrintedSecret, "$ vault kv get -field=password secret/x\nNo value found at secret/data/x\n"+
			"ops@bastion:~$ echo $DB_PASSWORD\nops@bastion:~$\n$ terraform output -raw db_password\n<sensitive>\n$ printenv TOKEN_TTL\n3600\n"+
			"$ kubectl get secrets\nNAME   TYPE   DATA   AGE\n$ vault kv get -field=password secret/x > pw.txt\n"+h.mixed(base62, 16)+"\n"))
	}
	return s
}
