package harness

import (
	"context"
	"sync"
	"time"

	"github.com/svrnty/sotvet/harness/engine"
)

// phaseOverrun is a phase the supervisor stopped.
type phaseOverrun struct {
	phase  string
	budget time.Duration
}

// phasePoll is how often the supervisor reads the backend's record.
const phasePoll = 200 * time.Millisecond

// watchPhases supervises a phased lane's backend while it runs: a phase
// open for longer than the case's timeouts.phase (measured by the
// harness's clock from when it first saw the phase open, not by the
// backend's timestamps) cancels the returned context, which kills the
// backend's processes as a timeout would. stop ends the watch and returns
// the phase that overran, if one did.
func (r *run) watchPhases(ctx context.Context, job engine.Job) (context.Context, func() *phaseOverrun) {
	pl, ok := r.entry.Engine.(engine.PhasedLane)
	budget := r.c.PhaseTimeout
	if !ok || budget <= 0 {
		return ctx, func() *phaseOverrun { return nil }
	}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	var over *phaseOverrun
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(phasePoll)
		defer tick.Stop()
		seen, since := -1, time.Time{}
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case now := <-tick.C:
				phase, start, open := pl.OpenPhase(job)
				if !open {
					seen = -1
					continue
				}
				if start != seen {
					seen, since = start, now
					continue
				}
				if now.Sub(since) > budget {
					over = &phaseOverrun{phase: phase, budget: budget}
					cancel()
					return
				}
			}
		}
	}()
	return ctx, func() *phaseOverrun {
		close(done)
		wg.Wait()
		cancel()
		return over
	}
}
