package secrets

import "testing"

func TestCodeBrackets(t *testing.T) {
	for v, want := range map[string]bool{
		"f(x)":                true,
		"cfg[0]":              true,
		"{{.Values.pw}}":      true,
		"%(password)s":        true,
		"${DB_PASSWORD}":      true,
		"[REDACTED]":          true,
		"a(b[c]{d})":          true,
		"N{w44mqa2si(zY8":     false, // opens twice, closes nothing
		"Qe]9x-vT2!rL":        false, // closes what nothing opened
		"(Rm8!qZ3wT7xK":       false,
		"Hq8!Wz3mK7r(":        false,
		"a(b]c":               false, // crossed
		"a)b(c":               false,
		"plainPassw0rd":       false, // no bracket at all
		"Tz2(Lm)Qx8!Wr{K9}pZ": true,  // pairs: read as code, as before
	} {
		if got := codeBrackets([]byte(v)); got != want {
			t.Errorf("codeBrackets(%q) = %v, want %v", v, got, want)
		}
	}
}

// TestQuotedBracketsForms: a password or a secret whose quoted value has
// a bracket that opens or closes nothing, as generated passwords do, in
// the forms of paraphrases a helper who had not read the rules wrote
// (values drawn here), beside the templates, masks and code whose
// brackets pair up, and bare values a blank may have cut.
func TestQuotedBracketsForms(t *testing.T) {
	g := newFakeGen("quoted-brackets")
	pw := func(open, close string) string {
		return g.mixed(base62, 4) + open + g.mixed(base62, 4) + "!" + g.mixed(base62, 3) + close + g.mixed(base62, 3)
	}
	cases := []formCase{
		{"config.py", "DB_PASSWORD = \"" + pw("{", "(") + "\"\n", "*"},
		{"settings.py", "SECRET_KEY = '" + pw("", "]") + "'\n", "*"},
		{"src/db.js", "const smtpPassword = \"" + pw("[", "") + "\";\n", "*"},
		{"src/config.ts", "export const jwtSecret: string = \"" + pw("(", "}") + "\";\n", "*"},
		{"src/main.rs", "pub const JWT_SECRET: &str = \"" + pw("{", ")") + "\";\n", "*"},
		{"src/main.rs", "const DB_PASSWORD: &str = \"" + g.mixed(base62, 14) + "\";\n", "*"},
		{"db/connect.go", "func connect() {\n\tdbPassword := \"" + pw("}", "(") + "\"\n}\n", "*"},
		{"Settings.cs", "private const string ClientSecret = \"" + pw(")", "[") + "\";\n", "*"},
		{"config/database.yml", "database:\n  host: db.internal\n  password: \"" + pw("{", "(") + "\"\n", "*"},
		{"appsettings.json", "{\"db\": {\"user\": \"svc_app\", \"password\": \"" + pw("]", "{") + "\"}}\n", "*"},
		{".env", "DB_USER=app\nDB_PASSWORD=\"" + pw("{", ")") + "\"\n", "*"},
		{"group_vars/all.yml", "ansible_user: deploy\nansible_become_pass: \"" + pw("]", "(") + "\"\n", "*"},
		{"report.py", "conn = psycopg2.connect(host=\"db\", user=\"report\", password=\"" + pw("[", ")") + "\")\n", "*"},
		{"settings.py", "DB_PASSWORD = os.environ.get(\"DB_PASSWORD\", \"" + pw("(", "]") + "\")\n", "*"},
		{"settings.xml", "<server>\n  <id>nexus</id>\n  <password>" + pw("]", "{") + "</password>\n</server>\n", "*"},
		// a bare value glued to "=" that runs to the end of its line
		{"src/main/resources/application.properties", "spring.datasource.username=app\nspring.datasource.password=" + pw("(", "]") + "\n", "*"},
		{"odbc.ini", "[ReportingDB]\nUsername=report\nPassword=" + pw("{", "]") + "\n", "*"},
		{"docker-compose.yml", "    environment:\n      - MYSQL_ROOT_PASSWORD=" + pw("(", "") + "\n", "*"},
		// brackets that pair up, and bare values
		{"values.yaml", "db:\n  password: \"{{ .Values.db.password }}\"\n", ""},
		{"group_vars/prod.yml", "db_password: \"{{ vault_db_password }}\"\n", ""},
		{"app.py", "DB_PASSWORD = \"%(db_password)s\"\n", ""},
		{"main.tf", "password = \"${var.db_password}\"\n", ""},
		{"debug-dump.yaml", "db:\n  user: app\n  password: \"[REDACTED]\"\n", ""},
		{"config.yaml", "smtp:\n  password: \"(see vault)\"\n", ""},
		{"auth.c", "char *pwd;\npwd = (char *) malloc(n);\n", ""},
		{"Auth.java", "String password = getPassword(user);\n", ""},
		{"login.py", "password=getpass.getpass(\n    prompt=\"Password: \")\n", ""},
		{"conf.py", "secret={\n    \"k\": 1}\n", ""},
		{"app.py", "secret = cfg[\"secret\"]\n", ""},
		{"validate.py", "PASSWORD_RE = \"^(?=.*[A-Z])(?=.*\\d).{8,}$\"\n", ""},
		// a GraphQL argument's type, and an option naming a secret
		{"schema.graphql", "type Mutation {\n  login(email: String!, password: String!): AuthPayload\n}\n", ""},
		{"schema.graphql", "  resetPassword(token: ID!, password: [String!]!): Boolean\n", ""},
		{"scripts/deploy.sh", "API_KEY=\"$(gcloud secrets versions access latest --secret=api-key --project=\"${PROJECT}\")\"\n", ""},
		{"config/users.yaml", "admin:\n  password: " + g.letters(6) + "2024!\n", "*"},
		{"scripts/deploy.sh", "vault-agent --secret=" + g.mixed(base62, 14) + " run\n", "*"},
		// a token keeps a token's alphabet: a bracket in one is no key a
		// provider issued
		{"config.js", "module.exports = { apiKey: \"" + pw("[", "") + "\" };\n", ""},
	}
	checkFormCases(t, cases)
}
