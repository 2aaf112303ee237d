package secrets

import (
	"bytes"
	"math"
)

// Values that read as drawn at random, and values that only look so.

// randomRun reports whether the run of letters and digits v reads as
// drawn at random: letters and digits mixed at 3.5 bits a byte that do
// not read as a name in code (identifierValue: "DisableS3ExpressSessionAuth"),
// or letters alone whose case flips as a draw's does (randomLetters).
func randomRun(v []byte) bool {
	if !hasDigit(v) {
		return randomLetters(v)
	}
	return hasLetter(v) && Entropy(v) >= 3.5 && !identifierValue(v)
}

// memberChain reports whether v reads as names joined by dots, a field or
// member reference (cfg.db.password, process.env.X, Schema.Version.V2):
// identifiers joined by dots (identChain), none of which reads as drawn
// at random (randomRun), as a generated password's parts do when it
// holds a dot ("A4lWM.dXdYLsJ5XMJM6ilEr62"). The parts are read apart: a
// name's words end at its dots ("settings.DATABASES.replica2").
func memberChain(v []byte) bool {
	if !identChain(v) {
		return false
	}
	for part := range bytes.SplitSeq(v, []byte(".")) {
		if randomRun(part) {
			return false
		}
	}
	return true
}

// identChain reports whether v is two or more identifiers joined by dots:
// each a letter, "_" or "$", then letters, digits, "_" or "$".
func identChain(v []byte) bool {
	dots, start := 0, true
	for _, b := range v {
		switch {
		case b == '.':
			if start {
				return false // an empty name, or v starts with a dot
			}
			dots++
			start = true
		case 'a' <= b && b <= 'z', 'A' <= b && b <= 'Z', b == '_', b == '$':
			start = false
		case '0' <= b && b <= '9':
			if start {
				return false
			}
		default:
			return false
		}
	}
	return dots > 0 && !start
}

// drawnLetters reports whether v, letters only after a vendor's prefix,
// reads as drawn rather than as a name: both cases, 3.5 bits a byte,
// and not words in camel case (identifierValue). The prefix already
// says it is a token; randomLetters, which asks for more, is for values
// nothing names.
func drawnLetters(v []byte) bool {
	return isLetters(v) && hasUpper(v) && hasLower(v) && Entropy(v) >= 3.5 && !identifierValue(v)
}

// randomLetters reports whether v, letters only, reads as drawn at random
// rather than written: 20 bytes or more of both cases, with the entropy
// of a draw (log2(n) - 0.6 bits a byte, at most 4: about what a draw of
// n from 52 letters has, less two of its deviations), whose case flips
// between neighbours at least three times in ten (a draw flips about
// every other byte), and of whose camel-case words (camelWords) at least
// two, and a quarter, read as no word: "dm", "Jf", "Kfxqw". A name's words
// read as words or acronyms ("NSURLSessionDataTaskDelegate",
// "getUserAccountSettingsHandler"); identifierValue is not asked, as it
// takes a draw's runs of capitals for acronyms.
func randomLetters(v []byte) bool {
	if len(v) < 20 || !isLetters(v) || !hasUpper(v) || !hasLower(v) || Entropy(v) < min(4, math.Log2(float64(len(v)))-0.6) {
		return false
	}
	flips := 0
	for i := 1; i < len(v); i++ {
		if (v[i-1] < 'a') != (v[i] < 'a') {
			flips++
		}
	}
	if flips*10 < 3*(len(v)-1) {
		return false
	}
	words, odd := 0, 0
	camelWords(v, func(w []byte) {
		words++
		if !camelWordReads(w) {
			odd++
		}
	})
	return odd >= 2 && odd*4 >= words
}

// codeAbbreviations are the abbreviations without a vowel that names in
// code are made of: Go's own tree holds "CheckPtrAlignmentNoPtr",
// "vbMsgBoxSetForeground" and "writeDebugRngListsHdr".
var codeAbbreviations = map[string]bool{
	"bg": true, "btn": true, "cb": true, "cfg": true, "cmd": true, "cmp": true, "cnt": true, "cr": true,
	"ctx": true, "db": true, "dst": true, "fg": true, "fmt": true, "fn": true, "fs": true, "hdr": true,
	"js": true, "kv": true, "lcl": true, "lst": true, "mgr": true, "ms": true, "msg": true, "nm": true,
	"ns": true, "pkg": true, "pt": true, "ptr": true, "px": true, "pwd": true, "rng": true, "src": true,
	"srv": true, "str": true, "svc": true, "tmp": true, "ts": true, "txt": true, "ws": true, "xml": true,
}

// camelWords calls f with each word of the letters v as camel case writes
// them: a word starts at a capital after a small letter, and at the last
// capital of a run followed by a small letter ("HTTPSUrl": "HTTPS", "Url").
func camelWords(v []byte, f func([]byte)) {
	start := 0
	for i := 1; i < len(v); i++ {
		up, prevUp := v[i] < 'a', v[i-1] < 'a'
		nextLow := i+1 < len(v) && v[i+1] >= 'a'
		if up && (!prevUp || nextLow) {
			f(v[start:i])
			start = i
		}
	}
	f(v[start:])
}

// camelWordReads reports whether a camel-case word reads as a word: an
// acronym (capitals only, at most five), one of code's abbreviations
// without a vowel (codeAbbreviations: "Ptr", "Src"), or letters holding a
// vowel with no more than four consonants in a row ("Benchmark").
func camelWordReads(w []byte) bool {
	if len(w) <= 5 && !hasLower(w) {
		return true
	}
	if len(w) <= 4 {
		var low [4]byte
		for i, c := range w {
			low[i] = c | 0x20
		}
		if codeAbbreviations[string(low[:len(w)])] {
			return true
		}
	}
	vowel, run := false, 0
	for _, c := range w {
		switch c | 0x20 {
		case 'a', 'e', 'i', 'o', 'u', 'y':
			vowel, run = true, 0
		default:
			if run++; run > 4 {
				return false
			}
		}
	}
	return vowel
}

// commitPin reports whether ctx[ss:se] is a commit pinned after "@", as
// a workflow pins an action (uses: aws-actions/configure-aws-credentials@<sha>)
// and a package manager a git dependency: 40 lower-case hex digits, which
// a rule for a key of 40 base64 characters near "aws" took for one.
func commitPin(ctx []byte, ss, se int) bool {
	return se-ss == 40 && ss > 0 && ctx[ss-1] == '@' && isHexLower(ctx[ss:se])
}

// alternating reports whether at least half the neighbouring bytes of
// v differ in case (two letters) or in kind (a letter and a digit).
func alternating(v []byte) bool {
	changes := 0
	for i := 1; i < len(v); i++ {
		a, b := v[i-1], v[i]
		switch {
		case isLetterByte(a) && isLetterByte(b):
			if isUpper(a) != isUpper(b) {
				changes++
			}
		case isLetterByte(a) && '0' <= b && b <= '9', '0' <= a && a <= '9' && isLetterByte(b):
			changes++
		}
	}
	return 2*changes >= len(v)-1
}
