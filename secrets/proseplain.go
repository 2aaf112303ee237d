package secrets

import (
	"bytes"
	"sync"
)

// Passwords stated in notes in forms the sentence rules did not read
// (issue 33, round 18's blind notes: runbooks, postmortems, handovers).
// They rank after every older rule.
const (
	// RuleProsePasswordPlain reports a password written straight after
	// its name in an English sentence, or after a phrase that says which
	// one and a copula: "connects as monitor with password …", "the root
	// password on that box was literally …".
	RuleProsePasswordPlain = "prose-password-plain"
	// RuleProseSecretCJK reports a password or token stated in Japanese,
	// Chinese or Korean: "パスワードは「…」です", "数据库密码是 …",
	// "비밀번호는 …입니다" (or 비번, its everyday short form).
	RuleProseSecretCJK = "prose-secret-cjk"
)

func proseFormRules() []*Rule {
	rs := proseFormCompiled()
	out := make([]*Rule, len(rs))
	for i, r := range rs {
		c := *r
		out[i] = &c
	}
	return out
}

var proseFormCompiled = sync.OnceValue(func() []*Rule {
	// a value in a sentence: no blank, quote or bracket, not ending in
	// the sentence's punctuation
	// blanks, or a line's end inside the sentence
	sep := `(?:[ \t]+|[ \t]*\r?\n[ \t]*)`
	adverb := `(?:(?:literally|simply|just|still|now|currently|actually|set[ \t]+to)` + sep + `)?`
	val := `[\x60"'*]{0,2}(?P<secret>[^\s\x60"'*,;()<>\[\]]{11,63}[^\s\x60"'*,;()<>\[\].:!?])[\x60"'*]{0,2}(?:[\s.,;:!?)]|$)`
	return []*Rule{
		{
			ID:          RuleProsePasswordPlain,
			Description: "password written after its name in a sentence (\"with password …\", \"the root password on that box was …\")",
			builtinRE: builtinExpr(`(?i)\b(?P<key>password|passphrase|passwd)` +
				// which one: "on that box", "for the admin UI" (a few
				// words), then a copula: without one the words after
				// the phrase name the thing ("the password for the
				// PostgreSQL13 database")
				`(?:[ \t]+(?:on|for|of|at|in)(?:[ \t]+[^\s\x60"'.,;:!?]+){1,4}?[ \t]+(?:is|was)` + sep + adverb +
				`|[ \t]+(?:(?:is|was)` + sep + adverb + `)?)` + val),
			MinLen: 12,
			// a sentence wrapped after its copula
			After:    128,
			Keywords: []string{"password ", "passphrase ", "passwd "},
			Validate: validProsePasswordPlain,
			Path:     proseFiles,
		},
		{
			ID:          RuleProseSecretCJK,
			Description: "password or token stated in Japanese, Chinese or Korean (パスワードは「…」, 密码是 …, 비밀번호는 …)",
			builtinRE: builtinExpr(`(?P<key>パスワード|暗証番号|パスフレーズ|トークン|APIキー|密码|口令|密碼|令牌|비밀번호|비번|패스워드|암호|토큰|รหัสผ่าน)` +
				// Thai writes no blank between words either: "รหัสผ่านคือ …"
				`[ \t]*(?:は|が|：|:|是|为|為|는|은|=|คือ)[ \t]*(?:「|『|"|'|\x60|\*\*)?` +
				`(?P<secret>[A-Za-z0-9!#$%&+\-./=?@^_~]{7,63}[A-Za-z0-9!#$%&+\-/=?@^_~])` +
				// Korean notes also set the value off by a blank, a dash
				// or a table's "|", after the noun or its subject
				// particle: "와이파이 비번 …", "비번이 … 로 변경", "| 비번 | … |"
				`|(?P<key>비밀번호|비번|패스워드|암호)(?:이|가)?(?:[ \t]*[-|][ \t]*|[ \t]+)(?:"|'|\x60|\*\*)?` +
				`(?P<secret>[A-Za-z0-9!#$%&+\-./=?@^_~]{7,63}[A-Za-z0-9!#$%&+\-/=?@^_~])`),
			MinLen:   8,
			Keywords: []string{"パスワード", "暗証番号", "パスフレーズ", "トークン", "apiキー", "密码", "口令", "密碼", "令牌", "비밀번호", "비번", "패스워드", "암호", "토큰", "รหัสผ่าน"},
			Validate: validProseSecretCJK,
			Path:     proseFiles,
		},
	}
})

// validProsePasswordPlain: what a person chose or a generator made: upper
// and lower case and digits, random enough; not words run together
// ("PasswordResetFlow2"), a reference or a fixture.
func validProsePasswordPlain(c Candidate) bool {
	v := c.Secret
	if !mixedClasses(v) || c.secretEntropy() < 3.5 || !validPlainPassword(c) {
		return false
	}
	if bytes.Contains(v, []byte("://")) || looksLikePath(v) || envNameRE.Match(v) || emailLike(v) || describesEncoding(v) {
		return false
	}
	return !spellsPasswordName(v)
}

// validProseSecretCJK: letters and digits (a word or a number alone is
// a name or an amount), not a placeholder, a reference, a path or words
// and a version ("OAuth2.0", "X-Api-Key-V2").
func validProseSecretCJK(c Candidate) bool {
	v := c.Secret
	if cjkPasswordNoun(string(c.Key)) && chosenShape(v) && !productName(c) {
		// a password, which a person chose: upper and lower case and
		// digits make it one however short its alphabet ("Panda@8888",
		// "Kimchi#2020", "sr9sKydxm" measure under 3.3), as
		// password-pair takes it after "password:"
		return !describesEncoding(v) && !spellsPasswordName(v)
	}
	// 3.3: a format's or a field's name measures up to 3.37 ("JWT-RS256",
	// "access_token_v2"), a chosen password 3.5 and over; productName:
	// "パスワード：Windows10のログオンと同じ"
	if !hasDigit(v) || !(hasUpper(v) || hasLower(v)) || c.secretEntropy() < 3.3 || !validPlainPassword(c) || wordListRE.Match(v) || productName(c) {
		return false
	}
	return !bytes.Contains(v, []byte("://")) && !looksLikePath(v) && !emailLike(v) && !describesEncoding(v)
}

// cjkPasswordNoun: the noun names a password (not a token or a key,
// which are generated).
func cjkPasswordNoun(n string) bool {
	switch n {
	case "パスワード", "パスフレーズ", "密码", "口令", "密碼", "비밀번호", "비번", "패스워드", "암호", "รหัสผ่าน":
		return true
	}
	return false
}
