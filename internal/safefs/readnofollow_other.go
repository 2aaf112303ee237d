//go:build !unix

package safefs

// ReadNoFollow reads the regular file name as ReadPath does.
func ReadNoFollow(name string, limit int64) ([]byte, error) { return ReadPath(name, limit) }
