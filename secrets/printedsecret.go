package secrets

import (
	"bytes"
	"strings"
)

// A secret a command printed, kept with the command in a terminal
// transcript (script(1), a runbook's or an issue's pasted session): the
// command is one whose output is the secret itself (a secret manager's
// read of one field, a Kubernetes secret decoded, an environment
// variable that names a secret echoed), and its output, the line after
// it, has no name before it. Found missing in round fifty-four on a
// helper's labelled set of logs.
const RulePrintedSecret = "printed-secret"

// printedSecretCommands are the commands, from their name to the end of
// their line, whose output is one secret: no ">" sends it to a file and
// no "|" after it hands it to another command, but kubectl's, whose
// value base64 -d decodes last.
const printedSecretCommands = `(?:` +
	// vault kv get -field=password secret/db, vault read -field=value …
	`vault[ \t]+(?:kv[ \t]+get|read)[ \t][^\n|>]*-field[= ][^\n|>]*` +
	// kubectl get secret db -o jsonpath='{.data.password}' | base64 -d
	`|kubectl[ \t][^\n|>]*\bget[ \t]+secrets?[ \t][^\n|>]*\|[ \t]*base64[ \t]+(?:-d|--decode|-D)[ \t]*(?:;[ \t]*echo[ \t]*)?` +
	`|aws[ \t]+configure[ \t]+get[ \t]+(?:aws_secret_access_key|aws_session_token)[^\n|>]*` +
	`|aws[ \t]+secretsmanager[ \t]+get-secret-value[ \t][^\n|>]*--output[ \t=]+text[^\n|>]*` +
	`|op[ \t]+read[ \t]+["']?op://[^\n|>]*` +
	`|(?:pass|gopass)[ \t]+show[ \t]+[^\n|>]*` +
	`|bw[ \t]+get[ \t]+password[ \t][^\n|>]*` +
	`|security[ \t]+find-(?:generic|internet)-password[ \t][^\n|>]*[ \t]-w\b[^\n|>]*` +
	`|az[ \t]+keyvault[ \t]+secret[ \t]+show[ \t][^\n|>]*--query[ \t=]+["']?value["']?[^\n|>]*` +
	`|gcloud[ \t]+secrets[ \t]+versions[ \t]+access[ \t][^\n|>]*` +
	`|doppler[ \t]+secrets[ \t]+get[ \t][^\n|>]*--plain[^\n|>]*` +
	`|heroku[ \t]+config:get[ \t][^\n|>]*` +
	`|terraform[ \t]+output[ \t]+-raw[ \t][^\n|>]*` +
	`|cat[ \t]+/run/secrets/[^\n|>]*` +
	// echo "$DB_PASSWORD", printenv API_TOKEN: a variable that names a
	// secret
	`|(?:echo[ \t]+["']?\$\{?|printenv[ \t]+)[A-Za-z0-9_]*(?i:pass|pwd|token|secret|_key|apikey)[A-Za-z0-9_]*\}?["']?[ \t]*` +
	`)`

// printedSecretRule reads the line after such a command: one value, no
// blank inside it.
func printedSecretRule() *Rule {
	return &Rule{
		ID:          RulePrintedSecret,
		Description: "secret a command printed in a terminal transcript, on the line after it (vault kv get -field=…, kubectl get secret … | base64 -d, op read, echo $DB_PASSWORD)",
		builtinRE:   builtinExpr(`\b` + printedSecretCommands + `\r?\n[ \t]*(?P<secret>[^\s]{6,256})[ \t]*(?:\r?\n|$)`),
		Keywords: []string{"vault kv", "vault read", "kubectl", "aws configure", "aws secretsmanager", "op read", "pass show", "gopass show",
			"bw get", "security find-", "az keyvault", "gcloud secrets", "doppler secrets", "heroku config:get", "terraform output",
			"cat /run/secrets/", "echo $", "echo \"$", "echo '$", "printenv"},
		// the command's line and the output's
		After:           1024,
		Validate:        validPrintedSecret,
		startsAtKeyword: true,
	}
}

// validPrintedSecret: the output line is a value, not the next prompt
// (user@host:~$, PS C:\>), a path, an error's word, a placeholder or a
// masked value, and reads as a secret: a chosen password's mix of three
// of lower case, upper case, digits and symbols, or a drawn run.
func validPrintedSecret(c Candidate) bool {
	v := c.Secret
	if promptLine(v) || v[len(v)-1] == ':' {
		return false // the next prompt, with no output before it; a label
	}
	if v[0] == '/' || v[0] == '$' || v[0] == '{' || v[0] == '<' || v[0] == '[' || bytes.HasPrefix(v, []byte("~/")) || IsPlaceholder(v) {
		return false
	}
	if passwordNonValues[strings.ToLower(string(v))] {
		return false // null, none, undefined, hidden: what no value prints as
	}
	return passwordShaped(v) && Entropy(v) >= 3 || randomRun(v)
}

// promptLine reports whether v, a line of no blank, is a shell's prompt
// with nothing typed after it: it ends in $, #, > or % after a user and
// a host (jdoe@box:~$, root@node-3:/#) or a shell's name and version
// (bash-5.1$). A chosen password may end in # or % too
// ("Ember-Glacier-64%").
func promptLine(v []byte) bool {
	switch v[len(v)-1] {
	case '$', '#', '>', '%':
	default:
		return false
	}
	head := v[:len(v)-1]
	return bytes.IndexByte(head, '@') >= 0 && bytes.IndexByte(head, ':') >= 0 ||
		bytes.HasPrefix(head, []byte("bash-")) || bytes.HasPrefix(head, []byte("sh-")) || bytes.HasPrefix(head, []byte("zsh-")) ||
		bytes.IndexByte(head, '\\') >= 0 // PS C:\Users\dev>
}
