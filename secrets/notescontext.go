package secrets

import (
	"bytes"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Secrets in notes read by their context (issue 33, round 22): what notes
// written blind still held after the noun rules. A person's own password
// is short and low in entropy (a word and a year, "Lale4488"), which the
// older rules leave to a noun's copula and a mixed value; a door's code is
// digits a word names only by what it opens ("Alarm: 2580#"). Each form
// here asks for the context that makes a value a secret (a noun or a
// question that names one, and a value shaped as a person chooses one)
// and ranks after every older rule, so no finding changes its ID.
const (
	// RuleProseAccessCode reports the code of a door, gate, alarm, safe,
	// locker or intercom that its thing names ("the combination to the
	// filing cabinet lock is …", "Alarm: …#", "код от домофона …").
	RuleProseAccessCode = "prose-access-code"
	// RuleProsePasswordChosen reports a chosen password (a word and
	// digits) after its noun as a label or with a copula, in all-caps
	// labels and Chinese, Japanese, Korean and Thai sentences too, on the
	// line below a sentence naming it, as the answer to a chat question
	// naming it, and a Wi-Fi network's key in a sentence.
	RuleProsePasswordChosen = "prose-password-chosen"
	// RuleProseChatAnswer reports a password or a code a chat asks for
	// and a following message gives alone.
	RuleProseChatAnswer = "prose-chat-answer"
	// RuleProsePassphrasePlain reports a passphrase of four or more
	// words written plainly after its noun ("SSH key passphrase: … … …
	// …").
	RuleProsePassphrasePlain = "prose-passphrase-plain"
)

// notesContextRules returns fresh copies of the rules above.
func notesContextRules() []*Rule {
	rs := notesContextCompiled()
	out := make([]*Rule, len(rs))
	for i, r := range rs {
		c := *r
		out[i] = &c
	}
	return out
}

// accessThings name what a code opens or arms, in several languages; a
// stem is read as the head of a word ("doors", "домофона", "furtki").
var accessThings = []string{
	"door", "doors", "backdoor", "gate", "gates", "alarm", "alarms", "keypad", "safe", "locker", "lockers", "lockbox", "keysafe", "key safe", "key box",
	"padlock", "bike lock", "lock", "garage", "shed", "intercom", "buzzer", "cabinet", "vault", "entrance",
	"tür", "tor", "alarmanlage", "tresor", "spind", "schließfach", "haustür", "hoftor", "garagentor",
	"porte", "portail", "alarme", "coffre", "casier", "cadenas",
	"puerta", "portón", "porton", "alarma", "caja fuerte", "taquilla", "candado", "cerradura",
	"portão", "portao", "porta", "cofre", "cadeado", "cancello", "cassaforte", "armadietto", "allarme", "lucchetto",
	"deur", "poort", "kluis", "kluisje", "hangslot",
	"домофон", "домофона", "сигнализации", "сигнализация", "сейф", "сейфа", "двери", "дверь", "ворот", "калитки", "шкафчика", "шкафчик", "подъезда", "замка",
	"drzwi", "furtki", "furtka", "bramy", "brama", "alarmu", "sejfu", "sejf", "szafki", "kłódki",
	"kapı", "kapının", "kasa", "kasanın", "dolap",
	"citofono", "tastierino", "cortile", "klatki", "klatka", "klatkę", "bramki", "cupboard", "closet", "storeroom", "keybox",
	"sim", "card", "karte", "tarjeta", "carte", "cartão", "carta", "creditcard", "pinpas", "bankkarte", "phone", "handy", "laptop", "voicemail", "mailbox",
	"البوابة", "بوابة", "الباب", "باب", "الخزنة", "خزنة", "الإنذار", "إنذار",
	"portkod", "portkoden", "dörrkod", "dörrkoden", "larmkod", "larmkoden", "portkode", "dørkode", "dørkoden", "alarmkode", "alarmkoden",
	"deurcode", "poortcode", "alarmcode", "kluiscode", "hekcode",
}

// accessCodeWords name the code itself.
var accessCodeWords = []string{
	"code", "codes", "combination", "combo", "pin", "passcode", "kombination", "zahlenkombination", "combinaison", "combinación", "combinacion",
	"combinação", "combinazione", "código", "codigo", "codice", "kod", "kodu", "szyfr", "kombinacja", "код", "шифр", "комбинация", "пароль", "şifre", "şifresi",
	"pincode", "pinkode", "رمز", "الرمز",
	"portkod", "portkoden", "dörrkod", "dörrkoden", "larmkod", "larmkoden", "portkode", "dørkode", "dørkoden", "alarmkode", "alarmkoden",
	"deurcode", "poortcode", "alarmcode", "kluiscode", "hekcode",
}

// accessVerbs give a keypad its digits ("punch in … on the keypad", "the
// garage keypad takes …").
var accessVerbs = []string{"punch", "punched", "key", "type", "enter", "tap", "dial", "takes", "accepts", "opens", "unlocks", "disarm", "disarms",
	"arm", "eingeben", "tippen", "öffnet", "taper", "composer", "marcar", "teclear", "digitar", "digitare", "набрать", "наберите", "вводим", "введите", "wpisz", "wpisać",
	"use", "usa", "usare", "usar", "utilise", "utiliser", "benutze", "benutzen", "abre", "abrir", "apre", "ouvre", "opent", "otwiera", "открывается"}

// accessStopWords between a thing and the digits make them another number:
// a model, a ticket, a time, a flight, an address.
var accessStopWords = map[string]bool{
	"number": true, "no": true, "nr": true, "nummer": true, "numéro": true, "número": true, "numero": true, "номер": true, "numer": true,
	"ticket": true, "model": true, "modell": true, "modèle": true, "modelo": true, "модель": true, "flight": true, "room": true, "floor": true, "firmware": true,
	"version": true, "page": true, "order": true, "invoice": true, "set": true, "mode": true, "closes": true, "at": true, "until": true, "since": true,
	"from": true, "in": true, "by": true, "on": true, "error": true, "zip": true, "postal": true, "area": true, "phone": true, "tel": true, "call": true,
	"extension": true, "ext": true, "id": true, "serial": true, "battery": true, "sensor": true, "zone": true, "channel": true, "company": true,
	"ошибки": true, "ошибка": true, "pocztowy": true, "błędu": true, "fehler": true, "fehlercode": true, "erreur": true, "errore": true, "hata": true,
	"um": true, "seit": true, "bis": true, "ab": true, "depuis": true, "desde": true, "hasta": true, "dal": true, "fino": true, "с": true, "до": true, "в": true,
	"year": true, "since:": true, "cost": true, "costs": true, "price": true, "eur": true, "usd": true, "ticketnummer": true, "issue": true, "case": true,
	"reset": true, "length": true, "digits": true, "policy": true, "service": true, "company's": true, "hotline": true, "support": true, "install": true,
	"installed": true, "built": true, "repair": true, "repaired": true, "replaced": true, "was": false,
}

// chosenStopWords inside a value make it a description, a product or a
// reference rather than a password a person chose.
var chosenStopWords = map[string]bool{
	"min": true, "max": true, "minimum": true, "maximum": true, "length": true, "minlength": true, "maxlength": true, "char": true, "chars": true,
	"characters": true, "digit": true, "digits": true, "policy": true, "version": true, "ticket": true, "inc": true, "build": true, "windows": true,
	"win": true, "ubuntu": true, "debian": true, "office": true, "iphone": true, "android": true, "python": true, "java": true, "node": true,
	"error": true, "port": true, "rfc": true, "iso": true, "utf": true, "sha": true, "md": true, "aes": true, "rsa": true, "wpa": true,
	"http": true, "https": true, "tls": true, "ssl": true, "ipv": true, "page": true, "step": true, "room": true, "floor": true, "order": true,
	"invoice": true, "section": true, "karakter": true, "zeichen": true, "caracteres": true, "caractères": true, "символов": true, "znaków": true,
	"rev": true, "release": true, "jira": true, "pr": true, "issue": true, "sprint": true, "q": true, "v": true, "x": true, "gb": true, "mb": true,
	"kb": true, "ghz": true, "mhz": true, "hz": true, "mm": true, "cm": true, "km": true, "ms": true, "px": true, "dpi": true, "fps": true, "bit": true,
	"bits": true, "bytes": true, "user": true, "admin": true, "test": true, "demo": true, "sample": true, "login": true, "reset": true, "rotation": true,
	"rotate": true, "expires": true, "expiry": true, "days": true, "weeks": true, "months": true, "hours": true, "mins": true, "secs": true,
}

// notesChosenNouns name a password in prose, in any case: English and the
// languages of the older noun rules, which read them with a mixed value.
var notesChosenNouns = []string{
	"password", "passwort", "passwd", "pwd", "pw", "passcode", "passphrase", "kennwort", "contraseña", "contrasena", "mot de passe", "mdp",
	"senha", "palavra-passe", "palavra passe", "wachtwoord", "parola", "parolası", "parolasi", "şifre", "şifresi", "sifre", "sifresi",
	"пароль", "пароля", "паролем", "парола", "hasło", "hasła", "haslo", "heslo", "lozinka", "lösenord", "lösenordet", "passord", "adgangskode",
	"salasana", "jelszó", "parolă", "κωδικός", "mật khẩu", "kata sandi", "wifi-passwort", "wlan-passwort", "wifi-kennwort", "wlan-kennwort",
}

// chosenNouns are notesChosenNouns and the password nouns of the table of
// languages (passwordnouns.go).
var chosenNouns = sync.OnceValue(func() []string {
	ns, _ := passwordNounForms()
	out := append([]string(nil), notesChosenNouns...)
	seen := map[string]bool{}
	for _, n := range out {
		seen[n] = true
	}
	for _, n := range ns {
		if !seen[n] && utf8.RuneCountInString(n) > 2 {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
})

func isChosenNoun(key string) bool {
	key = strings.Join(strings.Fields(strings.ToLower(key)), " ")
	for _, n := range chosenNouns() {
		if key == n {
			return true
		}
	}
	return false
}

// notesWifiKeyNouns name a Wi-Fi network's key where the line names the
// network.
var notesWifiKeyNouns = []string{"key", "wpa key", "wpa2 key", "wpa3 key", "network key", "schlüssel", "netzwerkschlüssel", "clave", "clé", "clé wpa", "chave", "chiave",
	"sleutel", "ключ", "anahtar", "anahtarı", "klucz", "psk"}

// notesCJKNouns name a password in Chinese, Japanese, Korean and Thai.
var notesCJKNouns = []string{"パスワード", "暗証番号", "パスコード", "密码", "密碼", "口令", "비밀번호", "패스워드", "비번", "암호", "รหัสผ่าน", "รหัส"}

// caseForms returns w in lower case, capitalised and in capitals, with
// Turkish capitals too ("ŞİFRE"): the keyword filter folds ASCII only, and
// Go's case folding has no orbit for "İ".
func caseForms(w string) []string {
	out := []string{w}
	add := func(s string) {
		for _, o := range out {
			if o == s {
				return
			}
		}
		out = append(out, s)
	}
	r, size := utf8.DecodeRuneInString(w)
	add(string(unicode.ToUpper(r)) + w[size:])
	add(strings.ToUpper(w))
	add(strings.ToUpperSpecial(unicode.TurkishCase, w))
	tr, tsize := utf8.DecodeRuneInString(w)
	add(string(unicode.TurkishCase.ToUpper(tr)) + w[tsize:])
	return out
}

// nounAlt is the alternation of words for a (?i) expression, longest
// first, a blank matching any run of blanks.
func nounAlt(words []string) string {
	seen := map[string]bool{}
	var all []string
	for _, w := range words {
		// (?i) folds every case but Turkish's dotted capital I, which
		// has no fold orbit in Go: its capitals are spelled out
		forms := []string{strings.ToLower(w)}
		if strings.ContainsRune(w, 'i') {
			forms = append(forms, strings.ToUpperSpecial(unicode.TurkishCase, w))
		}
		for _, f := range forms {
			if !seen[f] {
				seen[f] = true
				all = append(all, f)
			}
		}
	}
	sort.Slice(all, func(i, j int) bool {
		if len(all[i]) != len(all[j]) {
			return len(all[i]) > len(all[j])
		}
		return all[i] < all[j]
	})
	alts := make([]string, len(all))
	for i, n := range all {
		alts[i] = strings.ReplaceAll(regexp.QuoteMeta(n), " ", `[ \t]+`)
	}
	return "(?:" + strings.Join(alts, "|") + ")"
}

// nounKeywords are words' keywords: each first word up to a blank, in its
// case forms whose first byte is not ASCII (the filter folds ASCII).
func nounKeywords(words ...[]string) []string {
	seen := map[string]bool{}
	var out []string
	for _, ws := range words {
		for _, w := range ws {
			head, _, _ := strings.Cut(w, " ")
			head, _, _ = strings.Cut(head, "-")
			for _, f := range caseForms(head) {
				k := strings.ToLower(f)
				if !isASCII(f) {
					k = f
				}
				if !seen[k] {
					seen[k] = true
					out = append(out, k)
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// chat speakers before an answer: a time in brackets, a name and a colon,
// a name and its time, a list's dash; or a bold name on a line of its own
const chatAnswerLead = "(?:[ \\t]*\\n)?(?:[ \\t>]*\\*\\*[^\\n*]{1,40}\\*\\*[^\\n]{0,24}\\n)?[ \\t>*-]*(?:\\[[^\\]\\n]{1,24}\\][ \\t]*)?" +
	"(?:[^\\s:\\[\\]?]{1,24}(?:[ \\t]+\\([^)\\n]{1,20}\\))?[ \\t]*:[ \\t]+)?" +
	"(?:(?:it(?:'|’)s|it[ \\t]+is|es|ist|c(?:'|’)est|это|to)[ \\t]+)?"

// a chosen value: no blank, quote or bracket; its end is judged by the
// validator
const chosenValue = "[\x60'\"“«]?(?P<secret>[^\\s\x60'\"“”«»<>()\\[\\]{},;]*?[0-9][^\\s\x60'\"“”«»<>()\\[\\]{},;]*?)[\x60'\"”»]?"

const chosenEnd = "(?:[.,;:!?)]*(?:[\\s]|$))"

var notesContextCompiled = sync.OnceValue(func() []*Rule {
	nouns := nounAlt(chosenNouns())
	wifi := nounAlt(notesWifiKeyNouns)
	cjk := "(?:" + strings.Join(notesCJKNouns, "|") + ")"
	which := "(?:[ \\t]+[^\\s:：=*\x60\"?]+){0,8}?"
	sep := "(?:[ \\t]*[:：=](?:\\*\\*)?[ \\t]*|[ \\t]+(?:is|was|is[ \\t]+now|ist|lautet|es|est|é|è|je|jest|to|это|—|–|-)[ \\t]+)"
	return []*Rule{
		{
			ID:          RuleProseAccessCode,
			Description: "code of a door, gate, alarm, safe or locker a note names by what it opens (the combination to the cabinet lock is …, Alarm: …#, код от домофона …)",
			// the digits alone: the validator finds the noun before them
			// on their line (an alternation of every noun at the head of
			// the expression made a program too large for Go's
			// backtracker, and its NFA cost a thread per noun and byte)
			builtinRE: builtinExpr("\\b(?P<secret>\\d{4,8}|\\d{1,2}(?:-\\d{1,2}){2,3})(?:\\*\\*|[\x60'\"])?[#*]?(?:[\\s.,;:!?)]|$)"),
			MinLen:    4,
			Keywords:  nounKeywords(accessThings, accessCodeWords),
			Gate:      accessCodeGate,
			Validate:  validAccessCode,
			Path:      proseFiles,
		},
		{
			ID:          RuleProsePasswordChosen,
			Description: "password a person chose (a word and digits) given after its noun, below it, as the answer to a question naming it, or as a Wi-Fi network's key",
			builtinRE: builtinExpr("(?i)(?:" +
				// NOUN [which one] : VALUE, on the line or the line below
				// (a colon or a copula after any few words first, a blank
				// alone last: alternation ranks before a lazy count)
				"(?P<key>" + nouns + ")" +
				"(?:(?P<which>" + which + ")" + sep + chosenValue + chosenEnd +
				"|(?P<which>" + which + ")(?:[ \\t]+(?:is|are|ist|lautet|es|est|é|è))?[ \\t]*(?:below|on[ \\t]+the[ \\t]+next[ \\t]+line|unten)?[ \\t]*[:：][ \\t*_]*\\n(?:[ \\t]*\\n)?[ \\t>]*" + chosenValue + "[ \\t]*(?:\\n|$)" +
				"|[ \\t]+" + chosenValue + chosenEnd + ")" +
				// a Wi-Fi network's key: its line names the network
				"|(?P<key>" + wifi + ")(?P<wifi>(?:[ \\t]+(?:is|ist|es|est|é|è|lautet)[ \\t]+|[ \\t]*[:：=][ \\t]*|[ \\t]+))" + chosenValue + chosenEnd +
				// Chinese, Japanese, Korean, Thai: no blank between words
				"|(?P<key>" + cjk + ")(?:[ \\t]*(?:wifi|wi-fi|WiFi|Wi-Fi|WIFI))?[ \\t]*(?:は|が|：|:|是|为|為|는|은|=|คือ)[ \\t]*(?:「|『|\"|'|\x60|\\*\\*)?" +
				"(?P<secret>[A-Za-z0-9!#$%&+\\-./=?@^_~]{4,40})" +
				")"),
			MinLen:   4,
			Keywords: append(nounKeywords(chosenNouns(), notesWifiKeyNouns), notesCJKNouns...),
			After:    200,
			Gate:     chosenGate,
			Validate: validProsePasswordChosen,
			Path:     proseFiles,
		},
		{
			ID:          RuleProseChatAnswer,
			Description: "password or code asked for in a chat and given alone in a following message (what's the vpn password? … then the value)",
			// keyed at the question's mark: the noun it names is judged
			// by the validator on the question's line (an alternation of
			// every noun before the mark cost a thread per noun and byte)
			builtinRE: builtinExpr("(?i)(?P<key>[?？])[^\\n]{0,48}\\n(?:[^\\n]{0,64}\\n)??" +
				"[ \\t>*-]*(?:[^\\n]{0,32}?(?:[:：]|[0-9][ \\t]*[ap]m|[0-9]{1,2}[:.][0-9]{2}\\]?)[ \\t]+)?" +
				"(?:(?:it(?:'|’)s|it[ \\t]+is|es|ist|c(?:'|’)est|это|to)[ \\t]+)?(?:\\*\\*|[\x60'\"])?" +
				"(?P<secret>[^\\s\x60'\"*]+?)(?:\\*\\*|[\x60'\"])?" +
				"(?P<tail>(?:[ \\t]*(?:then[ \\t]*#|and[ \\t]+#|#|\\*|です|입니다|이에요|예요|!|\\.))?)[ \\t]*(?:\\n|$)"),
			MinLen:   4,
			Keywords: []string{"?", "？"},
			After:    400,
			Gate:     chatQuestionGate,
			Validate: validProseChatAnswer,
			Path:     proseFiles,
		},
		{
			ID:          RuleProsePassphrasePlain,
			Description: "passphrase of four or more words written plainly after its noun (SSH key passphrase: … … … …)",
			builtinRE: builtinExpr("(?i)(?P<key>\\bpass[ \\t-]?phrase|\\bphrase[ \\t]+secr[eè]te|\\bfrase[ \\t]+(?:de[ \\t]+contraseña|secreta)|\\bphrase|\\bmantra|\\bkennsatz|\\bpassphrase)\\b" +
				"(?:(?P<which>(?:[ \\t]+[^\\s:：=*\x60\"?]{1,24}){0,4}?)(?P<sep>[ \\t]*[:：][ \\t]*|[ \\t]+(?:is|was|ist|lautet|es|est|é|è)[ \\t]+)|(?P<sep>[ \\t]+))" +
				"[\x60'\"“]?(?P<secret>[\\p{L}][\\p{L}'’]{0,15}(?:[ \\t]+(?:[\\p{L}][\\p{L}'’]{0,15}|\\d{1,4})){3,9})[\x60'\"”]?[ \\t]*[.!]?[ \\t]*(?:\\n|$)"),
			MinLen:   15,
			Keywords: []string{"phrase", "mantra", "kennsatz", "frase"},
			Validate: validProsePassphrasePlain,
			Path:     proseFiles,
		},
	}
})

// accessCodeGate passes a hit with four digits within reach ahead (a
// combination's are apart: "…-…-…").
func accessCodeGate(data []byte, i int) bool {
	if !kwEndsWord(data, i) {
		return false
	}
	n := 0
	for k := i + 1; k < min(len(data), i+65); k++ {
		if c := data[k]; c >= '0' && c <= '9' {
			if n++; n == 4 {
				return true
			}
		}
	}
	return false
}

// chosenGate passes a hit with a digit within reach ahead (a chosen value
// holds one), or a CJK noun.
func chosenGate(data []byte, i int) bool {
	if !kwEndsWord(data, i) {
		return false
	}
	// "key", "psk": a Wi-Fi network's key only where its line names the
	// network (code is full of api_key, private_key)
	if i >= 2 && (equalFoldASCII(data[i-2:i+1], "key") || equalFoldASCII(data[i-2:i+1], "psk")) && !wifiBefore(data, i-2) &&
		!bytes.Contains(bytes.ToLower(data[max(0, i-64):i]), []byte("ssid")) {
		return false
	}
	for k := i + 1; k < min(len(data), i+200); k++ {
		if c := data[k]; c >= '0' && c <= '9' {
			return true
		}
	}
	return false
}

// group returns the text of the named group of c's match, re-run on the
// match (the candidate holds the key and the secret only).
func wordsOf(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' && r != '’' })
}

func hasAnyWord(s string, set []string) bool {
	m := wordSet(set)
	for _, w := range wordsOf(s) {
		if m[w] {
			return true
		}
		// a stem of four bytes or more heads the word ("домофона", "doors")
		for l := 4; l < len(w); l++ {
			if m[w[:l]] {
				return true
			}
		}
	}
	return false
}

// wordSets caches wordSet's maps, by the address of a list's first word.
var wordSets sync.Map

// wordSet returns the words of set as a map (lists of a few words are
// built each time).
func wordSet(set []string) map[string]bool {
	if len(set) == 0 {
		return nil
	}
	if m, ok := wordSets.Load(&set[0]); ok {
		return m.(map[string]bool)
	}
	m := make(map[string]bool, len(set))
	for _, w := range set {
		m[w] = true
	}
	if len(set) > 12 {
		wordSets.Store(&set[0], m)
	}
	return m
}

// validAccessCode: the thing a code opens is named before the digits,
// with the code's own word, a keypad's verb, or a keypad's mark after a
// label ("Alarm: …#"); no word between makes the digits another number
// (a model, a ticket, a time, an address), and the line is no error's.
func validAccessCode(c Candidate) bool {
	keyAt, keyEnd := accessKeyBefore(c.Context, c.Offset)
	if keyAt < 0 {
		return false
	}
	key := string(c.Context[keyAt:keyEnd])
	between := string(c.Context[keyEnd:c.Offset])
	if len(between) > 56 {
		return false
	}
	span := key + between
	lineStart := bytes.LastIndexByte(c.Context[:keyAt], '\n') + 1
	before := string(c.Context[max(lineStart, keyAt-48):keyAt])
	ws := wordsOf(between)
	for i, w := range ws {
		// "punch in …", "key in …", "type in …": the verb's particle
		if accessStopWords[w] && !(w == "in" && i > 0 && (ws[i-1] == "punch" || ws[i-1] == "key" || ws[i-1] == "type" || ws[i-1] == "tap")) {
			return false
		}
	}
	// the digits' own line and what follows them: not a phone number,
	// a date or a range ("0800 4412 9900", "2024-03-11", "1200-1400")
	end := c.Offset + len(c.Secret)
	rest := c.Context[end:]
	if len(rest) > 1 && (rest[0] == ' ' || rest[0] == '-' || rest[0] == '/' || rest[0] == '.' || rest[0] == ':') && rest[1] >= '0' && rest[1] <= '9' {
		return false
	}
	if c.Offset > 0 {
		if p := c.Context[c.Offset-1]; p == '+' || p == '-' || p == '/' || p == '.' || p == '$' || p == '#' {
			return false
		}
	}
	if codeOfStatus(c.Context, keyAt, end) {
		return false
	}
	// an amount: "4096 ms", "4500 EUR"
	if next := wordsOf(lastWords(string(firstLine(rest)), 99)); len(next) > 0 && len(rest) > 0 && (rest[0] == ' ' || rest[0] == '\t') {
		for _, u := range pinUnitWords {
			if next[0] == u {
				return false
			}
		}
	}
	thing := hasAnyWord(span, accessThings) || hasAnyWord(before, accessThings) || strings.Contains(strings.ToLower(before+span), "key safe") ||
		compoundThing(span) || compoundThing(before)
	if !thing {
		return false
	}
	code := hasAnyWord(span, accessCodeWords) || hasAnyWord(lastWords(before, 1), accessCodeWords)
	if code {
		// "error code", "zip code": the word before the code's word
		all := wordsOf(before + " " + span)
		for i, w := range all {
			if i > 0 && hasAnyWord(w, accessCodeWords) && accessStopWords[all[i-1]] {
				return false
			}
		}
		return true
	}
	if hasAnyWord(span, accessVerbs) {
		return true
	}
	// a label ("Alarm: …#", "Front gate: …*") with the keypad's mark, or a
	// line that says how to arm it
	label := strings.HasSuffix(strings.TrimRight(between, " \t*"), ":") && len(ws) <= 1
	if !label {
		return false
	}
	if len(c.Match) > 0 && (bytes.HasSuffix(bytes.TrimRight(c.Match, " \t\n.,;:!?)"), []byte("#")) || bytes.HasSuffix(bytes.TrimRight(c.Match, " \t\n.,;:!?)"), []byte("*"))) {
		return true
	}
	line := c.Context[end:]
	if nl := bytes.IndexByte(line, '\n'); nl >= 0 {
		line = line[:nl]
	}
	return bytes.IndexByte(line, '#') >= 0 || hasAnyWord(string(line), accessVerbs) || hasAnyWord(string(line), []string{"scharf", "unscharf", "armed", "disarmed", "entsperren"})
}

// lastWords returns the last n words of s.
func lastWords(s string, n int) string {
	ws := strings.Fields(s)
	if len(ws) > n {
		ws = ws[len(ws)-n:]
	}
	return strings.Join(ws, " ")
}

// whichWords may open the words between a noun and its colon: they say
// whose or which password it is ("for the NAS", "от почты", "del wifi").
var whichWords = map[string]bool{
	"for": true, "of": true, "to": true, "on": true, "at": true, "from": true, "für": true, "fuer": true, "von": true, "vom": true, "zum": true, "zur": true,
	"del": true, "de": true, "du": true, "des": true, "da": true, "do": true, "della": true, "di": true, "dello": true, "van": true, "voor": true,
	"от": true, "для": true, "к": true, "od": true, "dla": true, "till": true, "til": true, "für's": true, "pour": true, "para": true, "per": true,
	"wifi": true, "wi-fi": true, "wlan": true, "guest": true, "admin": true, "root": true, "new": true, "neues": true, "neue": true, "nuevo": true,
	"nueva": true, "nouveau": true, "novo": true, "nova": true, "nuovo": true, "nuova": true, "new:": true, "des:": true,
}

// chosenQuestionStops in a question make it one about the password, not
// one asking for it ("where is it stored?", "did you change it?").
var chosenQuestionStops = []string{"where", "wo", "dónde", "donde", "où", "где", "gdzie", "did", "have", "has", "changed", "change", "rotate", "rotated",
	"stored", "store", "policy", "long", "length", "when", "time", "who", "reset", "expire", "expires", "manager", "why", "how", "which", "ticket",
	"wann", "cuándo", "quand", "когда", "wer", "quién", "qui", "кто", "warum", "pourquoi", "почему", "requirements", "rules", "strong", "format"}

// validProsePasswordChosen judges the forms of prose-password-chosen.
func validProsePasswordChosen(c Candidate) bool {
	if c.Key == nil {
		return false
	}
	keyAt := subOffset(c.Context, c.Key)
	if keyAt < 0 {
		return false
	}
	key := string(c.Key)
	lkey := strings.ToLower(key)
	between := string(c.Context[keyAt+len(c.Key) : c.Offset])
	v := c.Secret
	if describesEncoding(v) {
		return false
	}
	cjkKey := false
	for _, n := range notesCJKNouns {
		if key == n {
			cjkKey = true
		}
	}
	if !cjkKey && !keyStartsWord(c.Context, keyAt) {
		return false
	}
	if cjkKey {
		// Chinese, Japanese, Korean: digits alone after a door's noun or
		// the PIN's own ("门禁密码是 …", "暗証番号は …")
		if allDigits(v) {
			if len(v) < 4 || len(v) > 8 {
				return false
			}
			pre := string(c.Context[max(0, keyAt-12):keyAt])
			return key == "暗証番号" || strings.Contains(pre, "门") || strings.Contains(pre, "門") || strings.Contains(pre, "锁") || strings.Contains(pre, "ドア") ||
				strings.Contains(pre, "金庫") || strings.Contains(pre, "도어") || strings.Contains(pre, "현관") || strings.Contains(pre, "금고") || strings.Contains(pre, "保险箱")
		}
		return chosenLowValue(v)
	}
	if !chosenLowValue(v) && !randomShape(v) {
		return false
	}
	lineStart := bytes.LastIndexByte(c.Context[:keyAt], '\n') + 1
	if strings.Contains(between, "?") {
		// a chat question: it asks for the value, and names nothing else
		q, _, _ := strings.Cut(between, "?")
		pre := string(c.Context[lineStart:keyAt])
		if hasAnyWord(q+" "+pre, chosenQuestionStops) {
			return false
		}
		for _, w := range wordsOf(q) {
			if accessStopWords[w] && w != "for" && w != "on" && w != "at" && w != "from" && w != "in" {
				return false
			}
		}
		return true
	}
	isWifiKey := false
	for _, n := range notesWifiKeyNouns {
		if lkey == n || strings.Join(strings.Fields(lkey), " ") == n {
			isWifiKey = true
		}
	}
	if isWifiKey {
		// the line names a network before the key: "network Office-5G,
		// key is …", "SSID HomeLan / WPA2 key: …"
		if !wifiBefore(c.Context, keyAt) && !bytes.Contains(bytes.ToLower(c.Context[lineStart:keyAt]), []byte("ssid")) {
			return false
		}
		return !strings.Contains(between, "\n")
	}
	below := strings.Contains(between, "\n")
	onLine := between
	if below {
		onLine = between[:strings.IndexByte(between, '\n')]
	}
	trimmed := strings.TrimRight(onLine, " \t*_\x60'\"“«")
	ws := strings.Fields(strings.Trim(trimmed, " \t:：=*_"))
	colon := strings.HasSuffix(trimmed, ":") || strings.HasSuffix(trimmed, "：") || strings.HasSuffix(trimmed, "=")
	copula := false
	if len(ws) > 0 && chosenCopulas[strings.ToLower(ws[len(ws)-1])] {
		copula = true
		ws = ws[:len(ws)-1]
	}
	for _, w := range wordsOf(onLine) {
		if chosenStopWords[w] || chosenQuestionStops2[w] || passphraseStopWords[w] && !chosenCopulas[w] && !whichWords[w] {
			return false
		}
	}
	if !below && !valueEndsClause(c.Context[c.Offset+len(v):]) {
		return false
	}
	switch {
	case below:
		// a sentence naming it, its value alone on the line below:
		// any few words ("Wachtwoord hieronder, graag … wijzigen:")
		if len(ws) > 8 || !colon {
			return false
		}
	case !colon && !copula:
		// a blank alone after the noun: a Wi-Fi network's line
		// ("Nama: KANTOR-LT3, password …", "Wi-Fi: GuestZone —
		// passphrase …")
		if len(ws) > 0 || !wifiBefore(c.Context, keyAt) && !bytes.Contains(bytes.ToLower(c.Context[lineStart:keyAt]), []byte("ssid")) {
			return false
		}
	case len(ws) > 0:
		// words between the noun and its colon or copula say which one:
		// a preposition or a network's name first ("for the NAS", "от
		// почты"), never what is said about it ("policy", "reset",
		// "last changed")
		first := strings.ToLower(strings.Trim(ws[0], ",.()"))
		if !whichWords[first] {
			return false
		}
	}
	// "pw" and "pwd" are words of their own, not "PW-Motor"
	if lkey == "pw" || lkey == "pwd" || lkey == "parola" {
		sepText := strings.TrimSpace(between)
		if !strings.HasPrefix(sepText, ":") && !strings.HasPrefix(sepText, "：") && !strings.HasSuffix(sepText, ":") {
			return false
		}
	}
	return true
}

// chosenCopulas end the words between a noun and its value.
var chosenCopulas = map[string]bool{"is": true, "was": true, "ist": true, "lautet": true, "es": true, "est": true, "é": true, "è": true, "je": true, "jest": true,
	"to": true, "это": true, "—": true, "–": true, "-": true, "now": true, "are": true, "below": true, "unten": true}

// chosenQuestionStops2 between a noun and its colon make the line one
// about the password: its policy, its reset, when it changed.
var chosenQuestionStops2 = map[string]bool{
	"policy": true, "reset": true, "requirements": true, "requirement": true, "length": true, "manager": true, "hint": true, "field": true,
	"rotation": true, "changed": true, "change": true, "expiry": true, "expires": true, "last": true, "age": true, "history": true, "strength": true,
	"rules": true, "politikası": true, "richtlinie": true, "política": true, "politique": true, "ticket": true, "format": true, "hash": true,
	"vault": true, "stored": true, "location": true, "politika": true, "değişikliği": true, "sıfırlama": true, "политика": true, "сброс": true,
}

func allDigits(v []byte) bool {
	for _, b := range v {
		if b < '0' || b > '9' {
			return false
		}
	}
	return len(v) > 0
}

// chosenLowValue reports a value shaped as a password a person chose: a
// word or two (any script) with digits or a symbol and a digit, six to
// forty characters, beginning with a letter; not a date, a version, a
// ticket or a model number in capitals, a file name, a path or an address,
// nor a description ("MinLength16") or a product ("Windows10").
func chosenLowValue(v []byte) bool {
	n := utf8.RuneCount(v)
	if n < 6 || n > 40 || !utf8.Valid(v) {
		return false
	}
	if bytes.ContainsAny(v, "/\\<>{}[]()$=|,;\"'`%") || bytes.Contains(v, []byte("://")) || emailLike(v) {
		return false
	}
	first, _ := utf8.DecodeRune(v)
	if !unicode.IsLetter(first) {
		return false
	}
	var letters, digits, symbols, upper, lower, runs int
	inLetters := false
	for _, r := range string(v) {
		switch {
		case unicode.IsLetter(r):
			letters++
			if unicode.IsUpper(r) {
				upper++
			} else if unicode.IsLower(r) {
				lower++
			}
			if !inLetters {
				runs++
			}
			inLetters = true
			continue
		case unicode.IsDigit(r):
			digits++
		default:
			symbols++
		}
		inLetters = false
	}
	if letters < 3 || !(digits >= 2 || digits >= 1 && symbols >= 1) || runs > 3 {
		return false
	}
	// a ticket, a model or a standard in capitals ("INC0042211", "RTX4090")
	if lower == 0 && symbols == 0 {
		return false
	}
	// a version or a decimal, a file's extension
	if dottedNumberRE.Match(v) || fileExtRE.Match(v) {
		return false
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(string(v)), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if chosenStopWords[w] || camelStop(w) {
			return false
		}
	}
	for _, w := range camelWords(string(v)) {
		if chosenStopWords[strings.ToLower(w)] {
			return false
		}
	}
	return !spellsPasswordName(v)
}

var (
	dottedNumberRE = regexp.MustCompile(`[0-9]\.[0-9]|^[vV][0-9]`)
	fileExtRE      = regexp.MustCompile(`\.[A-Za-z]{2,4}$`)
)

// camelWords splits a value's letters at case changes ("MinLength16" →
// Min, Length).
func camelWords(s string) []string {
	var out []string
	start := -1
	prevLower := false
	for i, r := range s {
		switch {
		case unicode.IsUpper(r):
			if start >= 0 && prevLower {
				out = append(out, s[start:i])
				start = i
			} else if start < 0 {
				start = i
			}
			prevLower = false
		case unicode.IsLower(r):
			if start < 0 {
				start = i
			}
			prevLower = true
		default:
			if start >= 0 {
				out = append(out, s[start:i])
			}
			start, prevLower = -1, false
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

// camelStop: a lower-case run that is a description glued together
// ("minlength", "maxchars").
func camelStop(w string) bool {
	for _, p := range []string{"minlength", "maxlength", "minchars", "maxchars", "mindigits", "atleast"} {
		if strings.Contains(w, p) {
			return true
		}
	}
	return false
}

// passphraseStopWords in a passphrase's words make them a sentence about
// it: where it is kept, who has it, what it must be.
var passphraseStopWords = map[string]bool{
	"see": true, "siehe": true, "ask": true, "frag": true, "fragen": true, "pregunta": true, "demande": true, "stored": true, "kept": true, "saved": true,
	"vault": true, "tresor": true, "manager": true, "keepass": true, "bitwarden": true, "lastpass": true, "password": true, "envelope": true,
	"umschlag": true, "sobre": true, "sent": true, "send": true, "dm": true, "slack": true, "email": true, "ticket": true, "same": true, "empty": true,
	"none": true, "not": true, "no": true, "nicht": true, "kein": true, "keine": true, "unknown": true, "tbd": true, "todo": true, "rotated": true,
	"changed": true, "required": true, "must": true, "should": true, "will": true, "need": true, "needs": true, "long": true, "strong": true,
	"random": true, "words": true, "example": true, "beispiel": true, "ejemplo": true, "exemple": true, "least": true, "characters": true,
	"length": true, "policy": true, "prompt": true, "when": true, "if": true, "is": true, "are": true, "was": true, "has": true, "have": true,
	"you": true, "your": true, "we": true, "our": true, "i": true, "me": true, "my": true, "please": true, "bitte": true, "por": true, "favor": true,
	"stocké": true, "gespeichert": true, "guardada": true, "guardado": true, "with": true, "unter": true, "can": true, "could": true,
	"would": true, "does": true, "do": true, "hat": true, "ist": true, "es": true, "est": true, "used": true, "use": true, "using": true, "prompted": true,
	"asked": true, "enter": true, "type": true, "typed": true, "remember": true, "forgot": true, "forgotten": true, "lost": true, "reset": true,
	"generated": true, "generate": true, "diceware": true, "xkcd": true, "correct": true, "staple": true,
}

// validProsePassphrasePlain: four to ten words, most of three letters or
// more, none saying where the passphrase is or what it must be; after a
// blank alone only behind "with the phrase" or a key's name.
func validProsePassphrasePlain(c Candidate) bool {
	keyAt := subOffset(c.Context, c.Key)
	if keyAt < 0 {
		return false
	}
	between := string(c.Context[keyAt+len(c.Key) : c.Offset])
	trimmed := strings.TrimRight(between, " \t`'\"“")
	colon := strings.HasSuffix(trimmed, ":") || strings.HasSuffix(trimmed, "：")
	ws := strings.Fields(strings.TrimRight(trimmed, ":："))
	copula := false
	if len(ws) > 0 {
		switch strings.ToLower(ws[len(ws)-1]) {
		case "is", "was", "ist", "lautet", "es", "est", "é", "è":
			copula = true
			ws = ws[:len(ws)-1]
		}
	}
	for _, w := range ws {
		lw := strings.ToLower(strings.Trim(w, ",."))
		if !whichWords[lw] && !passphraseWhich[lw] {
			return false
		}
	}
	if !colon && !copula {
		// "protected with the phrase … … … …"
		pre := strings.ToLower(string(c.Context[max(0, keyAt-16):keyAt]))
		if len(ws) > 0 || !(strings.HasSuffix(strings.TrimRight(pre, " \t"), "the") || strings.HasSuffix(strings.TrimRight(pre, " \t"), "ssh key") || strings.HasSuffix(strings.TrimRight(pre, " \t"), "gpg key")) {
			return false
		}
	}
	words := strings.Fields(string(c.Secret))
	if len(words) < 4 || len(words) > 10 {
		return false
	}
	long := 0
	for _, w := range words {
		lw := strings.ToLower(strings.Trim(w, "'’"))
		if passphraseStopWords[lw] {
			return false
		}
		if utf8.RuneCountInString(lw) >= 3 {
			long++
		}
	}
	if long < 3 {
		return false
	}
	// after a colon, a determiner or a pronoun starts a sentence about
	// it ("Passphrase: the one on the sticky note"); after a copula the
	// words may be a phrase's own ("… is the otter sleeps …")
	switch strings.ToLower(words[0]) {
	case "the", "a", "an", "this", "that", "it", "der", "die", "das", "ein", "eine", "el", "los", "las", "un", "una", "le", "les", "une", "il", "lo", "o", "os", "um", "uma":
		if !copula {
			return false
		}
		// "the same as …", "the one …", "the usual": no phrase
		switch strings.ToLower(words[1]) {
		case "same", "one", "usual", "old", "new", "default", "company", "standard", "team", "office", "first", "last", "name":
			return false
		}
	}
	return true
}

// passphraseWhich may stand between a passphrase's noun and its colon.
var passphraseWhich = map[string]bool{
	"ssh": true, "gpg": true, "pgp": true, "key": true, "keys": true, "des": true, "der": true, "gpg-schlüssels": true, "schlüssels": true,
	"id_ed25519": true, "id_rsa": true, "it": true, "that": true, "this": true, "them": true, "the": true, "clave": true, "la": true, "disk": true, "luks": true, "keepass": true, "master": true, "is": true,
}

// chatQuestionGate passes a question mark ending its line's question
// (a newline within reach after it) whose line, before it, holds a
// non-ASCII letter or one of chatASCIIStems: the validator judges the
// noun.
func chatQuestionGate(data []byte, i int) bool {
	nl := bytes.IndexByte(data[i+1:min(len(data), i+50)], '\n')
	if nl < 0 {
		return false
	}
	lo := max(0, i-96)
	if k := bytes.LastIndexByte(data[lo:i], '\n'); k >= 0 {
		lo += k + 1
	}
	line := data[lo:i]
	for _, b := range line {
		if b >= 0x80 {
			return true
		}
	}
	var buf [96]byte
	l := buf[:len(line)]
	for k, b := range line {
		l[k] = lower(b)
	}
	for _, st := range chatASCIIStems {
		if bytes.Contains(l, []byte(st)) {
			return true
		}
	}
	return false
}

// chatASCIIStems: an ASCII question that asks for a secret holds one.
var chatASCIIStems = []string{"pass", "pw", "pin", "code", "combo", "combination", "key", "clave", "cle", "wifi", "wi-fi", "wlan", "kod", "haslo", "heslo",
	"sifre", "parola", "senha", "wachtwoord", "kennwort", "door", "gate", "alarm", "safe", "locker", "lock", "sandi", "salasana", "lozinka", "mdp", "contrase"}

// chatCodeStops in a question about a code make it another code: a zip
// code, an error's, a discount's, a booking's.
var chatCodeStops = []string{"zip", "postal", "postcode", "plz", "error", "status", "exit", "promo", "discount", "coupon", "voucher", "tracking", "order",
	"area", "country", "verification", "confirmation", "booking", "reference", "invoice", "ticket", "flight", "qr", "bar", "barcode", "source", "review",
	"http", "response", "fehler", "erreur", "error's", "ошибки", "błędu", "sms", "otp", "2fa", "mfa", "one-time", "auth", "iban", "swift", "bic", "tax",
	"vat", "dress", "colour", "color", "dial", "phone", "cp", "cep", "branch", "sort", "extension", "ext", "number", "numbers", "nr", "no", "nummer",
	"número", "numéro", "numero", "номер", "numer", "model", "serial", "size", "year", "price", "cost", "much", "many"}

// validProseChatAnswer: the question asks for a password or a code (it
// names one, and not where it is or when it changed), and the message that
// answers holds nothing but the value: a chosen or random password, or the
// digits of a code the question names by what it opens.
func validProseChatAnswer(c Candidate) bool {
	if c.Key == nil {
		return false
	}
	keyAt := subOffset(c.Context, c.Key)
	if keyAt < 0 {
		return false
	}
	if len(c.Secret) < 4 || len(c.Secret) > 40 || describesEncoding(c.Secret) {
		return false
	}
	// the value's shape first: it is cheaper than finding the noun
	if v := c.Secret; !(allDigits(v) && len(v) <= 8 || accessComboRE.Match(v) || chosenLowValue(v) || randomShape(v)) {
		return false
	}
	lineStart := bytes.LastIndexByte(c.Context[:keyAt], '\n') + 1
	qEnd := bytes.IndexByte(c.Context[keyAt:], '\n')
	if qEnd < 0 || keyAt-lineStart > 160 {
		return false
	}
	question := string(c.Context[lineStart : keyAt+qEnd])
	key := questionNoun(question[:keyAt-lineStart])
	if key == "" {
		return false
	}
	// the lines between the question and the answer
	ansStart := bytes.LastIndexByte(c.Context[:c.Offset], '\n') + 1
	between := string(c.Context[keyAt+qEnd : max(keyAt+qEnd, ansStart)])
	if hasAnyWord(question, chosenQuestionStops) {
		return false
	}
	v := c.Secret
	tail := strings.TrimSpace(string(c.Context[c.Offset+len(v) : c.Offset+len(v)+min(16, len(c.Context)-c.Offset-len(v))]))
	keypadMark := strings.HasPrefix(tail, "#") || strings.HasPrefix(tail, "*") || strings.HasPrefix(strings.ToLower(tail), "then") || strings.HasPrefix(strings.ToLower(tail), "and #")
	cjkKey := false
	for _, n := range notesCJKNouns {
		if strings.Contains(key, strings.ToLower(n)) {
			cjkKey = true
		}
	}
	if allDigits(v) || accessComboRE.Match(v) {
		if allDigits(v) && (len(v) < 4 || len(v) > 8) || hasAnyWord(question, chatCodeStops) {
			return false
		}
		// digits answer a code's question: a PIN's, a passcode's, a
		// combination's, or one naming what it opens, or a keypad's mark
		code := hasAnyWord(key, []string{"pin", "pincode", "passcode", "combination", "combo", "kombination", "combinaison", "combinación", "combinação", "combinazione"})
		thing := hasAnyWord(question, accessThings) || hasAnyWord(between, []string{"keypad", "tastierino", "teclado", "tastatur", "clavier", "klawiatura", "кодовый"})
		if cjkKey {
			pre := question
			thing = thing || strings.Contains(pre, "门") || strings.Contains(pre, "門") || strings.Contains(pre, "锁") || strings.Contains(pre, "ドア") || strings.Contains(pre, "金庫") ||
				strings.Contains(pre, "도어") || strings.Contains(pre, "현관") || strings.Contains(pre, "금고") || strings.Contains(pre, "保险箱") || strings.Contains(pre, "キーボックス") ||
				key == "暗証番号"
		}
		return code || thing || keypadMark
	}
	if cjkKey {
		return chosenLowValue(v) || randomShape(v)
	}
	// a password's question: the noun is a password's, not a code's or a
	// thing's alone
	pw := isChosenNoun(key)
	for _, n := range notesWifiKeyNouns {
		// "la clave del wifi": a key's noun where the question names
		// the network
		if key == n && wordsIn([]byte(strings.ToLower(question)), wifiWords) {
			pw = true
		}
	}
	if !pw || strings.Contains(strings.ToLower(string(c.Context[ansStart:c.Offset])), "http") {
		return false
	}
	return chosenLowValue(v) || randomShape(v)
}

// accessComboRE: a combination lock's numbers ("36-12-04").
var accessComboRE = regexp.MustCompile(`^[0-9]{1,2}(?:-[0-9]{1,2}){2,3}$`)

// randomShape: a value a generator made: eight to sixty-four characters
// of three of upper case, lower case, digits and symbols, random enough,
// and no path, address or expression.
func randomShape(v []byte) bool {
	if len(v) < 8 || len(v) > 64 || bytes.ContainsAny(v, "/\\<>{}[]()=|,;\"'`") || emailLike(v) {
		return false
	}
	k := 0
	for _, has := range []bool{hasUpper(v), hasLower(v), hasDigit(v), hasPunct(v)} {
		if has {
			k++
		}
	}
	return k >= 3 && hasDigit(v) && Entropy(v) >= 3 && !dottedNumberRE.Match(v)
}

// firstLine returns b up to its first newline.
func firstLine(b []byte) []byte {
	if nl := bytes.IndexByte(b, '\n'); nl >= 0 {
		return b[:nl]
	}
	return b
}

// compoundHeads end a German, Dutch or Scandinavian compound that names
// what a code opens ("Kellertür", "Haustüre", "Bürotresor").
var compoundHeads = []string{"tür", "türe", "tresor", "schloss", "schließfach", "deur", "dörr", "dørr", "dør"}

// compoundThing: a word of s of five letters or more ends in one of
// compoundHeads.
func compoundThing(s string) bool {
	for _, w := range wordsOf(s) {
		if utf8.RuneCountInString(w) < 5 {
			continue
		}
		for _, h := range compoundHeads {
			if strings.HasSuffix(w, h) {
				return true
			}
		}
	}
	return false
}

// valueEndsClause: what follows a value on its line ends it (nothing, a
// mark, a bracket, a dash) or is a word saying it is the current one
// ("… now"), not more words of a sentence ("vergessen2 mal").
func valueEndsClause(rest []byte) bool {
	rest = bytes.TrimLeft(firstLine(rest), " \t\x60'\"”»*")
	if len(rest) == 0 {
		return true
	}
	if r, _ := utf8.DecodeRune(rest); !unicode.IsLetter(r) && !unicode.IsDigit(r) {
		return true
	}
	w := strings.ToLower(string(rest))
	w, _, _ = strings.Cut(w, " ")
	w = strings.TrimRight(w, ".,;:!?)")
	switch w {
	case "now", "jetzt", "ahora", "maintenant", "agora", "teraz", "сейчас", "теперь", "ora", "nu", "then", "und", "and", "y", "et", "e", "i", "и",
		"です", "입니다":
		return true
	}
	return false
}

// keyStartsWord: the key at ctx[at:] begins a word (no letter or digit
// before it; the expressions leave \\b out, which reads ASCII only, so
// that a match may begin at its keyword).
func keyStartsWord(ctx []byte, at int) bool {
	if at <= 0 {
		return true
	}
	r, _ := utf8.DecodeLastRune(ctx[:at])
	return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && !unicode.Is(unicode.Mn, r)
}

// questionNoun returns the last noun of a password, a code, a thing a code
// opens or a Wi-Fi key in q (a word, or two or three words in a row for
// the nouns that are phrases), lower case, or "".
func questionNoun(q string) string {
	lq := strings.ToLower(q)
	best, at := "", -1
	for _, n := range notesCJKNouns {
		if k := strings.LastIndex(lq, n); k > at {
			best, at = n, k
		}
	}
	if best != "" {
		return best
	}
	ws := wordsOf(lq)
	sets := questionNounSets()
	for i := len(ws) - 1; i >= 0; i-- {
		for n := 3; n >= 1; n-- {
			if i+n > len(ws) {
				continue
			}
			w := strings.Join(ws[i:i+n], " ")
			if n == 1 && (inWordSets(w, sets...) || compoundThing(w)) || n > 1 && exactInSets(w, sets) {
				return w
			}
		}
	}
	return ""
}

// questionNounSets are the nouns questionNoun looks for, as sets.
var questionNounSets = sync.OnceValue(func() []map[string]bool {
	var out []map[string]bool
	for _, ns := range [][]string{chosenNouns(), notesWifiKeyNouns, accessCodeWords, accessThings} {
		m := map[string]bool{}
		for _, n := range ns {
			m[strings.ToLower(n)] = true
		}
		out = append(out, m)
	}
	return out
})

// accessKeyBefore finds, on the line of the digits at ctx[off], the first
// word naming a thing a code opens or the code itself that no digit
// separates from them (within accessKeyReach bytes), and returns its
// span, or -1.
func accessKeyBefore(ctx []byte, off int) (int, int) {
	lo := max(0, off-accessKeyReach)
	seg := ctx[lo:off]
	if k := bytes.LastIndexByte(seg, '\n'); k >= 0 {
		lo += k + 1
		seg = ctx[lo:off]
	}
	for k := len(seg) - 1; k >= 0; k-- {
		if seg[k] >= '0' && seg[k] <= '9' {
			lo += k + 1
			seg = ctx[lo:off]
			break
		}
	}
	m1, m2 := wordSet(accessThings), wordSet(accessCodeWords)
	for k := 0; k < len(seg); {
		r, size := utf8.DecodeRune(seg[k:])
		if !unicode.IsLetter(r) || !keyStartsWord(seg, k) && k > 0 || k == 0 && !keyStartsWord(ctx, lo) {
			k += size
			continue
		}
		e := k
		for e < len(seg) {
			r2, s2 := utf8.DecodeRune(seg[e:])
			if !unicode.IsLetter(r2) && r2 != '-' && r2 != '\'' && r2 != '’' {
				break
			}
			e += s2
		}
		w := strings.ToLower(string(seg[k:e]))
		hit := false
		for _, part := range strings.Split(w, "-") {
			if inWordSets(part, m1, m2) || compoundThing(part) {
				hit = true
			}
		}
		if hit {
			return lo + k, lo + e
		}
		k = e
	}
	return -1, -1
}

// accessKeyReach bounds the look back from a code's digits for its noun:
// the noun, then up to 56 bytes of words.
const accessKeyReach = 96

// inWordSets: w is a word of one of the sets, or a stem of four bytes or
// more of one heads it.
func inWordSets(w string, sets ...map[string]bool) bool {
	for _, m := range sets {
		if m[w] {
			return true
		}
		for l := 4; l < len(w); l++ {
			if m[w[:l]] {
				return true
			}
		}
	}
	return false
}

// exactInSets: w is a word of one of the sets.
func exactInSets(w string, sets []map[string]bool) bool {
	for _, m := range sets {
		if m[w] {
			return true
		}
	}
	return false
}

// kwEndsWord: an ASCII keyword hit ending at data[i] ends a word (no
// ASCII letter or digit after it), and a short one ("pw", "sim", "pin")
// begins one too: random text holds them every few kilobytes. A keyword
// ending in another script passes (Korean and Chinese glue particles to
// the noun).
func kwEndsWord(data []byte, i int) bool {
	asciiAlnum := func(b byte) bool { return 'a' <= lower(b) && lower(b) <= 'z' || '0' <= b && b <= '9' }
	if data[i] >= 0x80 {
		return true
	}
	if i+1 < len(data) && asciiAlnum(data[i+1]) {
		return false
	}
	k := i
	for k >= 0 && 'a' <= lower(data[k]) && lower(data[k]) <= 'z' {
		k--
	}
	if n := i - k; n <= 3 && k >= 0 && asciiAlnum(data[k]) {
		return false
	}
	return true
}
