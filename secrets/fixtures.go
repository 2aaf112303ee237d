package secrets

import (
	"bytes"
	"strings"
)

// Weak passwords in test code (issue 33, round 27's labelled set): a
// test that logs in as "carol" with "letmein", a FactoryBot factory whose
// users all get "password123", a JUnit test's "summer2024" are fixtures
// the test suite makes up, nobody's password. The scanner judges this
// for every rule that reports a chosen password (chosenPasswordRules),
// the same way, after IsPlaceholder: the value must be weak (weakPassword)
// and the file test code (testCodePath, or testCodeText when the path
// says nothing: a file pasted without its path). A random value in a
// test file is still reported, and so is a weak password outside test
// code (a compose file's MYSQL_ROOT_PASSWORD).

// chosenPasswordRules are the rules whose value is a password someone
// chose (not a provider's token format): theirs is the fixture
// judgement.
var chosenPasswordRules = map[string]bool{
	// sotvet's own
	RulePasswordLiteral: true, RulePasswordPair: true, RulePasswordArgument: true,
	RulePasswordNameArgument: true, RuleSecretOption: true, RuleEnvDefaultSecret: true,
	RuleSQLPassword: true, RuleConfigDirectivePassword: true, RuleXMLPasswordElement: true,
	RuleMySQLGluedPassword: true, RulePasswordFlag: true, RuleNameValueSecret: true,
	RuleURLCredentials: true, RuleBasicAuthHeader: true, RuleGenericSecret: true, RuleIndexedSecret: true,
	// gitleaks'
	"generic-api-key": true, "hashicorp-tf-password": true, "nuget-config-password": true,
	// Nosey Parker's and Kingfisher's
	"kingfisher.weak_password.1": true, "np.generic.7": true, "np.generic.8": true,
	"np.generic.14": true, "kingfisher.generic.8": true, "np.netrc.1": true,
	"np.postgres.1": true, "np.mongodb.1": true, "kingfisher.ftp.1": true,
	"np.phpmailer.1": true, "np.psexec.1": true, "np.vmware.1": true,
	"np.reactapp.2": true, "kingfisher.rabbitmq.1": true, "kingfisher.plaintext.1": true,
	"kingfisher.snowflake.3": true, "np.gradle.1": true, "kingfisher.gradle.1": true,
}

// commonPasswords are passwords found at the top of every leaked-password
// list, and the words they are made of (read after the digits and
// symbols after them are cut and leetspeak undone: "P@ssw0rd!" is
// "password").
var commonPasswords = map[string]bool{
	"password": true, "passw": true, "passwort": true, "pass": true, "passwd": true, "pwd": true,
	"letmein": true, "hunter": true, "qwerty": true, "qwertz": true, "azerty": true, "asdf": true,
	"asdfgh": true, "zxcvbn": true, "qwer": true, "admin": true, "administrator": true, "root": true,
	"toor": true, "welcome": true, "monkey": true, "dragon": true, "master": true, "shadow": true,
	"sunshine": true, "princess": true, "football": true, "baseball": true, "iloveyou": true,
	"trustno": true, "superman": true, "batman": true, "starwars": true, "login": true,
	"abc": true, "abcd": true, "changeme": true, "changeit": true, "secret": true, "test": true,
	"tester": true, "testing": true, "testpass": true, "testpassword": true, "guest": true,
	"user": true, "demo": true, "default": true, "foobar": true, "foo": true, "bar": true,
	"hello": true, "summer": true, "winter": true, "spring": true, "autumn": true, "fall": true,
	"newpass": true, "newpassword": true, "oldpass": true, "oldpassword": true, "mypass": true,
	"mypassword": true, "pa": true, "pass4now": true, "blink": true,
}

// weakPassword reports whether v is a weak, well-known password: one of
// commonPasswords with digits or symbols after it, digits alone (eight
// at most), or a short word (three to twelve lower-case letters, the
// first may be a capital) with up to four digits and two symbols after
// it ("hunter2", "test123", "Summer2024!", "s3cret" read as "secret").
// A value with capitals or digits inside it, or longer, is not: a
// random or a chosen strong password.
func weakPassword(v []byte) bool {
	if len(v) < 3 || len(v) > 20 {
		return false
	}
	s := strings.ToLower(string(v))
	if passwordFixtures[s] || commonPasswords[s] {
		return true
	}
	digits := 0
	for _, b := range v {
		if '0' <= b && b <= '9' {
			digits++
		}
	}
	if digits == len(v) {
		return len(v) <= 8
	}
	// the word, its digits and symbols after it
	w, leet := deLeet(v)
	i := 0
	for i < len(w) && ('a' <= w[i] && w[i] <= 'z' || 'A' <= w[i] && w[i] <= 'Z') {
		i++
	}
	word := w[:i]
	j := i
	for j < len(w) && '0' <= w[j] && w[j] <= '9' {
		j++
	}
	nd := j - i
	k := j
	for k < len(w) && weakSymbol(w[k]) {
		k++
	}
	ns := k - j
	for k < len(w) && '0' <= w[k] && w[k] <= '9' && nd == 0 {
		k++ // "summer!23": a symbol, then the digits
	}
	if k != len(w) || len(word) < 3 || len(word) > 12 || nd > 4 || ns > 2 || k-j-ns > 4 {
		return false
	}
	lw := bytes.ToLower(word)
	if commonPasswords[string(lw)] {
		return true
	}
	if leet > 0 {
		return false // "k3m1x": leetspeak only of a common password
	}
	for _, b := range word[1:] {
		if 'A' <= b && b <= 'Z' {
			return false // a capital inside: camelCase or random, not a word
		}
	}
	return wordShaped(lw)
}

// weakSymbol: the symbols people put after a word to pass a policy.
func weakSymbol(b byte) bool {
	switch b {
	case '!', '@', '#', '$', '%', '&', '*', '?', '.', '_', '-', '+':
		return true
	}
	return false
}

// deLeet undoes the leetspeak of common passwords inside a word
// ("p@ssw0rd" → "password", "s3cr3t" → "secret") and says how many
// substitutions it made: a digit or a symbol that stands for a letter,
// past the first byte. Digits and symbols at the end stay (they follow
// the word).
func deLeet(v []byte) ([]byte, int) {
	end := len(v)
	for end > 0 && ('0' <= v[end-1] && v[end-1] <= '9' || weakSymbol(v[end-1])) {
		end--
	}
	w := append([]byte(nil), v...)
	n := 0
	for i := 0; i < end; i++ {
		var r byte
		switch v[i] {
		case '0':
			r = 'o'
		case '1':
			r = 'i'
		case '3':
			r = 'e'
		case '4', '@':
			r = 'a'
		case '5', '$':
			r = 's'
		case '7':
			r = 't'
		default:
			continue
		}
		if i > 0 && i+1 < end {
			w[i] = r
			n++
		}
	}
	return w, n
}

// wordShaped reports whether the lower-case letters l read as a word:
// a vowel (or y) in every five letters, no letter three times in a row.
func wordShaped(l []byte) bool {
	run, same := 0, 1
	vowels := 0
	for i, b := range l {
		switch b {
		case 'a', 'e', 'i', 'o', 'u', 'y':
			run = 0
			vowels++
		default:
			run++
			if run > 4 {
				return false
			}
		}
		if i > 0 && b == l[i-1] {
			same++
			if same > 2 {
				return false
			}
		} else {
			same = 1
		}
	}
	return vowels > 0
}

// testDirs are the directories a test suite and its fixtures live in.
var testDirs = map[string]bool{
	"test": true, "tests": true, "spec": true, "specs": true, "__tests__": true, "__test__": true,
	"testdata": true, "test-data": true, "test_data": true, "fixtures": true, "__fixtures__": true,
	"factories": true, "__mocks__": true, "mocks": true, "e2e": true, "cypress": true, "testing": true,
	"integration-tests": true, "integration_tests": true, "unit-tests": true, "unittests": true,
}

// testCodePath reports whether path names test code: a directory of
// tests (spec/, tests/, __tests__/, factories/) or a test's file name
// (*_test.go, *.spec.ts, *.test.js, test_*.py, *_spec.rb, *Test.java,
// conftest.py).
func testCodePath(path string) bool {
	if path == "" {
		return false
	}
	segs := strings.Split(path, "/")
	for _, d := range segs[:len(segs)-1] {
		if testDirs[strings.ToLower(d)] {
			return true
		}
	}
	base := segs[len(segs)-1]
	dot := strings.LastIndexByte(base, '.')
	if dot <= 0 {
		return false
	}
	stem, ext := base[:dot], strings.ToLower(base[dot+1:])
	if !codeExts[ext] {
		return false
	}
	ls := strings.ToLower(stem)
	switch {
	case ls == "conftest", ls == "test_helper", ls == "spec_helper", ls == "rails_helper":
		return true
	case strings.HasSuffix(ls, ".test"), strings.HasSuffix(ls, ".spec"), strings.HasSuffix(ls, ".e2e"),
		strings.HasSuffix(ls, "_test"), strings.HasSuffix(ls, "_spec"), strings.HasSuffix(ls, "-test"), strings.HasSuffix(ls, "-spec"),
		strings.HasPrefix(ls, "test_"):
		return true
	case strings.HasSuffix(stem, "Test"), strings.HasSuffix(stem, "Tests"), strings.HasSuffix(stem, "Spec"),
		strings.HasSuffix(stem, "IT"), strings.HasPrefix(stem, "Test") && len(stem) > 4 && 'A' <= stem[4] && stem[4] <= 'Z':
		return true
	}
	return false
}

// codeExts are the extensions of source files a test may be written in.
var codeExts = map[string]bool{
	"go": true, "py": true, "rb": true, "js": true, "jsx": true, "mjs": true, "cjs": true, "ts": true,
	"tsx": true, "mts": true, "cts": true, "java": true, "kt": true, "kts": true, "scala": true, "groovy": true,
	"cs": true, "fs": true, "vb": true, "php": true, "rs": true, "ex": true, "exs": true, "swift": true,
	"m": true, "dart": true, "clj": true, "cljs": true, "erl": true, "c": true, "cc": true, "cpp": true,
	"h": true, "hpp": true, "pl": true, "pm": true, "t": true, "lua": true, "r": true, "jl": true, "vue": true,
	"svelte": true,
}

// testMarkers say by themselves that a text is a test: a test
// framework's import or declaration.
var testMarkers = []string{
	// Python
	"import pytest", "from pytest", "@pytest.", "import unittest", "from unittest", "(unittest.testcase)",
	"(testcase):", "from django.test", "from rest_framework.test",
	// Ruby
	"rspec.describe", "factorybot.define", "factorygirl.define", "fabricator(", "require 'rails_helper'",
	"require \"rails_helper\"", "require 'spec_helper'", "require \"spec_helper\"", "require 'test_helper'",
	"require \"test_helper\"", "activesupport::testcase", "minitest::test", "actiondispatch::integrationtest",
	// Java, Kotlin, Scala, Groovy
	"import org.junit", "import static org.junit", "import org.testng", "import io.kotest", "import kotlin.test", "import spock.",
	"@springboottest", "@webmvctest", "@datajpatest", "org.scalatest",
	// Go
	"*testing.t)", "*testing.b)",
	// C#, F#
	"using xunit", "using nunit.framework", "microsoft.visualstudio.testtools", "[testmethod]", "[testfixture]",
	"[fact]", "[theory]",
	// PHP
	"use phpunit\\", "extends testcase", "phpunit\\framework",
	// Rust
	"#[test]", "#[cfg(test)]", "#[tokio::test]",
	// JavaScript, TypeScript
	"from 'vitest'", "from \"vitest\"", "from '@jest/globals'", "from \"@jest/globals\"", "@testing-library/",
	"from 'chai'", "from \"chai\"", "require('chai')", "require(\"chai\")", "jest.mock(", "vi.mock(",
	"from '@playwright/test'", "from \"@playwright/test\"", "cy.visit(", "supertest",
	// Elixir, Swift, Dart
	"use exunit.case", "import xctest", "package:test/test.dart", "package:flutter_test",
}

// testCodeText reports whether data reads as test code: a marker of a
// test framework (testMarkers), a Python test function (def test_…) or
// a spec (describe/it/test calls together with an expectation).
func testCodeText(data []byte) bool {
	if len(data) > 1<<20 {
		data = data[:1<<20]
	}
	l := bytes.ToLower(data)
	for _, m := range testMarkers {
		if bytes.Contains(l, []byte(m)) {
			return true
		}
	}
	if lineStartsWith(l, "def test_") || lineStartsWith(l, "async def test_") || annotationAlone(l, "@test") {
		return true
	}
	spec := lineStartsWith(l, "describe(") || lineStartsWith(l, "describe ") || lineStartsWith(l, "context(") ||
		lineStartsWith(l, "it(") || lineStartsWith(l, "it \"") || lineStartsWith(l, "it '") || lineStartsWith(l, "test(")
	expect := bytes.Contains(l, []byte("expect(")) || bytes.Contains(l, []byte("assert")) || bytes.Contains(l, []byte(".should"))
	return spec && expect
}

// annotationAlone reports whether a line of l begins with the annotation
// a (after its indentation) followed by no more of a name: JUnit's
// "@Test" above a method, not an address at test.example.
func annotationAlone(l []byte, a string) bool {
	for i := 0; ; {
		k := bytes.Index(l[i:], []byte(a))
		if k < 0 {
			return false
		}
		k += i
		e := k + len(a)
		if atLineStart(l, k) && (e == len(l) || l[e] == '\n' || l[e] == '\r' || l[e] == ' ' || l[e] == '(') {
			return true
		}
		i = k + 1
	}
}

// atLineStart reports whether l[k] begins a line after its indentation.
func atLineStart(l []byte, k int) bool {
	j := k
	for j > 0 && (l[j-1] == ' ' || l[j-1] == '\t') {
		j--
	}
	return j == 0 || l[j-1] == '\n'
}

// lineStartsWith reports whether a line of l begins with s after its
// indentation.
func lineStartsWith(l []byte, s string) bool {
	for i := 0; ; {
		k := bytes.Index(l[i:], []byte(s))
		if k < 0 {
			return false
		}
		k += i
		if atLineStart(l, k) {
			return true
		}
		i = k + 1
	}
}

// testFixture reports whether a chosen password's value sec in the
// memo's text is a test's fixture: weak, in test code.
func (tm *textMemo) testFixture(path string, sec []byte) bool {
	if tm.testCode == 2 || !weakPassword(sec) {
		return false // (known to be no test code: the value is not looked at)
	}
	if tm.testCode == 0 {
		tm.testCode = 2
		if testCodePath(path) || testCodeText(tm.data) {
			tm.testCode = 1
		}
	}
	return tm.testCode == 1
}
