package secrets

import (
	"bytes"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// Translation bundles known by their content (issue 33, round 27's
// labelled set): a file pasted without its path, or kept outside a
// locales/ directory (messages_de.properties next to the code), whose
// keys are message keys and whose values are a language's sentences:
//
//	auth.pass = Kennwort
//	auth.pass.wrong = Das Kennwort stimmt nicht.
//
// Its password key's value is the label of a form field, as in a file a
// translation path names (localePath). An .env file's DB_PASSWORD set to
// Kennwort has no sentences around it and is still reported.

// bundleName matches the names translation bundles are given:
// messages.properties, messages_de.properties, strings_pt-BR.json,
// de.json, fr_FR.yml.
var bundleName = lazyRE.New(`(?i)(?:^|/)(?:(?:messages|strings|labels|translations?|i18n|l10n|locales?)|(?:[a-z]+[_.-])?(?:` + langCodes + `)(?:[_-][a-z]{2}|[_-][a-z]{4})?)\.(?:properties|json|ya?ml|ini|toml|arb)$`)

// langCodes are the ISO 639-1 codes of the languages translation
// bundles are most often written in.
const langCodes = `en|de|fr|es|it|pt|nl|sv|nb|nn|da|fi|pl|cs|sk|sl|hr|sr|bs|hu|ro|bg|ru|uk|be|el|tr|he|ar|fa|hi|bn|ur|th|vi|tl|zh|ja|ko|et|lv|lt|ga|cy|eu|gl|sq|mk|ka|hy|az|kk|uz|sw|af`

// labelInBundle reports whether the candidate's value is a label
// (bundleLabel) in a translation bundle, known by its path (localePath,
// bundleName) or by its content (messageBundle). The path is asked first,
// once a text (bundleAt); then the candidate's message; the content last,
// once a text, and only for a value that reads as a label.
func labelInBundle(c Candidate) bool {
	if c.memo == nil {
		return bundlePath(c.Path) && bundleLabel(c)
	}
	if c.memo.bundleAt(c.Path) {
		return bundleLabel(c)
	}
	return bundleLabel(c) && c.memo.messageBundle()
}

// bundlePath reports whether path names a translation bundle.
func bundlePath(path string) bool {
	return localePath(path) || path != "" && bundleName.MatchString(path)
}

// bundleAt reports whether path, the text's, names a translation bundle:
// asked once a text, not once a candidate (a line of 130,000 labelled
// passwords spent a third of its scan matching bundleName on one path).
func (tm *textMemo) bundleAt(path string) bool {
	if tm.bundlePath == 0 || tm.bundleFor != path {
		tm.bundlePath, tm.bundleFor = 2, path
		if bundlePath(path) {
			tm.bundlePath = 1
		}
	}
	return tm.bundlePath == 1
}

// messageBundle reports whether the memo's text reads as a translation
// bundle: of its first 64 KB's key/value lines (key = value, key: value,
// "key" = "value";), two at least and a third give a sentence of a
// language (two words or more of letters, not a path, a URL or code).
func (tm *textMemo) messageBundle() bool {
	if tm.bundle == 0 {
		tm.bundle = 2
		if bundleText(tm.data) {
			tm.bundle = 1
		}
	}
	return tm.bundle == 1
}

func bundleText(data []byte) bool {
	if len(data) > 64<<10 {
		data = data[:64<<10]
	}
	pairs, sentences := 0, 0
	for len(data) > 0 {
		var l []byte
		if j := bytes.IndexByte(data, '\n'); j >= 0 {
			l, data = data[:j], data[j+1:]
		} else {
			l, data = data, nil
		}
		l = bytes.TrimSpace(l)
		if len(l) == 0 || l[0] == '#' || l[0] == '!' || l[0] == ';' || bytes.HasPrefix(l, []byte("//")) {
			continue
		}
		k := bytes.IndexAny(l, "=:")
		if k <= 0 {
			continue
		}
		key := bytes.Trim(bytes.TrimSpace(l[:k]), "\"'")
		if len(key) == 0 || bytes.ContainsAny(key, " \t") {
			continue
		}
		v := bytes.TrimSpace(l[k+1:])
		v = bytes.TrimRight(v, ",;")
		v = bytes.Trim(bytes.TrimSpace(v), "\"'")
		if len(v) == 0 || v[0] == '{' || v[0] == '[' {
			continue // a nested object's key
		}
		pairs++
		if sentenceValue(unescapeProperties(v)) {
			sentences++
		}
	}
	return sentences >= 2 && 3*sentences >= pairs
}

// sentenceValue: two words or more of two letters or more, most of the
// value letters, no path, URL, reference or assignment.
func sentenceValue(v []byte) bool {
	if bytes.Contains(v, []byte("://")) || bytes.ContainsAny(v, "/\\$=<>") {
		return false
	}
	words, letters, other := 0, 0, 0
	for _, f := range bytes.Fields(v) {
		n := 0
		for _, b := range f {
			if isLetterByte(b) || b >= 0x80 {
				n++
			}
		}
		if n >= 2 {
			words++
		}
		letters += n
		other += len(f) - n
	}
	return words >= 2 && letters >= 2*other
}

// bundleLabel reports whether a password key's value in a translation
// bundle is its label: the word password in a language
// (passwordTranslations), a word of a language (secret.label=Geheimnis,
// a language passwordTranslations does not hold), or the first word of
// a message the line goes on with ("Mot de passe", "Das Kennwort ist
// falsch.").
func bundleLabel(c Candidate) bool {
	v := unescapeProperties(c.Secret)
	if isPasswordTranslation(v) || labelWord(v) {
		return true
	}
	rest := c.Context[c.Offset+len(c.Secret):]
	if j := bytes.IndexByte(rest, '\n'); j >= 0 {
		rest = rest[:j]
	}
	// A message is read no farther than bundleReach: on a line of many
	// candidates each read the rest of its window, 2 KB, copied and
	// lowered (a 4 MB line of password= pairs spent half its time here).
	rest = rest[:min(len(rest), bundleReach)]
	rest = bytes.TrimRight(rest, "\r")
	if len(rest) == 0 || rest[0] != ' ' {
		return false
	}
	whole := append(append([]byte(nil), v...), unescapeProperties(rest)...)
	whole = bytes.TrimRight(bytes.TrimSpace(whole), ",;\"'")
	return isPasswordTranslation(whole) || sentenceValue(whole)
}

// isPasswordTranslation reports whether v, lowered, is one of
// passwordTranslations; a text longer than every one of them (twice, for
// a letter whose lower case is longer in UTF-8) is not lowered.
func isPasswordTranslation(v []byte) bool {
	return len(v) <= 2*longestTranslation() && passwordTranslations[strings.ToLower(string(v))]
}

var longestTranslation = sync.OnceValue(func() int {
	n := 0
	for k := range passwordTranslations {
		n = max(n, len(k))
	}
	return n
})

// bundleReach is how far bundleLabel reads the message a value begins:
// a label's message is a line of a few words.
const bundleReach = 256

// labelWord: a word of letters (any script's), of which the ASCII ones
// after the first are lower case: a language's word, which a label is,
// not a chosen password's mix of cases, digits and symbols.
func labelWord(v []byte) bool {
	if len(v) < 3 || len(v) > 32 {
		return false
	}
	// a compound with an acronym or another word (SMTP-Passwort,
	// API-Schlüssel, WLAN-Kennwort): each part an acronym or a word, one
	// a word
	if parts := bytes.Split(v, []byte("-")); len(parts) > 1 {
		word := false
		for _, p := range parts {
			switch {
			case acronym(p):
			case labelWord(p):
				word = true
			default:
				return false
			}
		}
		return word
	}
	for i, b := range v {
		switch {
		case b >= 0x80, 'a' <= b && b <= 'z':
		case 'A' <= b && b <= 'Z' && i == 0:
		default:
			return false
		}
	}
	return true
}

// acronym: two to six capital letters (API, SMTP, WLAN).
func acronym(p []byte) bool {
	if len(p) < 2 || len(p) > 6 {
		return false
	}
	for _, b := range p {
		if b < 'A' || b > 'Z' {
			return false
		}
	}
	return true
}

// unescapeProperties decodes the \uXXXX escapes a Java .properties file
// writes its non-ASCII letters in (Contrase\u00f1a, as native2ascii and
// Java before 9 wrote bundles); v is returned as is when it holds none.
func unescapeProperties(v []byte) []byte {
	if !bytes.Contains(v, []byte(`\u`)) {
		return v
	}
	out := make([]byte, 0, len(v))
	for i := 0; i < len(v); i++ {
		if v[i] == '\\' && i+6 <= len(v) && v[i+1] == 'u' {
			if r, err := strconv.ParseUint(string(v[i+2:i+6]), 16, 32); err == nil {
				out = utf8.AppendRune(out, rune(r))
				i += 5
				continue
			}
		}
		out = append(out, v[i])
	}
	return out
}
