package secrets

import (
	"bytes"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Kinds of secret in notes that are no password as the password rules
// judge one (issue 33, the blind notes of round 19): a PIN or a door or
// alarm code (digits only), a passphrase of words (letters only), a
// Bearer token after "Authorization" in a sentence, a recovery key named
// by its sentence (hex, which the generic rules take for a digest), and
// one-time recovery codes under their label. Ranked after every older
// rule, so no finding changes its ID.
const (
	// RuleProsePIN reports a PIN or a door, alarm or keypad code that a
	// copula, a colon or "changed to" gives its digits.
	RuleProsePIN = "prose-pin"
	// RuleProsePassphraseWords reports a passphrase made of words: quoted,
	// joined by dashes or dots, or alone on the line below its label.
	RuleProsePassphraseWords = "prose-passphrase-words"
	// RuleProseBearer reports a Bearer token after "Authorization" on a
	// line of prose ("Authorization header → Bearer …").
	RuleProseBearer = "prose-bearer"
	// RuleProseRecoveryKey reports a recovery, unlock or escrow key that a
	// copula or a colon gives its hex or base32 value.
	RuleProseRecoveryKey = "prose-recovery-key"
	// RuleRecoveryCodes reports the first of the one-time codes listed
	// under a label that names them ("Backup codes for the 2FA:").
	RuleRecoveryCodes = "recovery-codes"
)

// noteKindRules returns fresh copies of the rules above.
func noteKindRules() []*Rule {
	return freshCopies(noteKindCompiled())
}

// a few words saying which one ("for the server room", "de la tarjeta
// corporativa", "for the laptop's disk"): no digits, no colon, no quote
// but an apostrophe
const noteKindFiller = "(?:[ \\t]+[^\\s\\d:：=*\x60\"]{1,24}){0,6}?"

var noteKindCompiled = sync.OnceValue(func() []*Rule {
	return []*Rule{
		{
			ID:          RuleProsePIN,
			Description: "PIN or door, alarm or keypad code given in a note (the door code … changed to 1592, Voicemail PIN … is 999590)",
			builtinRE: builtinExpr("(?i)(?P<key>\\bpin(?:[ \\t-]?code)?|\\b(?:door|alarm|disarm|keypad|gate|entry|safe|lock|alarmanlage)[ \\t-]*code|\\bgeheimzahl|\\bc[oó]digo[ \\t]+pin|\\bcodice[ \\t]+pin" +
				// round 20: the code of a door in other languages, a bare
				// "code" after a keypad named before it on the line ("new
				// keypad on the door, code …"), and arming an alarm with it
				"|\\b(?:tür|tor|zugangs|eingangs|tresor)code|\\bdigicode|\\bpasscode|\\bpuk" +
				"|\\bc[oó]digo[ \\t]+(?:de[ \\t]+la|del|da|do|de)[ \\t]+(?:puerta|porta|portão|portao|port[oó]n|alarma|alarme|acceso|acesso|entrada|cofre)" +
				"|\\bcode[ \\t]+(?:de[ \\t]+la[ \\t]+porte|de[ \\t]+l['’]alarme|d['’](?:accès|acces|entrée|entree))" +
				"|\\bcodice[ \\t]+(?:della[ \\t]+porta|dell['’]allarme|del[ \\t]+cancello|d['’]accesso|allarme|porta|cancello)" +
				"|\\bsenha[ \\t]+d[oa][ \\t]+(?:alarme|porta|portão|portao|cofre)" +
				"|\\bkod[ \\t]+(?:do[ \\t]+drzwi|do[ \\t]+alarmu|alarmu|do[ \\t]+sejfu|dostępu)" +
				"|\\bcode|\\b(?:dis)?arm[ \\t]+(?:it|the[ \\t]+(?:alarm|system|panel|building))[ \\t]+(?:with|using))\\b" +
				"(?:" + noteKindFiller +
				"(?:[ \\t]*[:：=][ \\t]*|[ \\t]+(?:is(?:[ \\t]+now)?|was|now|(?:is[ \\t]+|was[ \\t]+|has[ \\t]+been[ \\t]+)?(?:changed|set|reset|updated)[ \\t]+to|es|est|ist|lautet|è|é|é[ \\t]+agora|nu|wordt" +
				// round 20: "ist jetzt", "mudou pra", "jest", "wynosi"; or
				// the digits right after the noun ("PIN 8824, kept by …"),
				// which validProsePIN takes only with no word between
				"|ist[ \\t]+jetzt|est[ \\t]+maintenant|mudou[ \\t]+(?:pra|para)|cambi[oó][ \\t]+a|jest|wynosi)[ \\t]+|[ \\t]+)" +
				"(?:\\*\\*|[\x60'\"*])?(?P<secret>\\d{4,8})(?:\\*\\*|[\x60'\"*])?(?:[\\s.,;:!?)]|$)" +
				// a question that names it, answered by the digits alone on
				// the next line or the next message of a chat export (past
				// a blank line and the speaker's bold name and time)
				// (bounded as questionNear bounds it, in characters, which
				// are no more than its bytes: an anchored attempt stops
				// there, where unbounded it read on to the end of a long
				// line; a window's search loosens the bound, bounded.go,
				// as one NFA state per count and byte was too many)
				"|[^\\n?]{0,96}\\?[^\\n]{0,95}\\n" + chatSpeakerLine +
				"[ \\t>]*(?:(?:it(?:'|’)s|it[ \\t]+is|es|est|ist|é|è|is|jest|to)[ \\t]+)?(?:\\*\\*|[\x60'\"])?(?P<secret>\\d{4,8})(?:\\*\\*|[\x60'\"])?[ \\t.!]*(?:\\n|$))"),
			MinLen:   4,
			Keywords: []string{"pin", "code", "geheimzahl", "código", "codigo", "codice", "senha", "kod", "arm", "puk"},
			// the next message of a chat export: a blank line, the
			// speaker's line and the answer's
			After:    160,
			Gate:     pinGate,
			Validate: validProsePIN,
			Path:     proseFiles,
		},
		{
			ID:          RuleProsePassphraseWords,
			Description: "passphrase of words in a note (its passphrase is \"lantern cobalt …\", LUKS passphrase orchid-falcon-…)",
			builtinRE: builtinExpr("(?i)(?P<key>\\bpass[ \\t-]?phrase|\\bphrase[ \\t]+secr[eè]te|\\bfrase[ \\t]+(?:secreta|de[ \\t]+(?:contraseña|paso))|\\bseed[ \\t]+phrase|\\bmnemonic|\\bkennsatz|\\bwachtzin" +
				// round 20: a password's nouns, whose value may be words too
				// ("password mango-seventeen-…", "WLAN-Passwort …?" then
				// the words below)
				"|\\b(?:" + notesNounAlt(passphrasePasswordNouns()) + "))\\b" +
				"(?:[ \\t]+[^\\s\\d:：=*\x60'\"“]{1,24}){0,4}?" +
				"(?:" +
				// quoted words after a copula, a colon or nothing
				"(?:[ \\t]*[:：][ \\t]*|[ \\t]+(?:is|was|es|est|ist|lautet|è|é)[ \\t]+|[ \\t]+)" +
				"(?:[\"“'\x60](?P<secret>[a-z]{3,12}(?:[ ][a-z]{3,12}){3,11})[\"”'\x60]" +
				// words joined by dashes or dots
				// (round 20: a short word among them, "…-sleeps-at-noon";
				// three of them for a Wi-Fi network's password)
				"|(?P<secret>[a-z]{3,12}(?:[-.][a-z]{2,12}){2,11})(?:[\\s,;:!?)]|\\.(?:\\s|$)|$))" +
				// or alone on the line below the label
				// (round 20: "… is:" too)
				"|(?:[ \\t]+(?:is|are|was|es|est|ist|lautet|è|é))?[ \\t]*[:：][ \\t*_]*\\n(?:[ \\t]*\\n)?[ \\t>]*[\x60'\"]?(?P<secret>[a-z]{3,12}(?:[ -][a-z]{3,12}){3,11})[\x60'\"]?[ \\t]*(?:\\n|$)" +
				// or below a question that names it, in the next message
				// of a chat export (round 20)
				"|[^\\n?]*\\?[^\\n]*\\n" + chatSpeakerLine + "[ \\t>]*[\x60'\"]?(?P<secret>[a-z]{3,12}(?:[ -][a-z]{3,12}){3,11})[\x60'\"]?[ \\t]*(?:\\n|$))"),
			MinLen:   15,
			Keywords: append([]string{"phrase", "frase", "mnemonic", "kennsatz", "wachtzin"}, notesNounKeywords(passphrasePasswordNouns())...),
			After:    160,
			Gate:     passphraseGate,
			Validate: validPassphraseWords,
			Path:     proseFiles,
		},
		{
			ID:          RuleProseBearer,
			Description: "Bearer token after \"Authorization\" on a line of prose (Authorization header → Bearer …)",
			builtinRE:   builtinExpr("(?i)\\bauthorization\\b[^\\n]{0,48}?\\bbearer[ \\t]+[\x60'\"]?(?P<secret>[A-Za-z0-9._~+/-]{20,512}=*)(?:[\x60'\"\\s.,;)]|$)"),
			MinLen:      20,
			Keywords:    []string{"authorization"},
			Validate:    validProseBearer,
			Path:        proseFiles,
		},
		{
			ID:          RuleProseRecoveryKey,
			Description: "recovery, unlock or escrow key a sentence gives (the recovery key for the vault is …)",
			builtinRE: builtinExpr("(?i)(?P<key>\\b(?:recovery|unlock|escrow|bitlocker|filevault)[ \\t]+key)\\b" + noteKindFiller +
				"(?:[ \\t]*[:：=][ \\t]*|[ \\t]+(?:is|was|es|est|ist|lautet|è|é)[ \\t]+)" +
				"(?:\\*\\*|[\x60'\"])?(?P<secret>[0-9a-f]{32,128}|[A-Z2-7]{4,8}(?:-[A-Z2-7]{4,8}){3,11}|\\d{6}(?:-\\d{6}){7})(?:\\*\\*|[\x60'\"])?(?:[\\s.,;:!?)]|$)" +
				// round 21: a BitLocker key alone on the line below a line
				// naming BitLocker, in whatever language ("Ключ відновлення
				// BitLocker:", "BitLocker herstelsleutel:"); its checksum
				// (bitLockerKey) stands for the label's noun
				"|(?P<key>\\bbitlocker)\\b[^\\n]{0,120}\\n(?:[ \\t]*\\n)?[ \\t>*-]*(?:\\*\\*|[\x60'\"])?(?P<secret>\\d{6}(?:-\\d{6}){7})(?:\\*\\*|[\x60'\"])?(?:[\\s.,;:!?)]|$)"),
			MinLen:   24,
			Keywords: []string{"recovery key", "unlock key", "escrow key", "bitlocker key", "filevault key", "bitlocker"},
			// the key on the line below a blank one: 2 + 57 bytes
			After:    64,
			Validate: validProseRecoveryKey,
			Path:     proseFiles,
		},
		{
			ID:          RuleRecoveryCodes,
			Description: "one-time recovery codes listed under their label (Backup codes for the 2FA: then xxxx-xxxx)",
			builtinRE: builtinExpr("(?i)\\b(?:backup|recovery|2fa|mfa)[ \\t]+codes\\b[^\\n]{0,96}?:[ \\t]*\\n(?:[ \\t]*\\n)?(?:[ \\t]*(?:\x60\x60\x60|~~~)[^\\n]{0,16}\\n)?" +
				"[ \\t]*(?:[-*][ \\t]+)?[\x60]?(?P<secret>[a-z0-9]{4,5}-[a-z0-9]{4,5}|\\d{8}|\\d{4,5}[ -]\\d{4,5})[\x60]?[ \\t]*\\n"),
			MinLen:   8,
			Keywords: []string{"codes"},
			After:    64,
			Validate: validRecoveryCode,
			Path:     proseFiles,
		},
	}
})

// pinGate passes, with four digits in a row ahead, "pin" that is a word of its own or "pincode" (not
// "spin", "pinned", "pipeline"), "code" after a word that names a door
// or an alarm or with one of keypadWords on its line within pinLineReach
// bytes before or after it, "arm" and "disarm" as words, and the other
// languages' nouns; it reads a bounded few bytes around the hit.
func pinGate(data []byte, i int) bool {
	if i+1 < len(data) && isWordByte(data[i+1]) {
		return false
	}
	// the digits the rule wants, four in a row, within the reach of its
	// forms (the filler words, a question and the next chat message):
	// most nouns in prose have none ("the backend exit code before …")
	if !digitRunAhead(data, i+1, pinDigitsReach) {
		return false
	}
	if bytes.HasSuffix(bytes.ToLower(data[max(0, i-2):i+1]), []byte("pin")) {
		st := i - 2
		return st == 0 || !isLetterByte(data[st-1])
	}
	if bytes.HasSuffix(bytes.ToLower(data[max(0, i-2):i+1]), []byte("arm")) {
		st := i - 2
		if st > 2 && bytes.EqualFold(data[st-3:st], []byte("dis")) {
			st -= 3
		}
		return st == 0 || !isLetterByte(data[st-1])
	}
	if bytes.HasSuffix(bytes.ToLower(data[max(0, i-2):i+1]), []byte("puk")) {
		st := i - 2
		return st == 0 || !isLetterByte(data[st-1])
	}
	if !bytes.HasSuffix(bytes.ToLower(data[max(0, i-3):i+1]), []byte("code")) {
		return true // geheimzahl, código, codice, senha, kod
	}
	w := bytes.ToLower(data[max(0, i-16) : i-3])
	w = bytes.TrimRight(w, " \t-")
	for _, p := range []string{"pin", "door", "alarm", "disarm", "keypad", "gate", "entry", "safe", "lock", "alarmanlage", "tür", "tor", "zugangs", "eingangs", "tresor", "digi", "pass"} {
		if bytes.HasSuffix(w, []byte(p)) {
			return true
		}
	}
	return keypadOnLine(data, i-3, i+1)
}

// questionNear: the question mark at between[q], after a noun, is
// within questionReach bytes of it and ends its line within
// questionReach bytes (the expressions read "…?" with no bound, which
// costs a long line nothing).
func questionNear(between string, q int) bool {
	if q > questionReach {
		return false
	}
	nl := strings.IndexByte(between[q:], '\n')
	return nl >= 0 && nl <= questionReach
}

// questionReach bounds a question's words around its noun.
const questionReach = 96

// digitRunAhead reports four digits in a row among data[j:j+reach].
func digitRunAhead(data []byte, j, reach int) bool {
	run := 0
	for k := j; k < min(len(data), j+reach); k++ {
		if c := data[k]; c >= '0' && c <= '9' {
			if run++; run == 4 {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}

// pinDigitsReach bounds the look for a PIN's digits after its noun: six
// filler words, a copula, or a question, a blank line, the speaker's
// line and the answer's.
const pinDigitsReach = 320

// pinLineReach bounds the look for a keypad's word around a bare "code".
const pinLineReach = 64

// keypadWords name what a code opens or arms, in the languages of the
// PIN rule: a bare "code" near one is the keypad's ("New keypad on the
// server room door, code …", "code de la porte"). Each is read as a word
// of its own or the head of a compound ("lockbox", "doors"), not inside
// another word ("important", "monitor", "block").
// Left out for being other words too: "safe" (to ignore), "lock"
// (contention), "tor" (exit node), "porte" (a French verb), "accès",
// "acceso" (access denied); "porte" counts after "la".
var keypadWords = []string{"door", "keypad", "gate", "alarm", "entrance", "puerta", "porta", "portão", "tür", "alarme", "allarme", "drzwi", "cancello", "deur", "poort", "garage", "locker", "lockbox"}

// keypadTails may follow a keypad's word in its compound.
var keypadTails = []string{"", "s", "box", "'s", "’s"}

// keypadOnLine reports one of keypadWords on the line of data[st:end]
// within pinLineReach bytes before st or after end.
func keypadOnLine(data []byte, st, end int) bool {
	l := lineAround(data, st, end)
	for k := 0; k < len(l); k++ {
		if k > 0 && isLetterByte(l[k-1]) || !isLetterByte(l[k]) {
			continue
		}
		w := k
		for w < len(l) && (isLetterByte(l[w]) || l[w] == '\'' || l[w] == 0xe2 && w+2 < len(l) && l[w+1] == 0x80 && l[w+2] == 0x99) {
			if l[w] == 0xe2 {
				w += 2
			}
			w++
		}
		if keypadWord(l[k:w]) || bytes.EqualFold(l[k:w], []byte("porte")) && k >= 3 && bytes.EqualFold(l[k-3:k], []byte("la ")) {
			return true
		}
		k = w
	}
	return false
}

// lineAround is the line of data[st:end] within pinLineReach bytes
// before st and after end.
func lineAround(data []byte, st, end int) []byte {
	return data[lineStartWithin(data, st, pinLineReach):lineEndWithin(data, end, pinLineReach)]
}

// codeStatusWords on a bare "code"'s line make it an error's, a status's
// or a log's code: "Garage door error, code 4471", "acceso denegado,
// code 4471", "alarm fired, code 5003".
var codeStatusWords = map[string]bool{
	"error": true, "errors": true, "err": true, "fault": true, "fehler": true, "erreur": true, "errore": true, "błąd": true,
	"denied": true, "refusé": true, "denegado": true, "negado": true, "negato": true, "status": true, "exit": true, "log": true,
	"logs": true, "means": true, "returned": true, "returns": true, "deadlock": true, "fired": true, "failed": true, "failure": true,
}

// codeOfStatus: the line around a bare "code" at data[st:end] holds one
// of codeStatusWords.
func codeOfStatus(data []byte, st, end int) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(string(lineAround(data, st, end))), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if codeStatusWords[w] {
			return true
		}
	}
	return false
}

// codeDigitsEndClause: after a bare "code"'s digits at data[at:] the
// clause ends or goes on to the keypad's next key ("then #"), not to
// what the code means ("= battery low", ": low battery", "as the
// ticket", "du bâtiment").
func codeDigitsEndClause(data []byte, at int) bool {
	rest := data[at:]
	if nl := bytes.IndexByte(rest, '\n'); nl >= 0 {
		rest = rest[:nl]
	}
	rest = bytes.TrimLeft(rest, " \t*`'\"")
	if len(rest) == 0 || bytes.IndexByte([]byte(".,;!)#"), rest[0]) >= 0 {
		return true
	}
	return bytes.HasPrefix(bytes.ToLower(rest), []byte("then")) || bytes.HasPrefix(bytes.ToLower(rest), []byte("and press"))
}

// keypadWord: word is one of keypadWords, alone or with one of
// keypadTails, in any case.
func keypadWord(word []byte) bool {
	for _, kw := range keypadWords {
		if len(word) < len(kw) || !bytes.EqualFold(word[:len(kw)], []byte(kw)) {
			continue
		}
		for _, t := range keypadTails {
			if string(word[len(kw):]) == t {
				return true
			}
		}
	}
	return false
}

// pinGlueWords end the words between a PIN's noun and its digits when a
// copula or a verb gives them (the expression's list, a word each).
var pinGlueWords = map[string]bool{
	"is": true, "now": true, "was": true, "to": true, "es": true, "est": true, "ist": true, "lautet": true, "è": true, "é": true,
	"agora": true, "nu": true, "wordt": true, "jetzt": true, "maintenant": true, "pra": true, "para": true, "a": true, "jest": true,
	"wynosi": true,
}

// codeOpensLine: the word before a bare "code" at ctx[at] is none (a
// clause starts: "door, code 4471"), an article or a possessive ("the
// code is", "its new code"), not a word that makes it another code
// ("error code", "promo code", "zip code").
func codeOpensLine(ctx []byte, at int) bool {
	lo := max(0, at-24)
	ws := strings.Fields(string(bytes.ToLower(ctx[lo:at])))
	before := bytes.TrimRight(ctx[lo:at], " \t")
	if len(ws) == 0 || len(before) == 0 || !isLetterByte(before[len(before)-1]) {
		return true
	}
	w := ws[len(ws)-1]
	if strings.HasSuffix(w, "'s") || strings.HasSuffix(w, "’s") {
		return true
	}
	switch w {
	case "the", "its", "new", "a", "and", "with", "same", "current", "their", "our", "your", "his", "her", "le", "el", "o", "der", "die", "il", "de",
		// what opens the door: "garage door opener code"
		"opener", "remote":
		return true
	}
	return false
}

// pinOtherWords say the number after them is something else than a PIN:
// "PIN reset ticket: 4587", "PIN length: 6".
var pinOtherWords = map[string]bool{
	"ticket": true, "issue": true, "incident": true, "case": true, "request": true, "change": true, "pr": true, "jira": true,
	"length": true, "digits": true, "digit": true, "characters": true, "chars": true, "attempts": true, "tries": true, "retries": true,
	"policy": true, "version": true, "port": true, "extension": true, "ext": true, "number": true, "nummer": true, "numero": true,
	"número": true, "id": true, "ref": true, "step": true, "page": true, "count": true, "limit": true, "timeout": true, "expiry": true,
	"minimum": true, "maximum": true, "min": true, "max": true, "year": true, "since": true, "until": true, "lengte": true, "länge": true,
	"longitud": true, "longueur": true, "lunghezza": true, "gpio": true, "header": true, "board": true,
}

// pinUnitWords after the digits make them an amount: "1000 ms", "4096
// attempts".
var pinUnitWords = []string{"digits", "digit", "characters", "chars", "attempts", "tries", "times", "seconds", "minutes", "hours", "days", "ms", "mb", "kb", "bytes", "euros", "usd", "eur", "%", "złotych", "zł", "pln", "dollars",
	"series", "era", "model", "mm", "cm", "microns", "µm", "compliant", "rules", "firmware", "hardware", "edition", "rpm", "hz", "mhz", "dpi", "px"}

// pinWhoseWords open the words between the noun and its digits that say
// whose PIN it is ("for the server room", "de la tarjeta", "'s").
var pinWhoseWords = map[string]bool{
	"for": true, "of": true, "on": true, "to": true, "de": true, "del": true, "della": true, "dello": true, "des": true, "du": true,
	"da": true, "do": true, "di": true, "für": true, "fürs": true, "vom": true, "van": true, "voor": true, "pour": true, "per": true,
	"para": true, "dla": true,
}

// pinDeviceWords make the noun the name of a thing: "the PIN pad
// firmware is 2023 era", "the alarm code panel is 1200 mm …".
var pinDeviceWords = map[string]bool{
	"pad": true, "panel": true, "device": true, "model": true, "firmware": true, "system": true, "lock": true, "entry": true,
	"reader": true, "terminal": true, "hardware": true, "keypad": true, "module": true, "unit": true, "sensor": true,
	"type": true, "format": true, "field": true, "chip": true, "button": true, "screen": true, "prompt": true, "scheme": true,
	"generator": true, "mechanism": true, "layout": true, "series": true, "spacing": true, "pitch": true,
}

// pinQuestionOpeners start a question that a date, a place, a count or
// a year answers, not a PIN: "Where do I reset my PIN?", "How many times
// can you enter a wrong PIN?".
var pinQuestionOpeners = []string{"when ", "where ", "how many ", "how long ", "how often ", "which year ", "what year "}

// pinQuestionAsksIt: the question on the line of data[at:q] (its noun at
// data[at], its mark at data[q]) asks for the PIN itself: it opens with
// none of pinQuestionOpeners and holds none of pinOtherWords ("What's the
// ticket number for the PIN reset?").
func pinQuestionAsksIt(data []byte, at, q int) bool {
	st := bytes.LastIndexByte(data[max(0, at-questionReach):at], '\n') + 1 + max(0, at-questionReach)
	line := strings.ToLower(string(data[st:q]))
	line = strings.TrimLeft(line, " \t*>-")
	for _, o := range pinQuestionOpeners {
		if strings.HasPrefix(line, o) {
			return false
		}
	}
	for _, w := range strings.FieldsFunc(line, func(r rune) bool { return !unicode.IsLetter(r) }) {
		if pinOtherWords[w] {
			return false
		}
	}
	return true
}

// pinWiringWords name a board's pins and signals: "Connect PIN 1024
// (GPIO) to the LED", "PIN 1011 is TX".
var pinWiringWords = map[string]bool{
	"gpio": true, "header": true, "headers": true, "pinout": true, "tx": true, "rx": true, "led": true, "gnd": true, "vcc": true,
	"pwm": true, "uart": true, "sda": true, "scl": true, "miso": true, "mosi": true, "resistor": true, "breadboard": true,
	"board": true, "port": true, "volts": true, "ohm": true,
}

// pinWiringVerbs before the noun make it a board's pin: "connect PIN
// 1024", "solder pin 7".
var pinWiringVerbs = map[string]bool{"connect": true, "solder": true, "route": true, "wire": true, "jumper": true, "plug": true, "short": true}

// pinOfWiring: the noun at data[at] is a board's pin, a wiring verb
// right before it, or a word of pinWiringWords among the few after its
// digits (rest), in parentheses too. Not all of pinOtherWords: "the PIN
// is 4821 until Friday" is a PIN.
func pinOfWiring(data []byte, at int, rest []byte) bool {
	// (word by word in place: a line of PINs has a finding every few
	// bytes, and lower-cased copies split into fields cost each a few
	// allocations)
	if at > 0 && data[at-1] == ' ' && inASCIIWords(pinWiringVerbs, lastField(data[max(0, at-16):at])) {
		return true
	}
	rest = rest[:min(len(rest), 32)]
	if nl := bytes.IndexByte(rest, '\n'); nl >= 0 {
		rest = rest[:nl]
	}
	for k, words := 0, 0; k < len(rest) && words < 3; {
		r, n := utf8.DecodeRune(rest[k:])
		if !unicode.IsLetter(r) {
			k += n
			continue
		}
		e := k + n
		for e < len(rest) {
			r, n := utf8.DecodeRune(rest[e:])
			if !unicode.IsLetter(r) {
				break
			}
			e += n
		}
		if inASCIIWords(pinWiringWords, rest[k:e]) {
			return true
		}
		k, words = e, words+1
	}
	return false
}

// lastField is the last run of b between white space (as strings.Fields
// splits), empty when b holds none.
func lastField(b []byte) []byte {
	e := len(b)
	for e > 0 {
		r, n := utf8.DecodeLastRune(b[:e])
		if !unicode.IsSpace(r) {
			break
		}
		e -= n
	}
	st := e
	for st > 0 {
		r, n := utf8.DecodeLastRune(b[:st])
		if unicode.IsSpace(r) {
			break
		}
		st -= n
	}
	return b[st:e]
}

// inASCIIWords reports whether w, lower-cased, is one of words, which
// are ASCII. A word with a byte outside ASCII is lowered by strings.ToLower
// as before: İ lowers to i and the Kelvin sign to k ("GPİO" is "gpio").
func inASCIIWords(words map[string]bool, w []byte) bool {
	var buf [16]byte
	if len(w) > len(buf) {
		return words[strings.ToLower(string(w))]
	}
	for i, c := range w {
		if c >= 0x80 {
			return words[strings.ToLower(string(w))]
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	return words[string(buf[:len(w)])]
}

func validProsePIN(c Candidate) bool {
	v := c.Secret
	if placeholderDigits(v) {
		return false
	}
	key := c.Key
	at := subOffset(c.Context, key)
	between := strings.ToLower(string(c.Context[at+len(key) : c.Offset]))
	// a question's words are read, not its answer's speaker and time
	question := false
	if q := strings.IndexByte(between, '?'); q >= 0 {
		if !questionNear(between, q) {
			return false
		}
		question, between = true, between[:q]
		if !pinQuestionAsksIt(c.Context, at, at+len(key)+q) || yearDigits(v) {
			return false
		}
	}
	ws := strings.FieldsFunc(between, func(r rune) bool {
		return r == ' ' || r == '\t' || r == ':' || r == '=' || r == '*' || r == '(' || r == ')' || r == ',' || r == '?'
	})
	lkey := strings.ToLower(string(key))
	// the digits right after the noun, no copula or colon between: only
	// with no word between ("PIN 8824", not "PIN for the safe 8824") and
	// the noun written as one ("PIN", not the verb "pin 4096")
	if !question && !strings.ContainsAny(between, ":=：") && (len(ws) == 0 || !pinGlueWords[ws[len(ws)-1]]) {
		if len(ws) > 0 || string(key) == "pin" || string(key) == "Pin" {
			return false
		}
	}
	// a bare "code": a keypad's, named on its line, not an error's or a
	// product's ("error code 4471 on the door panel")
	if lkey == "code" && (!codeOpensLine(c.Context, at) || !keypadOnLine(c.Context, at, at+len(key)) ||
		codeOfStatus(c.Context, at, at+len(key)) || yearDigits(v) || len(ws) == 0 && !codeDigitsEndClause(c.Context, c.Offset+len(v))) {
		return false
	}
	// words that say whose PIN it is may name a thing ("for the door
	// panel"); without them, a thing named right after the noun makes the
	// noun its name ("PIN pad model: 8006")
	whose := len(ws) > 0 && (pinWhoseWords[ws[0]] || strings.HasPrefix(between, "'s") || strings.HasPrefix(between, "’s"))
	for _, w := range ws {
		if pinOtherWords[w] || !whose && pinDeviceWords[w] {
			return false
		}
	}
	// a PIN of a pin header or a GPIO: "pin 13", not digits a copula gives,
	// but "the pin count is 2048" is a word's
	rest := c.Context[c.Offset+len(v):]
	if pinOfWiring(c.Context, at, rest) {
		return false
	}
	rest = bytes.TrimLeft(rest, "*`'\"")
	if len(rest) >= 2 && bytes.IndexByte([]byte(".,:/-"), rest[0]) >= 0 && isDigitByte(rest[1]) {
		return false // a version, a date, a time, a range: 2024.11, 4-8
	}
	r := strings.ToLower(string(rest[:min(len(rest), 16)]))
	r = strings.TrimLeft(r, " \t")
	// a year a word goes on from ("2024 compliant", "2019 and is now a
	// fingerprint"), a size ("1024 in the chart"), or a status code a dash
	// describes ("4587 - low battery")
	if len(r) > 0 && isLetterByte(r[0]) && (yearDigits(v) || powerOfTwo(v)) {
		return false
	}
	if len(r) > 2 && (strings.HasPrefix(r, "- ") || strings.HasPrefix(r, "– ") || strings.HasPrefix(r, "— ")) {
		return false
	}
	for _, u := range pinUnitWords {
		if strings.HasPrefix(r, u) && (len(r) == len(u) || !isLetterByte(r[len(u)])) {
			return false
		}
	}
	return true
}

// yearDigits: 1900 to 2099.
func yearDigits(v []byte) bool {
	return len(v) == 4 && (v[0] == '1' && v[1] == '9' || v[0] == '2' && v[1] == '0')
}

// powerOfTwo: 1024 to 65536, a size or a count.
func powerOfTwo(v []byte) bool {
	switch string(v) {
	case "1024", "2048", "4096", "8192", "16384", "32768", "65536":
		return true
	}
	return false
}

// placeholderDigits: digits that stand in for a PIN (0000, 1234, 123456,
// 9876, 1212, 112233): one digit repeated, a run up or down, a pair
// repeated, or each digit doubled.
func placeholderDigits(v []byte) bool {
	if allSame(v) {
		return true
	}
	up, down := true, true
	for i := 1; i < len(v); i++ {
		d := int(v[i]) - int(v[i-1])
		up = up && (d == 1 || d == -9)
		down = down && (d == -1 || d == 9)
	}
	if up || down {
		return true
	}
	pair := len(v)%2 == 0
	for i := 2; i < len(v) && pair; i++ {
		pair = v[i] == v[i-2]
	}
	doubled := len(v)%2 == 0
	for i := 0; i+1 < len(v) && doubled; i += 2 {
		doubled = v[i] == v[i+1]
	}
	return pair || doubled
}

// passphraseNonWords are words of the sentences that describe a
// passphrase, not of one, and the best-known published example (correct
// horse battery staple).
var passphraseNonWords = map[string]bool{
	"the": true, "and": true, "for": true, "with": true, "must": true, "should": true, "have": true, "has": true, "are": true,
	"was": true, "were": true, "will": true, "can": true, "not": true, "you": true, "your": true, "our": true, "their": true,
	"this": true, "that": true, "these": true, "those": true, "from": true, "into": true, "then": true, "than": true, "when": true,
	"where": true, "which": true, "what": true, "who": true, "how": true, "why": true, "use": true, "used": true, "using": true,
	"words": true, "word": true, "characters": true, "long": true, "least": true, "more": true, "less": true, "each": true,
	"every": true, "any": true, "all": true, "some": true, "three": true, "four": true, "five": true, "six": true, "seven": true,
	"eight": true, "two": true, "one": true, "random": true, "example": true, "correct": true, "horse": true, "battery": true,
	"staple": true, "passphrase": true, "password": true, "secret": true, "here": true, "there": true, "just": true, "only": true,
	"also": true, "like": true, "such": true, "about": true, "over": true, "under": true, "stored": true, "store": true,
	"vault": true, "keep": true, "kept": true, "rotate": true, "change": true, "enter": true, "type": true, "see": true,
	"set": true, "via": true, "per": true, "les": true, "des": true, "une": true, "pour": true, "avec": true, "der": true,
	"die": true, "das": true, "und": true, "mit": true, "los": true, "las": true, "una": true, "con": true, "het": true,
	"een": true, "voor": true, "met": true, "lorem": true, "ipsum": true, "dolor": true, "amet": true, "foo": true, "bar": true,
	"baz": true, "qux": true, "file": true, "key": true, "prompt": true, "protected": true, "format": true, "length": true,
	// round 20: the words of a page or a feature a password's noun
	// names ("password self-service-portal-link")
	"self": true, "service": true, "portal": true, "link": true, "reset": true, "based": true, "free": true,
	"manager": true, "policy": true, "expired": true, "expiry": true, "login": true, "page": true,
	// and of where a password is written ("written-behind-reception")
	"written": true, "printed": true, "posted": true, "behind": true, "near": true, "ask": true, "reception": true,
	"router": true, "sticker": true, "label": true, "whiteboard": true, "desk": true, "wall": true, "same": true,
}

// validPassphraseWords: four or more distinct words of three letters or
// more (a diceware draw may repeat one: "walnut tundra almond glacier
// tundra"; a word of two may sit among them: "…-sleeps-at-noon"), none
// of them a word of a sentence about passphrases.
// chatReplyWords are the words of a chat's reply, not of a passphrase:
// "nope sorry check confluence", "nobody knows anymore honestly".
var chatReplyWords = map[string]bool{
	"yes": true, "yeah": true, "yep": true, "nope": true, "sorry": true, "thanks": true, "thank": true, "please": true, "check": true,
	"ask": true, "know": true, "knows": true, "knew": true, "idea": true, "nobody": true, "anyone": true, "someone": true, "sure": true,
	"think": true, "maybe": true, "dunno": true, "honestly": true, "anymore": true, "still": true, "just": true, "not": true,
	"don't": true, "dont": true, "lol": true, "same": true, "again": true, "later": true, "there": true, "here": true, "it's": true,
	"its": true, "you": true, "your": true, "our": true, "we": true, "they": true, "him": true, "her": true, "them": true,
	"what": true, "why": true, "who": true, "where": true, "when": true, "how": true, "was": true, "were": true, "been": true,
	"changed": true, "wiki": true, "confluence": true, "slack": true, "email": true, "team": true, "lead": true, "admin": true,
}

// describingWords: one of ws ends in "ed" or "ly", a word that says how
// a password is made ("auto-generated-daily"), not one of it.
func describingWords(ws []string) bool {
	for _, w := range ws {
		if len(w) > 4 && (strings.HasSuffix(w, "ed") || strings.HasSuffix(w, "ly")) {
			return true
		}
	}
	return false
}

func validPassphraseWords(c Candidate) bool {
	ws := strings.FieldsFunc(strings.ToLower(string(c.Secret)), func(r rune) bool { return r == ' ' || r == '-' || r == '.' })
	seen := map[string]bool{}
	for _, w := range ws {
		if passphraseNonWords[w] {
			return false
		}
		if len(w) >= 3 {
			seen[w] = true
		}
	}
	k := strings.ToLower(string(c.Key))
	passwordNoun := !strings.Contains(k, "phrase") && !strings.Contains(k, "mnemonic") && !strings.Contains(k, "kennsatz") && !strings.Contains(k, "wachtzin") && !strings.Contains(k, "frase")
	// three words joined are a Wi-Fi network's password when its line
	// names the network ("Wi-Fi: network …, password mango-…")
	if len(seen) < 4 && !(len(seen) == 3 && len(ws) == 3 && passwordNoun && !describingWords(ws) && wifiBefore(c.Context, subOffset(c.Context, c.Key))) {
		return false
	}
	// an answer below a question, in blanks and unquoted, is a reply in
	// words ("nope sorry check confluence") unless none of them is a
	// reply's
	if between := c.Context[subOffset(c.Context, c.Key)+len(c.Key) : c.Offset]; bytes.IndexByte(between, '?') >= 0 && bytes.IndexByte(c.Secret, ' ') >= 0 &&
		!bytes.ContainsAny(between[len(between)-1:], "`'\"") {
		for _, w := range ws {
			if chatReplyWords[w] {
				return false
			}
		}
	}
	// a password's noun, not a passphrase's: the words right after it
	// or after a colon, a copula or a question, not after other words
	// ("Password reset self-service-…" names a page)
	if between := string(c.Context[subOffset(c.Context, c.Key)+len(c.Key) : c.Offset]); strings.IndexByte(between, '?') >= 0 && !questionNear(between, strings.IndexByte(between, '?')) {
		return false
	}
	if passwordNoun {
		between := strings.ToLower(string(c.Context[subOffset(c.Context, c.Key)+len(c.Key) : c.Offset]))
		ws := strings.Fields(strings.Trim(between, " \t\n`'\"*>"))
		if !strings.ContainsAny(between, ":：?") && len(ws) > 0 && !pinGlueWords[ws[len(ws)-1]] {
			return false
		}
	}
	return !passphraseExample(c)
}

// passphrasePasswordNouns are the password nouns of notesPasswordNouns
// written in the Latin script (the expression's \b is ASCII's).
func passphrasePasswordNouns() []string {
	var out []string
	for _, n := range notesPasswordNouns {
		if c := n[0]; 'a' <= c && c <= 'z' {
			out = append(out, n)
		}
	}
	return out
}

// passphraseGate passes the older nouns as before, and a password's noun
// that ends its word with, within passphraseReach bytes, a run of
// letters with three dashes or dots between them on its line (two on a
// line that names a Wi-Fi network: "mango-seventeen-bicycle"), or a
// colon or a question on its line and then a line of letters and blanks
// or dashes alone (the words below a label or a question): a line of
// nouns costs each hit a bounded look, most of them the rest of a line.
func passphraseGate(data []byte, i int) bool {
	for _, k := range []string{"phrase", "frase", "mnemonic", "kennsatz", "wachtzin"} {
		if i+1 >= len(k) && bytes.EqualFold(data[i+1-len(k):i+1], []byte(k)) {
			return true
		}
	}
	j := i + 1
	if j < len(data) && isWordByte(data[j]) {
		return false
	}
	// the rest of the noun's line: joined words on it, or a colon or a
	// question that puts them below
	end := min(len(data), j+passphraseReach)
	joins, below := 0, false
	wifi := 0 // wifiBefore(data, i): 0 not asked, 1 no, 2 yes
	k := j
	for ; k < end && data[k] != '\n'; k++ {
		switch b := data[k]; {
		case b == ' ' || b == '\t':
			joins = 0
		case b == '-' || b == '.':
			if k > j && isLetterByte(data[k-1]) && k+1 < end && isLetterByte(data[k+1]) {
				// three joins, two on a line that names a Wi-Fi network
				// (validPassphraseWords' three words)
				if joins++; joins == 3 {
					return true
				}
				if joins == 2 {
					if wifi == 0 { // asked once a call: blanks reset joins
						wifi = 1
						if wifiBefore(data, i) {
							wifi = 2
						}
					}
					if wifi == 2 {
						return true
					}
				}
			}
		case b == ':' || b == '?' || b == 0xef: // "：" opens with 0xef
			below = true
		}
	}
	if !below || k >= end {
		return false
	}
	// a line of letters and blanks or dashes alone below it
	lineStart, letters, other := -1, 0, false
	for ; k < end; k++ {
		switch b := data[k]; {
		case b == '\n':
			if lineStart >= 0 && letters >= 12 && !other {
				return true
			}
			lineStart, letters, other = k+1, 0, false
		case isLetterByte(b):
			letters++
		case b != ' ' && b != '\t' && b != '-' && b != '`' && b != '\'' && b != '"' && b != '>' && b != '*':
			other = true
		}
	}
	return lineStart >= 0 && end == len(data) && letters >= 12 && !other
}

// passphraseReach bounds passphraseGate's look: the noun's line and the
// two after it.
const passphraseReach = 160

// passphraseExampleWords, before the noun or between it and the words,
// make them an example of a passphrase: "Example passphrase: …", "e.g.
// passphrase: …", "should be something like …", "Bad passphrase examples:".
var passphraseExampleWords = map[string]bool{
	"example": true, "examples": true, "eg": true, "like": true, "such": true, "sample": true,
	"samples": true, "bad": true, "format": true, "generator": true, "instance": true, "demo": true, "dummy": true,
	"pattern": true, "template": true, "illustration": true, "ejemplo": true, "beispiel": true, "exemple": true,
	"voorbeeld": true, "esempio": true, "exemplo": true,
}

// passphraseExample reads the words from the start of the noun's line
// (at most 48 bytes before it) to the passphrase's words.
func passphraseExample(c Candidate) bool {
	if c.Key == nil {
		return false
	}
	at := subOffset(c.Context, c.Key)
	lo := max(0, at-48)
	if nl := bytes.LastIndexByte(c.Context[lo:at], '\n'); nl >= 0 {
		lo += nl + 1
	}
	text := strings.ToLower(string(c.Context[lo:c.Offset]))
	if strings.Contains(text, "e.g.") || strings.Contains(text, "i.e.") {
		return true
	}
	for _, w := range strings.FieldsFunc(text, func(r rune) bool { return r < 'a' || r > 'z' }) {
		if passphraseExampleWords[w] {
			return true
		}
	}
	return false
}

func validProseBearer(c Candidate) bool {
	v := c.Secret
	if referenceInValue(v) || isPlaceholder(v, true) || wordListRE.Match(v) || identifierValue(v) || allSame(v) {
		return false
	}
	return mixedClasses(v) && c.secretEntropy() >= 3.5
}

// recoveryKeyOtherWords say the value after them is no key but its
// digest, its fingerprint or a reference to it.
var recoveryKeyOtherWords = map[string]bool{
	"fingerprint": true, "hash": true, "digest": true, "checksum": true, "sha": true, "sha1": true, "sha256": true, "md5": true,
	"id": true, "identifier": true, "commit": true, "version": true, "ticket": true, "thumbprint": true,
}

func validProseRecoveryKey(c Candidate) bool {
	v := c.Secret
	key := c.Key
	at := subOffset(c.Context, key)
	if bytes.IndexByte(c.Context[at:c.Offset], '\n') >= 0 {
		// the key below its label: only a BitLocker key, by its checksum
		return bitLockerKey(v)
	}
	for _, w := range strings.Fields(strings.ToLower(string(c.Context[at+len(key) : c.Offset]))) {
		if recoveryKeyOtherWords[strings.Trim(w, ":=*`'\"")] {
			return false
		}
	}
	if isPlaceholder(v, true) || allSame(v) {
		return false
	}
	return Entropy(v) >= 3
}

// bitLockerKey reports a BitLocker recovery password: eight groups of six
// digits, each a multiple of eleven (Microsoft documents the check); a
// random 48 digits in that shape passes one time in 11^8, a key typed
// out as an example ("123456-…") does not. Not the narrower bound (each
// group under 720896, eleven times a 16-bit number): a key copied by
// hand into a note keeps its multiples of eleven and the label above it
// names it already.
func bitLockerKey(v []byte) bool {
	groups := bytes.Split(v, []byte("-"))
	if len(groups) != 8 {
		return false
	}
	for _, g := range groups {
		n, err := strconv.Atoi(string(g))
		if err != nil || len(g) != 6 || n%11 != 0 {
			return false
		}
	}
	return !allSame(bytes.ReplaceAll(v, []byte("-"), nil))
}

// validRecoveryCode: letters and digits both, or digits that are no
// placeholder (00000000, 12345678).
func validRecoveryCode(c Candidate) bool {
	v := c.Secret
	digits := bytes.Map(func(r rune) rune {
		if '0' <= r && r <= '9' {
			return r
		}
		return -1
	}, v)
	if len(digits) == len(v)-bytes.Count(v, []byte("-"))-bytes.Count(v, []byte(" ")) {
		return !placeholderDigits(digits)
	}
	return hasDigit(v) && (hasLower(v) || hasUpper(v)) && !isPlaceholder(v, true)
}
