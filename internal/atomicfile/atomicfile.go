// Package atomicfile replaces files so that a reader, or a crash, sees the
// old content or the new one, never a part.
package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
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
