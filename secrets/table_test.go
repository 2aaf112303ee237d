package secrets

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestTableMemo: the memo's answer for a row is the one a fresh walk up
// gives, whether the rows are asked in order or out of it, on texts of
// adjacent tables, stray delimiter rows, pipe lines without a header and
// blank lines.
func TestTableMemo(t *testing.T) {
	lines := []string{
		"| env | secret |", "| Field | Value |", "|---|---|", "| :-- | --: |",
		"| dev | x |", "| Signing key | y |", "|| a ||", "", "text", "  | indented | row |",
	}
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 3000; n++ {
		var b strings.Builder
		for range 1 + r.IntN(30) {
			b.WriteString(lines[r.IntN(len(lines))])
			b.WriteByte('\n')
		}
		data := []byte(b.String())
		var rows []int
		for i := 0; i < len(data); i++ {
			if i == 0 || data[i-1] == '\n' {
				rows = append(rows, i)
			}
		}
		want := map[int]string{}
		for _, row := range rows {
			var fresh tableMemo
			k, in := fresh.at(data, row)
			want[row] = string(k) + "/" + boolString(in)
		}
		for pass := range 2 {
			order := slices.Clone(rows)
			if pass == 1 {
				r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
			}
			var m tableMemo
			for _, row := range order {
				k, in := m.at(data, row)
				if got := string(k) + "/" + boolString(in); got != want[row] {
					t.Fatalf("row at %d of %q (pass %d): memo %q, fresh %q", row, data, pass, got, want[row])
				}
			}
		}
	}
}

func boolString(b bool) string {
	if b {
		return "in"
	}
	return "out"
}

// TestTableReach: a row further below its header than tableReach is not
// read as the table's, whatever the rows before it asked.
func TestTableReach(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("| Field | Value |\n|---|---|\n")
	for b.Len() < tableReach+1024 {
		b.WriteString("| Note | nothing to see here |\n")
	}
	far := b.Len()
	b.WriteString("| Signing key | x |\n")
	data := b.Bytes()
	var m tableMemo
	if _, in := m.at(data, len("| Field | Value |\n|---|---|\n")); !in {
		t.Fatal("the first row is not in the table")
	}
	if _, in := m.at(data, far); in {
		t.Error("memo: a row past tableReach read as the table's")
	}
	var fresh tableMemo
	if _, in := fresh.at(data, far); in {
		t.Error("fresh: a row past tableReach read as the table's")
	}
}

// TestDescribed: descriptions and versions are no secrets; random tokens
// with separators are.
func TestDescribed(t *testing.T) {
	for _, v := range []string{"32-byte-random", "30d-sliding-window", "RS256/JWKS", "128k-context", "AES-256-GCM",
		"kms/alias/prod-2026", "v2.14.3-rc1", "ed25519-2026", "gpt4o-mini-2024", "bert-base-uncased-v2", "X-Api-Key2"} {
		if !described([]byte(v)) {
			t.Errorf("%q: not read as a description", v)
		}
	}
	g := newFakeGen("described")
	for range 2000 {
		for _, v := range []string{g.mixed(base62, 17) + "-" + g.mixed(base62, 14), g.from(hexLower, 8) + "-" + g.from(hexLower, 4) + "-" + g.from(hexLower, 12),
			g.mixed(base64std, 22) + "/" + g.mixed(base64std, 20)} {
			if described([]byte(v)) {
				t.Errorf("random %q read as a description", v)
			}
		}
	}
}

// TestAWSIdentifiersAreNoKeys: IAM's identifiers of users, roles and
// policies are printed everywhere and grant nothing; access keys are
// reported.
func TestAWSIdentifiersAreNoKeys(t *testing.T) {
	s := defaultScanner(t)
	body := "JQABLZS4A3QDU57Q"
	for _, p := range []string{"AIDA", "AROA", "ANPA", "AGPA", "AIPA", "ANVA"} {
		if fs := s.Scan("ids.md", []byte("RoleId: "+p+body+"\n")); len(fs) > 0 {
			t.Errorf("%s identifier reported: %s", p, fs[0].RuleID)
		}
	}
	for _, p := range []string{"AKIA", "ASIA"} {
		if fs := s.Scan("keys.md", []byte("key id: "+p+body+"\n")); len(fs) == 0 {
			t.Errorf("%s access key not reported", p)
		}
	}
}

// TestPublishedExamplesSilent: the values providers publish, in the
// contexts their documentation shows them, are never reported.
func TestPublishedExamplesSilent(t *testing.T) {
	s := defaultScanner(t)
	azurite := "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
	// sotvet:allow-secret -- published examples the test holds silent (the Go quoting makes them other values)
	for _, text := range []string{
		"AZURE_STORAGE_CONNECTION_STRING=DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=" + azurite + ";\n",
		"azure_storage_key: " + azurite + "\n",
		"ACCESS_TOKEN=eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c\n", // sotvet:allow-secret -- a published example
		"STRIPE_SECRET_KEY=sk_test_4eC39HqLyjWDarjtT1zdp7dc\n", // sotvet:allow-secret -- a published example
		"| Password | Strength |\n|---|---|\n| Tr0ub4dor&3 | medium |\n",
		"DATABASE_URL=postgres://user:password@localhost:5432/mydb\n",
	} {
		if fs := s.Scan("sample.md", []byte(text)); len(fs) > 0 {
			t.Errorf("published example reported by %s in %q", fs[0].RuleID, text)
		}
	}
	// A name for a password on a real host is reported.
	if fs := s.Scan("x.env", []byte("DATABASE_URL=postgres://app:s3cretPa55w0rdX@db.internal:5432/app\n")); len(fs) == 0 { // sotvet:allow-secret -- a made-up password the test expects found
		t.Error("a password in a URL on a real host not reported")
	}
}

// TestLongTableRead: a secret in a table's 2,000th row is found; at a
// reach of 16 KB rows past the 550th went unread.
func TestLongTableRead(t *testing.T) {
	var b strings.Builder
	b.WriteString("| env | api token |\n|---|---|\n")
	for range 2000 {
		b.WriteString("| dev | see vault |\n")
	}
	g := newFakeGen("longtable")
	v := g.mixed(base62, 24)
	b.WriteString("| prod | `" + v + "` |\n")
	fs := defaultScanner(t).Scan("runbook.md", []byte(b.String()))
	if len(fs) != 1 || fs[0].RuleID != RuleTableSecret {
		t.Fatalf("findings %v, want one table-secret in the last row", fs)
	}
}

// TestTablePasswordAbbreviations: a column headed by a password's
// abbreviation (PW, PWD, P/W), as an inventory's table writes it, holds
// passwords; a header that only holds the letters (PW ratio, upward), a
// test matrix's Pass column, and a PW column of placeholders, words and
// masks stay silent.
func TestTablePasswordAbbreviations(t *testing.T) {
	s := defaultScanner(t)
	g := newFakeGen("table password abbreviations")
	for _, header := range []string{"| IP | ID | PW |", "| host | user | pwd |", "| Server | Login | P/W |"} {
		pw := g.mixed(base62, 9) + "#" + g.from(alphaDigit, 2)
		text := "## Servers\n\n" + header + "\n|---|---|---|\n| 10.0.4.12 | admin | " + pw + " |\n"
		fs := s.Scan("inventory.md", []byte(text))
		if len(fs) != 1 || text[fs[0].Start:fs[0].End] != pw {
			t.Errorf("%q: want the password reported, got %v", text, fs)
		}
	}
	v := g.mixed(base62, 12)
	for _, text := range []string{
		"| Gauge | PW ratio |\n|---|---|\n| x | " + v + " |\n",
		"| word | upward |\n|---|---|\n| x | " + v + " |\n",
		"| Test | Pass | Fail |\n|---|---|---|\n| parse | 12 of 12 | none |\n",
		"| IP | ID | PW |\n|---|---|---|\n| 10.0.0.1 | admin | see vault |\n| 10.0.0.2 | root | ******** |\n| 10.0.0.3 | ops | <password> |\n",
	} {
		if fs := s.Scan("inventory.md", []byte(text)); len(fs) > 0 {
			t.Errorf("%q: reported (%s)", text, fs[0].RuleID)
		}
	}
}
