package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/svrnty/sotvet/internal/safefs"
	"github.com/svrnty/sotvet/secrets"
)

// loadGitleaksIgnore reads the .gitleaksignore of the current directory
// and of every directory scanned, as gitleaks reads the one at its source
// root, so that a repository switching from gitleaks keeps its triage.
func loadGitleaksIgnore(roots []string) (secrets.GitleaksIgnore, error) {
	all := secrets.GitleaksIgnore{}
	seen := map[string]bool{}
	for _, dir := range append([]string{"."}, roots...) {
		if info, err := os.Stat(dir); err != nil || !info.IsDir() {
			continue
		}
		p := filepath.Join(dir, ".gitleaksignore")
		abs, err := filepath.Abs(p)
		if err != nil || seen[abs] {
			continue
		}
		seen[abs] = true
		b, err := safefs.ReadPath(p, 16<<20)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		ig, err := secrets.ParseGitleaksIgnore(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", p, err)
		}
		for k := range ig {
			all[k] = true
		}
	}
	return all, nil
}
