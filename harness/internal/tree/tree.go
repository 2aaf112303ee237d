// Package tree digests a directory tree: every regular file's content and
// executable bit and every symbolic link's target, by slash-separated path,
// leaving out the top-level .git directory. Links are never followed.
package tree

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// Digest is a tree's digest: one entry per path, and the whole.
type Digest struct {
	Entries map[string]string
	Sum     string
}

// Of digests the tree at root.
func Of(root string) (*Digest, error) {
	d := &Digest{Entries: map[string]string{}}
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if rel == "." {
			return nil
		}
		if rel == ".git" && e.IsDir() {
			return filepath.SkipDir
		}
		switch t := e.Type(); {
		case t.IsDir():
			return nil
		case t&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			d.Entries[rel] = "link " + target
		case t.IsRegular():
			info, err := e.Info()
			if err != nil {
				return err
			}
			h, err := fileHash(p)
			if err != nil {
				return err
			}
			mode := "file"
			if info.Mode()&0o111 != 0 {
				mode = "exec"
			}
			d.Entries[rel] = mode + " " + h
		default:
			d.Entries[rel] = "special " + t.String()
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("digest %s: %w", root, err)
	}
	h := sha256.New()
	for _, p := range d.Paths() {
		fmt.Fprintf(h, "%s\x00%s\n", p, d.Entries[p])
	}
	d.Sum = hex.EncodeToString(h.Sum(nil))
	return d, nil
}

// Paths returns the digested paths, sorted.
func (d *Digest) Paths() []string {
	out := make([]string, 0, len(d.Entries))
	for p := range d.Entries {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// Diff returns the paths whose entries differ between a and b, sorted.
func Diff(a, b *Digest) []string {
	var out []string
	for p, v := range a.Entries {
		if b.Entries[p] != v {
			out = append(out, p)
		}
	}
	for p := range b.Entries {
		if _, ok := a.Entries[p]; !ok {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

func fileHash(p string) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Copy copies the tree at src to dst (which must not exist): directories,
// regular files with their executable bit, and symbolic links as links.
// A top-level .git is left out.
func Copy(src, dst string) error {
	return filepath.WalkDir(src, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		if filepath.ToSlash(rel) == ".git" && e.IsDir() {
			return filepath.SkipDir
		}
		target := filepath.Join(dst, rel)
		switch t := e.Type(); {
		case t.IsDir():
			return os.MkdirAll(target, 0o755)
		case t&fs.ModeSymlink != 0:
			l, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(l, target)
		case t.IsRegular():
			info, err := e.Info()
			if err != nil {
				return err
			}
			mode := os.FileMode(0o644)
			if info.Mode()&0o111 != 0 {
				mode = 0o755
			}
			return copyFile(p, target, mode)
		default:
			return fmt.Errorf("copy %s: unsupported file type %s", p, t)
		}
	})
}

func copyFile(src, dst string, mode os.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}
