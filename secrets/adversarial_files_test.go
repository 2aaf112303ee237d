package secrets

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestWriteAdversarialFiles writes each of adversarial()'s shapes to a
// file of its own under $SOTVET_ADVERSARIAL_OUT, for
// scripts/adversarial.sh to time sotvet scan on, a file a run, as a user
// meets such a file. Each is NNN/adv.txt, and shapes.tsv names them: a
// shape's name may hold "/" or "|", or a word a path makes mean
// something to the rules ("test": test code). The size is
// $SOTVET_ADVERSARIAL_SIZE bytes, by default 4 MiB: what scan reads a
// file up to unless told otherwise. Skipped unless the directory is set.
func TestWriteAdversarialFiles(t *testing.T) {
	dir := os.Getenv("SOTVET_ADVERSARIAL_OUT")
	if dir == "" {
		t.Skip("SOTVET_ADVERSARIAL_OUT unset: scripts/adversarial.sh sets it")
	}
	size := 4 << 20
	if s := os.Getenv("SOTVET_ADVERSARIAL_SIZE"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("SOTVET_ADVERSARIAL_SIZE=%q: want a size in bytes", s)
		}
		size = n
	}
	gens := adversarial()
	var index strings.Builder
	for i, name := range slices.Sorted(maps.Keys(gens)) {
		sub := filepath.Join(dir, fmt.Sprintf("%03d", i))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(sub, "adv.txt"), gens[name](size), 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&index, "%03d\t%s\n", i, name)
	}
	if err := os.WriteFile(filepath.Join(dir, "shapes.tsv"), []byte(index.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}
