package main

import (
	"bufio"
	"crypto/sha256"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// urandomCmd is the scenarios' source of drawn bytes ("urandom N" prints
// N), in place of /dev/urandom: the values a scenario draws are still
// made at run time, so no committed file holds a credential, but the
// same on every run. Drawn from /dev/urandom, a value that one of the
// engine's judgements misreads one time in a thousand failed CI one run
// in thirty; how often drawn values are missed is measured by the Go
// tests, on thousands of seeded draws, not by a flaky scenario.
//
// The stream is seeded by the scenario's name and by how many times it
// was called before in that scenario (counted in $WORK), so each call
// draws other bytes.
func urandomCmd() {
	n, err := strconv.Atoi(strings.Join(os.Args[1:], ""))
	if err != nil || n < 0 {
		fmt.Fprintln(os.Stderr, "usage: urandom N")
		os.Exit(2)
	}
	seed := os.Getenv("SOTVET_DRAW_SEED")
	count := filepath.Join(os.Getenv("WORK"), ".urandom-calls")
	calls := 0
	if b, err := os.ReadFile(count); err == nil {
		calls, _ = strconv.Atoi(strings.TrimSpace(string(b)))
	}
	if err := os.WriteFile(count, []byte(strconv.Itoa(calls+1)), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "urandom:", err)
		os.Exit(1)
	}
	r := rand.NewChaCha8(sha256.Sum256(fmt.Appendf(nil, "%s\x00%d", seed, calls)))
	w := bufio.NewWriter(os.Stdout)
	buf := make([]byte, 8)
	for i := 0; i < n; i += 8 {
		r.Read(buf)
		w.Write(buf[:min(8, n-i)])
	}
	if err := w.Flush(); err != nil {
		os.Exit(1)
	}
}
