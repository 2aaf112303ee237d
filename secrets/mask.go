package secrets

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"math/bits"
	"sync"
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
	// The bytes seen are visited in byte order through a bitmap, not by
	// walking all 256 counts: Entropy runs on every candidate, and a
	// line dense with short ones spent more on the walk than on the
	// logarithms. The sum is taken in the same order as before.
	var counts [256]int
	var seen [4]uint64
	for _, c := range s {
		counts[c]++
		seen[c>>6] |= 1 << (c & 63)
	}
	n := float64(len(s))
	e := 0.0
	var terms *[entropyTableMax + 1]float64
	if len(s) <= entropyTableMax {
		terms = &entropyTable()[len(s)]
	}
	for w, bm := range seen {
		for ; bm != 0; bm &= bm - 1 {
			c := counts[w<<6|bits.TrailingZeros64(bm)]
			if terms != nil {
				e -= terms[c]
				continue
			}
			p := float64(c) / n
			e -= float64(p * math.Log2(p)) // rounded as the table's terms
		}
	}
	return e
}

// entropyTableMax is the longest value whose entropy terms are looked up:
// a line dense with short candidates spent a third of their validation on
// the logarithms.
const entropyTableMax = 64

// entropyTable holds, for each length n and count c <= n, the term
// p*log2(p) of p = c/n, computed as Entropy computes it, so that a looked
// up sum is the same float64, bit for bit.
var entropyTable = sync.OnceValue(func() *[entropyTableMax + 1][entropyTableMax + 1]float64 {
	var t [entropyTableMax + 1][entropyTableMax + 1]float64
	for n := 1; n <= entropyTableMax; n++ {
		for c := 1; c <= n; c++ {
			p := float64(c) / float64(n)
			t[n][c] = float64(p * math.Log2(p))
		}
	}
	return &t
})
