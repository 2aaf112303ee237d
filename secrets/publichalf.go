package secrets

import (
	"bytes"
	"encoding/base64"
	"strings"
)

// The public half of a key pair, or a key its vendor publishes by design,
// is no secret when its context says that is what it is (issue 33: a
// Firebase web config, a reCAPTCHA site key, a Mapbox public token were
// reported). Each test reads a bounded window around the value: every
// candidate with the prefix pays at most that.
const (
	// publicHalfBefore: how far before a value its key name is looked for
	// (`data-sitekey="`, `"apiKey": "`, `<key>API_KEY</key>\n<string>`).
	publicHalfBefore = 48
	// firebaseReach: how far around a Firebase apiKey the other fields of
	// its config are looked for (a firebaseConfig object is a few lines).
	firebaseReach = 512
)

// publicHalf reports whether data[ss:se] is a value its vendor documents
// as public, in the context that makes it one:
//
//   - a Google API key ("AIza…") that is the apiKey of a Firebase app's
//     config (firebaseConfig, google-services.json's current_key,
//     GoogleService-Info.plist's API_KEY), beside the fields only such a
//     config has: Firebase documents these keys as identifiers, not
//     secrets. A Google key anywhere else is still reported;
//   - a reCAPTCHA key ("6L…") given as the site key (data-sitekey,
//     siteKey:, render=): the secret key is the other one;
//   - a Mapbox public token ("pk." and a JWT-like body whose header
//     holds Mapbox's "u" field; the secret ones are "sk.").
func publicHalf(data []byte, ss, se int) bool {
	v := data[ss:se]
	switch {
	case len(v) < 6:
		return false
	case v[0] == 'A' && bytes.HasPrefix(v, []byte("AIza")):
		return firebaseAPIKey(data, ss, se)
	case v[0] == '6' && v[1] == 'L':
		return recaptchaSiteKey(data, ss)
	case v[0] == 'p' && bytes.HasPrefix(v, []byte("pk.eyJ")):
		return mapboxPublicToken(v)
	}
	return false
}

// mapboxPublicToken: pk. and a body whose decoded header opens with
// Mapbox's user field ({"u":…); another value that merely starts
// "pk.eyJ" is judged as any other.
func mapboxPublicToken(v []byte) bool {
	// the first 8 characters are the header's first 6 bytes, {"u":"
	body := v[len("pk."):]
	if len(body) < 8 {
		return false
	}
	var buf [6]byte
	n, err := base64.RawURLEncoding.Decode(buf[:], body[:8])
	if err != nil || n != 6 {
		return false
	}
	h := bytes.TrimLeft(buf[1:], " \t\r\n")
	return buf[0] == '{' && bytes.HasPrefix(h, []byte(`"u"`))
}

// keyBefore returns, lower-cased into buf, the up to publicHalfBefore
// bytes before ss on ss's line.
func keyBefore(data []byte, ss int, buf *[publicHalfBefore]byte) []byte {
	lo := max(0, ss-publicHalfBefore)
	if i := bytes.LastIndexByte(data[lo:ss], '\n'); i >= 0 {
		lo += i + 1
	}
	out := buf[:0]
	for _, c := range data[lo:ss] {
		out = append(out, lower(c))
	}
	return out
}

// nameBefore returns the name the value at ss is assigned to, lower-cased
// into buf: the identifier just before it on its line (`apiKey: '`,
// `"current_key": "`, `FIREBASE_API_KEY=`), or for a plist's
// <string> the <key> on the line above.
func nameBefore(data []byte, ss int, buf *[publicHalfBefore]byte) []byte {
	i := ss
	skip := func(set string) {
		for i > 0 && ss-i < publicHalfBefore && strings.IndexByte(set, data[i-1]) >= 0 {
			i--
		}
	}
	skip("\"'` \t")
	if bytes.HasSuffix(data[:i], []byte("<string>")) {
		i -= len("<string>")
		skip(" \t")
		if i > 0 && data[i-1] == '\n' {
			i--
		}
		if i > 0 && data[i-1] == '\r' {
			i--
		}
		skip(" \t")
		if !bytes.HasSuffix(data[:i], []byte("</key>")) {
			return nil
		}
		i -= len("</key>")
	} else {
		skip(" \t=:>")
		skip("\"'` \t")
	}
	end := i
	for i > 0 && end-i < publicHalfBefore && (isAlnumByte(data[i-1]) || data[i-1] == '_' || data[i-1] == '-' || data[i-1] == '.') {
		i--
	}
	out := buf[:0]
	for _, c := range data[i:end] {
		out = append(out, lower(c))
	}
	return out
}

// firebaseConfigFields are names only a Firebase app's config holds
// (web, Android, iOS), lower-cased.
var firebaseConfigFields = [][]byte{[]byte("authdomain"), []byte("messagingsenderid"), []byte("firebaseapp.com"),
	[]byte("mobilesdk_app_id"), []byte("google_app_id"), []byte("gcm_sender_id"), []byte("firebase_url")}

// firebaseAPIKey: the key's own name is a Firebase config's (apiKey,
// api_key, a plist's API_KEY, google-services.json's current_key) and
// the block holding it ({…}, (…), <dict>) has a field only such a config
// has; or its name says firebase and such a field is near. A Google key
// under another name (GEMINI_API_KEY) is reported wherever it stands.
func firebaseAPIKey(data []byte, ss, se int) bool {
	var buf [publicHalfBefore]byte
	name := nameBefore(data, ss, &buf)
	lo, hi := max(0, ss-firebaseReach), min(len(data), se+firebaseReach)
	switch {
	case bytes.Contains(name, []byte("firebase")):
	case string(name) == "apikey" || string(name) == "api_key":
		if lo, hi = enclosingBlock(data, ss, se, lo, hi, 1); lo < 0 {
			return false
		}
	case string(name) == "current_key":
		// client{client_info{…}, api_key:[{current_key}]}: three out
		if lo, hi = enclosingBlock(data, ss, se, lo, hi, 3); lo < 0 {
			return false
		}
	default:
		return false
	}
	var win [2*firebaseReach + 64]byte
	hi = min(hi, lo+len(win))
	w := win[:0]
	for _, c := range data[lo:hi] {
		w = append(w, lower(c))
	}
	for _, f := range firebaseConfigFields {
		if bytes.Contains(w, f) {
			return true
		}
	}
	return false
}

// enclosingBlock returns the bounds, inside [lo, hi), of the block
// levels brackets out from data[ss:se] ({, ( or [, or a plist's <dict>),
// or -1 when no such opener is within lo.
func enclosingBlock(data []byte, ss, se, lo, hi, levels int) (int, int) {
	if d := bytes.LastIndex(data[lo:ss], []byte("<dict>")); d >= 0 {
		if e := bytes.Index(data[se:hi], []byte("</dict>")); e >= 0 {
			return lo + d, se + e
		}
	}
	start, depth, n := -1, 0, levels
	for i := ss - 1; i >= lo; i-- {
		switch data[i] {
		case '}', ')', ']':
			depth++
		case '{', '(', '[':
			if depth > 0 {
				depth--
				continue
			}
			if n--; n == 0 {
				start = i
			}
		}
		if start >= 0 {
			break
		}
	}
	if start < 0 {
		return -1, -1
	}
	depth, n = 0, levels
	for i := se; i < hi; i++ {
		switch data[i] {
		case '{', '(', '[':
			depth++
		case '}', ')', ']':
			if depth > 0 {
				depth--
				continue
			}
			if n--; n == 0 {
				return start, i + 1
			}
		}
	}
	return start, hi
}

// recaptchaSiteKey: the name before the key says site key (sitekey,
// site_key, site-key, siteKey, starting a word: not WEBSITE_KEY) or it is
// api.js's render= parameter, and nothing there says secret.
func recaptchaSiteKey(data []byte, ss int) bool {
	var buf [publicHalfBefore]byte
	before := keyBefore(data, ss, &buf)
	if bytes.Contains(before, []byte("secret")) || bytes.Contains(before, []byte("private")) {
		return false
	}
	for _, n := range []string{"sitekey", "site_key", "site-key", "site key", "render="} {
		for off := 0; ; {
			i := bytes.Index(before[off:], []byte(n))
			if i < 0 {
				break
			}
			if i += off; i == 0 || !isAlnumByte(before[i-1]) {
				return true
			}
			off = i + 1
		}
	}
	return false
}
