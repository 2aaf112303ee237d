package proc

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// lateWriter is a process a test's command leaves behind to write a file
// a second later, unless Run kills it first. Its shell holds a FIFO open
// for writing (inherited by its sleep), so the test learns that it is
// gone from the FIFO's end of file as soon as it is, rather than by
// sleeping past the second it would have taken to write.
type lateWriter struct {
	late, fifo string
	reader     *os.File // open from before Run to the end of the test: the writer's open never blocks
}

// writerScript is the late writer's own script, for sh -c with $0 the
// file to write and $1 the FIFO: it holds the FIFO on fd 3 and says it
// is up before sleeping.
const writerScript = `exec 3>"$1"; echo up >&3; sleep 1; echo late > "$0"`

func newLateWriter(t *testing.T) *lateWriter {
	t.Helper()
	dir := t.TempDir()
	w := &lateWriter{late: filepath.Join(dir, "late"), fifo: filepath.Join(dir, "late.fifo")}
	if err := unix.Mkfifo(w.fifo, 0o666); err != nil {
		t.Fatal(err)
	}
	// Non-blocking, so that the open returns before any writer exists; the
	// reads still wait, in the runtime's poller.
	r, err := os.OpenFile(w.fifo, os.O_RDONLY|unix.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	w.reader = r
	return w
}

// Env is what the command's environment needs for Args to expand.
func (w *lateWriter) Env() []string { return []string{"LATE=" + w.late, "LATE_FIFO=" + w.fifo} }

// Args are the writer's arguments after "sh -c": its script, $0 and $1,
// quoted for the command's own shell.
func (w *lateWriter) Args() string { return `'` + writerScript + `' "$LATE" "$LATE_FIFO"` }

// noLateWrite fails the test if the writer writes its file after Run
// returned. It waits for the writer's end: at once when Run killed it,
// or the second it takes to write when it escaped. A writer that never
// said it was up either died before it opened the FIFO or has not run
// yet; then only the old wait past its second tells the two apart.
func (w *lateWriter) noLateWrite(t *testing.T, what string) {
	t.Helper()
	waitEnd := func() string {
		if err := w.reader.SetReadDeadline(time.Now().Add(30 * time.Second)); err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(w.reader)
		if errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("%s: the late writer is still alive 30 s after Run returned", what)
		} else if err != nil {
			t.Fatal(err)
		}
		return string(got)
	}
	if got := waitEnd(); got != "up\n" {
		t.Logf("the late writer never said it was up (%q): waiting past its second", got)
		time.Sleep(1500 * time.Millisecond)
		// one that started late has opened the FIFO by now: wait for
		// its end, and so for its write
		waitEnd()
	}
	if _, err := os.Stat(w.late); err == nil {
		t.Fatalf("%s wrote after Run returned", what)
	}
}
