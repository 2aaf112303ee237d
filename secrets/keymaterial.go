package secrets

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"strings"
)

// keyMaterialRule finds private key material outside an armored PEM block,
// as a hostile or careless program prints it: a PEM body without its END
// line, base64 DER of a PKCS#8, PKCS#1, SEC 1 or OpenSSH private key (the
// body of a PEM block, headers or not), a whole PEM file in base64 or hex,
// hex DER of a PKCS#8 key, and a 64- or 128-digit hex key assigned to a
// private, seed or signing name. A bare 64-digit hex string is a SHA-256
// digest, which sotvet's evidence is full of, and is never reported.
func keyMaterialRule() *Rule {
	forms := keyMaterialForms()
	return &Rule{
		ID:          RuleKeyMaterial,
		Description: "private key material (PEM body, base64 or hex DER, hex key with a private-key name)",
		builtinRE:   builtinExpr(strings.Join(forms, "|")),
		MinLen:      40,
		After:       16 << 10, // a PEM body follows its BEGIN line
		Keywords: []string{"private key-----", "mc4caqawbqydk2vw", "agemabmgbyqgsm49", "ibadanbgkqhkig9w0baqefaas",
			"ibaakcaqea", "ibaakcagea", "ibaakcabaq", "mhccaqeei", "migkagebbda", "b3blbnnzac1rzxktdjea", "ls0tls1crudjti",
			"2d2d2d2d2d424547494e20", "302e020100300506032b6570", "300d06092a864886f70d0101010500",
			"private", "priv", "seed", "signing"},
		Gate:     keyMaterialGate,
		Validate: validKeyMaterial,
		mayMatch: keyMaterialMayMatch,
		forms:    forms,
		formsIn:  keyMaterialFormsIn,
	}
}

// The forms of keyMaterialRule, in the order of its alternation (see
// keyMaterialFormsIn).
const (
	kmPEMBody = iota
	kmDER
	kmPEMBase64
	kmPEMHex
	kmDERHex
	kmNamedHex
)

// keyMaterialForms returns the forms keyMaterialRule's expression is the
// alternation of, indexed by the km constants.
func keyMaterialForms() []string {
	b64 := `[A-Za-z0-9+/]{16,}={0,2}(?:\r?\n[ \t]*[A-Za-z0-9+/]{4,}={0,2})*`
	return []string{
		// A PEM body after its BEGIN line, with no END line in sight.
		kmPEMBody: `-----BEGIN[ A-Z0-9]{0,32}PRIVATE KEY-----[ \t]*\r?\n(?:[A-Za-z-]+:[^\n]*\r?\n)*\r?\n?[ \t]*(?P<secret>` + b64 + `)`,
		// Base64 DER of a private key (a PEM body without armor).
		kmDER: `(?P<secret>(?:MC4CAQAwBQYDK2Vw|MIG[HI]AgEAMBMGByqGSM49|MI[A-Za-z0-9+/]{2}[A-Za-z0-9+/]{2}IBADANBgkqhkiG9w0BAQEFAAS|MI[A-Za-z0-9+/]{4}IBAAKC[AQ][QgIQ]EA|MHcCAQEEI|MIGkAgEBBDA|b3BlbnNzaC1rZXktdjEA)` + `[A-Za-z0-9+/]*={0,2}(?:\r?\n[ \t]*[A-Za-z0-9+/]{4,}={0,2})*)`,
		// A PEM file in base64 or in hex.
		kmPEMBase64: `(?P<secret>LS0tLS1CRUdJTi[A-Za-z0-9+/]{20,}={0,2})`,
		kmPEMHex:    `(?P<secret>(?i:2d2d2d2d2d424547494e20)[0-9A-Fa-f]{40,})`,
		// Hex DER of a PKCS#8 Ed25519 or RSA key.
		kmDERHex: `(?P<secret>(?i:302e020100300506032b657004220420)[0-9A-Fa-f]{64}|(?i:3082[0-9a-f]{4}020100300d06092a864886f70d0101010500)[0-9A-Fa-f]{64,})`,
		// A hex key assigned to a private, seed or signing name.
		kmNamedHex: "(?i:(?P<key>[A-Za-z0-9_.-]*(?:private|priv|seed|signing)[A-Za-z0-9_.-]*)[\x60\"']?[ \\t]*(?:=|:=|:|=>)[ \\t]*[\x60\"']?)(?P<secret>[0-9A-Fa-f]{128}|[0-9A-Fa-f]{64})(?:[^0-9A-Za-z]|$)",
	}
}

// keyMaterialLiterals are the strings one of which every match of the
// PEM, base64 DER and base64 PEM forms of keyMaterialRule holds, case
// and all.
var keyMaterialLiterals = [][]byte{
	[]byte("PRIVATE KEY-----"),
	[]byte("MC4CAQAwBQYDK2Vw"), []byte("AgEAMBMGByqGSM49"), []byte("IBADANBgkqhkiG9w0BAQEFAAS"),
	[]byte("IBAAKC"), []byte("MHcCAQEEI"), []byte("MIGkAgEBBDA"), []byte("b3BlbnNzaC1rZXktdjEA"),
	[]byte("LS0tLS1CRUdJTi"),
}

// keyMaterialMinHex is the shortest run of hex digits a match of the hex
// forms holds: 22 of the PEM header and 40 more, or a 64-digit key.
const keyMaterialMinHex = 62

// keyMaterialMayMatch reports whether window may hold a match of
// keyMaterialRule: it holds one of the literals of the PEM and base64
// forms, or a run of keyMaterialMinHex hex digits. The rule searches 16
// KB after each of its keywords, "private" among them, for a PEM body;
// most such windows (prose after "private: true") hold neither, and the
// search, over an expression too large for the backtracker, costs ~0.1
// µs a byte.
func keyMaterialMayMatch(window []byte) bool {
	return keyMaterialFormsIn(window) != 0
}

// keyMaterialFormsIn returns the forms of keyMaterialRule (bit i: form i)
// that may match in window: the PEM body holds "PRIVATE KEY-----", the
// base64 DER one of its prefixes' literals, the base64 PEM its head, and
// the hex forms a run of keyMaterialMinHex hex digits. A PEM file is
// searched for the armored forms only: with the name-and-hex form beside
// them, whose leading name run keeps a thread alive at every letter of a
// base64 body, the search cost twice as much.
func keyMaterialFormsIn(window []byte) uint32 {
	var in uint32
	if bytes.Contains(window, keyMaterialLiterals[0]) {
		in |= 1 << kmPEMBody
	}
	for _, lit := range keyMaterialLiterals[1:8] {
		if bytes.Contains(window, lit) {
			in |= 1 << kmDER
			break
		}
	}
	if bytes.Contains(window, keyMaterialLiterals[8]) {
		in |= 1 << kmPEMBase64
	}
	run := 0
	for _, c := range window {
		if '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' {
			if run++; run >= keyMaterialMinHex {
				return in | 1<<kmPEMHex | 1<<kmDERHex | 1<<kmNamedHex
			}
		} else {
			run = 0
		}
	}
	return in
}

// keyMaterialGate passes the name keywords only when a name is being
// assigned (the hex form); the format prefixes always pass.
func keyMaterialGate(data []byte, i int) bool {
	// Find the keyword that ended at i: the name keywords end in a letter
	// and are followed, in the hex form, by more name characters and "=" or
	// ":"; the prefixes are long and rare, so let them through.
	j := i
	for j >= 0 && j > i-256 && isKeyChar(data[j]) { // no name is longer
		j--
	}
	word := bytes.ToLower(data[j+1 : i+1])
	for _, w := range []string{"private", "priv", "seed", "signing"} {
		if bytes.HasSuffix(word, []byte(w)) {
			return AssignmentGate(data, i)
		}
	}
	return true
}

var pemPrivateRE = lazyRE.New(`-----BEGIN[ A-Z0-9]{0,32}PRIVATE KEY`)

func validKeyMaterial(c Candidate) bool {
	s := c.Secret
	switch {
	case bytes.HasPrefix(s, []byte("LS0tLS1CRUdJTi")):
		dec, err := base64.StdEncoding.DecodeString(string(s[:len(s)/4*4]))
		return err == nil && pemPrivateRE.Match(dec)
	case len(s) >= 22 && bytes.EqualFold(s[:22], []byte("2d2d2d2d2d424547494e20")):
		dec, err := hex.DecodeString(string(s[:len(s)/2*2]))
		return err == nil && pemPrivateRE.Match(dec)
	case len(c.Key) > 0:
		// A hex key under a private-key name: not a digest by name.
		words := keyWords(string(c.Key))
		return len(words) > 0 && !genericMetaWords[words[len(words)-1]] && Entropy(s) > 3
	}
	return true
}
