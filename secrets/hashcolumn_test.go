package secrets

import "testing"

// TestHashColumn: a crypt(3) hash under a column or a key, named on a
// line above, that names a hash is what an application stores in place
// of the password (an INSERT's column list, a CSV's header, a YAML or
// JSON list's key); under a column that names no hash, past the end of
// the statement that named one, and in /etc/shadow or .htpasswd it is
// still reported.
func TestHashColumn(t *testing.T) {
	s := defaultScanner(t)
	g := newFakeGen("hash-column")
	b1 := "$" + "2b$12$" + g.mixed(base62+"./", 53)
	b2 := "$" + "2a$10$" + g.mixed(base62+"./", 53)
	b3 := "$" + "2y$11$" + g.mixed(base62+"./", 53)
	for _, c := range []struct{ path, text, rule string }{
		// SQL: the column list on the INSERT's line, the rows below
		{"seed.sql", "-- local data\nINSERT INTO accounts (account_id, login, hashed_password, created) VALUES\n  (10, 'ops', '" + b1 + "', now()),\n  (11, 'qa', '" + b2 + "', now());\n", ""},
		{"seed.sql", "insert into members (id, nick, encrypted_password)\nvalues\n  (1, 'x', '" + b3 + "');\n", ""},
		{"fixtures.sql", "INSERT INTO `staff` (`id`, `mail`, `pwd_hash`) VALUES (1, 'a@b.test', '" + b1 + "'),\n(2, 'c@d.test', '" + b2 + "');\n", ""},
		{"seed.sql", "INSERT INTO people (id, lower_mail, password_digest) VALUES\n  (3, lower('A@B.TEST'), '" + b1 + "');\n", ""},
		// pg_dump's COPY and its tab-separated rows
		{"dump.sql", "COPY public.accounts (id, login, password_hash) FROM stdin;\n1\tops\t" + b1 + "\n2\tqa\t" + b2 + "\n\\.\n", ""},
		{"dump.sql", "COPY public.accounts (id, login, note) FROM stdin;\n1\tops\t" + b1 + "\n\\.\n", "np.pwhash.2"},
		{"dump.sql", "COPY public.accounts (id, password_hash) FROM stdin;\n1\tx\n\\.\n\nSELECT 1;\n-- " + b3 + "\n", "np.pwhash.2"},
		// the column names no hash, or the hash is in another column
		{"seed.sql", "INSERT INTO users (id, email, password) VALUES\n  (1, 'a@example.test', '" + b1 + "');\n", "np.pwhash.2"},
		{"seed.sql", "INSERT INTO users (id, note, password_hash) VALUES\n  (1, '" + b2 + "', 'x');\n", "np.pwhash.2"},
		// the statement that named one ended before the row
		{"seed.sql", "INSERT INTO users (id, pw_hash) VALUES (1, 'z');\nINSERT INTO audit (id, note) VALUES\n  (1, '" + b3 + "');\n", "np.pwhash.2"},
		// CSV: the header names the column
		{"users.csv", "id,username,password_digest\n1,alice," + b1 + "\n2,bob,\"" + b2 + "\"\n", ""},
		{"export.tsv", "id\tlogin\tbcrypt_hash\n7\tops\t" + b3 + "\n", ""},
		{"users.csv", "id,username,secret\n1,alice," + b1 + "\n", "np.pwhash.2"},
		// YAML and JSON: the list's key names it
		{"seed.yml", "seed:\n  password_hashes:\n    - \"" + b1 + "\"\n    - '" + b2 + "'\n", ""},
		{"seed.json", "{\n  \"bcryptHashes\": [\n    \"" + b1 + "\",\n    \"" + b3 + "\"\n  ]\n}\n", ""},
		{"seed.yml", "seed:\n  passwords:\n    - \"" + b1 + "\"\n", "np.pwhash.2"},
		{"seed.json", "{\n  \"logins\": [\n    \"" + b2 + "\"\n  ]\n}\n", "np.pwhash.2"},
		// a key on the value's own line: Devise's column
		{"users.yml", "admin:\n  encrypted_password: \"" + b1 + "\"\n", ""},
		// the password stores stay reported
		{"etc/shadow", "root:" + b1 + ":19000:0:99999:7:::\n", "np.pwhash.2"},
		{"deploy/.htpasswd", "admin:" + b2 + "\n", "np.pwhash.2"},
	} {
		wantRules(t, s, c.path, c.text, c.rule)
	}
}

// TestHashColumnLinear: a seed of many rows reads each line a bounded
// number of times (the memo of the statement's header).
func TestHashColumnLinear(t *testing.T) {
	g := newFakeGen("hash-column-linear")
	var b []byte
	b = append(b, "INSERT INTO users (id, password_hash) VALUES\n"...)
	for i := 0; i < 3000; i++ {
		b = append(b, "  (1, '$"+"2b$12$"+g.mixed(base62+"./", 53)+"'),\n"...)
	}
	b = append(b, "  (2, 'x');\n"...)
	if fs := defaultScanner(t).Scan("seed.sql", b); len(fs) != 0 {
		t.Errorf("want no finding, got %d (first %s line %d)", len(fs), fs[0].RuleID, fs[0].Line)
	}
}
