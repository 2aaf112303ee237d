package secrets

import (
	"bytes"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// RuleProsePasswordIntl reports a password stated after its noun in a
// language the older rules do not read (passwordNounLanguages): "şifre:
// …", "Hasło do VPN: …", "lösenordet till wifi är …", "Пароль от роутера
// — …", "Heslo je …".
const RuleProsePasswordIntl = "prose-password-intl"

// The grammar prose-password-intl accepts, one sentence:
//
//	NOUN [WORDS] COPULA [:] VALUE     lösenordet till wifi är …
//	NOUN [WORDS] (:|：) VALUE          Hasło do VPN (klucz współdzielony): …
//	NOUN [WORDS] — VALUE              Пароль от роутера — …
//
// NOUN is one of the table's nouns in any of its forms, a word of its own
// (a letter before it only in a language that glues compounds:
// "wifilösenordet"); WORDS and VALUE are prose-secret-intl's; COPULA is
// one of the table's. The value is judged as prose-password-phrase
// judges one after a noun (notesPasswordValue). Its nouns are sorted so
// that the alternation of some two hundred shares their prefixes: a line
// searched whole starts fewer threads at each byte. (Tried at the hits
// alone, startsAtKeyword, a noun among a run of other keywords was
// missed; tokenAtKeyword wants an ASCII letter first.)
func prosePasswordIntlRule() *Rule {
	prosePasswordIntlOnce.Do(func() {
		nouns, copulas := passwordNounForms()
		value := "(?:[\x60'\"](?P<secret>[^\\s\x60'\"]{8,200})[\x60'\"]|\\*\\*(?P<secret>[^\\s*]{8,200})\\*\\*|(?P<secret>[^\\s\x60'\"<>]*[0-9](?:[^\\s\x60'\"<>]*[^\\s\x60'\".,;:!?)<>])?))"
		val := value + "(?:[\\s.,;:!?)]|$)"
		words := `(?:[ \t]+(?:[^\s:;,.!?<>\x60"：]+|\x60[^\s\x60]+\x60)){0,6}?`
		// a copula, a colon (full-width too: the value may follow it
		// with no blank) or
		// a dash between blanks ("пароль — …"); a bold label closes after
		// its colon ("**Şifre:** …")
		sep := `(?:[ \t]+(?:` + strings.Join(copulas, "|") + `)(?:[ \t]*[:：])?[ \t]+|[ \t]*[:：](?:\*\*)?[ \t]*|[ \t]+[—–-][ \t]+)`
		prosePasswordIntlCompiled = &Rule{
			ID:          RuleProsePasswordIntl,
			Description: "password stated after its noun in one of " + strconv.Itoa(len(passwordNounLanguages)) + " more languages (şifre: …, Hasło do VPN: …, lösenordet är …, пароль — …)",
			// the ASCII name glued before the noun ("WLAN-salasana",
			// "wifilösenordet") is read with it: validProsePasswordIntl
			// judges what stands before the noun
			builtinRE: builtinExpr("(?i)(?:[A-Za-z0-9_.-]*(?P<key>" + passwordNounExpr(nouns) + ")" + words + sep + val +
				// or a pair's second half: the noun after a comma, a
				// blank and the value ending the line ("логин admin,
				// пароль …"); a branch of its own, so that a blank never
				// ends a noun's words before a colon or a copula does
				"|,[ \t]+(?P<key>" + passwordNounExpr(nouns) + ")[ \t]+" + value + "[ \t.!]*(?:\r?\n|$))"),
			MinLen:   8,
			Keywords: passwordNounKeywords(),
			Gate:     prosePasswordIntlGate,
			Validate: validProsePasswordIntl,
			Path:     proseFiles,
		}
	})
	c := *prosePasswordIntlCompiled
	return &c
}

var (
	prosePasswordIntlOnce     sync.Once
	prosePasswordIntlCompiled *Rule
)

// prosePasswordIntlGate passes a noun that ends its word: a blank, a
// colon or a full-width colon (0xEF, its first byte) after it.
func prosePasswordIntlGate(data []byte, i int) bool {
	j := i + 1
	return j < len(data) && (data[j] == ' ' || data[j] == '\t' || data[j] == ':' || data[j] == 0xEF)
}

func validProsePasswordIntl(c Candidate) bool {
	if c.Key == nil {
		return false
	}
	at := subOffset(c.Context, c.Key)
	table, word := tablePasswordNoun(c.Context, at, c.Key)
	if !table || !word {
		return false
	}
	if notIntlPasswordValue(c, at) {
		return false
	}
	label, paired := fieldLabel(c.Context, at, c.Key, c.Offset)
	if (label || paired) && endsField(c.Context, c.Offset+len(c.Secret)) {
		return labelledPasswordValue(c)
	}
	if strings.TrimLeft(string(c.Context[at+len(c.Key):c.Offset]), " \t") == "" {
		return false // a blank alone says nothing outside a pair
	}
	return !labelOnlyNoun(c.Key) && notesPasswordValue(c)
}

// notIntlPasswordValue: what a noun of the table stands before but no
// password is: a product and its version after a colon or a dash, as
// prose-password-phrase reads it (productName: "Lösenord: Windows10"), a library and its version
// ("Библиотека проверки пароля: zxcvbn-4.4.2"), a reference (env:X, a
// Windows path, a @handle), or a slogan's value after hasło, heslo,
// geslo, lozinka, which name a motto too ("Hasło konferencji: …").
func notIntlPasswordValue(c Candidate, at int) bool {
	v := c.Secret
	sep := strings.TrimRight(string(c.Context[:c.Offset]), " \t*")
	colon := strings.HasSuffix(sep, ":") || strings.HasSuffix(sep, "：") || strings.HasSuffix(sep, "—") || strings.HasSuffix(sep, "–") || strings.HasSuffix(sep, "-")
	if colon && productName(c) || nameVersionRE.Match(v) || v[0] == '@' || bytes.HasPrefix(bytes.ToLower(v), []byte("env:")) ||
		len(v) > 2 && v[1] == ':' && v[2] == '\\' {
		return true
	}
	rest := c.Context[at+len(c.Key) : c.Offset]
	next, _, _ := strings.Cut(strings.TrimLeft(string(rest), " \t"), " ")
	return sloganWords[strings.ToLower(strings.TrimRight(next, ":：,"))]
}

// nameVersionRE: a name, a hyphen and a dotted version (zxcvbn-4.4.2)
var nameVersionRE = lazyRE.New(`^[A-Za-z][A-Za-z0-9]*-[0-9]+(?:[./][0-9]+)+$`)

// sloganWords follow hasło, heslo, geslo, lozinka where they name a
// motto: of a conference, a campaign, a congress, an event, a year.
var sloganWords = map[string]bool{
	"konferencji": true, "kampanii": true, "przewodnie": true, "wyborcze": true, "reklamowe": true, "akcji": true, "festiwalu": true, "roku": true, "hackathonu": true,
	"konference": true, "kampaně": true, "kampane": true, "akce": true, "festivalu": true,
	"kongresa": true, "kampanje": true, "konferencije": true, "leta": true, "godine": true, "dogodka": true, "akcije": true,
}

// fieldLabel reports a noun that labels a field: a colon straight after
// it, and before it on its line only a list's or a quote's marks or a
// chat message's sender, and a word at most ("Jelszó: …", "> Jelszó:
// …", "**Şifre:** …", "[11:07] Μαρία: κωδικός: …"), as a form or a card
// of credentials writes it; or paired, the second half of a pair after its comma, the
// value after a blank ("логин admin, пароль …", "Zasedacka-5G, heslo
// …").
func fieldLabel(ctx []byte, at int, key []byte, value int) (label, paired bool) {
	end := at + len(key)
	if end > value {
		return false, false
	}
	between := strings.Trim(string(ctx[end:value]), " \t*")
	ls := bytes.LastIndexByte(ctx[:at], '\n') + 1
	before := strings.TrimRight(string(ctx[ls:at]), " \t*_")
	if between == "" && end < value && !labelOnlyNoun(key) {
		return false, strings.HasSuffix(before, ",") && strings.Count(before, " ") > 0
	}
	if between != ":" && between != "：" {
		return false, false
	}
	// after a chat message's sender and its colon, or a list's or a
	// quote's marks, one word may say which ("WLAN password:", "वाईफाई
	// पासवर्ड:"); more make a sentence ("Požadavek na heslo: …")
	if i := strings.LastIndex(before, ": "); i >= 0 {
		before = before[i+2:]
	} else if strings.HasSuffix(before, ":") {
		return true, false
	}
	before = strings.Trim(before, " \t*_>#|-0123456789.)[]")
	return !strings.ContainsAny(before, " \t"), false
}

// endsField reports a value that ends its field: nothing after it on its
// line but a closing mark or a remark in parentheses or after a dash; a
// sentence that runs on ("Hasło: Ubuntu22 na wszystkich maszynach") says
// what the password is like, not what it is.
func endsField(ctx []byte, end int) bool {
	le := bytes.IndexByte(ctx[end:], '\n')
	if le < 0 {
		le = len(ctx) - end
	}
	rest := strings.TrimLeft(string(ctx[end:end+le]), " \t*_|`'\"\r")
	return rest == "" || strings.HasPrefix(rest, "(") || strings.HasPrefix(rest, "—") || strings.HasPrefix(rest, "–") || strings.HasPrefix(rest, "- ")
}

// labelledPasswordValue judges the value a field label gives: as plainly
// given as a quoted one (mixed case alone makes it a value, not a name:
// "Sauna-Makkara7", "Simit.Cay.2019"), and its letters may be of any
// alphabet ("Smørrebrød77", "Pogácsa.1956"); a script written without
// blanks runs on into the sentence.
func labelledPasswordValue(c Candidate) bool {
	ascii := make([]byte, 0, len(c.Secret))
	for _, r := range string(c.Secret) {
		switch {
		case r < utf8.RuneSelf:
			ascii = append(ascii, byte(r))
		case !unicode.In(r, unicode.Latin, unicode.Greek, unicode.Cyrillic) || !unicode.IsLetter(r):
			return false
		case unicode.IsUpper(r):
			ascii = append(ascii, 'X')
		default:
			ascii = append(ascii, 'x')
		}
	}
	if titledName(ascii) {
		return false
	}
	folded := c
	folded.Secret, folded.entropy = ascii, Entropy(c.Secret)
	if wordDigitsWord(ascii) {
		// "chai1234samosa": words a number joins, all in lower case, as
		// people choose them; a name ends in its number ("room101")
		return !isPlaceholder(ascii, true) && folded.secretEntropy() >= 2.8
	}
	return notesPasswordValueOf(folded, true)
}

// wordDigitsWord reports lower-case letters, digits and lower-case
// letters again, three or more of each letter and ten bytes in all.
func wordDigitsWord(v []byte) bool {
	i := 0
	for i < len(v) && v[i] >= 'a' && v[i] <= 'z' {
		i++
	}
	j := i
	for j < len(v) && v[j] >= '0' && v[j] <= '9' {
		j++
	}
	return len(v) >= 10 && i >= 3 && j > i && len(v)-j >= 3 && isLowerASCII(v[j:])
}

// titledName reports words in title case joined by hyphens and then a
// number of its own: a product and its version or a phrase spelled as a
// slug ("Windows-Server-2019", "Ask-Ops-Team-2025"), which a label may
// name instead of giving a password; a chosen one glues its digits or
// joins fewer words ("Sauna-Makkara7", "Knedlik_2022").
func titledName(v []byte) bool {
	parts := bytes.Split(v, []byte("-"))
	if len(parts) < 3 {
		return false
	}
	for i, p := range parts {
		if len(p) == 0 {
			return false
		}
		if i == len(parts)-1 {
			return isDigits(p)
		}
		if p[0] < 'A' || p[0] > 'Z' || len(p) < 2 || !isLowerASCII(p[1:]) {
			return false
		}
	}
	return false
}

func isLowerASCII(b []byte) bool {
	for _, c := range b {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// labelOnlyNoun reports a noun the table takes only as a field's label.
func labelOnlyNoun(key []byte) bool {
	k := strings.ToLower(string(key))
	for _, l := range passwordNounLanguages {
		for _, n := range l.labels {
			if strings.HasSuffix(k, n) {
				return true
			}
		}
	}
	return false
}

// passwordNounLanguage is one language's words for a password (or a
// passphrase, a passcode) in every form a note writes them before the
// value, and the words that say "is" between the two.
type passwordNounLanguage struct {
	lang string
	// nouns with their inflections: definite forms (lösenordet,
	// passordet), cases (hasła, hasłem, пароля), possessives (şifresi,
	// salasanasi), and the phrases a single word does not make
	// (kata sandi, mật khẩu, κωδικός πρόσβασης)
	nouns []string
	// copulas between the noun and its value ("är", "er", "jest", "to",
	// "это"); a colon and a dash need none
	copulas []string
	// labels: words that name a password only as a field's label
	// ("κωδικός:" in a card of credentials), elsewhere a code of any
	// kind ("κωδικός σφάλματος")
	labels []string
	// compounds: the language glues a noun to what it is for
	// ("wifilösenordet", "wlansalasana"), so a letter may stand before it
	compounds bool
}

// passwordNounLanguages are the languages, other than English (prose-secret)
// and those prose-secret-intl's first alternatives read (German, Spanish,
// French, Portuguese, Italian, Dutch), whose password nouns
// prose-secret-intl reads in "NOUN [WORDS] COPULA|: VALUE". Chinese,
// Japanese, Korean and Thai write no blank between words:
// prose-secret-cjk reads those.
var passwordNounLanguages = []passwordNounLanguage{
	{lang: "sv", nouns: []string{"lösenord", "lösenordet", "lösenorden", "lösenordets", "lösenfras", "lösenfrasen", "losenord", "losenordet"},
		copulas: []string{"är", "var", "blir", "blev"}, compounds: true},
	{lang: "da", nouns: []string{"adgangskode", "adgangskoden", "adgangskoder", "kodeord", "kodeordet", "løsen", "løsenet"},
		copulas: []string{"er", "var", "bliver"}, compounds: true},
	{lang: "nb", nouns: []string{"passord", "passordet", "passordene", "adgangskode", "adgangskoden", "passordfrase", "passfrasen"},
		copulas: []string{"er", "var", "blir", "ble"}, compounds: true},
	{lang: "is", nouns: []string{"lykilorð", "lykilorðið", "lykilorðsins"}, copulas: []string{"er", "var"}, compounds: true},
	{lang: "fi", nouns: []string{"salasana", "salasanan", "salasanaa", "salasanat", "salasanasi", "salasanani", "salasanamme", "salasanalla", "tunnuslause", "tunnuslauseen"},
		copulas: []string{"on", "oli", "onkin"}, compounds: true},
	{lang: "et", nouns: []string{"parool", "parooli", "salasõna", "salasõnaks"}, copulas: []string{"on", "oli"}, compounds: true},
	{lang: "hu", nouns: []string{"jelszó", "jelszót", "jelszava", "jelszavát", "jelszavam", "jelszavad", "jelszavunk", "jelszo"},
		copulas: []string{"pedig"}, compounds: true},
	{lang: "pl", nouns: []string{"hasło", "hasła", "hasłem", "haśle", "hasłu", "haslo", "hasla"},
		copulas: []string{"to", "jest", "brzmi", "było", "teraz"}},
	{lang: "cs", nouns: []string{"heslo", "hesla", "heslem", "hesle", "heslu"}, copulas: []string{"je", "zní", "bylo", "jest"}},
	{lang: "sk", nouns: []string{"heslo", "hesla", "heslom", "hesle"}, copulas: []string{"je", "znie", "bolo"}},
	{lang: "sl", nouns: []string{"geslo", "gesla", "geslom", "geslu"}, copulas: []string{"je", "bo"}},
	// not "šifra": a code of any kind ("šifra greške")
	{lang: "hr", nouns: []string{"lozinka", "lozinke", "lozinku", "lozinkom", "zaporka", "zaporku"},
		copulas: []string{"je", "glasi", "bila"}},
	{lang: "sr", nouns: []string{"лозинка", "лозинку", "лозинке", "лозинком"}, copulas: []string{"је", "гласи"}},
	{lang: "mk", nouns: []string{"лозинка", "лозинката"}, copulas: []string{"е"}},
	{lang: "bg", nouns: []string{"парола", "паролата"}, copulas: []string{"е", "беше"}},
	// not "parola" without its diacritic: Italian's "word" ("parola chiave")
	{lang: "ro", nouns: []string{"parolă", "parolei", "parolele"}, copulas: []string{"este", "e", "era"}},
	{lang: "tr", nouns: []string{"şifre", "şifresi", "şifreniz", "şifrem", "şifren", "şifremiz", "parolası", "parolanız", "parolam", "sifre", "sifresi"},
		copulas: []string{"ise", "şu"}},
	{lang: "ru", nouns: []string{"пароль", "пароля", "паролем", "паролю", "пароли"}, copulas: []string{"это", "такой", "теперь"}},
	{lang: "uk", nouns: []string{"пароль", "пароля", "паролем", "паролі"}, copulas: []string{"це", "такий", "тепер"}},
	{lang: "be", nouns: []string{"пароль", "пароля"}, copulas: []string{"гэта"}},
	{lang: "el", nouns: []string{"κωδικός πρόσβασης", "κωδικό πρόσβασης", "κωδικού πρόσβασης", "συνθηματικό", "συνθηματικού"},
		copulas: []string{"είναι", "ήταν"}, labels: []string{"κωδικός", "κωδικό"}},
	{lang: "lt", nouns: []string{"slaptažodis", "slaptažodžio", "slaptažodį", "slaptazodis"}, copulas: []string{"yra", "buvo"}},
	{lang: "lv", nouns: []string{"parole", "paroli", "paroles"}, copulas: []string{"ir", "bija"}},
	{lang: "ca", nouns: []string{"contrasenya", "contrasenyes"}, copulas: []string{"és", "era", "ara"}},
	{lang: "gl", nouns: []string{"contrasinal"}, copulas: []string{"é", "era"}},
	{lang: "eu", nouns: []string{"pasahitza", "pasahitz"}, copulas: []string{"da"}},
	{lang: "vi", nouns: []string{"mật khẩu", "mat khau"}, copulas: []string{"là", "la", "mới là"}},
	// not "sandi" alone: a given name, in a chat's "Sandi:"
	{lang: "id", nouns: []string{"kata sandi", "kata sandinya", "kata laluan"}, copulas: []string{"adalah", "ialah", "yaitu", "yakni"}},
	{lang: "sw", nouns: []string{"nenosiri", "neno siri"}, copulas: []string{"ni"}},
	{lang: "ar", nouns: []string{"كلمة المرور", "كلمة السر", "كلمه المرور", "الرقم السري"}, copulas: []string{"هي", "هو"}},
	{lang: "fa", nouns: []string{"رمز عبور", "گذرواژه", "کلمه عبور"}, copulas: []string{"است"}},
	{lang: "he", nouns: []string{"סיסמה", "סיסמא", "הסיסמה", "הסיסמא"}, copulas: []string{"היא", "הוא", "זה"}},
	{lang: "hi", nouns: []string{"पासवर्ड", "कूटशब्द"}, copulas: []string{"है"}},
	{lang: "bn", nouns: []string{"পাসওয়ার্ড"}, copulas: []string{"হল", "হলো"}},
	// Dutch's nouns are prose-secret-intl's; its abbreviation of
	// "wachtwoord" labels a field only ("gebr: …, ww: …")
	{lang: "nl", labels: []string{"ww"}},
}

// passwordNounForms returns the nouns of every language in the table and
// their copulas.
func passwordNounForms() (nouns, copulas []string) {
	seenN, seenC := map[string]bool{}, map[string]bool{}
	for _, l := range passwordNounLanguages {
		for _, n := range append(append([]string(nil), l.nouns...), l.labels...) {
			if !seenN[n] {
				seenN[n] = true
				nouns = append(nouns, n)
			}
		}
		for _, c := range l.copulas {
			if !seenC[c] {
				seenC[c] = true
				copulas = append(copulas, c)
			}
		}
	}
	// in order, so that the expression's alternation shares the nouns'
	// common prefixes ("lösen", "lösenord", "lösenordet" are one branch):
	// fewer threads start at each byte of a line searched whole; the
	// longer first, which the leftmost-first alternation prefers
	// ("κωδικός πρόσβασης" over the label "κωδικός")
	sort.Sort(sort.Reverse(sort.StringSlice(nouns)))
	sort.Strings(copulas)
	return nouns, copulas
}

// passwordNounExpr is the alternation of the table's nouns; a blank in a
// phrase matches any run of blanks.
func passwordNounExpr(nouns []string) string {
	alts := make([]string, len(nouns))
	for i, n := range nouns {
		alts[i] = strings.ReplaceAll(regexp.QuoteMeta(n), " ", `[ \t]+`)
	}
	return "(?:" + strings.Join(alts, "|") + ")"
}

// passwordNounKeywords are the table's nouns as the keyword filter finds
// them: it folds ASCII only, so a noun whose first letter is not ASCII
// is also given capitalised ("Şifre", "Пароль", "Hasło" needs nothing).
// A phrase is found by its first word's letters up to its blank.
func passwordNounKeywords() []string {
	nouns, _ := passwordNounForms()
	seen := map[string]bool{}
	var out []string
	add := func(k string) {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	for _, n := range nouns {
		add(n)
		add(capitalised(n))
	}
	return out
}

// capitalised returns w with its first letter upper case when that letter
// is not ASCII (the keyword filter folds ASCII itself), else w.
func capitalised(w string) string {
	r, size := utf8.DecodeRuneInString(w)
	if r < utf8.RuneSelf || unicode.ToUpper(r) == r {
		return w
	}
	return string(unicode.ToUpper(r)) + w[size:]
}

// tablePasswordNoun reports whether key is one of the table's nouns and
// whether it stands as a word of its own: what ctx holds before it at
// at is not a letter, unless its language glues compounds.
func tablePasswordNoun(ctx []byte, at int, key []byte) (noun, ok bool) {
	k := strings.ToLower(string(key))
	k = strings.Join(strings.Fields(k), " ")
	// the scanner widens a key back over the ASCII name glued before it
	// ("WLAN-salasana", "wifilösenordet"): the noun is the key's end
	// the longest noun or label of the table k ends with (one map lookup
	// per byte of k: this ran for every candidate, and a line of 166,000
	// of them spent a quarter of its scan walking the table's ~500 words)
	best, compounds, found := "", false, false
	nouns := tableNounSuffixes()
	for i := range len(k) {
		if c, ok := nouns[k[i:]]; ok {
			best, compounds, found = k[i:], c, true
			break
		}
	}
	if !found {
		return false, false
	}
	if len(k) == len(string(key)) {
		at += len(k) - len(best)
	}
	if at == 0 {
		return true, true
	}
	r, _ := utf8.DecodeLastRune(ctx[:at])
	if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) {
		return true, compounds && unicode.IsLetter(r)
	}
	return true, true
}

// tableNounSuffixes maps each noun and label of passwordNounLanguages to
// whether a language it is of writes compounds.
var tableNounSuffixes = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, l := range passwordNounLanguages {
		for _, n := range append(append([]string(nil), l.nouns...), l.labels...) {
			m[n] = m[n] || l.compounds
		}
	}
	return m
})

// chosenShape reports a value shaped as a chosen password: eight bytes or
// more mixing upper and lower case and digits, as password-pair takes
// after "password:" in English, and no address, path, variable or code.
func chosenShape(v []byte) bool {
	if len(v) < 8 || len(v) > 64 || !mixedClasses(v) {
		return false
	}
	return plausiblePasswordValue(v) && !emailLike(v) && !looksLikePath(v) && !wordListRE.Match(v)
}
