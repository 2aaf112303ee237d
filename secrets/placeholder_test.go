package secrets

import (
	"strings"
	"testing"
)

// TestIsPlaceholder: the samples of issue 33's point 4, judged by the one
// function every rule applies, and random tokens that must survive it.
func TestIsPlaceholder(t *testing.T) {
	g := newFakeGen("placeholder")
	for _, v := range []string{
		"abcdefghijklmnopqrstuvwxyz0123456789",
		"zyxwvutsrqponmlkjihgfedcba",
		"1a2b3c4d5e6f7g8h9i0j",
		"a1b2c3d4e5f6g7h8",
		"12345678-ABCD-ABCD-ABCD-1234567890AB",
		"AGE-SECRET-KEY-1QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ",
		"xxxxxxxxxxxxxxxxxxxxxxxx",
		"sk_xxxx_live_token",
		"<your-key>",
		"your_api_key_goes_here",
		"EXAMPLEKEY0000000000",
		"dummy-secret-value-42",
		"changeme123!",
		"%s", "%-12v", "{}", "{0}", `%s\n'`, `""`,
		"placeholder_token_9",
		"TokenHere0123",
		"MyFakeKey9",
		"${API_TOKEN}",
		"{{ secrets.TOKEN }}",
		"$API_TOKEN",
		"ghp_****",
		"0000000000000000",
		"aaaaaa11bbbbbb22",
		"&lt;YOURPASSWORD&gt;",
		"myPassword", "my_password", "my-api-key", "my_username",
		"mypassword", "mysecret", "MyToken", "myapikey", // the same, in one word
		"%TestSourcePassword%",
		"#{datastore['DBPASSWORD']}",
		"px-api-a1b2c3d4-e5f6-g7h8-i8j0-k0l3m3n4o0p5",
		"px-dep-d4c3b2a1-f6e5-h8g7-j1i8-p5o0n5m3l2k1",
		// Found flagged on an independently written labelled set:
		"00000x0x0xx00x000xx0xxx00000x00xx0000xx0", // a mask of two symbols
		"xx00xx~x0xxxxxxxxxxxx0x.xx0xx",
		"{password}", "{webhook.token}", "{DB_PASSWORD2}", "{ api_key }", // format fields
		"PASSWORD", "TOKEN", // the name in capitals
		"JEFQSV9UT0tFTg==",     // base64 of $API_TOKEN
		"PHlvdXItYXBpLWtleT4=", // base64 of <your-api-key>
		// Stand-ins: a test's mark among names of the value, or a name
		// alone (postgres://user:password@localhost).
		"mock-token", "testing-only", "test-api-key", "fake_secret_1",
		// The example UUID of RFC 4122's readers, as AWS's API models
		// give a clientToken.
		"550e8400-e29b-41d4-a716-446655440000", "550E8400-E29B-41D4-A716-446655440002",
		// where a CI system or a log filter hid the value
		"[MASKED]", "[FILTERED]", "[Filtered]", "[redacted]", "[hidden secret]", "[PROTECTED_VALUE]",
	} {
		if !IsPlaceholder([]byte(v)) {
			t.Errorf("%q: not a placeholder", v)
		}
	}
	// Weak passwords and words that are not stand-ins: may be real.
	for _, v := range []string{"password123", "Secret123", "Pass123", "test123", "hunter2x9", "testudo123", "contest-key", "mockingbird42", "mysql_backup7", "my_Prod7Key9", "mypassword7", "mykeyring"} { // sotvet:allow-secret -- weak passwords the test holds are no placeholders
		if IsPlaceholder([]byte(v)) {
			t.Errorf("%q judged a placeholder", v)
		}
	}
	for i := 0; i < 2000; i++ {
		for _, v := range []string{g.mixed(base62, 40), g.from(hexLower, 40), g.mixed(base64std, 64), g.from(base32up, 32), g.mixed(base62, 16)} {
			if IsPlaceholder([]byte(v)) {
				t.Errorf("random %q judged a placeholder", v)
			}
		}
	}
	// A value in braces, a JSON document in base64 that names
	// example.com beside a real auth, and a random base64 value are values.
	for _, v := range []string{"{" + g.mixed(base62, 14) + "}", "[" + g.mixed(base62, 14) + "]", "[" + g.from(alphaUpper+alphaDigit, 20) + "]", "eyJhdXRocyI6eyJodHRwczovL2V4YW1wbGUvdjEvIjp7ImF1dGgiOiJvcGVuc2VzYW1lIn19fQo=", g.mixed(base64std, 42) + "=="} {
		if IsPlaceholder([]byte(v)) {
			t.Errorf("%q judged a placeholder", v)
		}
	}
	// A prefixed hex token whose hex letters happen to walk down is no
	// letter walk: the prefix's letters do not step.
	if v := "shp" + "at_" + "9f8e7d6c5b4a39281706f5e4d3c2b1a0"; IsPlaceholder([]byte(v)) {
		t.Errorf("%q judged a placeholder", v)
	}
	// The leading zero bytes of a base64 blob are not a placeholder.
	if v := strings.Repeat("A", 22) + g.mixed(base62, 90); IsPlaceholder([]byte(v)) {
		t.Errorf("%q judged a placeholder", v)
	}
}

// TestPlaceholderWordCutFromToken: a placeholder word read as a run of
// case inside a random token ("…iFOoB…", "…qFAkeF…", "…uYOUrF…") is a
// chance cut of the token, not the word: one draw in three hundred was
// dropped, and a private key whose base64 body held one such run (one
// key in a hundred and fifty) under every rule. Words among words stay
// placeholders.
func TestPlaceholderWordCutFromToken(t *testing.T) {
	g := newFakeGen("placeholder cut")
	for i, w := range []string{"FOo", "FAke", "YOUr", "SAmple", "TOdo", "LOrem", "IPsum", "FIxme", "INsert", "HEre"} {
		v := g.mixed(base62, 12+i) + "q" + w + "B" + g.mixed(base62, 20)
		if IsPlaceholder([]byte(v)) {
			t.Errorf("%q judged a placeholder", v)
		}
	}
	for _, v := range []string{"your-api-key-here", "fake_token_1234", "insert_key_here", "FooBarToken", "sample.secret.value"} {
		if !IsPlaceholder([]byte(v)) {
			t.Errorf("%q: not a placeholder", v)
		}
	}
	s := defaultScanner(t)
	blk := g.pemBlock("PRIVATE KEY", 1190, "\n")
	at := strings.IndexByte(blk, '\n') + 20
	blk = blk[:at] + "uYOUrF" + blk[at+6:]
	found := false
	for _, f := range s.Scan("deploy/key.pem", []byte(blk)) {
		found = found || f.RuleID == RulePrivateKey
	}
	if !found {
		t.Errorf("a private key whose body holds \"uYOUrF\" is not found:\n%s", blk)
	}
}

// TestSamplePassword: the judgement url-credentials and every rule that
// reports a URL's password (urlSample) share. A reference or a format
// verb is none; a password that starts with a percent escape is one.
func TestSamplePassword(t *testing.T) {
	for _, c := range []struct {
		pass   string
		sample bool
	}{
		{"password", true}, {"Secret", true}, {"$DB_PASS", true}, {"%PASSWORD%", true}, {"%s", true}, {"%v", true},
		{"%DB%", true}, {"8080", true}, {"aaaaaa", true},
		{"%244to%40L8%3DMC", false}, {"%40dm1n-Kq7", false}, {"p%40ssw0rd9", false}, {"Zq8vN2kLp4", false},
	} {
		if got := samplePassword([]byte(c.pass)); got != c.sample {
			t.Errorf("samplePassword(%q) = %v, want %v", c.pass, got, c.sample)
		}
	}
	// In a value that holds the URL too (a rule that reports the whole
	// connection string).
	for _, c := range []struct {
		v      string
		sample bool
	}{
		{"mongodb+srv://user:password@cluster0.mongodb.net/db", true},
		{"postgres://app:%s@db:5432/app", true},
		{"postgres://app:mypassword@db:5432/app", true},
		{"mongodb+srv://app:%244to%40L8%3DMC@cluster0.mongodb.net/db", false}, // sotvet:allow-secret -- a test value drawn by hand, not a credential
		{"mongodb+srv://app:Zq8vN2kLp4@cluster0.mongodb.net/db", false},       // sotvet:allow-secret -- as above
		{"no URL here", false},
	} {
		if got := urlSample([]byte(c.v), 0, len(c.v)); got != c.sample {
			t.Errorf("urlSample(%q) = %v, want %v", c.v, got, c.sample)
		}
	}
}
