// Package atomicfile replaces files so that a reader, or a crash, sees the
// old content or the new one, never a part.
package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// TempPrefix starts the name of the temporary file Write creates beside
// the target, "." + base name + TempPrefix: a crash may leave one behind.
const TempPrefix = ".sotvet-tmp-"

// Write replaces (or creates) name with data through a temporary file in the
// same directory and a rename. An existing file keeps its mode; a new one
// gets perm.
func Write(name string, data []byte, perm fs.FileMode) error {
	if info, err := os.Stat(name); err == nil {
		perm = info.Mode().Perm()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+TempPrefix+"*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a successful rename, a no-op
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), name)
}

// IsTemp reports whether the base name base is one of Write's temporary
// files ("." + name + TempPrefix + random).
func IsTemp(base string) bool {
	return strings.HasPrefix(base, ".") && strings.Contains(base, TempPrefix)
}

// CleanStale removes, under the directory dir, the temporary files Write
// left behind (a killed writer) that are older than age: a younger one may
// belong to a writer still running. Links are not followed and .git is not
// entered. It returns the removed paths, relative to dir.
func CleanStale(dir string, age time.Duration) ([]string, error) {
	var removed []string
	cutoff := time.Now().Add(-age)
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable parts are the checks' to report
		}
		if d.IsDir() {
			if d.Name() == ".git" {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !IsTemp(d.Name()) {
			return nil
		}
		info, err := d.Info()
		if err != nil || info.ModTime().After(cutoff) {
			return nil
		}
		if err := os.Remove(p); err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		removed = append(removed, filepath.ToSlash(rel))
		return nil
	})
	return removed, err
}
