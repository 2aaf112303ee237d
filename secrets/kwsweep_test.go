package secrets

import (
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// keywordLineShapes builds, for a keyword, the one-line and keyword-only
// inputs issue 33's point 5 names: the keyword and a plausible value
// repeated on one line, the keyword alone, the keyword and a separator,
// and lines of nothing but the keyword.
func keywordLineShapes(kw string) map[string]string {
	value := "Xq7!mPa9z"
	last := kw[len(kw)-1]
	sep := ": "
	switch {
	case last == '=' || last == ':':
		sep = ""
	case last == '_' || last == '-' || last == '.' || last == '/':
		// a prefix: a token's body follows it
		sep, value = "", "Xq7mPa9zK2vB8nR4tW6yL3hJ5cD0fG1s"
	}
	if sep == "" && (last == ':' || last == '=') {
		sep = " "
	}
	return map[string]string{
		"value": kw + sep + value + " ",
		"alone": kw + " ",
		"sep":   kw + strings.TrimRight(sep, " ") + ": ",
		"lines": kw + "\n",
	}
}

// sweepPhrases are the phrases issue 33's rounds measured as the slowest
// one-line files, beside every keyword's shapes.
var sweepPhrases = []string{
	"PIN 48213, ", "pw Lisbon#2023 ", "clave: Xq7!mPa9z ", "password: " + "Xq7!mPa9z ",
	"Hasło do VPN: Xq7!mPa9z ", "senha 48213, ", "şifre: Xq7!mPa9z ",
	"lösenordet till wifi är Xq7!mPa9z ", "AKIA", "ghp_", "password=", "-----BEGIN ",
}

// BenchmarkKeywordLines builds, for every keyword of every rule (and the
// phrases of sweepPhrases), a line of it repeated with a plausible value,
// alone, with a separator, and lines of it alone (keywordLineShapes), scans
// each at SOTVET_SWEEP_KB (64 by default) and prints the slowest
// (SOTVET_SWEEP_TOP, 30) with prose's time, then scans those at 4 MB,
// each with a fresh scanner. Select keywords with SOTVET_SWEEP=regexp.
//
//	go test ./secrets -run XXX -bench KeywordLines -benchtime 1x -v
func BenchmarkKeywordLines(b *testing.B) {
	// Each shape gets a fresh scanner, with a filter budget of its own
	// (a scanner's filters ran out of states after a few hundred shapes:
	// "ww " 7.5 s at 4 MB in the sweep, 0.04 s alone).
	fresh := func() *Scanner { return defaultScanner(b) }
	s := fresh()
	kb, top := 64, 30
	if v, err := strconv.Atoi(os.Getenv("SOTVET_SWEEP_KB")); err == nil {
		kb = v
	}
	if v, err := strconv.Atoi(os.Getenv("SOTVET_SWEEP_TOP")); err == nil {
		top = v
	}
	sel, err := regexp.Compile(os.Getenv("SOTVET_SWEEP"))
	if err != nil {
		b.Fatal(err)
	}
	rep := func(p string, n int) []byte { return []byte(strings.Repeat(p, n/len(p)+1)[:n]) }
	type shape struct {
		name, phrase, rules string
		cpu                 time.Duration
	}
	byPhrase := map[string]*shape{}
	add := func(name, phrase, rule string) {
		if !sel.MatchString(phrase) {
			return
		}
		if sh, ok := byPhrase[phrase]; ok {
			if !strings.Contains(sh.rules, rule) {
				sh.rules += "," + rule
			}
			return
		}
		byPhrase[phrase] = &shape{name: name, phrase: phrase, rules: rule}
	}
	for _, p := range sweepPhrases {
		add("phrase", p, "-")
	}
	for _, r := range s.Rules() {
		for _, k := range r.Keywords {
			for kind, p := range keywordLineShapes(k) {
				add(kind, p, r.ID)
			}
		}
	}
	shapes := make([]*shape, 0, len(byPhrase))
	for _, sh := range byPhrase {
		shapes = append(shapes, sh)
	}
	sort.Slice(shapes, func(i, j int) bool { return shapes[i].phrase < shapes[j].phrase })
	prose := func(n int) time.Duration {
		return scanCPU(s, rep(string(benchCorpus()), n), 1)
	}
	b.ResetTimer()
	for range b.N {
		n := kb << 10
		for i, sh := range shapes {
			if i%64 == 0 {
				s = fresh()
			}
			s.Scan("warm.txt", rep(sh.phrase, 4<<10)) // compiles what it wakes
			sh.cpu = scanCPU(s, rep(sh.phrase, n), 1)
		}
		sort.Slice(shapes, func(i, j int) bool { return shapes[i].cpu > shapes[j].cpu })
		b.Logf("%d shapes at %d KB; prose %.1f ms", len(shapes), kb, float64(prose(n))/1e6)
		for _, sh := range shapes[:min(top, len(shapes))] {
			s = fresh()
			big := scanCPU(s, rep(sh.phrase, 4<<20), 1)
			b.Logf("%8.1f ms at %d KB %8.1f ms at 4 MB  %-6s %-40q %.60s", float64(sh.cpu)/1e6, kb, float64(big)/1e6, sh.name, sh.phrase, sh.rules)
		}
		s = fresh()
		b.Logf("prose at 4 MB %.1f ms", float64(prose(4<<20))/1e6)
	}
}
