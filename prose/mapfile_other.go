//go:build !unix

package prose

import "github.com/svrnty/sotvet/internal/safefs"

// mapFile reads the file: without mmap the table is copied.
func mapFile(name string, limit int64, _ *matcher) ([]byte, error) {
	return safefs.ReadPath(name, limit)
}
