package summary

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"sync"

	"github.com/svrnty/sotvet/harness/evidence"
)

// VerifyCache remembers verify's verdict on run directories, keyed by the
// name, size and modification time of every file verify may read (the
// run's files and the approval records), so that a panel computing the
// summary again after a change verifies only what changed. A nil cache
// verifies every run every time.
type VerifyCache struct {
	mu sync.Mutex
	m  map[string]verdict
}

type verdict struct {
	stamp        string
	verified     bool
	violations   []string
	authenticity string
	trusted      bool
}

// NewVerifyCache returns an empty cache.
func NewVerifyCache() *VerifyCache { return &VerifyCache{m: map[string]verdict{}} }

func (c *VerifyCache) get(dir, stamp string) (verdict, bool) {
	if c == nil || stamp == "" {
		return verdict{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[dir]
	return v, ok && v.stamp == stamp
}

func (c *VerifyCache) put(dir string, v verdict) {
	if c == nil || v.stamp == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[dir] = v
}

// stamp digests the names, sizes and modification times under dir (minus
// the copied workspace and scratch files, which verify does not read) and
// of the approval records; "" when a walk fails.
func stamp(r *os.Root, dir string) string {
	h := sha256.New()
	fsys := r.FS()
	for _, d := range []string{dir, approvalsDir} {
		err := fs.WalkDir(fsys, d, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				if p == approvalsDir {
					return fs.SkipDir // no approvals yet
				}
				return err
			}
			if e.IsDir() && (p == dir+"/"+evidence.WorkspaceDir || p == dir+"/"+evidence.TmpDir) {
				return fs.SkipDir
			}
			info, err := e.Info()
			if err != nil {
				return err
			}
			fmt.Fprintf(h, "%s\x00%d\x00%d\x00%v\n", p, info.Size(), info.ModTime().UnixNano(), info.Mode())
			return nil
		})
		if err != nil {
			return ""
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}
