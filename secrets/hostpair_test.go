package secrets

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// TestHostLoginPairForms: a user/password pair after a host's address in
// the shapes operations notes write (a bullet, a table's cells, an ssh
// line, a German sentence, several pairs on a line), with the near
// misses that look the same: routes, ports, paths, versions, dates,
// placeholders and default logins. The shapes are a helper's, who had
// not read the rule; the values are drawn.
func TestHostLoginPairForms(t *testing.T) {
	g := newFakeGen("host-login-pair")
	pw := func() string {
		for {
			s := g.mixed(base62, 8) + g.from("#%&@!~*", 1) + g.from("0123456789", 2)
			if !IsPlaceholder([]byte(s)) {
				return s
			}
		}
	}
	cases := []formCase{
		{"notes/servers.md", "192.168.0.1 master/" + pw() + "\n", RuleHostLoginPair},
		{"notes/servers.md", "- db01 (10.0.4.12): admin/" + pw() + "\n", RuleHostLoginPair},
		{"notes/servers.md", "98.76.54.32(master/" + pw() + ",backup/" + pw() + ")\n", RuleHostLoginPair},
		{"notes/servers.md", "ssh ops@10.0.0.5 (ops/" + pw() + ")\n", RuleHostLoginPair},
		{"notes/inventory.md", "| web-02 | 172.16.5.14 | deploy/" + pw() + " | 운영 서버 |\n", RuleHostLoginPair},
		{"notes/inventory.md", "| redis | 10.3.3.3:6379 | default/" + pw() + " |\n", RuleHostLoginPair},
		{"notes/zugang.md", "Zugang DB-Server 10.11.12.13 als postgres/" + pw() + " (nur intern)\n", RuleHostLoginPair},
		{"notes/staging.md", "Staging box 10.1.2.3 login root/" + pw() + "\n", RuleHostLoginPair},
		{"notes/relay.md", "10.0.9.9:2222 -> svc_relay/" + pw() + "\n", RuleHostLoginPair},
		// near misses
		{"notes/net.md", "- route 10.0.0.0/8 via 10.0.0.1; 10.0.0.2 tcp/443 and udp/53\n", ""},
		{"notes/net.md", "- 10.0.0.1 /api/v2 and 10.0.0.3 GET/Index2.html; 172.16.0.9 eth0/1\n", ""},
		{"notes/release.md", "- release 1.4.0.2 docs/Setup3.md; see 1.2.3.4.5 admin/" + pw() + "\n", ""},
		{"notes/net.md", "- 10.0.0.1 12/05/2024 and 10.0.0.4 100Mb/s; 10.0.0.5:5000/team/app:v2\n", ""},
		{"notes/servers.md", "- 10.0.0.1 admin/${DB_PASSWORD} and 10.0.0.2 (root/<password>) and 10.0.0.3 ops/**********\n", ""},
		{"notes/servers.md", "- factory logins: 192.168.1.1 admin/admin, 192.168.1.20 ubnt/ubnt, 10.0.0.8 pi/raspberry\n", ""},
		{"notes/servers.md", "- 10.0.0.6 user/changeme and 10.0.0.7 root/your-password and 10.0.0.9 n/a\n", ""},
		// a directory's entry after an address: a namespace's deployment,
		// a team's service, an image, a chart
		{"notes/cluster.md", "- Service at 10.0.0.5 (prod/Web-API2); 10.0.0.1 k8s/Deploy-v2; 10.0.0.7 team/Backend-Service3\n", ""},
		{"notes/cluster.md", "- 10.0.0.8 charts/My-Chart_1; 10.0.0.9 images/Logo-Dark2; 10.0.0.4 apps/HelloWorld2; 10.0.0.3 nginx/1.25.3\n", ""},
		{"notes/cluster.md", "Pull from 172.16.8.5:5000 library/Redis7; upstream 10.8.4.60:8443 svc/OrderSvc-v3 returns 503\n", ""},
		{"notes/cluster.md", "| 10.60.0.12 | us-east-2/Zone-A1 |\nNode 10.2.1.34:10250 kube-system/CoreDNS-7f9 restarted; gateway 10.10.0.1, vlan/Mgmt-10\n", ""},
		// a word and a number is a name there; with a symbol, a password
		{"notes/servers.md", "- 10.0.0.12 root/Summer" + g.from("0123456789", 4) + "\n", ""},
		{"notes/servers.md", "- 10.0.0.12 root/Summer" + g.from("0123456789", 4) + g.from("!#%", 1) + "\n", RuleHostLoginPair},
	}
	checkFormCases(t, cases)
}

// TestHostLoginGateSound: wherever host-login-pair's expression matches,
// its gate passes the match's "/": lines drawn from the expression's
// parts (addresses with and without ports and ")", every separator, runs
// of blanks, the login words, users of 1 to 32 bytes) and from what
// comes near them (longer dotted numbers, digits, dots and letters
// before the address), so a gate narrower than the expression fails.
func TestHostLoginGateSound(t *testing.T) {
	re := regexp.MustCompile(hostLoginPairRule().builtinRE.src)
	rng := rand.New(rand.NewPCG(7, 11))
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	digits := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteByte(byte('0' + rng.IntN(10)))
		}
		return b.String()
	}
	blanks := func(n int) string { return strings.Repeat(pick(" ", "\t"), n) }
	word := func(n int, first, rest string) string {
		b := []byte{first[rng.IntN(len(first))]}
		for range n - 1 {
			b = append(b, rest[rng.IntN(len(rest))])
		}
		return string(b)
	}
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	matched := 0
	for range 20000 {
		var b strings.Builder
		b.WriteString(pick("", "x", "v", "1.", "9", "ab.", "12.34.", " ", "ip ", "host:"))
		for k := range 4 + rng.IntN(2) {
			if k > 0 {
				b.WriteByte('.')
			}
			b.WriteString(digits(1 + rng.IntN(3)))
		}
		if rng.IntN(3) == 0 {
			b.WriteString(":" + digits(1+rng.IntN(5)))
		}
		if rng.IntN(4) == 0 {
			b.WriteString(")")
		}
		if rng.IntN(2) == 0 {
			b.WriteString(blanks(rng.IntN(34)) + pick(",", ";", "(", ":", "|", "->", "=>") + blanks(rng.IntN(34)))
		} else {
			b.WriteString(blanks(1 + rng.IntN(34)))
		}
		if rng.IntN(3) == 0 {
			b.WriteString(pick("login", "LOGIN", "user", "as", "als") + pick(" ", "\t", ":", ": ", "  ", ":\t \t: :  "))
		}
		b.WriteString(word(1+rng.IntN(32), letters, letters+"0123456789._-"))
		b.WriteString("/" + word(6+rng.IntN(20), letters+"0123456789#%&@!", letters+"0123456789#%&@!~*") + pick("", " ", ")", ";", "\n"))
		line := []byte(b.String())
		for _, m := range re.FindAllSubmatchIndex(line, -1) {
			matched++
			slash := m[2*re.SubexpIndex("secret")] - 1
			if !hostLoginGate(line, slash) {
				t.Fatalf("the expression matches %q, but the gate stops its \"/\" at %d", line[m[0]:m[1]], slash)
			}
		}
	}
	if matched < 4000 {
		t.Fatalf("only %d of the lines matched: the draws miss the expression", matched)
	}
	// And it stops a command's digit, which the digit alone let through,
	// and an address on the line before.
	for _, s := range []string{"- Harness command: `python3 harness/validate_case.py`", "run node18 app/server.js", "see 2026-11-01 runs/abc", "BASE_URL=http://10.40.1.5:8000/v1\n$ python3 tools/x.py", "host 10.0.0.1, see the notes on admin/x"} {
		if i := strings.LastIndexByte(s, '/'); hostLoginGate([]byte(s), i) {
			t.Errorf("the gate passes %q", s)
		}
	}
}
