package secrets

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/subtle"
	"crypto/x509/pkix"
	"encoding/asn1"
	"hash"
	"unicode/utf16"
)

// RulePKCS12KnownPassword reports a PKCS #12 key store (a .p12 or .pfx
// file, whatever its name) that holds a private key and whose integrity
// password is one everybody knows: Google's "notasecret" (every legacy
// service-account key), Java's "changeit", the empty password and a few
// more (pkcs12KnownPasswords). Whoever holds the file holds the key.
// A store under any other password is not reported: its key is as safe as
// that password, which is not in the file (gitleaks reports every file
// named .p12 or .pfx; secretlint, as here, those under "notasecret").
const RulePKCS12KnownPassword = "pkcs12-known-password"

// pkcs12KnownPasswords are tried in turn against a store's MAC: each is a
// tool's default or a sample's.
var pkcs12KnownPasswords = []string{"", "notasecret", "changeit", "password", "changeme", "secret"}

// pkcs12MaxIterations bounds the key derivation a store asks for: each
// iteration is a hash, tried for each known password, and a hostile file
// may ask for billions. Tools write 1 (Windows, old OpenSSL) to 10,000
// (Java); past the bound the store is not read.
const pkcs12MaxIterations = 100_000

func pkcs12Rule() *Rule {
	return &Rule{
		ID:          RulePKCS12KnownPassword,
		Description: "PKCS #12 key store (.p12/.pfx) holding a private key under a well-known password (notasecret, changeit, none)",
		// For Expr and the documentation (no literal: the mask shows
		// nothing); findPKCS12 reads the file's structure.
		builtinRE: builtinExpr(`(?s)\A.{64,}`),
		find:      findPKCS12,
	}
}

// findPKCS12 reports data whole when it is a PKCS #12 store that holds a
// private key and whose MAC verifies under a known password.
func findPKCS12(data []byte, taken func(start, end int) bool, emit func(start, end int)) {
	// A SEQUENCE whose length takes 1 to 4 bytes (a store holding a key
	// is longer than 127 bytes): no text starts so.
	if len(data) < 64 || data[0] != 0x30 || data[1] < 0x81 || data[1] > 0x84 || !pkcs12KnownPassword(data) || taken(0, len(data)) {
		return
	}
	emit(0, len(data))
}

type pkcs12PFX struct {
	Version  int
	AuthSafe pkcs12ContentInfo
	MacData  pkcs12MacData `asn1:"optional"`
}

type pkcs12ContentInfo struct {
	ContentType asn1.ObjectIdentifier
	Content     asn1.RawValue `asn1:"tag:0,explicit,optional"`
}

type pkcs12MacData struct {
	Mac struct {
		Algorithm pkix.AlgorithmIdentifier
		Digest    []byte
	}
	MacSalt    []byte
	Iterations int `asn1:"optional,default:1"`
}

type pkcs12SafeBag struct {
	ID    asn1.ObjectIdentifier
	Value asn1.RawValue `asn1:"tag:0,explicit"`
	Attrs asn1.RawValue `asn1:"optional"`
}

var (
	oidPKCS7Data      = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 7, 1}
	oidKeyBag         = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 12, 10, 1, 1}
	oidShroudedKeyBag = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 12, 10, 1, 2}
	oidSHA1           = asn1.ObjectIdentifier{1, 3, 14, 3, 2, 26}
	oidSHA224         = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 4}
	oidSHA256         = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 1}
	oidSHA384         = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 2}
	oidSHA512         = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 3}
	pkcs12HashByOID   = map[string]func() hash.Hash{oidSHA1.String(): sha1.New, oidSHA224.String(): sha256.New224, oidSHA256.String(): sha256.New, oidSHA384.String(): sha512.New384, oidSHA512.String(): sha512.New}
)

// pkcs12KnownPassword reports whether der is a DER-encoded PFX (RFC 7292)
// in password integrity mode, whose unencrypted contents hold a key bag,
// and whose MAC one of pkcs12KnownPasswords verifies. A store whose keys
// are all inside encrypted contents is not read (no tool writes one so by
// default); nor is BER's indefinite length, a public-key integrity store,
// or one asking for more than pkcs12MaxIterations.
func pkcs12KnownPassword(der []byte) bool {
	var pfx pkcs12PFX
	rest, err := asn1.Unmarshal(der, &pfx)
	if err != nil || len(bytes.TrimRight(rest, "\x00")) > 0 || pfx.Version != 3 || !pfx.AuthSafe.ContentType.Equal(oidPKCS7Data) {
		return false
	}
	md := pfx.MacData
	newHash, ok := pkcs12HashByOID[md.Mac.Algorithm.Algorithm.String()]
	if !ok || len(md.Mac.Digest) == 0 || md.Iterations < 1 || md.Iterations > pkcs12MaxIterations || len(md.MacSalt) > 1024 {
		return false
	}
	var authSafe []byte
	if _, err := asn1.Unmarshal(pfx.AuthSafe.Content.Bytes, &authSafe); err != nil {
		return false
	}
	if !pkcs12HoldsKey(authSafe) {
		return false
	}
	for _, pw := range pkcs12KnownPasswords {
		for _, bmp := range pkcs12Passwords(pw) {
			key := pkcs12MACKey(newHash, md.MacSalt, bmp, md.Iterations)
			m := hmac.New(newHash, key)
			m.Write(authSafe)
			if subtle.ConstantTimeCompare(m.Sum(nil), md.Mac.Digest) == 1 {
				return true
			}
		}
	}
	return false
}

// pkcs12HoldsKey reports whether an AuthenticatedSafe holds a key bag in
// one of its unencrypted contents (where OpenSSL, Windows and Java put
// the shrouded key).
func pkcs12HoldsKey(authSafe []byte) bool {
	var infos []pkcs12ContentInfo
	if _, err := asn1.Unmarshal(authSafe, &infos); err != nil {
		return false
	}
	for _, ci := range infos {
		if !ci.ContentType.Equal(oidPKCS7Data) {
			continue // encryptedData: not read
		}
		var safe []byte
		if _, err := asn1.Unmarshal(ci.Content.Bytes, &safe); err != nil {
			continue
		}
		var bags []pkcs12SafeBag
		if _, err := asn1.Unmarshal(safe, &bags); err != nil {
			continue
		}
		for _, b := range bags {
			if b.ID.Equal(oidKeyBag) || b.ID.Equal(oidShroudedKeyBag) {
				return true
			}
		}
	}
	return false
}

// pkcs12Passwords are the encodings of a password the MAC may have been
// made with: a BMPString with its two-byte terminator (RFC 7292 B.1),
// and, for the empty password, no bytes at all (which some tools use).
func pkcs12Passwords(pw string) [][]byte {
	b := make([]byte, 0, 2*len(pw)+2)
	for _, r := range utf16.Encode([]rune(pw)) {
		b = append(b, byte(r>>8), byte(r))
	}
	b = append(b, 0, 0)
	if pw == "" {
		return [][]byte{b, nil}
	}
	return [][]byte{b}
}

// pkcs12MACKey derives the key of a store's MAC (RFC 7292 appendix B.2,
// purpose 3) from a BMPString password and a salt, iterating the hash r
// times. A MAC key is as long as one hash output, so the derivation's
// first block is the key: the step to the next block is never taken.
func pkcs12MACKey(newHash func() hash.Hash, salt, password []byte, r int) []byte {
	h := newHash()
	v := h.BlockSize()
	// fill repeats b to a whole number of blocks.
	fill := func(b []byte) []byte {
		if len(b) == 0 {
			return nil
		}
		out := make([]byte, v*((len(b)+v-1)/v))
		for i := range out {
			out[i] = b[i%len(b)]
		}
		return out
	}
	h.Write(bytes.Repeat([]byte{3}, v))
	h.Write(fill(salt))
	h.Write(fill(password))
	a := h.Sum(nil)
	for j := 1; j < r; j++ {
		h.Reset()
		h.Write(a)
		a = h.Sum(a[:0])
	}
	return a
}
