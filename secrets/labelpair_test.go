package secrets

import "testing"

// TestLoginLabelPair: a user and password after a pair of labels that
// name both, with the separators notes use, and the look-alikes the rule
// leaves alone: a default where the user is the password, a reference, a
// word that ends in a label's letters, instructions.
func TestLoginLabelPair(t *testing.T) {
	g := newFakeGen("login-label-pair")
	pw := func() string {
		for {
			s := g.from(base62+"!#%@*", 12)
			if passwordShaped([]byte(s)) && mixedClasses([]byte(s)) && !IsPlaceholder([]byte(s)) && plausiblePasswordValue([]byte(s)) {
				return s
			}
		}
	}
	cases := []formCase{
		{"notes/db.md", "- prod replica ID/PW -> dbadmin/" + pw() + "\n", RuleLoginLabelPair},
		{"notes/db.md", "ID PW svc_backup " + pw() + "\n", RuleLoginLabelPair},
		{"notes/db.md", "| 10.2.0.7 | id/pass | deploy, " + pw() + " |\n", RuleLoginLabelPair},
		{"notes/db.md", "user / pass : ops // " + pw() + "\n", RuleLoginLabelPair},
		{"notes/db.md", "Login(Password) jenkins(" + pw() + ")\n", RuleLoginLabelPair},
		{"notes/db.md", "아이디/비번 root " + pw() + "\n", RuleLoginLabelPair},
		{"notes/db.md", "ID/PWD-master/" + pw() + "\n", RuleLoginLabelPair},
		{"notes/db.md", "UID/PWD: sa | " + pw() + "\n", RuleLoginLabelPair},
		{"notes/db.md", "- id/pwd: \"svc_api\" / \"" + pw() + "\"\n", RuleLoginLabelPair},
		{"notes/db.md", "UserID/Password=mes_intf;" + pw() + "\n", RuleLoginLabelPair},
		{"notes/db.md", "The ID/PW for the printer panel is printadm / " + pw() + "\n", RuleLoginLabelPair},
		{"notes/db.md", "테스트 서버 아이디/비번은 tester / " + pw() + " 입니다.\n", RuleLoginLabelPair},

		{"notes/db.md", "Default ID/PW are admin/admin.\n", ""},
		{"notes/db.md", "- replica: ID PW: `db-replica-03.internal`, see the runbook\n", ""},
		{"notes/db.md", "ID/PW: admin/${ADMIN_PASSWORD}\n", ""},
		{"notes/db.md", "Enter your ID/PW on the SSO page, then pick Ops.\n", ""},
		{"notes/db.md", "SSID/PW guest Summer2024Wifi\n", ""},
		{"notes/db.md", "ID/PW: see 1Password item ops-db\n", ""},
		{"notes/db.md", "The user pass through the proxy is logged as AUTH-4021.\n", ""},
	}
	checkFormCases(t, cases)
}

// TestKoreanShortPasswordNoun: 비번, the everyday short form of 비밀번호,
// names a password as 비밀번호 does.
func TestKoreanShortPasswordNoun(t *testing.T) {
	g := newFakeGen("korean-short-password")
	v := g.from(alphaLower, 4) + g.from(alphaUpper, 3) + g.from(alphaDigit, 3) + "#"
	checkFormCases(t, []formCase{
		{"notes/wifi.md", "사무실 와이파이 비번: " + v + "\n", RuleProseSecretCJK},
		{"notes/wifi.md", "서버 비번은 " + v + "입니다\n", RuleProseSecretCJK},
		{"notes/wifi.md", "3층 와이파이 비번 " + v + "\n", RuleProseSecretCJK},
		{"notes/wifi.md", "| 항목 | 값 |\n|---|---|\n| 비번 | " + v + " |\n", RuleProseSecretCJK},
		{"notes/wifi.md", "게스트 와이파이 비번이 " + v + " 로 바뀌었습니다\n", RuleProseSecretCJK},
		{"notes/wifi.md", "비번 변경 주기: 90일\n", ""},
		{"notes/wifi.md", "비번 찾기 화면은 v2.3.1-rc4부터 바뀝니다\n", ""},
		{"notes/wifi.md", "| 항목 | 값 |\n|---|---|\n| 비번 | 관리자에게 문의 |\n", ""},
		{"notes/wifi.md", "비번은 8자 이상으로 정해 주세요\n", ""},
	})
}
