package daemon

import "github.com/siamesetable/siamesed/hw/rack"

// RackHealth is one rack zone's health and where it stands at the table: a display names a
// failing reader by the player's seat and rack, as the players know it, not by its wiring.
type RackHealth struct {
	rack.Health
	At *RackSeat `json:"at,omitempty"` // absent for a rack no seat sits at
}

// RackSeat is the seat a hardware rack serves, and which of its two racks it is.
type RackSeat struct {
	Seat int    `json:"seat"`
	Name string `json:"name"` // the seat's name (East, or the player's)
	Rack int    `json:"rack"` // 1 or 2
}

// health places each zone's health at its seat and rack.
func (l layout) health(hs []rack.Health) []RackHealth {
	out := make([]RackHealth, len(hs))
	for i, h := range hs {
		out[i] = RackHealth{Health: h}
		if at, ok := l.where[h.Rack]; ok {
			out[i].At = &RackSeat{Seat: at[0], Name: l.names[at[0]], Rack: at[1]}
		}
	}
	return out
}

// RackHealth places the racks' health at the seats of the game in play.
func (t *Table) RackHealth(hs []rack.Health) []RackHealth { return t.layout.health(hs) }
