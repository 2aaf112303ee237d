package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/svrnty/sotvet/harness/contract"
	"github.com/svrnty/sotvet/internal/workspaces"
)

// caseRoots returns the directories case ids are looked up in: the one
// --cases names; else testdata/cases in the current directory, at the root
// of the git repository holding it, and in the sotvet source tree this
// binary was built from (go install from a clone records its path), so the
// shipped cases resolve wherever the binary runs.
func caseRoots(explicit string) []string {
	if explicit != "" {
		return []string{explicit}
	}
	var roots []string
	add := func(dir string) {
		d := filepath.Join(dir, filepath.FromSlash(defaultCasesDir))
		for _, r := range roots {
			if r == d {
				return
			}
		}
		roots = append(roots, d)
	}
	if cwd, err := os.Getwd(); err == nil {
		add(cwd)
		if top, _ := workspaces.GitTop(cwd); top != "" {
			add(top)
		}
	}
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		add(filepath.Join(filepath.Dir(file), "..", ".."))
	}
	return roots
}

// resolveCase finds the case a --case argument names: a directory holding
// case.yaml, or a case id under one of roots. The error says where it looked.
func resolveCase(ref string, roots []string) (string, error) {
	var errs []string
	for _, r := range roots {
		d, err := contract.Resolve(ref, r)
		if err == nil {
			return d, nil
		}
		errs = append(errs, r)
	}
	return "", fmt.Errorf("case %q: no %s in %s, and no case of that id in %s (use --cases DIR)", ref, contract.FileName, ref, strings.Join(errs, ", "))
}

// firstCasesDir returns the first of roots that holds cases, for the matrix.
func firstCasesDir(roots []string) (string, error) {
	for _, r := range roots {
		if dirs, err := contract.List(r); err == nil && len(dirs) > 0 {
			return r, nil
		}
	}
	return "", errors.New("no cases in " + strings.Join(roots, ", ") + " (use --cases DIR)")
}
