package rack

import (
	"fmt"
	"time"
)

// Params tune how a zone's tags are judged; zero fields take the defaults.
type Params struct {
	// Settle: a change of a zone must have held this long, from the first scan that showed it,
	// before its snapshot leaves (a tile still in the hand, one move of several).
	Settle time.Duration `yaml:"-"`
	// Delta is δ, the largest chance, per decision, of judging wrongly: that a tag still present
	// is judged gone (it missed k polls in a row with (1-p)^k < δ), that a ghost is judged
	// present, or that a load-cell spike is taken for a count.
	Delta float64 `yaml:"delta"`
	// NewDelta is the largest chance that a tag not on the rack (a ghost, a tile carried past)
	// is judged present: a new tag is judged once its reads make it 1/NewDelta times likelier
	// a tile than a ghost. Fewer decisions are made of new tags than of tags staying (one a
	// move, not one a poll), so it can be larger than Delta, and new tiles are named sooner.
	NewDelta float64 `yaml:"new_delta"`
	// Ghost is the largest chance per poll that a tag not lying on the rack answers again (a
	// phone or a bank card near it): what a new tag's reads are weighed against.
	Ghost float64 `yaml:"ghost"`
	// BurstHold: a tag gone while the load cell weighs no tile less (a hand over the rack hides
	// tags from their readers) is judged gone only once it has missed this long.
	BurstHold time.Duration `yaml:"burst_hold"`
	// Window is how many trials a read rate remembers (forgetting exponentially).
	Window float64 `yaml:"window"`
	// WarnRate: a reader surely reading its tags less often than this (the estimate's upper
	// bound under it) is named failing in the health report.
	WarnRate float64 `yaml:"warn_rate"`
}

// The defaults of Params.
const (
	DefaultSettle    = 300 * time.Millisecond
	DefaultDelta     = 1e-9
	DefaultNewDelta  = 1e-6
	DefaultGhost     = 0.01
	DefaultBurstHold = 2 * time.Second
	DefaultWindow    = 1000
	DefaultWarnRate  = 0.9
)

// Priors of the estimates, worth twenty trials each: a reader is believed to read 95% of its
// polls until it shows otherwise; a tag, as its reader does; a load cell, off its count one
// reading in a thousand.
const (
	readerPrior       = 0.95
	readerPriorWeight = 20
	tagPriorWeight    = 20
	spikePrior        = 0.001
	spikePriorWeight  = 20
)

// DownAfter is how many polls in a row a reader or load cell must fail to be down: its tags are
// then no longer named (nothing vouches for them) and the snapshot names the fault.
const DownAfter = 3

// dropBelow: a new tag whose odds of being a tile rather than a ghost fall under this is
// forgotten (read again, it starts over).
const dropBelow = 1e-3

// WithDefaults fills the zero fields.
func (p Params) WithDefaults() Params {
	if p.Settle <= 0 {
		p.Settle = DefaultSettle
	}
	if p.Delta <= 0 {
		p.Delta = DefaultDelta
	}
	if p.NewDelta <= 0 {
		p.NewDelta = DefaultNewDelta
	}
	if p.Ghost <= 0 {
		p.Ghost = DefaultGhost
	}
	if p.BurstHold <= 0 {
		p.BurstHold = DefaultBurstHold
	}
	if p.Window <= 0 {
		p.Window = DefaultWindow
	}
	if p.WarnRate <= 0 {
		p.WarnRate = DefaultWarnRate
	}
	return p
}

// Validate lists what is out of range (zero fields are defaults, not errors).
func (p Params) Validate() []error {
	var errs []error
	bad := func(field, format string, a ...any) {
		errs = append(errs, fmt.Errorf("%s: %s", field, fmt.Sprintf(format, a...)))
	}
	if p.Delta < 0 || p.Delta > 0.01 {
		bad("delta", "%g is outside 0 to 0.01 (a chance of judging a tag wrongly)", p.Delta)
	}
	if p.NewDelta < 0 || p.NewDelta > 0.01 {
		bad("new_delta", "%g is outside 0 to 0.01 (a chance of judging a ghost a tile)", p.NewDelta)
	}
	if p.Ghost < 0 || p.Ghost > 0.5 {
		bad("ghost", "%g is outside 0 to 0.5 (a chance per poll)", p.Ghost)
	}
	if p.BurstHold < 0 || p.BurstHold > time.Minute {
		bad("burst_hold", "%v is outside 0 to 1m", p.BurstHold)
	}
	if p.Window != 0 && (p.Window < 20 || p.Window > 100_000) {
		bad("window", "%g is outside 20 to 100000 polls", p.Window)
	}
	if p.WarnRate < 0 || p.WarnRate >= 1 {
		bad("warn_rate", "%g is outside 0 to 1", p.WarnRate)
	}
	return errs
}
