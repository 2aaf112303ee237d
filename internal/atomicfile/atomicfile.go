// Package atomicfile replaces files so that a reader, or a crash, sees the
// old content or the new one, never a part.
package atomicfile

import (
	"errors"
	"fmt"
	"github.com/svrnty/sotvet/internal/workspaces"
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
// gets perm. A symbolic link at name is replaced, not followed (a fix never
// writes outside its workspace through one); anything else that is not a
// regular file (a device, a pipe, a directory) is refused: a rename over
// /dev/null would make it a file.
func Write(name string, data []byte, perm fs.FileMode) error {
	if info, err := os.Lstat(name); err == nil {
		if !info.Mode().IsRegular() && info.Mode()&fs.ModeSymlink == 0 {
			return fmt.Errorf("%s: not a regular file (%s)", name, kind(info.Mode()))
		}
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

// WriteOutput writes data to a file a user named for output (a baseline to
// record): a regular file is replaced as Write replaces it, through a
// symbolic link to it if name is one whose target lies under the link's
// own directory; a device or a pipe (/dev/null, /dev/stdout) is written
// to as a shell's redirection would, never replaced; a directory is
// refused. A link that leads out of its directory is refused too: a
// workspace that ships .sotvet-baseline.json as a link to ~/.bashrc
// would have the documented --write-baseline replace that file.
func WriteOutput(name string, data []byte, perm fs.FileMode) error {
	target := name
	if info, err := os.Lstat(name); err == nil && info.Mode()&fs.ModeSymlink != 0 {
		if target, err = filepath.EvalSymlinks(name); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if !linkStaysIn(name, target) {
			if t, err := os.Stat(target); err != nil || t.Mode().IsRegular() {
				return fmt.Errorf("%s: a symbolic link that leads out of its directory; not written through (remove the link, or name the file it leads to)", name)
			}
		}
	}
	info, err := os.Stat(target)
	if errors.Is(err, fs.ErrNotExist) || err == nil && info.Mode().IsRegular() {
		return Write(target, data, perm)
	}
	if err != nil {
		return err
	}
	if info.IsDir() {
		return fmt.Errorf("%s: is a directory", name)
	}
	f, err := os.OpenFile(target, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return m.Type().String()
}

// IsTemp reports whether the base name base is one of Write's temporary
// files ("." + name + TempPrefix + random): os.CreateTemp's random part is
// digits, so a user's ".notes.sotvet-tmp-keep" is none, and CleanStale
// leaves it.
func IsTemp(base string) bool {
	i := strings.LastIndex(base, TempPrefix)
	if i < 2 || base[0] != '.' || i+len(TempPrefix) == len(base) {
		return false
	}
	for _, c := range base[i+len(TempPrefix):] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
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

// linkStaysIn reports whether target, the file the link name resolves to,
// lies under the link's own directory.
func linkStaysIn(name, target string) bool {
	dir, err := filepath.Abs(filepath.Dir(name))
	if err == nil {
		target, err = filepath.Abs(target)
	}
	return err == nil && workspaces.Within(dir, target)
}
