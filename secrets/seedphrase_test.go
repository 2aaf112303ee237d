package secrets

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// seedPhraseOf draws n words of the list (none twice, as a wallet's
// phrase mostly is), in the order drawn.
func seedPhraseOf(rng *rand.Rand, n int) []string {
	words := strings.Fields(bip39English)
	seen := map[int]bool{}
	var out []string
	for len(out) < n {
		i := rng.IntN(len(words))
		if !seen[i] {
			seen[i] = true
			out = append(out, words[i])
		}
	}
	return out
}

// TestSeedPhraseForms: a phrase is found however it is written down, and
// the finding spans its words, from the first to the last.
func TestSeedPhraseForms(t *testing.T) {
	s := defaultScanner(t)
	rng := rand.New(rand.NewPCG(27, 1))
	numbered := func(ws []string, format, sep string) string {
		var b strings.Builder
		for i, w := range ws {
			if i > 0 {
				b.WriteString(sep)
			}
			fmt.Fprintf(&b, format, i+1, w)
		}
		return b.String()
	}
	forms := []struct {
		name, path string
		write      func(ws []string) (text, phrase string)
	}{
		{"one line", "notes.md", func(ws []string) (string, string) {
			p := strings.Join(ws, " ")
			return "Ledger backup\n\n" + p + "\n", p
		}},
		{"two lines", "wallet.txt", func(ws []string) (string, string) {
			p := strings.Join(ws[:len(ws)/2], " ") + "\n" + strings.Join(ws[len(ws)/2:], " ")
			return "words, in order\n" + p + "\n\nkept in the safe\n", p
		}},
		{"numbered list", "handover.md", func(ws []string) (string, string) {
			p := numbered(ws, "%d. %s", "\n")
			return "## Wallet\n\n" + p + "\n", strings.TrimPrefix(p, "1. ")
		}},
		{"numbered on one line", "note.md", func(ws []string) (string, string) {
			p := numbered(ws, "%02d) %s", "  ")
			return "Phrase de récupération :\n" + p + "\n", strings.TrimPrefix(p, "01) ")
		}},
		{"table", "inventory.md", func(ws []string) (string, string) {
			p := numbered(ws, "| %d | %s |", "\n")
			return "| # | word |\n|---|---|\n" + p + "\n", strings.TrimSuffix(strings.TrimPrefix(p, "| 1 | "), " |")
		}},
		{"middle dots", "备份.md", func(ws []string) (string, string) {
			p := strings.Join(ws, " · ")
			return "助记词（顺序不能错）：\n" + p + "\n", p
		}},
		{"ideographic commas", "メモ.md", func(ws []string) (string, string) {
			p := strings.Join(ws, "、")
			return "リカバリーフレーズ\n" + p + "\n", p
		}},
		{"upper case", "scan.txt", func(ws []string) (string, string) {
			p := strings.ToUpper(strings.Join(ws, " "))
			return p + "\n", p
		}},
		{"first word capitalised", "chat.md", func(ws []string) (string, string) {
			p := strings.ToUpper(ws[0][:1]) + strings.Join(ws, " ")[1:]
			return "**Sam** 21:04\n" + p + "\n", p
		}},
		{"dashes", "todo.md", func(ws []string) (string, string) {
			p := strings.Join(ws, "-")
			return "- [ ] move " + p + " to the steel plate\n", p
		}},
		{"env file", ".env", func(ws []string) (string, string) {
			p := strings.Join(ws, " ")
			return "RPC_URL=http://localhost:8545\nDEPLOYER_MNEMONIC=\"" + p + "\"\n", p
		}},
		{"json array", "wallet.json", func(ws []string) (string, string) {
			p := strings.Join(ws, `", "`)
			return `{"mnemonic": ["` + p + `"]}` + "\n", p
		}},
		{"go literal", "deploy_test.go", func(ws []string) (string, string) {
			p := strings.Join(ws, " ")
			return "package deploy\n\nconst mnemonic = `" + p + "`\n", p
		}},
	}
	for _, n := range []int{12, 15, 18, 24} {
		for _, f := range forms {
			text, phrase := f.write(seedPhraseOf(rng, n))
			want := strings.Index(text, phrase)
			if want < 0 {
				t.Fatalf("%s: phrase not in text", f.name)
			}
			var got []string
			found := false
			for _, fd := range s.Scan(f.path, []byte(text)) {
				if fd.RuleID == RuleSeedPhrase && fd.Start == want && fd.End == want+len(phrase) {
					found = true
					continue
				}
				got = append(got, fmt.Sprintf("%s %d-%d", fd.RuleID, fd.Start, fd.End))
			}
			if !found || len(got) > 0 {
				t.Errorf("%s, %d words: want one seed-phrase at %d-%d, found %v besides (found it: %v)\n%s", f.name, n, want, want+len(phrase), got, found, text)
			}
		}
	}
}

// TestSeedPhraseNone: runs of words that are no phrase.
func TestSeedPhraseNone(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 2))
	words := strings.Fields(bip39English)
	vectors := strings.Split(strings.TrimSpace(bip39Vectors), "\n")
	p := seedPhraseOf(rng, 12)
	cases := map[string]string{
		"eleven words":          strings.Join(p[:11], " "),
		"a word of the label":   "Recovery phrase: " + strings.Join(p[:11], " "),
		"halves a blank apart":  strings.Join(p[:6], " ") + "\n\n" + strings.Join(p[6:], " "),
		"a word between":        strings.Join(p[:6], " ") + " kraken " + strings.Join(p[6:], " "),
		"a cyrillic word":       strings.Join(p[:6], " ") + " и " + strings.Join(p[6:], " "),
		"a glued digit":         strings.Join(p[:6], " ") + " " + p[6] + "2 " + strings.Join(p[7:], " "),
		"identifiers":           strings.Join(p, "_"),
		"mixed case":            strings.Join(p[:6], " ") + " " + "aBout" + " " + strings.Join(p[7:], " "),
		"cases changing":        strings.Join(p[:6], " ") + " " + strings.ToUpper(strings.Join(p[6:], " ")),
		"far apart":             strings.Join(p, " ,;;;;;;;;;;;;;;;;;; "),
		"assignments":           strings.Join(p, "=1 "),
		"the list in its order": strings.Join(words[500:530], "\n"),
		"a list too long":       strings.Join(seedPhraseOf(rng, 40), " "),
		"a test vector":         "const m = \"" + vectors[5] + "\"",
		"vectors one a line":    strings.Join(vectors, "\n"),
		"a word drawn again":    strings.Repeat(p[0]+" ", 11) + p[1],
		"hardhat's default":     "test test test test test test test test test test test junk",
		"truffle's default":     publicSeedPhrases[0],
		"defaults side by side": publicSeedPhrases[0] + "\n" + publicSeedPhrases[1],
		"prose":                 "Write the twelve words on paper, keep them offline in the safe, and never type them into any website, form or chat window.",
	}
	for name, text := range cases {
		var got []string
		findSeedPhrases([]byte(text), nil, func(s, e int) { got = append(got, Mask(text[s:e])) })
		if len(got) > 0 {
			t.Errorf("%s: found %d phrases", name, len(got))
		}
	}
}

// TestSeedPhraseLongInput: a file of listed words (a word list, a dump)
// is read once and keeps no run past seedRunCap.
func TestSeedPhraseLongInput(t *testing.T) {
	sequentialSweep(t)
	rng := rand.New(rand.NewPCG(27, 3))
	var b strings.Builder
	for b.Len() < 1<<20 {
		b.WriteString(strings.Join(seedPhraseOf(rng, 12), " ") + " ")
	}
	n := 0
	allocs := testing.AllocsPerRun(2, func() {
		findSeedPhrases([]byte(b.String()), nil, func(int, int) { n++ })
	})
	if n != 0 {
		t.Errorf("a megabyte of listed words gave %d phrases", n)
	}
	if allocs > 20 {
		t.Errorf("%.0f allocations for one run of words: the run grew past its cap", allocs)
	}
}

// TestSeedPhraseLines: phrases written one a line, more than a run holds,
// are each found, the last lines too (two lines of 15 or more words are
// more than a phrase; two of 12 may be one phrase wrapped, and are
// reported as one).
func TestSeedPhraseLines(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 4))
	var lines []string
	for range 203 {
		lines = append(lines, strings.Join(seedPhraseOf(rng, 15+3*rng.IntN(4)), " "))
	}
	text := strings.Join(lines, "\n") + "\n"
	var got []string
	findSeedPhrases([]byte(text), nil, func(s, e int) { got = append(got, text[s:e]) })
	if len(got) != len(lines) {
		t.Fatalf("found %d phrases in %d lines", len(got), len(lines))
	}
	for i := range got {
		if got[i] != lines[i] {
			t.Errorf("phrase %d: found %s, want %s", i, Mask(got[i]), Mask(lines[i]))
		}
	}
}

func BenchmarkSeedPhrases(b *testing.B) {
	data := benchCorpus()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		findSeedPhrases(data, nil, func(int, int) { b.Fatal("a phrase in prose") })
	}
}
