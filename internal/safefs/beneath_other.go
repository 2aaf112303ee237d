//go:build !linux

package safefs

import (
	"io/fs"
	"os"
)

// readBeneath reads nothing off Linux: ReadFile takes os.Root's way.
func readBeneath(dir *os.File, name string, limit int64) ([]byte, bool) { return nil, false }

// readDirBeneath lists nothing off Linux: ReadDir takes os.Root's way.
func readDirBeneath(dir *os.File, name string) ([]fs.DirEntry, bool) { return nil, false }
