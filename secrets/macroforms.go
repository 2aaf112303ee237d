package secrets

import "bytes"

// RuleMacroSecret reports a secret given to a macro or a build variable
// whose name is a secret's: C's #define API_TOKEN "…", an RPM spec's
// %define token … or %global api_key …, CMake's set(API_KEY "…"). These
// hold no assignment sign, which the generic rules want, and password-pair
// reads only a password's name there.
const RuleMacroSecret = "macro-defined-secret"

func macroSecretRule() *Rule {
	return &Rule{
		ID:          RuleMacroSecret,
		Description: "secret defined as a macro or a build variable (#define, %define, %global, CMake set()) whose name is a secret's",
		builtinRE: builtinExpr(`(?i)(?:(?:#define|%define|%global)[ \t]+(?P<key>[A-Za-z_][A-Za-z0-9_]{0,63})` +
			// the value on the next line after a backslash
			`(?:[ \t]+|[ \t]*\\\r?\n[ \t]*)` +
			// set(NAME …), set(ENV{NAME} …), the value on the next line
			// or not (CMake's arguments are blank-separated)
			`|\bset\([ \t]*(?:ENV\{(?P<key>[A-Za-z_][A-Za-z0-9_]{0,63})\}|(?P<key>[A-Za-z_][A-Za-z0-9_]{0,63}))(?:[ \t]+|[ \t]*\r?\n[ \t]*))` +
			// a string (C's L"…", u8"…", in parentheses or not), or a bare value
			`(?:\(?(?:L|u8|u|U)?"(?P<secret>[^"\s\\]{8,200})"\)?|'(?P<secret>[^'\s\\]{8,200})'|(?P<secret>[^\s"'\x60\\(){}\[\],;]{8,200}))` +
			// the definition ends there: at the line's end, a comment,
			// CMake's closing parenthesis or its options, or the brace
			// of a spec's conditional (%{!?token: %global token …})
			`(?:[ \t]*(?:$|\r?\n|//|/\*|#)|[ \t]*[)}]|[ \t]+(?:CACHE|PARENT_SCOPE)\b)`),
		Keywords: []string{"#define", "%define", "%global", "set("},
		Gate:     macroGate,
		Validate: validMacroSecret,
		// every match starts at its keyword
		startsAtKeyword: true,
	}
}

// macroGate holds at a keyword (its last byte at i) that starts a
// directive: #define and %define at a line's start (after blanks, or
// inside a spec's conditional, "%{!?token: %global token …}"), set(
// after no letter, digit or "_" (not reset( nor my_set().
func macroGate(data []byte, i int) bool {
	if data[i] == '(' {
		st := i - len("set(") + 1
		return st == 0 || !isAlnumByte(data[st-1]) && data[st-1] != '_' && data[st-1] != '.'
	}
	st := i - len("#define") + 1
	if i+1 >= len(data) || data[i+1] != ' ' && data[i+1] != '\t' {
		return false
	}
	k := st - 1
	for k >= 0 && (data[k] == ' ' || data[k] == '\t') {
		k--
	}
	if k < 0 || data[k] == '\n' {
		return true
	}
	return data[st] == '%' && data[k] == ':' && specConditional.Match(lineBefore(data, k+1))
}

// specConditional matches a line up to an RPM conditional's colon:
// "%{!?token:", "%{?with_x:".
var specConditional = lazyRE.New(`%\{!?\?[A-Za-z_][A-Za-z0-9_]*:$`)

// lastWordsNameSecret reports whether a name's words (keyWords) name a
// secret in the last one (UPLOAD_TOKEN, token, registry_password,
// CLIENT_SECRET), or the last two (API_KEY, SIGNING_KEY): a macro's name,
// or an environment variable's whose fallback is given
// (env-default-secret). TOKEN_NAMESPACE_UUID, SECRET_KEY_ATTRIBUTE and
// PASSWORD_HASHER name something else.
func lastWordsNameSecret(words []string) bool {
	n := len(words)
	if n == 0 {
		return false
	}
	last := words[n-1]
	if envSecretWords[last] || last == "credential" || last == "credentials" {
		return true
	}
	if last == "key" && n > 1 {
		switch words[n-2] {
		case "api", "secret", "private", "access", "signing", "auth", "master", "encryption", "license":
			return true
		}
	}
	return false
}

// validMacroSecret judges the name and the value as the generic rule
// judges an assignment's: a secret's name (API_TOKEN, token, SECRET_KEY;
// not TOKEN_URL or KEY_LENGTH) and a drawn value, not another macro's
// name, a path or a stand-in.
func validMacroSecret(c Candidate) bool {
	v := c.Secret
	if !lastWordsNameSecret(keyWords(string(c.Key))) {
		return false
	}
	if words, nums, ok := valueWords(v); ok && words >= 1 && nums <= 1 {
		// words: another macro's name (#define API_TOKEN DEFAULT_TOKEN),
		// a name's string (#define SN_setct_PANToken "setct-PANToken",
		// OpenSSL's object names)
		return false
	}
	if !hasDigit(v) && !drawnLetters(v) || spellsName(v, c.Key) {
		// letters that read as words, or the macro's name again
		// (#define SN_setct_CapTokenTBS "setct-CapTokenTBS")
		return false
	}
	return validGeneric(c) || namesPasswordKey(c.Key) && notesPasswordValue(c)
}

// RuleNetUserPassword reports the password Windows' net user command
// sets for an account ("net user svc_backup … /add"), and the one net
// use connects a share with ("net use \\host\share … /user:name"): a
// script or a runbook holds it unquoted after the account or the share,
// with no name or sign before it.
const RuleNetUserPassword = "net-user-password"

func netUserPasswordRule() *Rule {
	return &Rule{
		ID:          RuleNetUserPassword,
		Description: "password given to Windows' net user or net use command",
		builtinRE: builtinExpr(`(?i)\bnet(?:\.exe)?[ \t]+(?:user[ \t]+(?:/add[ \t]+)?(?P<key>"[^"\n]{1,64}"|[^\s"/*]{1,64})` +
			// net use [Z:] \\host\share [/user:name] …, the path quoted or
			// not, the device a letter, "*" (the next one free) or a
			// PowerShell variable
			`|use[ \t]+(?:(?:[A-Z]:|\*|\$[A-Z_][A-Z0-9_]*)[ \t]+)?(?:"\\\\[^"\n]{1,200}"|\\\\[^\s"]{1,200})(?:[ \t]+/user:(?:"[^"\n]{1,64}"|[^\s"]{1,64}))?)[ \t]+` +
			`(?:"(?P<secret>[^"\s]{4,127})"|(?P<secret>[^\s"/*][^\s"]{3,126}))(?:[ \t]+/|[ \t]*(?:$|\r?\n))`),
		Keywords: []string{"net user", "net use", "net.exe user", "net.exe use"},
		Validate: validNetUserPassword,
		// every match starts at its keyword
		startsAtKeyword: true,
	}
}

// validNetUserPassword: a chosen password (not "*", which has net
// prompt for it, nor a variable or a stand-in).
func validNetUserPassword(c Candidate) bool {
	v := c.Secret
	switch v[0] {
	case '%', '$', '<', '{':
		return false // %PASSWORD%, $pw, <password>, {{ password }}
	}
	return passwordShaped(v) && plausiblePassword(v, wholeLiteral(c)) && !IsPlaceholder(v)
}

// spellsName reports whether the letters and digits of v, in lower case,
// are a part of the name's.
func spellsName(v, name []byte) bool {
	squash := func(b []byte) []byte {
		out := make([]byte, 0, len(b))
		for _, c := range b {
			switch {
			case 'A' <= c && c <= 'Z':
				out = append(out, c+'a'-'A')
			case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
				out = append(out, c)
			}
		}
		return out
	}
	sv := squash(v)
	return len(sv) > 0 && bytes.Contains(squash(name), sv)
}
