package harness

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/svrnty/sotvet/harness/evidence"
)

func (r *run) makeDir(start time.Time, caseID string) error {
	if err := os.MkdirAll(r.opt.RunsRoot, 0o755); err != nil {
		return fmt.Errorf("runs root: %w", err)
	}
	if r.opt.RunDir != "" {
		abs, err := filepath.Abs(r.opt.RunDir)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			return fmt.Errorf("run directory: %w", err)
		}
		if err := os.Mkdir(abs, 0o755); err != nil {
			return fmt.Errorf("run directory: %w", err)
		}
		r.dir = abs
		return r.makeSubdirs()
	}
	suffix := ""
	if r.opt.Fixture != "" {
		suffix = "-" + r.opt.Fixture
	}
	for attempt := 0; ; attempt++ {
		var rnd [3]byte
		if _, err := rand.Read(rnd[:]); err != nil {
			return err
		}
		id := fmt.Sprintf("%s-%s%s-%s", start.UTC().Format("20060102T150405Z"), caseID, suffix, hex.EncodeToString(rnd[:]))
		dir := filepath.Join(r.opt.RunsRoot, id)
		err := os.Mkdir(dir, 0o755)
		if err == nil {
			abs, err := filepath.Abs(dir)
			if err != nil {
				return err
			}
			r.dir = abs
			break
		}
		if !errors.Is(err, os.ErrExist) || attempt > 8 {
			return fmt.Errorf("run directory: %w", err)
		}
	}
	return r.makeSubdirs()
}

func (r *run) makeSubdirs() error {
	r.ws = filepath.Join(r.dir, evidence.WorkspaceDir)
	r.tmp = filepath.Join(r.dir, evidence.TmpDir)
	r.home = filepath.Join(r.tmp, "home")
	for _, d := range []string{filepath.Join(r.dir, evidence.BackendDir), r.home, filepath.Join(r.tmp, "tmp")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	return goTelemetryOff(r.home)
}

// goTelemetryOff turns the go command's telemetry off for a HOME the
// harness made. The go command reads its mode from
// $HOME/.config/go/telemetry/mode, not from GOTELEMETRY (which `go env`
// only reports): without the file every go, compile, link and vet a run
// starts writes counter files under the run's HOME, and each go command
// starts a telemetry process beside it.
func goTelemetryOff(home string) error {
	dir := filepath.Join(home, ".config", "go", "telemetry")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "mode"), []byte("off"), 0o644)
}
