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
//	go run -tags devtools ./scripts/gen-secrets-tree -samples samples.jsonl -out DIR [-tiny]
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	samples := flag.String("samples", "", "JSON-lines file of {rule, tp, fp} (scripts/gitleaks-samples.sh)")
	out := flag.String("out", "", "directory to create")
	tiny := flag.Bool("tiny", false, "write one two-line file per one-line true positive instead")
	flag.Parse()
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
