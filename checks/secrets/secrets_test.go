package secrets_test

import (
	"strings"
	"testing"

	"github.com/svrnty/sotvet/checks/checktest"
	"github.com/svrnty/sotvet/checks/secrets"
)

// Test keys are built at run time so that no committed file holds a literal
// that looks like a credential.
func fakeToken(prefix string, n int) string {
	const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789"
	var b strings.Builder
	b.WriteString(prefix)
	x := uint32(2463534242)
	for i := 0; i < n; i++ {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b.WriteByte(alphabet[x%uint32(len(alphabet))])
	}
	return b.String()
}

func TestFindingsAndRedaction(t *testing.T) {
	gh := fakeToken("gh"+"p_", 36)
	oa := fakeToken("sk-"+"proj-", 48)
	dir := t.TempDir()
	checktest.WriteFiles(t, dir, map[string]string{
		".sot/03-PROTOCOLS/X-EVIDENCE.md": "---\nname: x\n---\n\n# X\n\n" +
			"- token used: `" + gh + "`\n" + // 7
			"- endpoint: `CTO_HARNESS_CASE_LOCAL_BASE_URL` (name only)\n" + // 8
			"- CTO_HARNESS_CASE_LOCAL_BASE_URL: `http://10.1.2.3:8000/v1`\n" + // 9 sotvet:allow-secret -- a fake endpoint the test must find
			"- placeholder: CTO_HARNESS_CASE_LOCAL_BASE_URL=<admitted-ca>\n" + // 10
			"- accepted: `" + oa + "` sotvet:allow-secret -- revoked test key\n" + // 11
			"- unjustified: `" + oa + "` sotvet:allow-secret\n", // 12
		"WORKBOARD.yaml": "items: []\n# api_key: " + oa + "\n",                       // 2
		".env.example":   "HERMES_HOME=${HOME}/.hermes\nOPENAI_API_KEY=" + oa + "\n", // 2
		"WANT": `.sot/03-PROTOCOLS/X-EVIDENCE.md:7: secrets: ^github-[a-z-]*: .*\(ghp_\*\*\*\*\)$
.sot/03-PROTOCOLS/X-EVIDENCE.md:9: secrets: ^endpoint-value: 
.sot/03-PROTOCOLS/X-EVIDENCE.md:12: secrets: allows nothing
WORKBOARD.yaml:2: secrets: \*\*\*\*
.env.example:2: secrets: \*\*\*\*
`,
	})
	fs := checktest.Run(t, dir, secrets.Analyzer)
	for _, f := range fs {
		for _, secret := range []string{gh, oa, "10.1.2.3"} {
			if strings.Contains(f.Message, secret) || strings.Contains(f.Fingerprint, secret) {
				t.Errorf("%s:%d: finding exposes the secret: %s", f.File, f.Line, f.Message)
			}
		}
	}
}

func TestAllowPathsAndValues(t *testing.T) {
	gh := fakeToken("gh"+"p_", 36)
	dir := t.TempDir()
	checktest.WriteFiles(t, dir, map[string]string{
		".sot/fixtures/A-EVIDENCE.md": "# A\n\n- token: `" + gh + "`\n",
		".sot/B-EVIDENCE.md":          "# B\n\n- token: `" + gh + "`\n",
		"WANT":                        ".sot/B-EVIDENCE.md:3: secrets: github\n",
	})
	if err := secrets.Analyzer.Flags.Set("allow-paths", ".sot/fixtures/**"); err != nil {
		t.Fatal(err)
	}
	defer secrets.Analyzer.Flags.Set("allow-paths", "")
	checktest.Run(t, dir, secrets.Analyzer)

	// A value pattern accepts it everywhere.
	checktest.WriteFiles(t, dir, map[string]string{"WANT": ""})
	if err := secrets.Analyzer.Flags.Set("allow-values", "^gh"+"p_[A-Za-z0-9]{36}$"); err != nil {
		t.Fatal(err)
	}
	defer secrets.Analyzer.Flags.Set("allow-values", "")
	checktest.Run(t, dir, secrets.Analyzer)
}

func TestRealCorpusIsClean(t *testing.T) {
	corpus := checktest.CorpusDir(t)
	// No WANT file: the corpus holds no secret and no endpoint value.
	checktest.Run(t, corpus, secrets.Analyzer)
}
