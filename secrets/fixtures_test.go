package secrets

import (
	"strings"
	"testing"
)

// scanRules returns the rule IDs Scan reports for text at path.
func scanRules(s *Scanner, path, text string) []string {
	var got []string
	for _, f := range s.Scan(path, []byte(text)) {
		got = append(got, f.RuleID)
	}
	return got
}

// wantRules checks that text at path is reported by rule (any rule for
// "*"), or by none for "".
func wantRules(t *testing.T, s *Scanner, path, text, rule string) {
	t.Helper()
	got := scanRules(s, path, text)
	switch {
	case rule == "" && len(got) > 0,
		rule == "*" && len(got) == 0,
		rule != "" && rule != "*" && !strings.Contains(" "+strings.Join(got, " ")+" ", " "+rule+" "):
		t.Errorf("%s %q: want %q, got %v", path, text, rule, got)
	}
}

// TestTestFixtureWeakPasswords: a weak, well-known password in test code
// is a fixture, whether the path says test (spec/, __tests__/,
// *_test.go, test_*.py, factories/) or only the content does (a test
// framework's import, def test_, describe/it with expect, FactoryBot,
// @Test, func TestX(t *testing.T)); a random value in a test is still
// reported, and so is a weak password outside test code.
func TestTestFixtureWeakPasswords(t *testing.T) {
	s := defaultScanner(t)
	g := newFakeGen("test-fixture-weak")
	strong := g.mixed(base62, 10) + "#" + g.mixed(base62, 5)
	w1 := "let" + "me" + "in"     // the common list
	w2 := "pass" + "word" + "123" // the common list and digits
	w3 := "sum" + "mer" + "2024!" // a word, digits and a symbol
	w4 := "qwe" + "rty" + "99"    // the common list
	w5 := "P@ss" + "w0rd" + "1"   // leetspeak
	w6 := "kangaroo" + "7"        // a short word and a digit
	for _, c := range []struct{ path, text, rule string }{
		// JavaScript: Jest, Mocha, Vitest; no test cue in the path
		{"form.js", "describe('login form', () => {\n  it('posts the user', async () => {\n    const user = { name: 'bo', password: '" + w1 + "' };\n    expect(await post(user)).toBe(true);\n  });\n});\n", ""},
		{"auth.ts", "import { it, expect } from 'vitest'\n\nit('hashes', () => {\n  const password = \"" + w3 + "\";\n  expect(hash(password)).not.toBe(password)\n})\n", ""},
		{"client.js", "const assert = require('assert');\ndescribe('client', function () {\n  it('connects', function () {\n    connect({ user: 'u', password: '" + w6 + "' });\n    assert.ok(true);\n  });\n});\n", ""},
		// Ruby: FactoryBot and RSpec
		{"users.rb", "FactoryBot.define do\n  factory :member do\n    email { 'm@example.org' }\n    password { \"" + w2 + "\" }\n    password_confirmation { \"" + w2 + "\" }\n  end\nend\n", ""},
		{"session.rb", "RSpec.describe Session do\n  it 'signs in' do\n    user = create(:member, password: \"" + w4 + "\")\n    expect(user).to be_valid\n  end\nend\n", ""},
		// Python: pytest and unittest
		{"flows.py", "import pytest\n\n\ndef test_signup_rejects(client):\n    r = signup(client, username=\"dora\", password=\"" + w1 + "\")\n    assert r.status_code == 400\n", ""},
		{"views.py", "from django.test import TestCase\n\nclass LoginTests(TestCase):\n    def test_ok(self):\n        self.client.login(username='eve', password='" + w3 + "')\n", ""},
		{"checks.py", "def test_reset(api):\n    api.reset(user='fay', password='" + w6 + "')\n    assert api.ok\n", ""},
		// Go, Java, C#, PHP, Rust
		{"login.go", "package auth\n\nimport \"testing\"\n\nfunc TestLogin(t *testing.T) {\n\tc := Config{User: \"gus\", Password: \"" + w3 + "\"}\n\t_ = c\n}\n", ""},
		{"UserService.java", "import org.junit.jupiter.api.Test;\n\nclass UserService {\n    @Test\n    void creates() {\n        String password = \"" + w1 + "\";\n    }\n}\n", ""},
		{"Accounts.cs", "using Xunit;\n\npublic class Accounts {\n    [Fact]\n    public void SignsIn() {\n        var password = \"" + w5 + "\";\n    }\n}\n", ""},
		{"Login.php", "<?php\nuse PHPUnit\\Framework\\TestCase;\nclass Login extends TestCase {\n    public function testIt() { $password = '" + w2 + "'; }\n}\n", ""},
		{"Accounts.kt", "class Accounts {\n    @Test\n    fun signsIn() {\n        val password = \"" + w2 + "\"\n    }\n}\n", ""},
		{"db.py", "import pytest\n\nDB_URL = \"postgres://app:" + w1 + "@localhost:5432/test\"\n", ""},
		{"lib.rs", "#[cfg(test)]\nmod tests {\n    #[test]\n    fn login() {\n        let password = \"" + w4 + "\";\n    }\n}\n", ""},
		// the path says test, the content does not
		{"spec/support/users.rb", "DEFAULTS = { password: \"" + w2 + "\" }\n", ""},
		{"web/__tests__/fixtures.js", "module.exports = { password: '" + w1 + "' };\n", ""},
		{"internal/db/conn_test.go", "var cfg = map[string]string{\"password\": \"" + w3 + "\"}\n", ""},
		{"app/tests/helpers.py", "CREDS = {\"password\": \"" + w6 + "\"}\n", ""},
		{"src/api.spec.ts", "const password = '" + w1 + "';\n", ""},
		{"test_api.py", "PASSWORD = \"" + w4 + "\"\n", ""},
		{"db/factories/users.rb", "  password { \"" + w2 + "\" }\n", ""},
		// a random value in a test is still reported
		{"flows.py", "import pytest\n\ndef test_prod(client):\n    connect(user=\"svc\", password=\"" + strong + "\")\n    assert client\n", "*"},
		{"spec/support/users.rb", "DEFAULTS = { password: \"" + strong + "\" }\n", "*"},
		{"form.js", "describe('x', () => {\n  it('y', () => {\n    const cfg = { password: '" + strong + "' };\n    expect(cfg).toBeTruthy();\n  });\n});\n", "*"},
		// a weak password outside test code is still reported
		{"docker-compose.yml", "services:\n  db:\n    environment:\n      MYSQL_ROOT_PASSWORD: " + w2 + "\n", "kingfisher.weak_password.1"},
		{"config.js", "module.exports = { db: { password: '" + w1 + "' } };\n", RulePasswordLiteral},
		{"settings.py", "DATABASES = {'default': {'PASSWORD': '" + w3 + "'}}\n", RulePasswordLiteral},
		{"app.go", "package app\n\nvar cfg = Config{Password: \"" + w6 + "\"}\n", RulePasswordLiteral},
		// a word that only looks like a test's is no cue
		{"deploy.py", "# it is tested in CI\nDB_PASSWORD = \"" + w1 + "\"\n", RulePasswordLiteral},
		{"mailer.py", "ADMIN = \"ops@test.example\"  # @test\nSMTP_PASSWORD = \"" + w3 + "\"\n", RulePasswordLiteral},
		{"db.py", "DB_URL = \"postgres://app:" + w1 + "@db.internal:5432/shop\"\n", "*"},
	} {
		wantRules(t, s, c.path, c.text, c.rule)
	}
}

// TestWeakPassword: common passwords, their leetspeak and short words
// with a few digits or a symbol are weak; random and long chosen
// passwords are not.
func TestWeakPassword(t *testing.T) {
	for _, v := range []string{
		"hunter" + "2", "let" + "mein", "qwerty" + "123", "admin" + "123", "pass" + "word1", "test" + "123",
		"Welcome" + "1!", "s3cr" + "3t", "p@ss" + "w0rd", "Summer" + "2024", "dragon", "kangaroo" + "7",
		"autumn#" + "22", "123456" + "78", "tulip", "banana" + "!",
	} {
		if !weakPassword([]byte(v)) {
			t.Errorf("%s: want weak", v)
		}
	}
	for _, v := range []string{
		"Xq7#vLp2" + "!zR9mK", "kT9wQ2" + "vZ", "correcthorse" + "batterystaple", "k3m1x" + "5", "sunFlower" + "22",
		"Tr0ub4dor&3" + "x", "bcdfghj" + "12", "strawberry" + "12345", "aaaaaa" + "1", "x" + "9",
	} {
		if weakPassword([]byte(v)) {
			t.Errorf("%s: want not weak", v)
		}
	}
}

// TestTestCodeCues: the path and content cues of test code, and texts
// that hold none.
func TestTestCodeCues(t *testing.T) {
	for _, p := range []string{
		"spec/models/user_spec.rb", "tests/unit/helpers.py", "src/__tests__/a.js", "pkg/x_test.go",
		"web/a.spec.ts", "web/a.test.jsx", "test_views.py", "factories/users.rb", "src/FooTest.java",
		"conftest.py", "lib/foo/testdata/a.go", "e2e/login.ts",
	} {
		if !testCodePath(p) {
			t.Errorf("%s: want a test path", p)
		}
	}
	for _, p := range []string{"", "src/app.js", "contest.py", "latest/main.go", "attestation.rb", "docs/testing.md", "testimonials.json", "cmd/Testament.java"} {
		if testCodePath(p) {
			t.Errorf("%s: want no test path", p)
		}
	}
	for _, s := range []string{
		"import pytest\n", "from unittest import mock\n", "    def test_x(self):\n", "RSpec.describe X do\n",
		"FactoryBot.define do\n", "@Test\nvoid x() {}\nimport org.junit.Test;\n", "func TestX(t *testing.T) {}\n",
		"describe('a', () => {\n  it('b', () => expect(1).toBe(1))\n})\n", "[Fact]\npublic void X() {}\n",
		"#[test]\nfn x() {}\n", "defmodule XTest do\n  use ExUnit.Case\nend\n", "    @Test\n    fun x() {}\n",
	} {
		if !testCodeText([]byte(s)) {
			t.Errorf("%q: want test code", s)
		}
	}
	for _, s := range []string{
		"const it = items[0];\nexpect(it)\n", "# tested by the test suite\nDB_PASSWORD=x\n", "def tests_helper():\n  pass\n",
		"describe the setup here\n", "services:\n  test:\n    image: x\n", "to: ops@test.example\n", "@TestimonialCard\n",
	} {
		if testCodeText([]byte(s)) {
			t.Errorf("%q: want no test code", s)
		}
	}
}

// TestChosenPasswordRulesExist: every rule the fixture judgement names
// is a rule of the default set (a renamed rule would lose it silently).
func TestChosenPasswordRulesExist(t *testing.T) {
	ids := map[string]bool{}
	for _, r := range DefaultRules() {
		ids[r.ID] = true
	}
	for id := range chosenPasswordRules {
		if !ids[id] {
			t.Errorf("chosenPasswordRules: %s is no default rule", id)
		}
	}
}
