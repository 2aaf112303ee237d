package secrets

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/url"
	"strings"
	"testing"
)

// drawnToken returns a token of prefix and n characters of base62 drawn
// now: no file of the repository holds one.
func drawnToken(t *testing.T, prefix string, n int) string {
	t.Helper()
	return prefix + drawnDigitsOr(t, base62, n)
}

// utf16le is s, ASCII, in UTF-16LE.
func utf16le(s string) string {
	b := make([]byte, 0, 2*len(s))
	for i := 0; i < len(s); i++ {
		b = append(b, s[i], 0)
	}
	return string(b)
}

// drawnDigitsOr returns n characters of alphabet drawn now.
func drawnDigitsOr(t *testing.T, alphabet string, n int) string {
	t.Helper()
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b)
}

func b64(s string) string   { return base64.StdEncoding.EncodeToString([]byte(s)) }
func hexOf(s string) string { return hex.EncodeToString([]byte(s)) }

// percentAll escapes every byte that is not a letter or a digit, as a
// URL's query value holds text it carries.
func percentAll(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// TestDecodedSecrets holds the scanner to what gitleaks finds with its
// default --max-decode-depth: a token written base64-, hex- or
// percent-encoded, in the forms configuration, environments and URLs
// hold it, and layers of them. Each is found on the encoded text, says
// how it was encoded, and Redact leaves neither the encoded text nor the
// token. A scanner that reads text only as written finds none of them.
func TestDecodedSecrets(t *testing.T) {
	s := defaultScanner(t)
	// Each token drawn is one the scanner reports written plainly: what
	// is under test is that decoding gives the plain form's verdict (a
	// value or two in a hundred the rules judge otherwise as written: a
	// 40-character key with no digit, a "foo" in it).
	draw := func(plain func(string) string, token func() string) string {
		v := token()
		for range 50 {
			if len(s.Scan("x.txt", []byte(plain(v)+"\n"))) > 0 {
				break
			}
			v = token()
		}
		return v
	}
	gh := draw(func(v string) string { return "GITHUB_TOKEN=" + v }, func() string { return drawnToken(t, "ghp_", 36) })
	awsSecret := draw(func(v string) string { return `aws_secret_access_key = "` + v + `"` }, func() string { return drawnToken(t, "", 40) })
	awsID := "AKIA" + drawnDigitsOr(t, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)
	apiKey := draw(func(v string) string { return `API_KEY = "` + v + `"` }, func() string { return drawnToken(t, "", 32) })
	password := drawnToken(t, "", 12) + "$^!&" + drawnToken(t, "", 4)
	slack := draw(func(v string) string { return v }, func() string {
		return "xoxb-" + drawnDigitsOr(t, "0123456789", 11) + "-" + drawnDigitsOr(t, "0123456789", 12) + "-" + drawnToken(t, "", 24)
	})
	nested := func(s string, n int) string {
		for range n {
			s = b64(s)
		}
		return s
	}
	cases := []struct {
		name, encoded, line, enc string
	}{
		{"base64 in a ConfigMap", b64("GITHUB_TOKEN=" + gh), "  blob: %s\n", "base64"},
		{"base64url unpadded", b64url("token: " + gh), "cfg=%s\n", "base64"},
		{"base64 of JSON in JSON", b64(`{"aws_access_key_id": "` + awsID + `", "aws_secret_access_key": "` + awsSecret + `"}`), `{"payload": "%s"}` + "\n", "base64"},
		{"base64 piped to a decoder", b64(gh), "echo %s | base64 -d\n", "base64"},
		{"base64 in markdown", b64(slack), "The value is `%s`.\n", "base64"},
		{"hex in an environment file", hexOf("token=" + gh), "CONFIG_HEX=%s\n", "hex"},
		{"percent in a query", percentAll("aws_secret_access_key=" + awsSecret), "curl 'https://hooks.example.com/x?cfg=%s'\n", "percent"},
		{"percent of base64", percentAll(b64("GITHUB_TOKEN=" + gh)), "https://ci.example.com/hook?env=%s\n", "percent+base64"},
		// the quotes around a value written as HTML and XML write them:
		// an attribute holding JSON, a diagram's export, a config file's
		// numbered references
		{"HTML attribute of JSON", "{&quot;api_key&quot;:&quot;" + apiKey + "&quot;}", `<div data-config="%s"></div>` + "\n", "html"},
		{"XML numbered references", "token=&#34;" + apiKey + "&#x22;", `<arg>%s</arg>` + "\n", "html"},
		{"HTML of base64", "&quot;" + b64("GITHUB_TOKEN="+gh) + "&quot;", `<pre>env: %s</pre>` + "\n", "base64"},
		{"base64 of base64", nested(gh, 2), "data: %s\n", "base64+base64"},
		{"five layers", nested(gh, maxDecodeDepth), "data: %s\n", strings.Repeat("base64+", maxDecodeDepth-1) + "base64"},
		// wrapped over lines, as the base64 command (76) and xxd -p (60)
		// write a blob
		{"base64 wrapped at 76", wrap(b64("[default]\naws_access_key_id = "+awsID+"\naws_secret_access_key = "+awsSecret+"\n"), 76, ""), "Content-Transfer-Encoding: base64\n%s\n", "base64"},
		{"hex wrapped at 60", wrap(hexOf("OPENAI_API_KEY="+gh+"\nLOG_LEVEL=debug\n"), 60, "  "), "  %s\n", "hex"},
		// PowerShell's -EncodedCommand: base64 of UTF-16LE
		{"PowerShell -EncodedCommand", b64(utf16le(`$env:API_KEY = '` + apiKey + `'; ./sync.ps1`)), "powershell.exe -NoProfile -EncodedCommand %s\n", "base64"},
		// a bare key or password handed to a decoder in code: the view
		// reads the literal where the call stood
		{"Python b64decode", b64(apiKey), `API_KEY = base64.b64decode("%s").decode()` + "\n", "base64"},
		{"PHP rawurldecode", percentAll(password), `    'password' => rawurldecode('%s'),` + "\n", "percent"},
		{"Ruby decode64 of hex", hexOf(b64(apiKey)), `  API_KEY = Base64.decode64(['%s'].pack('H*')).freeze` + "\n", "hex"},
		{"JavaScript atob", b64(apiKey), `const apiSecret = atob("%s");` + "\n", "base64"},
		{"Java new String", b64(apiKey), `    private static final String API_SECRET = new String(Base64.getDecoder().decode("%s"));` + "\n", "base64"},
		{"Python str", b64(apiKey), `api_token = str(base64.urlsafe_b64decode("%s"), "utf-8")` + "\n", "base64"},
		{"C# FromBase64String", b64(apiKey), `var apiKey = Encoding.UTF8.GetString(Convert.FromBase64String("%s"));` + "\n", "base64"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			content := []byte("# config\n" + fmt.Sprintf(c.line, c.encoded))
			at := bytes.Index(content, []byte(c.encoded))
			var hit *Finding
			found := s.Scan("x.txt", content)
			for i, f := range found {
				if f.Start < at+len(c.encoded) && f.End > at {
					hit = &found[i]
				}
			}
			if hit == nil {
				t.Fatalf("not found in %q: %v", content, found)
			}
			if hit.Encoding != c.enc {
				t.Errorf("encoding %q, want %q", hit.Encoding, c.enc)
			}
			if line := bytes.Count(content[:at], []byte("\n")) + 1; hit.Line != line || hit.Start < at || hit.End > at+len(c.encoded) {
				t.Errorf("finding at line %d, %d:%d; the encoded text is at line %d, %d:%d", hit.Line, hit.Start, hit.End, line, at, at+len(c.encoded))
			}
			if !strings.Contains(hit.Shown(), "decoded from "+strings.ReplaceAll(c.enc, "+", " then ")) {
				t.Errorf("shown as %q", hit.Shown())
			}
			red := s.Redact(content)
			if bytes.Contains(red, content[hit.Start:hit.End]) || bytes.Contains(red, []byte(gh)) || bytes.Contains(red, []byte(apiKey)) {
				t.Errorf("Redact left the secret: %q", red)
			}
		})
	}
	t.Run("six layers", func(t *testing.T) {
		// past gitleaks' depth, and this scanner's
		if found := s.Scan("x.txt", []byte("data: "+nested(gh, maxDecodeDepth+1)+"\n")); len(found) != 0 {
			t.Errorf("found %v", found)
		}
	})
}

// TestWrappedRun: a run continued on lines of its width, the last no
// longer, is one block; a line longer than the first, a line that does
// not decode, or a first line alone is none.
func TestWrappedRun(t *testing.T) {
	text := b64(strings.Repeat("password=correct horse battery staple\n", 6))
	p := &pass{d: &decoding{chains: []string{""}}}
	try := func(s string) (string, bool) {
		p.buf = p.buf[:0]
		b := []byte(s)
		e := strings.IndexByte(s, '\n')
		if e < 0 {
			e = len(s)
		}
		end, _, ok := p.wrappedRun(b, 0, e, e, len(b))
		if !ok {
			return "", false
		}
		return s[:end], true
	}
	for _, c := range []struct {
		in, block string
		ok        bool
	}{
		{wrap(text, 76, "") + "\nnext: line\n", wrap(text, 76, ""), true},
		{wrap(text, 64, "    ") + "\n", wrap(text, 64, "    "), true},
		{text[:76] + "\n" + text[76:76+80] + "\n", "", false},                    // longer
		{text[:76] + "\n" + b64("\x00\x01\x02binary bytes!!") + "\n", "", false}, // does not decode
		{text[:76] + "\n", "", false},                                            // one line
		{text[:76] + " and more\n" + text[76:152] + "\n", "", false},             // not at the line's end
	} {
		block, ok := try(c.in)
		if ok != c.ok || block != c.block {
			t.Errorf("%q: block %q %v, want %q %v", c.in, block, ok, c.block, c.ok)
		}
	}
}

// wrap cuts s into lines of n bytes, each after indent but the first.
func wrap(s string, n int, indent string) string {
	var b strings.Builder
	for len(s) > n {
		b.WriteString(s[:n] + "\n" + indent)
		s = s[n:]
	}
	b.WriteString(s)
	return b.String()
}

// TestDecodedSecretsAllowed: a decoded secret is allowed as one written
// plainly is, by a marker on its line, a value allowlist or a baseline of
// its fingerprint, which is the decoded secret's.
func TestDecodedSecretsAllowed(t *testing.T) {
	gh := drawnToken(t, "ghp_", 36)
	line := "blob: " + b64("GITHUB_TOKEN="+gh)
	s := defaultScanner(t)
	found := s.Scan("x.txt", []byte(line+" # sotvet:allow-secret -- revoked fixture\n"))
	if len(found) != 1 || !found[0].Allowed || found[0].AllowReason != "inline: revoked fixture" {
		t.Fatalf("marked: %+v", found)
	}
	found = s.Scan("x.txt", []byte(line+"\n"))
	if len(found) != 1 || found[0].Allowed {
		t.Fatalf("unmarked: %+v", found)
	}
	if want := Fingerprint(found[0].RuleID, gh); found[0].Fingerprint != want {
		t.Errorf("fingerprint %s, want the decoded token's %s", found[0].Fingerprint, want)
	}
	cfg := DefaultConfig()
	cfg.Baseline = map[string]bool{found[0].Fingerprint: true}
	based, err := NewScanner(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if f := based.Scan("x.txt", []byte(line+"\n")); len(f) != 1 || f[0].AllowReason != "baseline" {
		t.Errorf("baseline: %+v", f)
	}
}

// TestDecodedNothing: encoded text that holds no secret, or a secret's
// stand-in, is no finding: digests, binary, data URIs, text, a query of
// words, placeholders in base64 and in hex.
func TestDecodedNothing(t *testing.T) {
	s := defaultScanner(t)
	bin := make([]byte, 300)
	if _, err := rand.Read(bin); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(bin)
	texts := []string{
		"sha256: " + hex.EncodeToString(sum[:]),
		"github.com/yuin/goldmark v1.8.7 h1:" + base64.StdEncoding.EncodeToString(sum[:]),
		`"integrity": "sha512-` + base64.StdEncoding.EncodeToString(append(sum[:], sum[:]...)) + `"`,
		"blob: " + base64.StdEncoding.EncodeToString(bin),
		`<img src="data:image/png;base64,` + base64.StdEncoding.EncodeToString(append([]byte("\x89PNG\r\n\x1a\n"), bin...)) + `">`,
		"note: " + b64("The quick brown fox jumps over the lazy dog, twice."),
		"config: " + b64(`{"name": "web", "replicas": 3, "image": "nginx:1.27"}`),
		"https://example.com/search?q=" + url.QueryEscape("password reset instructions & token expiry"),
		"https://example.com/a%20b%2Fc%3Fd",
		"blob: " + b64("GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"),
		"CONFIG_HEX=" + hexOf("password=changeme"),
		"CONFIG_HEX=" + hexOf("api_key=<your-api-key-here>"),
		"id: " + b64(`{"alg":"HS256","typ":"JWT"}`),
		"snake_case_identifier_2024_name and some/long/path/to/a/file_v2.go",
		// a Basic credential that decodes to no user:password pair, as
		// Go's own tests of header parsing hold one
		" Authorization: Basic " + b64("thisisalongstring"),
		// decoders' calls of text that is no secret
		`logo = base64.b64decode("` + base64.StdEncoding.EncodeToString(bin) + `")`,
		`greeting = b64decode("` + b64("hello world from the docs") + `").decode()`,
	}
	for _, text := range texts {
		if found := s.Scan("x.txt", []byte(text+"\n")); len(found) != 0 {
			t.Errorf("%q: %v", text, found)
		}
	}
}

// TestViewMapsBack: a match in a view of percent-encoded text maps to
// the bytes it was written in, escapes included; one in base64 to the
// whole run.
func TestViewMapsBack(t *testing.T) {
	data := []byte("x q=a%3Dsecretvalue%26b y " + b64("k=some text here") + " z")
	v := &view{text: data, pieces: []piece{{at: 0, from: 0, to: int32(len(data)), copied: true}}, tokens: []token{{0, int32(len(data)), 0}}}
	var nv *view
	d := &decoding{chains: []string{""}}
	d.pass(1).views(v, func(v *view) {
		if nv != nil {
			t.Fatal("a short text in two views")
		}
		nv = v
	})
	if nv == nil {
		t.Fatal("nothing decoded")
	}
	for _, c := range []struct{ in, want string }{
		{"secretvalue", "secretvalue"},
		{"=secretvalue&", "%3Dsecretvalue%26"},
		{"some text", b64("k=some text here")},
	} {
		i := bytes.Index(nv.text, []byte(c.in))
		if i < 0 {
			t.Fatalf("%q not in the view %q", c.in, nv.text)
		}
		from, to := nv.orig(i, i+len(c.in))
		if got := string(data[from:to]); got != c.want {
			t.Errorf("%q maps to %q, want %q", c.in, got, c.want)
		}
		if _, ok := nv.tokenAt(i, i+len(c.in)); !ok {
			t.Errorf("%q is not in a decoded token", c.in)
		}
	}
}

// TestHTMLReference decodes the references escapeAt reads, and no other:
// a reference of a byte past ASCII's printable ones, an unknown name or
// one without its ";" is text.
func TestHTMLReference(t *testing.T) {
	for _, c := range []struct {
		in string
		b  byte
		n  int
	}{
		{"&quot;x", '"', 6}, {"&apos;", '\'', 6}, {"&lt;", '<', 4}, {"&gt;", '>', 4}, {"&amp;amp;", '&', 5},
		{"&#34;", '"', 5}, {"&#x22;", '"', 6}, {"&#X7e;", '~', 6}, {"&#0065;", 'A', 7},
		{"&quot", 0, 0}, {"&nbsp;", 0, 0}, {"&#127;", 0, 0}, {"&#x;", 0, 0}, {"&#;", 0, 0}, {"&;", 0, 0},
		{"&#1a;", 0, 0}, {"&#x1g;", 0, 0}, {"&#xxxxxxxxxx;", 0, 0}, {"& quot;", 0, 0}, {"&QUOT;", 0, 0},
	} {
		b, n := escapeAt([]byte(c.in), 0, len(c.in))
		if b != c.b || n != c.n {
			t.Errorf("escapeAt(%q) = %q, %d; want %q, %d", c.in, b, n, c.b, c.n)
		}
	}
}

// TestHTMLReferencesNoSecret: markup written with references (a form, a
// placeholder, a shell line, an escaped template) holds no secret once
// decoded, as it holds none written plainly.
func TestHTMLReferencesNoSecret(t *testing.T) {
	s := defaultScanner(t)
	text := `<pre>&lt;input type=&quot;password&quot; name=&quot;password&quot; autocomplete=&quot;current-password&quot;&gt;</pre>
<p>Set <code>API_KEY=&quot;&lt;your-api-key&gt;&quot;</code> before you run <code>make deploy &amp;&amp; make verify</code>.</p>
<mxCell value="token: &lt;redacted&gt;&lt;br&gt;secret=&#34;${VAULT_SECRET}&#34;" vertex="1"/>
<arg>password=&#x22;changeme&#x22;</arg>
`
	if found := s.Scan("page.html", []byte(text)); len(found) != 0 {
		t.Errorf("found %v", found)
	}
}
