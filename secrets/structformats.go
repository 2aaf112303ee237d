package secrets

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"strings"
)

// Provider formats found missing on a peer's samples (CredSweeper's) in
// round forty-seven, each told by its shape or its structure and no name
// near it. Ranked after every older rule, so no older finding changes ID.
const (
	// An API key of DeepSeek or Alibaba Cloud Model Studio (DashScope):
	// "sk-" and 32 lower-case hex digits. OpenAI's keys are longer and
	// not hex; no rule took this one without a name before it.
	RuleDeepSeekKey = "deepseek-api-key"
	// An Alibaba Cloud AccessKey secret (30 letters and digits) handed
	// over right after its AccessKey ID (LTAI and 12 or 20): an SDK
	// client's arguments, an env file's next line. gitleaks' and
	// Kingfisher's rules want the word alibaba before the secret.
	RuleAlibabaSecretAfterID = "alibaba-access-key-secret"
	// An NTLM AUTHENTICATE message (type 3) in base64, as an
	// "Authorization: NTLM" header carries it: it holds the user's name
	// and the response to the server's challenge, from which the
	// password's hash is cracked offline.
	RuleNTLMAuthenticate = "ntlm-authenticate-message"
	// A Dropbox long-lived access token with no word dropbox near it:
	// 11 letters and digits, ten A and 43 more.
	RuleDropboxLongLivedBare = "dropbox-long-lived-token-bare"
)

// Formats found missing on the same samples in round forty-nine, ranked
// after those above.
const (
	// Microsoft's common annotated security key: 84 characters, 52
	// drawn, then the signature JQQJ9 and a version (9, D for a derived
	// key, H for a hashed one), then 26 holding the platform's own
	// signature and a checksum; copies often keep two more and "==".
	// Azure DevOps PATs are one platform's (azure-devops-pat); this
	// rule reports the others (Azure AI services, Cosmos DB, …).
	RuleAzureAnnotatedKey = "azure-annotated-security-key"
	// A WunderGraph Cosmo API key: cosmo_ and 32 hex digits. No rule of
	// the three sources knows it.
	RuleWunderGraphCosmoKey = "wundergraph-cosmo-api-key"
)

// structFormatRules returns the rules above, in rank order.
func structFormatRules() []*Rule {
	return []*Rule{
		{
			ID:          RuleDeepSeekKey,
			Description: "DeepSeek or Alibaba Cloud Model Studio (DashScope) API key (sk- and 32 hex digits)",
			builtinRE:   builtinExpr(`(?:^|[^A-Za-z0-9_-])(?P<secret>sk-[0-9a-f]{32})(?:[^A-Za-z0-9_-]|$)`),
			Keywords:    []string{"sk-"},
			Gate:        deepSeekGate,
			Validate:    deepSeekValid,
		},
		{
			ID:          RuleAlibabaSecretAfterID,
			Description: "Alibaba Cloud AccessKey secret right after its AccessKey ID (LTAI…), in a call's arguments or on the next lines",
			// up to 160 bytes and two line breaks after the ID: the
			// arguments of one call, or the next lines of an env file
			builtinRE: builtinExpr(`\bLTAI[A-Za-z0-9]{12,20}\b[^\n]{0,160}?(?:\n[^\n]{0,160}?){0,2}?[^A-Za-z0-9+/=_.-](?P<secret>[A-Za-z0-9]{30})(?:[^A-Za-z0-9+/=_.-]|$)`),
			Keywords:  []string{"ltai"},
			Gate:      alibabaIDGate,
			Validate:  alibabaSecretValid,
			// every match starts at its keyword, the ID
			startsAtKeyword: true,
		},
		{
			ID:          RuleNTLMAuthenticate,
			Description: "NTLM AUTHENTICATE message in base64 (an Authorization: NTLM header's credential: the user and the challenge's response)",
			builtinRE:   builtinExpr(`(?P<secret>TlRMTVNTUAADAAAA[A-Za-z0-9+/]*={0,2})`),
			// the signature NTLMSSP\0 and the type 3, in base64
			Keywords:        []string{"tlrmtvntuaadaaaa"},
			Validate:        ntlmAuthenticateValid,
			startsAtKeyword: true,
		},
		{
			ID:          RuleDropboxLongLivedBare,
			Description: "Dropbox long-lived access token with no name near it (11 letters and digits, ten A, 43 more)",
			builtinRE:   builtinExpr(`(?:^|[^A-Za-z0-9_=-])(?P<secret>[A-Za-z0-9]{11}AAAAAAAAAA[A-Za-z0-9_=-]{43})(?:[^A-Za-z0-9_=-]|$)`),
			Keywords:    []string{"aaaaaaaaaa"},
			Gate:        dropboxLongLivedGate,
			Validate:    dropboxLongLivedValid,
		},
		{
			ID:          RuleAzureAnnotatedKey,
			Description: "Azure key in Microsoft's common annotated format (84 characters, the JQQJ9 signature at 52)",
			builtinRE:   builtinExpr(`\b(?P<secret>[A-Za-z0-9]{52}JQQJ9[9DH][A-Za-z0-9]{26}(?:[A-Za-z0-9]{2}==)?)(?:[^A-Za-z0-9+/=_-]|$)`),
			Keywords:    []string{"jqqj9"},
			Validate:    azureAnnotatedValid,
		},
		{
			ID:          RuleWunderGraphCosmoKey,
			Description: "WunderGraph Cosmo API key (cosmo_ and 32 hex digits)",
			// a key ends where a host name or an identifier would not go on
			builtinRE: builtinExpr(`\b(?P<secret>cosmo_[0-9a-f]{32})(?:$|[^A-Za-z0-9_.-]|\.(?:$|[^A-Za-z0-9]))`),
			Keywords:  []string{"cosmo_"},
			Validate: func(c Candidate) bool {
				hex := c.Secret[len("cosmo_"):]
				// not a CSS class or id (.cosmo_<md5>), nor inside a word
				if i := c.Offset; i > 0 && strings.IndexByte(".#-", c.Context[i-1]) >= 0 {
					return false
				}
				return hasDigit(hex) && bytes.ContainsAny(hex, "abcdef") && Entropy(hex) >= entropyFloor(3.3, hex) && !IsPlaceholder(hex)
			},
			startsAtKeyword: true,
		},
	}
}

// azureAnnotatedValid: the 52 characters before the signature drawn
// (letters of both cases or digits, at 4 bits a byte: a run of one
// letter, "oooo…", is a stand-in), and not an Azure DevOps PAT, which
// azure-devops-pat reports (AZDO at 76).
func azureAnnotatedValid(c Candidate) bool {
	v := c.Secret
	if string(v[76:80]) == "AZDO" {
		return false
	}
	head := v[:52]
	return mixedClasses(head) && Entropy(head) >= 4 && !IsPlaceholder(head)
}

// deepSeekGate holds at "sk-" (its "-" at i) only where a key can stand:
// after no token byte, and 32 lower-case hex digits and no token byte
// after it.
func deepSeekGate(data []byte, i int) bool {
	st := i - 2
	if st > 0 && isTokenByte(data[st-1]) || i+33 > len(data) {
		return false
	}
	return allLowerHex(data[i+1:i+33]) && (i+33 == len(data) || !isTokenByte(data[i+33]))
}

// deepSeekValid: 32 digits that read as drawn (entropyFloor's hex floor),
// digits and letters both.
func deepSeekValid(c Candidate) bool {
	hex := c.Secret[3:]
	return hasDigit(hex) && bytes.ContainsAny(hex, "abcdef") && Entropy(hex) >= entropyFloor(3.5, hex)
}

// alibabaIDGate holds at "LTAI" (its "I" at i) only where an AccessKey ID
// starts: in capitals, after no letter or digit, and 12 to 20 letters and
// digits after it that end there.
func alibabaIDGate(data []byte, i int) bool {
	st := i - 3
	if !bytes.Equal(data[st:i+1], []byte("LTAI")) || st > 0 && isAlnumByte(data[st-1]) {
		return false
	}
	n := 0
	for j := i + 1; j < len(data) && isAlnumByte(data[j]) && n <= 20; j++ {
		n++
	}
	return n >= 12 && n <= 20
}

// alibabaSecretValid: the ID drawn (not LTAIxxxxxxxxxxxxxxxx) and the
// secret drawn: capitals, small letters and digits, at 3.5 bits a byte.
func alibabaSecretValid(c Candidate) bool {
	id := c.Match[4:] // the match starts at the ID
	n := 0
	for n < len(id) && isAlnumByte(id[n]) {
		n++
	}
	id = id[:n]
	return hasDigit(id) && Entropy(id) >= 2.5 && mixedClasses(c.Secret) && Entropy(c.Secret) >= 3.5
}

// ntlmAuthenticateValid decodes the message and holds when it is an
// AUTHENTICATE message whose NT challenge response (24 bytes for NTLMv1,
// more for NTLMv2) lies inside it and is not zeros: an anonymous one
// holds no response, and a negotiate or challenge message no credential.
func ntlmAuthenticateValid(c Candidate) bool {
	msg, err := base64.StdEncoding.DecodeString(string(c.Secret))
	if err != nil {
		msg, err = base64.RawStdEncoding.DecodeString(string(bytes.TrimRight(c.Secret, "=")))
		if err != nil {
			return false
		}
	}
	// signature, type, and the LM, NT, domain, user and workstation
	// fields (length, allocated, offset) up to byte 52
	if len(msg) < 52 || !bytes.Equal(msg[:8], []byte("NTLMSSP\x00")) || binary.LittleEndian.Uint32(msg[8:12]) != 3 {
		return false
	}
	ntLen := int(binary.LittleEndian.Uint16(msg[20:22]))
	ntOff := int(binary.LittleEndian.Uint32(msg[24:28]))
	if ntLen < 24 || ntOff < 52 || ntOff > len(msg) || ntLen > len(msg)-ntOff {
		return false
	}
	return bytes.ContainsFunc(msg[ntOff:ntOff+ntLen], func(r rune) bool { return r != 0 })
}

// dropboxLongLivedGate holds at a run of ten A (its last at i) only where
// a token holds it: 11 letters and digits before it after no token byte,
// and 43 token bytes after it that end there.
func dropboxLongLivedGate(data []byte, i int) bool {
	st := i - 20
	end := st + 64
	if st < 0 || end > len(data) || st > 0 && (isTokenByte(data[st-1]) || data[st-1] == '=') {
		return false
	}
	if end < len(data) && (isTokenByte(data[end]) || data[end] == '=') {
		return false
	}
	for _, c := range data[st : st+11] {
		if !isAlnumByte(c) {
			return false
		}
	}
	if !bytes.Equal(data[st+11:st+21], []byte("AAAAAAAAAA")) {
		return false
	}
	for _, c := range data[st+21 : end] {
		if !isTokenByte(c) && c != '=' {
			return false
		}
	}
	return true
}

// dropboxLongLivedValid: the part after the A drawn (capitals, small
// letters and digits, at 4 bits a byte), and the part before it not a
// run of one letter.
func dropboxLongLivedValid(c Candidate) bool {
	head, tail := c.Secret[:11], c.Secret[21:]
	return Entropy(head) >= 2.5 && mixedClasses(tail) && Entropy(tail) >= 4
}

// Formats found missing in round fifty, on a helper's set and
// CredSweeper's samples: told by their shape and structure alone, with
// no word near them to wake a rule. Ranked after those above.
const (
	// A Mailgun private API key (32, 8 and 8 lower-case hex digits, the
	// form since 2023) with no word mailgun near it, which
	// mailgun-api-key wants. No other service hands out this shape.
	RuleMailgunKeyBare = "mailgun-api-key-bare"
	// A personal access token of Jira, Confluence or Bitbucket Data
	// Center (and Server): the base64 of a decimal ID, a colon and 20
	// drawn bytes, 44 characters. Nothing in the text names it: its
	// structure does. (Bitbucket's HTTP access tokens, the same after
	// "BBDC-", are bitbucket-http-access-token's.)
	RuleAtlassianDCToken = "atlassian-data-center-pat"
)

// roundFiftyRules returns the rules above, in rank order.
func roundFiftyRules() []*Rule {
	return []*Rule{
		{
			ID:          RuleMailgunKeyBare,
			Description: "Mailgun private API key with no name near it (32, 8 and 8 hex digits)",
			builtinRE:   builtinExpr(`(?:^|[^A-Za-z0-9_.-])(?P<secret>[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8})(?:[^A-Za-z0-9_-]|$)`),
			// Each dash wakes it; mailgunGate holds at the first dash of
			// the shape only, reading ten bytes after it.
			Keywords: []string{"-"},
			Gate:     mailgunGate,
			Validate: mailgunBareValid,
			// the line before, for a sentence wrapped onto the key's line
			Before: 200,
		},
		{
			ID:          RuleAtlassianDCToken,
			Description: "Jira, Confluence or Bitbucket Data Center personal access token (an ID, a colon and 20 drawn bytes, in base64)",
			builtinRE:   builtinExpr(`(?:^|[^A-Za-z0-9+/_=-])(?P<secret>[MNO][A-Za-z0-9+/_-]{43})(?:[^A-Za-z0-9+/_=-]|$)`),
			find:        findAtlassianDCTokens,
		},
	}
}

// mailgunGate holds at a dash (at i) only where a Mailgun key's first
// dash stands: 32 lower-case hex digits before it after no token byte,
// and 8 hex digits, a dash and 8 more after it.
func mailgunGate(data []byte, i int) bool {
	st := i - 32
	if st < 0 || i+18 > len(data) || data[i+9] != '-' {
		return false
	}
	if st > 0 && (isTokenByte(data[st-1]) || data[st-1] == '.') {
		return false
	}
	if i+18 < len(data) && isTokenByte(data[i+18]) {
		return false
	}
	return allLowerHex(data[st:i]) && allLowerHex(data[i+1:i+9]) && allLowerHex(data[i+10:i+18])
}

// mailgunBareValid: with no name to say Mailgun, the line must say it
// is a secret: the key stands alone on it (quoted or listed at most), or
// a word before it on the line, or on the line before when the key
// opens its own, names a secret (wordNamesSecret: "the staging key is
// …"). A build's, a job's or a file's name of this shape says nothing
// of the kind. And the 48 digits must read as drawn (entropyFloor's hex
// floor), with letters and digits, the first 32 no stand-in; each part
// of 8 is too short to judge alone.
func mailgunBareValid(c Candidate) bool {
	v := c.Secret
	digits := make([]byte, 0, 48)
	digits = append(append(append(digits, v[:32]...), v[33:41]...), v[42:50]...)
	if !hasDigit(digits) || !bytes.ContainsAny(digits, "abcdef") || Entropy(digits) < entropyFloor(3.5, digits) || IsPlaceholder(v[:32]) {
		return false
	}
	// The line around the key, read at most mailgunReach bytes either
	// side: a line dense with keys would be read again for each.
	end := c.Offset + len(v)
	ls := lineStartWithin(c.Context, c.Offset, mailgunReach)
	le := lineEndWithin(c.Context, end, mailgunReach)
	const framing = " \t\"'`*>-,;"
	before, after := bytes.Trim(c.Context[ls:c.Offset], framing), bytes.Trim(c.Context[end:le], framing+".")
	if len(before) == 0 && len(after) == 0 || wordNamesSecret(before) {
		return true
	}
	// A key that opens its line may end a sentence wrapped from the
	// line before ("Our production API key is\n`…`").
	if len(before) == 0 && ls > 0 && c.Context[ls-1] == '\n' {
		prev := c.Context[lineStartWithin(c.Context, ls-1, mailgunReach) : ls-1]
		return wordNamesSecret(prev)
	}
	return false
}

// mailgunReach is how far mailgunBareValid reads either side of a key.
const mailgunReach = 100

// wordNamesSecret reports whether a line names a secret by a noun of its
// own ("the staging key is", "token:"), not a noun that a word after it
// says is about something else ("the key id", "token TTL").
func wordNamesSecret(line []byte) bool {
	words := keyWords(string(line))
	for j, w := range words {
		switch w {
		case "key", "apikey", "token", "secret", "password", "passphrase", "credential", "credentials":
			if j+1 == len(words) || !genericMetaWords[words[j+1]] || proseVerbs[words[j+1]] {
				return true
			}
		}
	}
	return false
}

// atlassianTokenLen is the length of a Data Center token: 33 bytes in
// base64.
const atlassianTokenLen = 44

// findAtlassianDCTokens calls emit with the span of each Data Center
// token in data: a run of exactly 44 bytes of base64 (standard or URL
// alphabet, not both), or 44 of the URL alphabet between the slashes or
// pluses of a longer run, that decodes to a token's structure
// (atlassianTokenStruct). A token is no longer than its run, so the
// search looks at one byte in 44 where runs are short (prose, code): a
// byte that is no run byte rules out every run of 44 that would hold it.
func findAtlassianDCTokens(data []byte, taken func(start, end int) bool, emit func(start, end int)) {
	const n = atlassianTokenLen
	i := 0 // the start of a run, or a byte after a non-run byte
	for i+n <= len(data) {
		p := i + n - 1
		if !isB64RunByte(data[p]) {
			i = p + 1
			continue
		}
		j := p
		for j > i && isB64RunByte(data[j-1]) {
			j--
		}
		if j > i {
			i = j // the run from j reaches p: look again from it
			continue
		}
		// A run starts at i (after a non-run byte) and holds n bytes.
		e := p + 1
		for e < len(data) && isB64RunByte(data[e]) {
			e++
		}
		switch {
		case e-i == n:
			if (e == len(data) || data[e] != '=') && atlassianTokenStruct(data[i:e]) && !taken(i, e) {
				emit(i, e)
			}
		case bytes.IndexAny(data[i:e], "+/") >= 0:
			// A longer run: a token in the URL alphabet may stand between
			// its slashes (a URL's path, ".../token/<token>") or pluses.
			for st := i; st < e; {
				end := st
				for end < e && data[end] != '/' && data[end] != '+' {
					end++
				}
				if end-st == n && atlassianTokenStruct(data[st:end]) && !taken(st, end) {
					emit(st, end)
				}
				st = end + 1
			}
		}
		i = e + 1
	}
}

// isB64RunByte: a byte of base64, of either alphabet. A table: the
// search asks it of every file's bytes.
func isB64RunByte(c byte) bool { return b64RunBytes[c] }

var b64RunBytes = func() (t [256]bool) {
	for c := range 256 {
		t[c] = isTokenByte(byte(c)) || c == '+' || c == '/'
	}
	return t
}()

// atlassianTokenStruct reports whether tok (44 bytes) decodes to a
// Data Center token: a decimal ID of 4 to 20 digits, a colon, and bytes
// drawn at random (not text: a byte outside printable ASCII, most
// bytes distinct).
func atlassianTokenStruct(tok []byte) bool {
	if tok[0] < 'M' || tok[0] > 'O' {
		return false // the first byte is no digit
	}
	enc := base64.StdEncoding
	if bytes.ContainsAny(tok, "-_") {
		if bytes.ContainsAny(tok, "+/") {
			return false
		}
		enc = base64.URLEncoding
	}
	var raw [33]byte
	if n, err := enc.Decode(raw[:], tok); err != nil || n != len(raw) {
		return false
	}
	d := 0
	for d < len(raw) && '0' <= raw[d] && raw[d] <= '9' {
		d++
	}
	if d < 4 || d > 20 || raw[d] != ':' || raw[0] == '0' {
		return false
	}
	rest := raw[d+1:]
	var seen [256]bool
	distinct, binary := 0, false
	for _, c := range rest {
		if !seen[c] {
			seen[c] = true
			distinct++
		}
		binary = binary || c < 0x20 || c > 0x7e
	}
	return binary && 4*distinct >= 3*len(rest)
}
