package secrets

import (
	"encoding/base64"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestCodeFormsRound27: the forms of clientforms.go and round 27's
// additions to password-argument and signing-secret, in the languages
// and libraries that write them, each with the value found where it
// stands; and the lines that look alike and hold none.
func TestCodeFormsRound27(t *testing.T) {
	s := defaultScanner(t)
	rng := rand.New(rand.NewPCG(27, 5))
	from := func(alphabet string, n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(b)
	}
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	key := func() string {
		for {
			if k := from(alnum, 40); mixedClasses([]byte(k)) {
				return k
			}
		}
	}
	pw := func() string { return from(alnum, 10) + "#" + from("0123456789", 2) }
	discord := func() string {
		id := "1" + from("0123456789", 17+rng.IntN(2))
		return base64.RawURLEncoding.EncodeToString([]byte(id)) + "." + from(alnum+"-_", 6) + "." + from(alnum+"-_", 38)
	}
	laravel := "base64:" + base64.StdEncoding.EncodeToString([]byte(from(alnum, 32)))
	type tc struct{ path, text, secret, rule string }
	var cases []tc
	add := func(rule, path, format, secret string) {
		cases = append(cases, tc{path, strings.ReplaceAll(format, "SECRET", secret), secret, rule})
	}
	for _, f := range []string{
		"co = cohere.Client(\"SECRET\")\n",
		"co = cohere.ClientV2('SECRET')\n",
		"var client = new OpenAIClient(\"SECRET\");\n",
		"val client = MistralClient(\"SECRET\")\n",
		"sgMail.setApiKey(\"SECRET\");\n",
		"client.setToken('SECRET')\n",
		"api = Api.builder().withAccessToken(\"SECRET\").build()\n",
		"OkHttp.builder().apiKey(\"SECRET\")\n",
	} {
		add(RuleClientKeyLiteral, "app.src", f, key())
	}
	twilioSID := "AC" + from("0123456789abcdef", 32)
	for _, f := range []string{
		"client = Client(\"" + twilioSID + "\", \"SECRET\")\n",
		"const client = twilio('" + twilioSID + "', 'SECRET');\n",
		"client = MessageBird::Client.new(\"SECRET\")\n",
	} {
		add(RuleClientKeyLiteral, "app.src", f, map[bool]string{true: from("0123456789abcdef", 32), false: key()}[strings.Contains(f, "twilio") || strings.Contains(f, twilioSID)])
	}
	add(RuleResendAPIKey, "mail.ts", "const resend = new Resend('SECRET');\n", "re_"+key()[:8]+"_"+key()[:24])
	for _, f := range []string{
		"AUTH = HTTPBasicAuth(\"ci@acme.io\", \"SECRET\")\n",
		"r = requests.get(u, auth=HTTPDigestAuth('svc', 'SECRET'))\n",
		"r = requests.get(u, auth=(\"deploy\", \"SECRET\"))\n",
		"req.SetBasicAuth(\"admin\", \"SECRET\")\n",
		"auth = aiohttp.BasicAuth(login, \"SECRET\")\n",
		"Authentication a = new UsernamePasswordAuthenticationToken(user, \"SECRET\");\n",
		"client.setBasicAuth('ops', 'SECRET');\n",
	} {
		add(RulePasswordArgument, "app.src", f, pw())
	}
	for _, f := range []string{
		"import discord\n\nbot = discord.Client(intents=intents)\nbot.run('SECRET')\n",
		"const { Client } = require('discord.js');\nconst c = new Client({});\nc.login(\"SECRET\");\n",
	} {
		add(RuleDiscordBotToken, "bot.src", f, discord())
	}
	// named by an assignment, the older generic rule reports them
	add(RuleGenericSecret, "app.src", "client = groq.AsyncClient(api_key=\"SECRET\")\n", key())
	add(RuleGenericSecret, "bot.env", "DISCORD_TOKEN=SECRET\n", discord())
	add(RuleSentryDSN, "sentry.src", "Sentry.init({ dsn: \"https://SECRET@o1234.ingest.de.sentry.io/567\" })\n", from("0123456789abcdef", 32))
	add(RuleSentryDSN, "settings.py", "SENTRY_DSN = 'https://SECRET@sentry.acme.internal/12'\n", from("0123456789abcdef", 32))
	add(RuleSigningSecret, "config/app.php", "    'key' => 'SECRET',\n", laravel)
	// round 27's second set: a bytes literal, a C# auto-property, a
	// Sequelize constructor, Hibernate's property element, a command's -p
	add(RuleGenericSecret, "hooks.py", "webhook_signing_secret = b\"SECRET\"\n", from("0123456789abcdef", 64))
	add(RuleGenericSecret, "Settings.cs", "    public string ApiSecret { get; init; } = \"SECRET\";\n", key())
	add(RulePasswordArgument, "db.js", "const sequelize = new Sequelize(\"inventory\", \"writer\", \"SECRET\", {\n", pw())
	add(RuleXMLPasswordElement, "hibernate.cfg.xml", "    <property name=\"hibernate.connection.password\">SECRET</property>\n", pw())
	add(RuleCLIUserPassword, "backup.sh", "mongosh \"mongodb://db:27017\" -u admin -p SECRET --authenticationDatabase admin\n", pw()[:10]+"9")
	add(RuleCLIUserPassword, "snap.sh", "curl -s -u elastic:"+"SECRET -X PUT \"https://es01:9200/_snapshot\"\n", pw()[:10]+"~9")
	add(RuleSigningSecret, "config/app.php", "    'key' => env('APP_KEY', 'SECRET'),\n", laravel)
	for _, c := range cases {
		want := strings.Index(c.text, c.secret)
		found, other := false, []string{}
		for _, f := range s.Scan(c.path, []byte(c.text)) {
			if f.RuleID == c.rule && f.Start == want && f.End == want+len(c.secret) {
				found = true
			} else {
				other = append(other, f.RuleID)
			}
		}
		if !found || len(other) > 0 {
			t.Errorf("%s: want %s at %d, found it %v, others %v", strings.ReplaceAll(c.text, c.secret, "<SECRET>"), c.rule, want, found, other)
		}
	}
	for _, text := range []string{
		"client = weaviate.Client(\"http://localhost:8080\")\n",
		"c = pulsar.Client(\"pulsar-service-url-for-the-eu-cluster\")\n",
		"c = storage.Client(\"3f2a9c1e-7b4d-4e2a-9c1f-0a1b2c3d4e5f\")\n",
		"c = foo.Client(\"abcdefghijklmnopqrstuvwxyzabcdef\")\n",
		"c = foo.Client(os.environ[\"COHERE_API_KEY\"])\n",
		"AUTH = HTTPBasicAuth(USER, os.environ[\"JIRA_TOKEN\"])\n",
		"AUTH = HTTPBasicAuth(\"user\", \"password\")\n",
		"r = requests.get(u, auth=(user, pw))\n",
		"// discord\nconst v = 'NmFiY2RlZmdoaWprbG1ub3Bx.aB3dEf.notAnHmacJustThirtyCharsLongXyZ';\n",
		"dsn = \"https://<key>@o0.ingest.sentry.io/0\"\n",
		"    'key' => env('APP_KEY'),\n",
		"mysql -u root -p shopdb\n",
		"client.setToken(nextToken)\n",
		"parser.token(\"identifier-of-the-next-section\")\n",
		"sgMail.setApiKey(process.env.SENDGRID_API_KEY);\n",
		"docker run -u 1000 -p 8080:80 nginx\n",
		"mongosh -u admin -p \"$MONGO_PASSWORD\"\n",
		"    public string ApiSecret { get; init; } = Environment.GetEnvironmentVariable(\"API_SECRET\");\n",
		"user admin insecure-password admin\n",
	} {
		if fs := s.Scan("neg.src", []byte(text)); len(fs) > 0 {
			t.Errorf("%q: %d findings, first %s", text, len(fs), fs[0].RuleID)
		}
	}
}
