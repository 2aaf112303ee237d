package harness

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// An admission record that is a FIFO (or a device) is refused at once: the
// gate opens regular files only and never blocks on an open with no writer.
func TestReadAdmissionRefusesFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "admission.json")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	_, err := readAdmission(p) // before the fix, this open blocked forever
	if err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("readAdmission(FIFO) = %v, want a not-a-regular-file error", err)
	}
	if _, err := readAdmission(os.DevNull); err == nil {
		t.Fatal("readAdmission(/dev/null) accepted a device")
	}
}
