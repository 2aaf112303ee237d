//go:build unix

package atomicfile

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A named pipe stands for every file that is not regular (a device needs
// root to make): Write refuses it rather than renaming a file over it.
func TestWriteRefusesNonRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if err := Write(fifo, []byte("x"), 0o600); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("Write over a named pipe: %v", err)
	}
	if info, err := os.Lstat(fifo); err != nil || info.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("the pipe was replaced: %v, %v", info, err)
	}
	if err := Write(dir, []byte("x"), 0o600); err == nil {
		t.Error("Write over a directory succeeded")
	}
}

func TestWriteOutput(t *testing.T) {
	dir := t.TempDir()
	// A regular file, through a link: the target is replaced, the link stays.
	target := filepath.Join(dir, "baseline.json")
	os.WriteFile(target, []byte("old"), 0o640)
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := WriteOutput(link, []byte("new"), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(target); string(b) != "new" {
		t.Errorf("target holds %q, want \"new\"", b)
	}
	if info, err := os.Lstat(link); err != nil || info.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v, %v", info, err)
	}
	// A device is written to, never replaced.
	if err := WriteOutput(os.DevNull, []byte("discarded"), 0o600); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Lstat(os.DevNull); err != nil || info.Mode()&fs.ModeDevice == 0 {
		t.Fatalf("%s is no longer a device: %v, %v", os.DevNull, info, err)
	}
	// A named pipe is written to, as a shell's > would.
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	got := make(chan string)
	go func() {
		b, _ := os.ReadFile(fifo)
		got <- string(b)
	}()
	if err := WriteOutput(fifo, []byte("through the pipe"), 0o600); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "through the pipe" {
		t.Errorf("read %q from the pipe", s)
	}
	if err := WriteOutput(dir, []byte("x"), 0o600); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("WriteOutput over a directory: %v", err)
	}
	// A new file is created.
	if err := WriteOutput(filepath.Join(dir, "fresh.json"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestWriteOutputRefusesLinkOut: a link that leads out of its directory
// (a workspace's .sotvet-baseline.json linked to a file of the user's) is
// not written through, nor is a dangling one; the file it leads to is
// left as it was. A link to a device (/dev/stdout's kind) still is.
func TestWriteOutputRefusesLinkOut(t *testing.T) {
	outside, ws := t.TempDir(), t.TempDir()
	rc := filepath.Join(outside, "bashrc")
	os.WriteFile(rc, []byte("alias ll='ls -l'\n"), 0o600)
	for name, to := range map[string]string{"baseline.json": rc, "dangling.json": filepath.Join(outside, "none"), "up.json": "../" + filepath.Base(outside) + "/bashrc"} {
		link := filepath.Join(ws, name)
		if err := os.Symlink(to, link); err != nil {
			t.Fatal(err)
		}
		err := WriteOutput(link, []byte("{}"), 0o600)
		if err == nil || name != "dangling.json" && !strings.Contains(err.Error(), "leads out of its directory") {
			t.Errorf("%s -> %s: %v, want refused", name, to, err)
		}
	}
	if b, _ := os.ReadFile(rc); string(b) != "alias ll='ls -l'\n" {
		t.Errorf("the file outside holds %q", b)
	}
	if _, err := os.Lstat(filepath.Join(outside, "none")); err == nil {
		t.Error("a dangling link's target was created")
	}
	dev := filepath.Join(ws, "null")
	if err := os.Symlink(os.DevNull, dev); err != nil {
		t.Fatal(err)
	}
	if err := WriteOutput(dev, []byte("discarded"), 0o600); err != nil {
		t.Errorf("a link to %s: %v", os.DevNull, err)
	}
}
