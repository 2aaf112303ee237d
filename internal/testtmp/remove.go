package testtmp

import (
	"io/fs"
	"os"
	"path/filepath"
)

// removeAll removes dir, making its directories writable first where a
// test left one read-only (a Go module cache is written so).
func removeAll(dir string) {
	if os.RemoveAll(dir) == nil {
		return
	}
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(path, 0o700)
		}
		return nil
	})
	os.RemoveAll(dir)
}
