//go:build unix

package safefs

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestReadNoFollow(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	big := bytes.Repeat([]byte("0123456789abcdef"), 10000)
	for _, tc := range []struct {
		name  string
		data  []byte
		limit int64
	}{{"empty", nil, 100}, {"small", []byte("token = x\n"), 100}, {"exact", []byte("0123456789"), 10}, {"big", big, 1 << 20}, {"nolimit", big, 0}} {
		got, err := ReadNoFollow(write(tc.name, tc.data), tc.limit)
		if err != nil || !bytes.Equal(got, tc.data) {
			t.Errorf("%s: got %d bytes, %v; want %d bytes", tc.name, len(got), err, len(tc.data))
		}
	}
	var tooLarge *TooLargeError
	if _, err := ReadNoFollow(write("over", []byte("0123456789a")), 10); !errors.As(err, &tooLarge) {
		t.Errorf("over the limit: %v, want TooLargeError", err)
	}
	target := write("target", []byte("secret"))
	link := filepath.Join(dir, "link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadNoFollow(link, 100); !errors.Is(err, ErrNotRegular) {
		t.Errorf("symbolic link: %v, want ErrNotRegular", err)
	}
	if _, err := ReadNoFollow(dir, 100); !errors.Is(err, ErrNotRegular) {
		t.Errorf("directory: %v, want ErrNotRegular", err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO:", err)
	}
	if _, err := ReadNoFollow(fifo, 100); !errors.Is(err, ErrNotRegular) {
		t.Errorf("FIFO: %v, want ErrNotRegular", err)
	}
	if _, err := ReadNoFollow(filepath.Join(dir, "missing"), 100); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing: %v, want ErrNotExist", err)
	}
}
