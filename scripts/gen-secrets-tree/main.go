//go:build devtools

// Command gen-secrets-tree writes the tree issue 19 measured on: each of
// gitleaks' labelled samples (scripts/gitleaks-samples.sh), duplicates
// removed, as DIR/{tp,fp}/NNNNN/config.env and inside a fenced block of
// DIR/{tp,fp}/NNNNN/note.md. scripts/bench.sh scans it with sotvet and
// gitleaks side by side.
//
// With -tiny it writes the tree of tiny files instead (issue 33 point 6):
// each one-line true positive of every rule as DIR/NNNNN.env, two lines, the
// service the key belongs to and the sample, so that nearly every file holds
// a finding and the cost per file and per finding is what is measured.
//
// With -allkw it writes the tree dense with every rule's keywords (issue 33
// point 5, the memory of a scan that wakes every rule): files of ~64 KB
// (-filesize), -size bytes in all (17 MB by default), of lines that put each keyword of
// each of the default rules (secrets.DefaultRules) in an assignment, a
// prose sentence and a token-like value, the values pseudo-random from a
// fixed seed: every rule is woken, compiled and searched, and the tree is
// the same on every run. It reads no samples.
//
//	go run -tags devtools ./scripts/gen-secrets-tree -samples samples.jsonl -out DIR [-tiny]
//	go run -tags devtools ./scripts/gen-secrets-tree -allkw -out DIR [-size BYTES]
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/svrnty/sotvet/secrets"
)

func main() {
	samples := flag.String("samples", "", "JSON-lines file of {rule, tp, fp} (scripts/gitleaks-samples.sh)")
	out := flag.String("out", "", "directory to create")
	tiny := flag.Bool("tiny", false, "write one two-line file per one-line true positive instead")
	allkw := flag.Bool("allkw", false, "write files dense with every rule's keywords instead (no samples)")
	size := flag.Int("size", 17<<20, "with -allkw, the tree's size in bytes")
	fileSize := flag.Int("filesize", 64<<10, "with -allkw, each file's size in bytes")
	flag.Parse()
	if *allkw && *out != "" {
		if err := runAllKW(*out, *size, *fileSize); err != nil {
			fmt.Fprintln(os.Stderr, "gen-secrets-tree:", err)
			os.Exit(1)
		}
		return
	}
	if *samples == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: gen-secrets-tree -samples FILE -out DIR")
		os.Exit(2)
	}
	gen := run
	if *tiny {
		gen = runTiny
	}
	if err := gen(*samples, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gen-secrets-tree:", err)
		os.Exit(1)
	}
}

func run(samples, out string) error {
	f, err := os.Open(samples)
	if err != nil {
		return err
	}
	defer f.Close()
	seen := map[string]bool{}
	n := 0
	write := func(kind, text string) error {
		if text == "" || seen[kind+"\x00"+text] {
			return nil
		}
		seen[kind+"\x00"+text] = true
		d := filepath.Join(out, kind, fmt.Sprintf("%05d", n))
		n++
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(d, "config.env"), []byte(text), 0o644); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(d, "note.md"), []byte("# Note\n\n```\n"+text+"\n```\n"), 0o644)
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var rec struct{ TP, FP []string }
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return err
		}
		for _, s := range rec.TP {
			if err := write("tp", s); err != nil {
				return err
			}
		}
		for _, s := range rec.FP {
			if err := write("fp", s); err != nil {
				return err
			}
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "gen-secrets-tree: %d samples, %d files in %s\n", n, 2*n, out)
	return nil
}

// runTiny writes DIR/NNNNN.env for each distinct one-line true positive:
// "service: RULE" and the sample line.
func runTiny(samples, out string) error {
	f, err := os.Open(samples)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	seen := map[string]bool{}
	n := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var rec struct {
			Rule string
			TP   []string
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return err
		}
		for _, s := range rec.TP {
			s = strings.TrimSpace(s)
			if s == "" || strings.Contains(s, "\n") || seen[s] {
				continue
			}
			seen[s] = true
			text := "service: " + rec.Rule + "\n" + s + "\n"
			if err := os.WriteFile(filepath.Join(out, fmt.Sprintf("%05d.env", n)), []byte(text), 0o644); err != nil {
				return err
			}
			n++
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "gen-secrets-tree: %d files in %s\n", n, out)
	return nil
}

// runAllKW writes DIR/NNNN.txt, ~fileSize bytes each, size bytes in all, cycling
// through every keyword of every default rule: per keyword an assignment
// of a token-like value to a name holding it, the keyword glued to a
// token, and a sentence naming it beside a value.
func runAllKW(out string, size, fileSize int) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	var kws []string
	for _, r := range secrets.DefaultRules() {
		kws = append(kws, r.Keywords...)
	}
	if len(kws) == 0 {
		return fmt.Errorf("the default rules have no keywords")
	}
	rng := rand.New(rand.NewPCG(33, 5))
	const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	token := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = alnum[rng.IntN(len(alnum))]
		}
		return string(b)
	}
	var b strings.Builder
	written, files, k := 0, 0, 0
	for written < size {
		b.Reset()
		for b.Len() < fileSize {
			kw := kws[k%len(kws)]
			k++
			name := strings.Map(func(r rune) rune {
				if r == ' ' || r == '-' || r == '.' {
					return '_'
				}
				return r
			}, strings.TrimSpace(kw))
			fmt.Fprintf(&b, "%s_key = \"%s\"\n", name, token(20+rng.IntN(40)))
			fmt.Fprintf(&b, "value: %s%s\n", kw, token(16+rng.IntN(48)))
			fmt.Fprintf(&b, "The %s for staging is %s, rotate it monthly.\n", kw, token(24+rng.IntN(24)))
		}
		if err := os.WriteFile(filepath.Join(out, fmt.Sprintf("%04d.txt", files)), []byte(b.String()), 0o644); err != nil {
			return err
		}
		written += b.Len()
		files++
	}
	fmt.Fprintf(os.Stderr, "gen-secrets-tree: %d keywords, %d files, %d bytes in %s\n", len(kws), files, written, out)
	return nil
}
