package daemon

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/siamesetable/siamesed/hw/config"
	"github.com/siamesetable/siamesed/hw/rack"
)

// TestRackHealthNamesTheSeat: each rack zone's health says which seat's rack 1 or 2 it is, as
// the seats are configured (not by the racks' names' order), so a display can name a failing
// reader as the players know it; a rack no seat sits at says nothing.
func TestRackHealthNamesTheSeat(t *testing.T) {
	p, err := config.Load("../configs/hw/sim-pn532.yaml")
	if err != nil {
		t.Fatal(err)
	}
	l, err := newLayout([]SeatConfig{{Name: "Ann", Racks: []string{"p2b", "p1a"}}, {Name: "Bo", Racks: []string{"p2a", "p1b"}}}, 2, p)
	if err != nil {
		t.Fatal(err)
	}
	hs := l.health([]rack.Health{{Rack: "p1a", Zone: rack.In}, {Rack: "p2a", Zone: rack.On}, {Rack: "p9z", Zone: rack.In}})
	want := []*RackSeat{{Seat: 0, Name: "Ann", Rack: 2}, {Seat: 1, Name: "Bo", Rack: 1}, nil}
	for i, h := range hs {
		switch {
		case want[i] == nil && h.At != nil:
			t.Errorf("%s/%s: at %+v, sits at no seat", h.Rack, h.Zone, *h.At)
		case want[i] != nil && (h.At == nil || *h.At != *want[i]):
			t.Errorf("%s/%s: at %+v, want %+v", h.Rack, h.Zone, h.At, *want[i])
		}
	}
	j, err := json.Marshal(hs)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(j), `"rack":"p1a","zone":"in","degraded":false,"at":{"seat":0,"name":"Ann","rack":2}`) ||
		strings.Count(string(j), `"at"`) != 2 {
		t.Errorf("encoded %s", j)
	}
}
