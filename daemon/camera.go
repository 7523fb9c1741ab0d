package daemon

import (
	"time"

	"github.com/siamesetable/siamesed/engine/track"
	"github.com/siamesetable/siamesed/sim/table"
)

// directCamera is the simulated table's direct camera output (camera: direct): its reports
// without frames or the vision pipeline.
type directCamera struct{ *table.DirectCamera }

// due implements camera.
func (c directCamera) due(now time.Time) []track.DiscardReading { return c.Due(now) }

// health implements camera: the direct camera always works.
func (c directCamera) health(now time.Time) (track.CameraStatus, bool) {
	return track.CameraStatus{Working: true, At: now}, false
}

func (c directCamera) close() error { return nil }

// settled splits the reports queued into those whose view has settled by now and the rest.
func settled(queue []track.DiscardReading, now time.Time) (due, later []track.DiscardReading) {
	later = queue[:0]
	for _, d := range queue {
		if d.At.After(now) {
			later = append(later, d)
		} else {
			due = append(due, d)
		}
	}
	return due, later
}
