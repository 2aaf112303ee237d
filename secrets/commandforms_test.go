package secrets

import "testing"

// TestCommandPasswordForms: Samba's -U user%password and htpasswd's
// batch mode in the places people write them, and the near misses: a
// flag set that is not batch mode's, the wrong number of arguments
// before the password, a variable, a credentials file, a prompt.
func TestCommandPasswordForms(t *testing.T) {
	g := newFakeGen("command-password")
	pw := func() string { return g.mixed(base62, 10) + g.from("#+!~", 1) + g.mixed(base62, 4) }
	cases := []formCase{
		{"ops/backup.sh", "smbclient //fs01/backup -U 'CORP\\svc%" + pw() + "' -c 'ls'\n", RuleCommandPassword},
		{"ops/backup.sh", "sudo smbclient -L //nas --user=jdoe%" + pw() + "\n", RuleCommandPassword},
		{"ops/backup.sh", "smbcacls \"$SHARE\" 'Reports/2024' --user 'CORP\\fin%" + pw() + "' --get\n", RuleCommandPassword},
		{"ops/backup.sh", "net rpc group addmem \"Helpdesk\" asmith -S dc01 -U administrator%" + pw() + "\n", RuleCommandPassword},
		{"ops/backup.sh", "smbclient //fs01/backup \\\n  -W CORP \\\n  -U svc%" + pw() + " -c ls\n", RuleCommandPassword},
		{"ops/jobs.py", "cmd = ['smbget', '-U', 'svc%" + pw() + "', 'smb://fs01/f']\n", RuleCommandPassword},
		{"ops/jobs.py", "cmd = [\"smbclient\", \"//fs01/x\", \"--user=CORP\\\\svc%" + pw() + "\"]\n", RuleCommandPassword},
		{"deploy/Dockerfile", "RUN htpasswd -b -C 12 -B /etc/nginx/.htpasswd admin " + pw() + "\n", RuleCommandPassword},
		{"deploy/Dockerfile", "RUN htpasswd -cb /etc/nginx/.htpasswd admin '" + pw() + "'\n", RuleCommandPassword},
		{"deploy/mk.sh", "htpasswd -nbB admin \"" + pw() + "\" >> users.htpasswd\n", RuleCommandPassword},
		{"deploy/mk.sh", "htpasswd -nbB admin " + pw() + " 2>/dev/null | tee users\n", RuleCommandPassword},
		{"deploy/mk.sh", "htpasswd -vb users.htpasswd admin " + pw() + "\n", RuleCommandPassword},
		{"deploy/compose.yml", "    entrypoint: [\"htpasswd\", \"-Bbc\", \"/auth/htpasswd\", \"ops\", \"" + pw() + "\"]\n", RuleCommandPassword},
		{"deploy/mk.py", "subprocess.run([\"htpasswd\", \"-bB\", HTPASSWD, \"pusher\", \"" + pw() + "\"], check=True)\n", RuleCommandPassword},
		{"deploy/mk.py", "subprocess.run(['htpasswd', '-nb',\n    'pusher', '" + pw() + "'])\n", RuleCommandPassword},
		// near misses
		{"ops/backup.sh", "smbclient //fs01/backup -U \"svc%$SMB_PASS\" -c ls\n", ""},
		{"ops/backup.sh", "smbclient //fs01/backup -U 'svc%${{ secrets.SMB }}' -c ls\n", ""},
		{"ops/backup.sh", "smbclient //fs01/backup -U svc -A /root/.smbcred\nsmbclient -N -L //fs01\n", ""},
		{"ops/backup.sh", "smbclient //fs01/backup -U 'DOMAIN\\username%PASSWORD'\nrpcclient -U 'user%<password>' dc01\n", ""},
		{"ops/backup.sh", "date +%Y%m%d; smbclient //fs01/backup -U svc -c \"put $(date +%F).tgz\"\n", ""},
		{"deploy/mk.sh", "htpasswd -B /etc/nginx/.htpasswd admin\nhtpasswd -D /etc/nginx/.htpasswd admin\n", ""},
		{"deploy/mk.sh", "htpasswd -bi users admin < pw.txt\n", ""},
		{"deploy/mk.py", "subprocess.run([\"htpasswd\", \"-B\", HTPASSWD, \"pusher\", \"" + pw() + "\"])\n", ""}, // not batch mode
		{"deploy/mk.py", "subprocess.run([\"htpasswd\", \"-nb\", \"pusher\", os.environ[\"PW\"]])\n", ""},
		{"deploy/mk.sh", "htpasswd -b users admin\n", ""},                             // one argument short: no password
		{"deploy/mk.sh", "htpasswd -nb admin \"$ADMIN_PASSWORD\"\n", ""},              // a variable
		{"deploy/mk.sh", "htpasswd -B users admin " + g.mixed(base62, 12) + "\n", ""}, // not batch mode: the third argument is none of htpasswd's
		{"docs/auth.md", "Run htpasswd -b in a Dockerfile, or htpasswd -nb with the user and Password.\n", ""},
	}
	checkFormCases(t, cases)
}
