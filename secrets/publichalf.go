package secrets

import "bytes"

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
//   - a Mapbox public token ("pk.eyJ…"; the secret ones are "sk.").
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
		return true
	}
	return false
}

// keyBefore returns, lower-cased into buf, the up to publicHalfBefore
// bytes before ss, from the start of the line (or of the line before,
// for a plist's <key> on the line above its <string>).
func keyBefore(data []byte, ss int, buf *[publicHalfBefore]byte) []byte {
	lo := max(0, ss-publicHalfBefore)
	out := buf[:0]
	for _, c := range data[lo:ss] {
		out = append(out, lower(c))
	}
	return out
}

// firebaseConfigFields are names only a Firebase app's config holds
// (web, Android, iOS), lower-cased.
var firebaseConfigFields = [][]byte{[]byte("authdomain"), []byte("messagingsenderid"), []byte("firebaseapp.com"),
	[]byte("mobilesdk_app_id"), []byte("google_app_id"), []byte("gcm_sender_id"), []byte("firebase_url")}

func firebaseAPIKey(data []byte, ss, se int) bool {
	var buf [publicHalfBefore]byte
	before := keyBefore(data, ss, &buf)
	if !bytes.Contains(before, []byte("apikey")) && !bytes.Contains(before, []byte("api_key")) && !bytes.Contains(before, []byte("current_key")) {
		return false
	}
	var win [2*firebaseReach + 64]byte
	lo := max(0, ss-firebaseReach)
	hi := min(len(data), se+firebaseReach, lo+len(win))
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

// recaptchaSiteKey: the name before the key says site key (sitekey,
// site_key, site-key, siteKey) or it is api.js's render= parameter, and
// nothing there says secret.
func recaptchaSiteKey(data []byte, ss int) bool {
	var buf [publicHalfBefore]byte
	before := keyBefore(data, ss, &buf)
	if i := bytes.LastIndexByte(before, '\n'); i >= 0 {
		before = before[i+1:] // the site key's name is on its line
	}
	if bytes.Contains(before, []byte("secret")) || bytes.Contains(before, []byte("private")) {
		return false
	}
	for _, n := range []string{"sitekey", "site_key", "site-key", "site key", "render="} {
		if bytes.Contains(before, []byte(n)) {
			return true
		}
	}
	return false
}
