package daemon

import (
	"fmt"

	"github.com/siamesetable/siamesed/engine/track"
	"github.com/siamesetable/siamesed/hw/config"
	"github.com/siamesetable/siamesed/hw/rack"
)

// layout maps the hardware's racks to seats: which rack is which player's rack 1 and rack 2.
type layout struct {
	names []string          // seat names, East first
	racks [][2]string       // [seat] -> hardware rack names of rack 1 and rack 2
	where map[string][2]int // hardware rack name -> seat, rack
}

// defaultSeatNames names the seats of a table by the winds they sit at.
func defaultSeatNames(players int) []string {
	switch players {
	case 2:
		return []string{"East", "West"}
	case 3:
		return []string{"East", "South", "West"}
	}
	return []string{"East", "South", "West", "North"}
}

// newLayout checks the seats against the ruleset's players and the profile's racks; with no
// seats configured, seat i sits at racks p<i+1>a and p<i+1>b.
func newLayout(seats []SeatConfig, players int, p *config.Profile) (layout, error) {
	if len(seats) == 0 {
		for i, n := range defaultSeatNames(players) {
			seats = append(seats, SeatConfig{Name: n, Racks: []string{fmt.Sprintf("p%da", i+1), fmt.Sprintf("p%db", i+1)}})
		}
	}
	if len(seats) != players {
		return layout{}, fmt.Errorf("seats: %d configured, the rules are for %d players", len(seats), players)
	}
	have := map[string]bool{}
	for _, r := range p.Racks {
		have[r.Name] = true
	}
	l := layout{where: map[string][2]int{}}
	for i, s := range seats {
		for j, r := range s.Racks {
			if !have[r] {
				return layout{}, fmt.Errorf("seats[%d].racks: the hardware profile has no rack %q", i, r)
			}
			l.where[r] = [2]int{i, j + 1}
		}
		l.names = append(l.names, s.Name)
		l.racks = append(l.racks, [2]string{s.Racks[0], s.Racks[1]})
	}
	return l, nil
}

// reading turns a settled rack snapshot into the tracker's reading; ok is false for a rack no
// seat sits at.
func (l layout) reading(s rack.Snapshot) (track.RackReading, bool) {
	at, ok := l.where[s.Rack]
	if !ok {
		return track.RackReading{}, false
	}
	r := track.RackReading{Place: track.Place{Seat: at[0], Rack: at[1], Zone: track.In}, Tiles: s.Counts(), At: s.At, Since: s.Since,
		Confidence: s.Confidence, Sure: s.Sure}
	if s.Zone == rack.On {
		r.Zone = track.On
	}
	for _, m := range s.Left {
		r.Left = append(r.Left, track.Moved{Face: m.Face, At: m.At})
	}
	for _, m := range s.Came {
		r.Came = append(r.Came, track.Moved{Face: m.Face, At: m.At})
	}
	// A zone is wholly read when readers and load cell agree and no reader failed.
	r.Complete = s.Quality == rack.OK
	switch {
	case s.WeightCount >= 0 && s.Quality != rack.Degraded:
		r.Count, r.CountKnown = s.WeightCount, true
	case r.Complete:
		r.Count, r.CountKnown = s.TagCount, true
	}
	if !r.Complete {
		r.Problem = problemOf(s)
	}
	return r, true
}

// problemOf says in a few words what is wrong with a snapshot.
func problemOf(s rack.Snapshot) string {
	if len(s.Faults) > 0 {
		return fmt.Sprintf("%s %s: %s", s.Rack, s.Zone, s.Faults[0])
	}
	if s.Quality == rack.Disagree {
		return fmt.Sprintf("%s %s: the load cell counts %d tiles, the tags %d", s.Rack, s.Zone, s.WeightCount, s.TagCount)
	}
	return fmt.Sprintf("%s %s: %s", s.Rack, s.Zone, s.Quality)
}

// rackName is the hardware rack of a seat's rack.
func (l layout) rackName(seat, r int) string { return l.racks[seat][r-1] }
