package caselane

import (
	"encoding/json"

	"github.com/svrnty/sotvet/harness/engine"
)

// OpenPhase implements engine.PhasedLane from ca's events file: the last
// phase_start with no phase_end of the same phase after it. start is the
// line of that phase_start, so a phase run again (a revision cycle) is a
// new phase.
func (Engine) OpenPhase(job engine.Job) (phase string, start int, open bool) {
	path, err := EventsFile(job)
	if err != nil {
		return "", 0, false
	}
	data, err := readBounded(path)
	if err != nil {
		return "", 0, false
	}
	line, name := 0, ""
	engine.EachLine(data, func(b []byte) {
		line++
		var ev event
		if json.Unmarshal(b, &ev) != nil {
			return
		}
		switch ev.Event {
		case "phase_start":
			name, phase, start, open = ev.Phase, ev.Phase, line, true
			if ev.Agent != "" {
				phase += " (" + ev.Agent + ")"
			}
		case "phase_end":
			if ev.Phase == name {
				open = false
			}
		case "pipeline_end":
			open = false
		}
	})
	return phase, start, open
}
