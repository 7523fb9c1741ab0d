package table

import (
	"math/rand/v2"
	"sync"
	"time"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/engine/track"
)

// DirectCamera is the fast camera output: the reports the vision pipeline would make of the
// discard area, made at once without frames: each a view's settling after the move, and now and
// then (Unknown) a tile it cannot name, reported with a recogniser's unsure guess.
type DirectCamera struct {
	mu      sync.Mutex
	rng     *rand.Rand
	unknown float64
	delay   time.Duration
	queue   []track.DiscardReading
}

// DirectDelay is how long after a move the direct camera reports it: the view settling.
const DirectDelay = 350 * time.Millisecond

// NewDirectCamera returns a direct camera whose unknown faces are drawn from seed.
func NewDirectCamera(seed uint64, unknown float64) *DirectCamera {
	return &DirectCamera{rng: rand.New(rand.NewPCG(seed, 0xca)), unknown: unknown, delay: DirectDelay}
}

var _ Camera = (*DirectCamera)(nil)

// Show implements Camera.
func (c *DirectCamera) Show(seen bool, f tile.Face, at time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	d := track.DiscardReading{Seen: seen, Face: f, Known: c.rng.Float64() >= c.unknown, At: at.Add(c.delay)}
	if !d.Known {
		d.Face = tile.Face(c.rng.IntN(int(tile.Joker))) // the guess of a recogniser that is not sure
	}
	c.queue = append(c.queue, d)
}

// Due returns the reports whose view has settled by now, oldest first.
func (c *DirectCamera) Due(now time.Time) []track.DiscardReading {
	c.mu.Lock()
	defer c.mu.Unlock()
	var due []track.DiscardReading
	later := c.queue[:0]
	for _, d := range c.queue {
		if d.At.After(now) {
			later = append(later, d)
		} else {
			due = append(due, d)
		}
	}
	c.queue = later
	return due
}
