package secrets

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The labelled corpus of provider families. Every value is generated at
// run time by fakeGen and every provider prefix is split in the source, so
// no committed file holds anything shaped like a credential (sotvet scan
// runs over this repository in CI). Each true-positive value is written in
// every assignment form below; each false positive (placeholders, published
// examples, look-alikes) in the same forms.

// family is one provider family: values in the provider's format, the name
// they are assigned to, and values that look alike but are not secrets.
type family struct {
	name string
	key  string // the variable name, in ENV_STYLE
	tps  func(g *fakeGen) []string
	fps  func(g *fakeGen) []string
	// texts, when set, are whole true-positive documents (multi-line
	// formats): each returns the text and the secret it holds.
	texts func(g *fakeGen) [][2]string
}

// assignForms writes value assigned to key in the syntaxes users write
// secrets in: .env, YAML, JSON, code (Go, typed Go, Python, JavaScript,
// PHP, Java, Makefile), XML with the value on the next line, and markdown
// (fenced block and fact bullet).
func assignForms(key, value string) map[string]string {
	lower := strings.ToLower(key)
	camel := camelCase(key)
	return map[string]string{
		"env":          key + "=" + value + "\n",
		"env-quoted":   key + "=\"" + value + "\"\n",
		"yaml":         "service:\n  " + lower + ": " + value + "\n",
		"yaml-quoted":  "service:\n  " + lower + ": '" + value + "'\n",
		"json":         "{\n  \"" + camel + "\": \"" + value + "\"\n}\n",
		"go":           "const " + camel + " = \"" + value + "\"\n",
		"go-typed":     "var " + camel + " string = \"" + value + "\"\n",
		"go-short":     camel + " := `" + value + "`\n",
		"python":       lower + " = '" + value + "'\n",
		"js":           "const config = { " + camel + ": \"" + value + "\" };\n",
		"php":          "$" + camel + " .= \"" + value + "\";\n",
		"java":         "System.setProperty(\"" + key + "\", \"" + value + "\");\n",
		"make":         key + " ?= " + value + "\n",
		"make-colon":   key + " ::= " + value + "\n",
		"xml-nextline": "<" + camel + ">\n    " + value + "\n</" + camel + ">\n",
		"md-fenced":    "# Deploy notes\n\n```env\n" + key + "=" + value + "\n```\n",
		"md-bullet":    "## Access\n\n- " + lower + ": `" + value + "`\n",
	}
}

func camelCase(key string) string {
	parts := strings.Split(strings.ToLower(key), "_")
	for i := 1; i < len(parts); i++ {
		if parts[i] != "" {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	return strings.Join(parts, "")
}

// placeholders are the values people write instead of a secret.
func placeholders(prefix string) []string {
	return []string{
		"<token>", "${API_TOKEN}", "$API_TOKEN", "{{ .Values.token }}",
		prefix + "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", prefix + "********************************",
		prefix + "################################", prefix + "your-token-here", "changeme",
		prefix + "...",
	}
}

func families() []family {
	p := func(a, b string) string { return a + b } // split prefixes
	hexN := func(n int) func(g *fakeGen) string { return func(g *fakeGen) string { return g.from(hexLower, n) } }
	rep := func(n int, f func(g *fakeGen) string) func(g *fakeGen) []string {
		return func(g *fakeGen) []string {
			out := make([]string, n)
			for i := range out {
				out[i] = f(g)
			}
			return out
		}
	}
	return []family{
		{name: "stripe", key: "STRIPE_API_KEY", tps: func(g *fakeGen) []string {
			var out []string
			for _, pre := range []string{"sk_test_", "sk_live_", "sk_prod_", "rk_test_", "rk_live_", "rk_prod_"} {
				out = append(out, p(pre[:3], pre[3:])+g.mixed(base62, 24+int(g.next()%70)))
			}
			return out
		}, fps: func(g *fakeGen) []string {
			return append(placeholders(p("sk_", "test_")), p("sk_", "test_")+"short", p("pk_", "test_")+"publishable-key-docs")
		}},
		{name: "gitlab", key: "GITLAB_TOKEN", tps: func(g *fakeGen) []string {
			var out []string
			for _, pre := range []string{"glpat-", "glrt-", "gldt-", "glft-", "glsoat-", "glffct-"} {
				out = append(out, p(pre[:2], pre[2:])+g.mixed(base62, 20))
			}
			out = append(out, p("gl", "cbt-")+g.from(base62, 3)+"_"+g.mixed(base62, 20))
			out = append(out, p("gl", "ptt-")+g.from(hexLower, 40))
			out = append(out, p("gl", "agent-")+g.mixed(base62, 50))
			out = append(out, p("gl", "imt-")+g.mixed(base62, 25))
			out = append(out, p("gl", "oas-")+g.mixed(base62, 64))
			return out
		}, fps: func(g *fakeGen) []string {
			return append(placeholders(p("gl", "pat-")), p("gl", "pat-")+"docs", "glpat")
		}},
		{name: "jwt", key: "SESSION_TOKEN", tps: func(g *fakeGen) []string {
			var out []string
			for i := 0; i < 3; i++ {
				j := b64url(`{"alg":"HS256","typ":"JWT"}`) + "." + b64url(fmt.Sprintf(`{"sub":"user-%d","iat":17800000%02d}`, g.next()%1000, i)) + "." + g.from(base64url, 43)
				out = append(out, j)
				out = append(out, base64.StdEncoding.EncodeToString([]byte(j))) // base64 of a JWT
			}
			return out
		}, fps: func(g *fakeGen) []string {
			return append(placeholders(p("ey", "J")), "eyJhbGciOi...")
		}},
		{name: "age", key: "AGE_KEY", tps: rep(3, func(g *fakeGen) string {
			return p("AGE-SECRET", "-KEY-1") + g.from("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58)
		}), fps: func(g *fakeGen) []string {
			return append(placeholders(p("AGE-SECRET", "-KEY-1")), p("age", "1")+g.from("qpzry9x8gf2tvdw0s3jn54khce6mua7l", 58)) // a public recipient
		}},
		{name: "slack", key: "SLACK_TOKEN", tps: func(g *fakeGen) []string {
			d := func(n int) string { return g.from(alphaDigit, n) }
			return []string{
				p("xo", "xb-") + d(12) + "-" + d(13) + "-" + g.mixed(base62, 24),
				p("xo", "xp-") + d(12) + "-" + d(12) + "-" + d(13) + "-" + g.from(hexLower, 32),
				p("xa", "pp-") + "1-A" + g.from(alphaUpper+alphaDigit, 10) + "-" + d(13) + "-" + g.from(hexLower, 64),
				p("xo", "xe.xoxp-") + "1-" + g.from(alphaUpper+alphaDigit, 164),
				p("xo", "xe-") + "1-" + g.from(alphaUpper+alphaDigit, 146),
				p("xo", "xa-") + "2-" + g.mixed(base62, 30),
			}
		}, fps: func(g *fakeGen) []string {
			return append(placeholders(p("xo", "xb-")), p("xo", "xp-")+g.from(alphaDigit, 12)+"-"+g.from(alphaDigit, 12)+"-####################", p("xo", "xb-")+"your-bot-token")
		}},
		{name: "azure", key: "AZURE_CLIENT_SECRET", tps: rep(4, func(g *fakeGen) string {
			return g.mixed(base62, 3) + g.from(alphaDigit, 1) + "Q~" + g.mixed(base62+"_~.-", 34)
		}), fps: func(g *fakeGen) []string { return placeholders("") }},
		{name: "aws", key: "AWS_BEARER_TOKEN_BEDROCK", tps: func(g *fakeGen) []string {
			long := p("AB", "SK") + base64.StdEncoding.EncodeToString([]byte("BedrockAPIKey-"+g.mixed(base62, 10)+"-at-"+g.from(alphaDigit, 12)+":"+g.mixed(base62, 60)))
			short := p("bedrock-api-key-", "YmVkcm9jay5"+"hbWF6b25hd3MuY29t") + g.mixed(base64std, 120)
			return []string{long, short, p("AK", "IA") + g.from(base32up, 16)}
		}, fps: func(g *fakeGen) []string {
			return append(placeholders(p("AB", "SK")), p("AK", "IAIOSFODNN7")+"EXAMPLE", p("AK", "IA")+"XXXXXXXXXXXXXXXX")
		}},
		{name: "huggingface", key: "HF_TOKEN", tps: func(g *fakeGen) []string {
			return []string{p("h", "f_") + g.letters(34), p("api_", "org_") + g.letters(34), p("h", "f_") + g.letters(34)}
		}, fps: func(g *fakeGen) []string {
			return append(placeholders(p("h", "f_")), p("h", "f_")+"hub_download_with_retries_for_models_v2")
		}},
		{name: "github", key: "GITHUB_TOKEN", tps: func(g *fakeGen) []string {
			return []string{p("gh", "p_") + g.mixed(base62, 36), p("gh", "s_") + g.mixed(base62, 36), p("github", "_pat_") + g.mixed(base62, 22) + "_" + g.mixed(base62, 59)}
		}, fps: func(g *fakeGen) []string { return append(placeholders(p("gh", "p_")), p("gh", "p_")+"documentation") }},
		{name: "shopify", key: "SHOPIFY_TOKEN", tps: func(g *fakeGen) []string {
			var out []string
			for _, pre := range []string{"shpat_", "shpca_", "shppa_", "shpss_"} {
				out = append(out, p(pre[:3], pre[3:])+g.from(hexLower, 32))
			}
			return out
		}, fps: func(g *fakeGen) []string { return append(placeholders(p("shp", "at_")), p("shp", "at_")+"api-docs") }},
		{name: "digitalocean", key: "DIGITALOCEAN_TOKEN", tps: func(g *fakeGen) []string {
			return []string{p("dop", "_v1_") + hexN(64)(g), p("doo", "_v1_") + hexN(64)(g), p("dor", "_v1_") + hexN(64)(g)}
		}, fps: func(g *fakeGen) []string { return placeholders(p("dop", "_v1_")) }},
		{name: "grafana", key: "GRAFANA_TOKEN", tps: func(g *fakeGen) []string {
			return []string{p("gl", "c_") + g.mixed(base62, 80), p("gl", "sa_") + g.mixed(base62, 32) + "_" + g.from(hexLower, 8)}
		}, fps: func(g *fakeGen) []string { return placeholders(p("gl", "sa_")) }},
		{name: "doppler", key: "DOPPLER_TOKEN", tps: rep(2, func(g *fakeGen) string { return p("dp.", "pt.") + g.mixed(base62, 43) }),
			fps: func(g *fakeGen) []string { return placeholders(p("dp.", "pt.")) }},
		{name: "pulumi", key: "PULUMI_ACCESS_TOKEN", tps: rep(2, func(g *fakeGen) string { return p("pul", "-") + g.from(hexLower, 40) }),
			fps: func(g *fakeGen) []string { return placeholders(p("pul", "-")) }},
		{name: "linear", key: "LINEAR_API_KEY", tps: rep(2, func(g *fakeGen) string { return p("lin_", "api_") + g.mixed(base62, 40) }),
			fps: func(g *fakeGen) []string { return placeholders(p("lin_", "api_")) }},
		{name: "sentry", key: "SENTRY_AUTH_TOKEN", tps: rep(2, func(g *fakeGen) string { return p("sntr", "yu_") + g.from(hexLower, 64) }),
			fps: func(g *fakeGen) []string { return placeholders(p("sntr", "yu_")) }},
		{name: "sendgrid", key: "SENDGRID_API_KEY", tps: rep(2, func(g *fakeGen) string {
			return p("S", "G.") + g.mixed(base62+"_-", 22) + "." + g.mixed(base62+"_-", 43)
		}), fps: func(g *fakeGen) []string { return placeholders(p("S", "G.")) }},
		{name: "twilio", key: "TWILIO_API_KEY", tps: rep(2, func(g *fakeGen) string { return p("S", "K") + g.from(hexLower, 32) }),
			fps: func(g *fakeGen) []string { return placeholders(p("S", "K")) }},
		{name: "mailgun", key: "MAILGUN_API_KEY", tps: rep(2, func(g *fakeGen) string { return p("ke", "y-") + g.from(hexLower, 32) }),
			fps: func(g *fakeGen) []string { return placeholders("") }},
		{name: "telegram", key: "TELEGRAM_BOT_TOKEN", tps: rep(2, func(g *fakeGen) string {
			return g.from(alphaDigit, 10) + ":" + "A" + g.mixed(base62+"_-", 34)
		}), fps: func(g *fakeGen) []string { return placeholders("") }},
		{name: "openai", key: "OPENAI_API_KEY", tps: func(g *fakeGen) []string {
			return []string{p("sk-", "proj-") + g.mixed(base64url, 156), p("s", "k-") + g.mixed(base62, 48)}
		}, fps: func(g *fakeGen) []string { return append(placeholders(p("sk-", "proj-")), "scikit-learn") }},
		{name: "anthropic", key: "ANTHROPIC_API_KEY", tps: rep(2, func(g *fakeGen) string { return p("sk-ant-", "api03-") + g.mixed(base64url, 93) + "AA" }),
			fps: func(g *fakeGen) []string {
				return append(placeholders(p("sk-ant-", "api03-")), p("sk-ant-", "api03-")+"short")
			}},
		{name: "gcp", key: "GOOGLE_API_KEY", tps: rep(3, func(g *fakeGen) string { return p("AI", "za") + g.mixed(base64url, 35) }),
			fps: func(g *fakeGen) []string {
				// A published Firebase SDK sample key, and one too long.
				return append(placeholders(p("AI", "za")), p("AIzaSyAnLA7Nfe", "LquW1tJFpx_eQCxoX-oo6YyIs"), p("AI", "za")+g.mixed(base64url, 45))
			}},
		{name: "npm", key: "NPM_TOKEN", tps: rep(2, func(g *fakeGen) string { return p("np", "m_") + g.mixed(base62, 36) }),
			fps: func(g *fakeGen) []string { return placeholders(p("np", "m_")) }},
		{name: "pypi", key: "PYPI_TOKEN", tps: rep(2, func(g *fakeGen) string { return pPYPI + g.mixed(base64url, 80) }),
			fps: func(g *fakeGen) []string { return placeholders("pypi-") }},
		{name: "generic", key: "DB_PASSWORD", tps: func(g *fakeGen) []string {
			// Prefixed lower-case tokens and random passwords, which only the
			// generic rules know.
			return []string{"svc_" + g.from(alphaLower+alphaDigit, 28), g.mixed(base62+"!@%^&", 20), "tok-" + g.from(hexLower, 40), g.mixed(base64std, 32)}
		}, fps: func(g *fakeGen) []string {
			return append(placeholders(""), "DATABASE_PASSWORD_FILE", "/run/secrets/db_password", "cfg.db.password", "hunter-two-words")
		}},
		{name: "private-key", texts: func(g *fakeGen) [][2]string {
			pem := g.pemBlock("PRIVATE KEY", 1190, "\n")
			rsa := g.pemBlock("RSA PRIVATE KEY", 1190, "\n")
			seed := g.bytes(32)
			der := append([]byte{0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20}, seed...)
			hexPEM := hex.EncodeToString([]byte("-----" + "BEGIN PRIVATE KEY-----\n" + base64.StdEncoding.EncodeToString(der) + "\n-----" + "END PRIVATE KEY-----\n"))
			return [][2]string{
				{pem + "\n", pem}, {"key: |\n" + indent(rsa, "  ") + "\n", indent(rsa, "  ")[2:]},
				{"```\n" + pem + "\n```\n", pem}, {"backend stderr: " + hexPEM + "\n", hexPEM},
				{"{\"key\": \"" + strings.ReplaceAll(pem, "\n", `\n`) + "\"}\n", strings.ReplaceAll(pem, "\n", `\n`)},
			}
		}, fps: func(g *fakeGen) []string {
			return []string{"-----" + "BEGIN PRIVATE KEY-----\n<redacted>\n-----" + "END PRIVATE KEY-----", hex.EncodeToString(g.bytes(32)), "sha256:" + hex.EncodeToString(g.bytes(32))}
		}},
		{name: "kubernetes", texts: func(g *fakeGen) [][2]string {
			var out [][2]string
			for i := 0; i < 3; i++ {
				v := base64.StdEncoding.EncodeToString([]byte("pw-" + g.mixed(base62, 20)))
				out = append(out, [2]string{"apiVersion: v1\nkind: Secret\nmetadata:\n  name: app-" + fmt.Sprint(i) + "\ntype: Opaque\ndata:\n  password: " + v + "\n", v})
			}
			v := base64.StdEncoding.EncodeToString(g.bytes(40))
			out = append(out, [2]string{"```yaml\napiVersion: v1\ndata:\n  tls.key: \"" + v + "\"\nkind: Secret\n```\n", v})
			return out
		}, fps: func(g *fakeGen) []string {
			return []string{"apiVersion: v1\nkind: ConfigMap\ndata:\n  mode: " + base64.StdEncoding.EncodeToString([]byte("review")) + "\n",
				"kind: Secret\ndata:\n  password: {{ .Values.password | b64enc }}\n"}
		}},
		{name: "curl", texts: func(g *fakeGen) [][2]string {
			// The command and the flag are joined at run time: this file
			// holds no "curl -u user:password" line.
			cmd, u, user := "cu"+"rl", "-"+"u", "--"+"user"
			pw := g.mixed(base62, 16)
			pw2 := g.mixed(base62, 18)
			return [][2]string{
				{cmd + " " + u + " deploy:" + pw + " https://api.internal/v1/run\n", "deploy:" + pw},
				{"```sh\n" + cmd + " " + user + " \"ci-bot:" + pw2 + "\" https://registry.internal/\n```\n", "ci-bot:" + pw2},
			}
		}, fps: func(g *fakeGen) []string {
			cmd, u := "cu"+"rl", "-"+"u"
			return []string{cmd + " " + u + " user:password https://example.com\n", cmd + " " + u + " \"$USER:$TOKEN\" https://api.internal\n"}
		}},
		// Appended last: the generator's sequence for the families above is unchanged.
		{name: "mailgun-2023", key: "MAILGUN_API_KEY", tps: rep(3, func(g *fakeGen) string {
			return g.from(hexLower, 32) + "-" + g.from(hexLower, 8) + "-" + g.from(hexLower, 8)
		}), fps: func(g *fakeGen) []string { return placeholders("") }},
		{name: "azure-devops", key: "AZURE_DEVOPS_PAT", tps: rep(3, func(g *fakeGen) string { return g.from(alphaLower+"234567", 52) }),
			fps: func(g *fakeGen) []string { return append(placeholders(""), g.from(alphaLower+"234567", 56)) }}, // 56: an onion address
		{name: "discord", key: "DISCORD_WEBHOOK_URL", tps: rep(3, func(g *fakeGen) string {
			return p("https://disc", "ord.com/api/webhooks/") + g.from(alphaDigit[1:], 1) + g.from(alphaDigit, 18) + "/" + g.mixed(base62+"_-", 68)
		}), fps: func(g *fakeGen) []string {
			return []string{p("https://disc", "ord.com/api/webhooks/{id}/{token}"), p("https://disc", "ord.com/api/webhooks/000000000000000000/") + strings.Repeat("x", 68)}
		}},
		{name: "google-client-secret", key: "GOOGLE_CLIENT_SECRET", tps: rep(3, func(g *fakeGen) string { return p("GOC", "SPX-") + g.mixed(base62+"_-", 28) }),
			fps: func(g *fakeGen) []string { return placeholders(p("GOC", "SPX-")) }},
		{name: "stripe-webhook", key: "STRIPE_WEBHOOK_SECRET", tps: rep(3, func(g *fakeGen) string { return p("wh", "sec_") + g.mixed(base62, 32) }),
			fps: func(g *fakeGen) []string { return placeholders(p("wh", "sec_")) }},
		{name: "bitbucket", key: "BITBUCKET_APP_PASSWORD", tps: rep(3, func(g *fakeGen) string { return p("AT", "BB") + g.mixed(base62, 32) }),
			fps: func(g *fakeGen) []string { return placeholders(p("AT", "BB")) }},
	}
}

func indent(s, pre string) string { return pre + strings.ReplaceAll(s, "\n", "\n"+pre) }

// TestFamilies reports recall and false-positive rate per family on the
// project's own labelled corpus and fails below the targets: recall >= 97 %
// overall and >= 95 % per family, false positives <= 3 %, and the same
// verdict for a value in .env and in a fenced markdown block.
func TestFamilies(t *testing.T) {
	s := defaultScanner(t)
	g := newFakeGen("families-corpus")
	type counts struct{ tp, found, fp, flagged int }
	per := map[string]*counts{}
	var all counts
	covers := func(text, secret string) bool {
		i := strings.Index(text, secret)
		if i < 0 {
			t.Fatalf("sample does not hold its secret")
		}
		for _, f := range s.Scan("corpus/sample", []byte(text)) {
			if f.Start < i+len(secret) && i < f.End {
				return true
			}
		}
		return false
	}
	for _, fam := range families() {
		c := &counts{}
		per[fam.name] = c
		tp := func(form, text, secret string) {
			c.tp++
			if covers(text, secret) {
				c.found++
			} else {
				t.Logf("%s: missed in %s: %q", fam.name, form, text)
			}
		}
		fpSample := func(form, text string) {
			c.fp++
			if fs := s.Scan("corpus/sample", []byte(text)); len(fs) > 0 {
				c.flagged++
				t.Logf("%s: false positive in %s (%s): %q", fam.name, form, fs[0].RuleID, text)
			}
		}
		if fam.tps != nil {
			for _, v := range fam.tps(g) {
				forms := assignForms(fam.key, v)
				for _, form := range sortedKeys(forms) {
					tp(form, forms[form], v)
				}
				if covers(forms["env"], v) != covers(forms["md-fenced"], v) {
					t.Errorf("%s: %q: different verdicts in .env and markdown", fam.name, v)
				}
			}
			for _, v := range fam.fps(g) {
				forms := assignForms(fam.key, v)
				for _, form := range sortedKeys(forms) {
					fpSample(form, forms[form])
				}
			}
		} else {
			for _, ts := range fam.texts(g) {
				tp("text", ts[0], ts[1])
			}
			for _, v := range fam.fps(g) {
				fpSample("text", v)
			}
		}
		all.tp += c.tp
		all.found += c.found
		all.fp += c.fp
		all.flagged += c.flagged
	}
	names := make([]string, 0, len(per))
	for n := range per {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		c := per[n]
		r := ratio(c.found, c.tp)
		t.Logf("%-13s recall %5.1f %% (%3d/%3d)  false positives %5.1f %% (%d/%d)", n, 100*r, c.found, c.tp, 100*ratio(c.flagged, c.fp), c.flagged, c.fp)
		if r < 0.95 {
			t.Errorf("family %s: recall %.1f %% < 95 %%", n, 100*r)
		}
	}
	recall, fpRate := ratio(all.found, all.tp), ratio(all.flagged, all.fp)
	t.Logf("overall: recall %.2f %% (%d/%d), false positives %.2f %% (%d/%d)", 100*recall, all.found, all.tp, 100*fpRate, all.flagged, all.fp)
	if recall < 0.97 {
		t.Errorf("overall recall %.2f %% < 97 %%", 100*recall)
	}
	if fpRate > 0.03 {
		t.Errorf("false-positive rate %.2f %% > 3 %%", 100*fpRate)
	}
}

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestTestPyPIToken: a token of TestPyPI (its macaroon names
// test.pypi.org) is pypi-token's as pypi.org's is, in a .pypirc and in
// prose; its prefix alone, a short one and placeholders are not.
func TestTestPyPIToken(t *testing.T) {
	s := defaultScanner(t)
	g := newFakeGen("testpypi")
	prefix := "pypi-" + "AgENdGVzdC5weXBpLm9yZw"
	for range 5 {
		tok := prefix + g.mixed(base64url, 120)
		for _, text := range []string{
			"[testpypi]\nusername = __token__\npassword = " + tok + "\n",
			"Publish to TestPyPI with " + tok + " first.\n",
		} {
			if !slices.ContainsFunc(s.Scan("notes.md", []byte(text)), func(f Finding) bool { return f.RuleID == RulePyPIToken }) {
				t.Errorf("%q: no pypi-token finding", text)
			}
		}
	}
	for _, v := range append(placeholders(prefix), prefix, prefix+g.mixed(base64url, 20)) {
		if fs := s.Scan("notes.md", []byte("password = "+v+"\n")); slices.ContainsFunc(fs, func(f Finding) bool { return f.RuleID == RulePyPIToken }) {
			t.Errorf("%q: reported as a PyPI token", v)
		}
	}
}

// TestMailchimpDataCenterKey: a Mailchimp API key, 32 lower-case hex
// digits and its data center, is reported with no word near it (by
// mailchimp-dc-api-key), and after a name, in a config or in code (by
// it or by a rule ranked before it); a shorter or longer hex run, two
// cases, another suffix, a data center that is none, or a key inside a
// longer word is not.
func TestMailchimpDataCenterKey(t *testing.T) {
	s := defaultScanner(t)
	g := newFakeGen("mailchimp")
	mailchimp := func(f Finding) bool { return f.RuleID == RuleMailchimpKey }
	has := func(text string) bool {
		return slices.ContainsFunc(s.Scan("notes.md", []byte(text)), mailchimp)
	}
	for i := range 20 {
		dc := fmt.Sprint(1 + i%21)
		key := g.from(hexLower, 32) + "-us" + dc
		if text := "The newsletter sync uses " + key + " (us" + dc + ").\n"; !has(text) {
			t.Errorf("%q: no %s finding", text, RuleMailchimpKey)
		}
		for _, text := range []string{
			"MC_KEY=" + key + "\n",
			"client.setConfig({ apiKey: '" + key + "', server: 'us" + dc + "' });\n",
		} {
			if !slices.ContainsFunc(s.Scan("notes.md", []byte(text)), func(f Finding) bool { return text[f.Start:f.End] == key }) {
				t.Errorf("%q: the key is not reported", text)
			}
		}
	}
	hex := g.from(hexLower, 32)
	for _, v := range []string{
		hex[:31] + "-us2", hex + "a-us2", strings.ToUpper(hex[:8]) + hex[8:] + "-us2",
		hex + "-2", hex + "-al32", hex + "-us", hex + "-user", hex + "-us0", hex + "-us99",
		"x" + hex + "-us2", hex + "-us2x", strings.Repeat("0123456789abcdef", 2) + "-us2",
		"en-us1 and en-us2", "<your-api-key>-us2",
	} {
		if has("key: " + v + "\n") {
			t.Errorf("%q: reported as a Mailchimp key", v)
		}
	}
}

// discordToken draws a Discord bot token: a snowflake ID of a bot made
// at the given time, in base64, a timestamp's six characters, and an
// HMAC of 27 that mixes capitals, small letters and digits.
func (g *fakeGen) discordToken(made time.Time) string {
	const discordEpoch = 1420070400000
	id := uint64(made.UnixMilli()-discordEpoch)<<22 | g.next()&(1<<22-1)
	return base64.RawURLEncoding.EncodeToString([]byte(strconv.FormatUint(id, 10))) + "." +
		g.from(base62+"_-", 6) + "." + g.mixed(base62, 25) + g.from(base62+"_-", 2)
}

// TestDiscordBotTokenBare: a Discord bot token is reported with no name
// near it that says Discord, on a line of its own, in an env file and in
// prose; a dotted run whose first part is no ID's digits, an ID from
// decades ahead, an ID too short, an HMAC of one case, and a JWT are not.
func TestDiscordBotTokenBare(t *testing.T) {
	s := defaultScanner(t)
	g := newFakeGen("discord, round forty-four")
	reported := func(text, tok string) bool {
		return slices.ContainsFunc(s.Scan("notes.md", []byte(text)), func(f Finding) bool { return text[f.Start:f.End] == tok })
	}
	for i := range 12 {
		tok := g.discordToken(time.Date(2016+i%10, time.Month(1+i%12), 1+i, 0, 0, 0, 0, time.UTC))
		for _, text := range []string{tok + "\n", "BOT_TOKEN=" + tok + "\n", "The bot logs in with " + tok + " on boot.\n"} {
			if !reported(text, tok) {
				t.Errorf("%q: the token is not reported", text)
			}
		}
	}
	tok := g.discordToken(time.Date(2021, 3, 1, 0, 0, 0, 0, time.UTC))
	id, rest, _ := strings.Cut(tok, ".")
	for _, v := range []string{
		g.mixed(base62, 24) + "." + rest,                                              // no ID's digits
		g.discordToken(time.Date(2090, 1, 1, 0, 0, 0, 0, time.UTC)),                   // from decades ahead
		base64.RawURLEncoding.EncodeToString([]byte("1234567890123456")) + "." + rest, // sixteen digits
		id + "." + strings.ToLower(rest),                                              // an HMAC of one case
		"eyJhbGciOiJIUzI1NiJ9." + g.mixed(base62, 6) + "." + g.mixed(base62, 27),
		"Mostly.harmless.and-a-very-long-word-after-it-all",
	} {
		if fs := s.Scan("notes.md", []byte(v+"\n")); slices.ContainsFunc(fs, func(f Finding) bool { return f.RuleID == RuleDiscordBotTokenBare }) {
			t.Errorf("%q: reported as a Discord bot token", v)
		}
	}
}
