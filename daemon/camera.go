package daemon

import (
	"math/rand/v2"
	"sync"
	"time"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/engine/track"
)

// simCamera is the camera of the simulated table, reporting what the virtual players lay in and
// take from the discards, as the vision pipeline would: after the view settles, now and then
// unable to name the tile.
type simCamera struct {
	mu      sync.Mutex
	rng     *rand.Rand
	unknown float64
	delay   time.Duration
	queue   []track.DiscardReading
}

func newSimCamera(seed uint64, unknown float64) *simCamera {
	return &simCamera{rng: rand.New(rand.NewPCG(seed, 0xca)), unknown: unknown, delay: 350 * time.Millisecond}
}

// Show implements Eyes.
func (c *simCamera) Show(seen bool, f tile.Face, at time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	d := track.DiscardReading{Seen: seen, Face: f, Known: c.rng.Float64() >= c.unknown, At: at.Add(c.delay)}
	if !d.Known {
		d.Face = tile.Face(c.rng.IntN(int(tile.Joker))) // the guess of a recogniser that is not sure
	}
	c.queue = append(c.queue, d)
}

// due returns the reports whose view has settled by now.
func (c *simCamera) due(now time.Time) []track.DiscardReading {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []track.DiscardReading
	out, c.queue = settled(c.queue, now)
	return out
}

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

// health implements camera: the simulated camera always works.
func (c *simCamera) health(now time.Time) (track.CameraStatus, bool) {
	return track.CameraStatus{Working: true, At: now}, false
}

func (c *simCamera) close() error { return nil }
