package secrets

import "testing"

// TestPrintedSecretForms: a secret on the line after a command that
// prints one, under the prompts people paste, a chosen password ending
// in a prompt's character among them; and what is no such output: the
// next prompt, an error, a placeholder, a number, a value sent to a file
// or piped on.
func TestPrintedSecretForms(t *testing.T) {
	g := newFakeGen("printed-secret")
	pw := func(end string) string { return g.mixed(base62, 8) + "-" + g.mixed(base62, 5) + end }
	cases := []formCase{
		{"notes/rotate.md", "$ vault read -field=value kv/ci/token\n" + pw("") + "\n", RulePrintedSecret},
		{"notes/rotate.md", "[ops@bastion ~]$ aws configure get aws_secret_access_key --profile prod\n" + g.mixed(base64std, 40) + "\n", RulePrintedSecret},
		{"notes/rotate.md", "➜  infra git:(main) op read op://Eng/grafana/password\n" + pw("#") + "\n", RulePrintedSecret},
		{"notes/rotate.md", "bash-5.1$ cat /run/secrets/db_password\n" + pw("%") + "\n", RulePrintedSecret},
		{"notes/rotate.md", "PS C:\\> az keyvault secret show --name sql --vault-name kv1 --query value -o tsv\n" + pw("!") + "\n", RulePrintedSecret},
		{"notes/rotate.md", "% security find-generic-password -a ci -s deploy -w\n" + pw("") + "\n", RulePrintedSecret},
		{"notes/rotate.md", "$ echo \"${API_TOKEN}\"\n" + g.mixed(base62, 32) + "\n", RulePrintedSecret},
		// near misses
		{"notes/rotate.md", "ops@bastion:~$ pass show prod/db\nops@bastion:~$ \n", ""},
		{"notes/rotate.md", "$ echo $DB_PASSWORD\nroot@node-3:/#\n", ""},
		{"notes/rotate.md", "$ gcloud secrets versions access latest --secret=db\nERROR: (gcloud.secrets.versions.access) NOT_FOUND\n", ""},
		{"notes/rotate.md", "$ heroku config:get DATABASE_URL > url.txt\n" + pw("") + "\n", ""},
		{"notes/rotate.md", "$ kubectl get secret db -o jsonpath='{.data.password}' | base64 -d | wc -c\n24\n", ""},
		{"notes/rotate.md", "$ doppler secrets get PORT --plain\n8080\n$ terraform output -raw db_password\n<sensitive>\n", ""},
	}
	checkFormCases(t, cases)
}
