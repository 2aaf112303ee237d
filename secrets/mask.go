package secrets

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"unicode/utf8"
)

// MaskSuffix ends every redacted value.
const MaskSuffix = "****"

// Mask returns the redacted form of secret: a short prefix followed by
// "****". The prefix is at most 4 characters and never more than a quarter of
// the secret's characters (runes), so a secret of 16 characters or more shows
// 4, one of 12 to 15 shows 3, one of 8 to 11 shows 2, one of 4 to 7 shows 1,
// and a shorter one shows none. Control and space characters end the prefix
// early, so a mask never spans lines.
func Mask(secret string) string {
	n := utf8.RuneCountInString(secret) / 4
	if n > 4 {
		n = 4
	}
	end := 0
	for i := 0; i < n && end < len(secret); i++ {
		r, size := utf8.DecodeRuneInString(secret[end:])
		if r == utf8.RuneError || r <= ' ' || r == 0x7f {
			break
		}
		end += size
	}
	return secret[:end] + MaskSuffix
}

// Fingerprint identifies a finding without storing its secret: the hex
// SHA-256 of ruleID, a NUL byte and the secret. It does not depend on the
// file or the position, so a baseline survives edits that move lines.
func Fingerprint(ruleID, secret string) string {
	h := sha256.New()
	h.Write([]byte(ruleID))
	h.Write([]byte{0})
	h.Write([]byte(secret))
	return hex.EncodeToString(h.Sum(nil))
}

// Entropy is the Shannon entropy of s in bits per byte.
func Entropy(s []byte) float64 {
	if len(s) == 0 {
		return 0
	}
	var counts [256]int
	for _, c := range s {
		counts[c]++
	}
	n := float64(len(s))
	e := 0.0
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			e -= p * math.Log2(p)
		}
	}
	return e
}
