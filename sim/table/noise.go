package table

import (
	"fmt"

	"github.com/siamesetable/siamesed/hw/simtable"
)

// Noise is everything that makes the simulated table hard to read: the racks' sensor noise
// (simtable.Noise: dropped tags, weak readers, hands over a rack, tiles off centre, bus errors,
// ghost tags, load-cell spikes), the camera's unknown faces, and two players moving at once.
// Its YAML keys are the daemon's sim.noise keys (docs/daemon.md).
type Noise struct {
	simtable.Noise `yaml:",inline"`
	// UnknownDiscard is the chance that the camera cannot name a discard.
	UnknownDiscard float64 `yaml:"unknown_discard"`
	// Overlap is the chance, per act, that the next player's hand starts on the next act while
	// this act's last tile is still being set down: two hands moving at once.
	Overlap float64 `yaml:"overlap"`
}

// Validate lists every value out of range, each named by its YAML key.
func (n Noise) Validate() []error {
	errs := n.Noise.Validate()
	for _, p := range []struct {
		name string
		v    float64
	}{{"unknown_discard", n.UnknownDiscard}, {"overlap", n.Overlap}} {
		if !(p.v >= 0 && p.v <= 0.5) {
			errs = append(errs, fmt.Errorf("%s: %g is outside 0 to 0.5 (a chance)", p.name, p.v))
		}
	}
	return errs
}
