package daemon

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/hw/rack"
)

// TestPublicStateHidesASeatsQuestion: a tile gone from a seat's rack with nothing to explain
// it becomes a question to that seat naming the tile; the public state says only that the
// seat is asked, and the seat's own questions have it in full.
func TestPublicStateHidesASeatsQuestion(t *testing.T) {
	cfg := fastConfig(1, 0)
	cfg.Sim.Players = "none"
	d, err := startDaemon(t, cfg, t.TempDir(), newLogBuffer())
	if err != nil {
		t.Fatal(err)
	}
	at := d.clk.Now()
	name := d.table.layout.rackName(0, 1)
	dealt, err := tile.ParseList("5B 7C N RD")
	if err != nil {
		t.Fatal(err)
	}
	snap := func(fs []tile.Face, at time.Time) rack.Snapshot {
		return rack.Snapshot{At: at, Since: at, Rack: name, Zone: rack.In, Tiles: fs, Count: len(fs), TagCount: len(fs), WeightCount: len(fs), Quality: rack.OK}
	}
	if err := d.table.Rack(snap(dealt, at)); err != nil {
		t.Fatal(err)
	}
	if d.table.Game().Seq != 1 {
		t.Fatalf("the deal was not played: seq %d", d.table.Game().Seq)
	}
	// 5B leaves the rack; no camera saw it go anywhere.
	if err := d.table.Rack(snap(dealt[1:], at.Add(time.Second))); err != nil {
		t.Fatal(err)
	}
	for s := 2; s < 30; s++ {
		if err := d.table.Tick(at.Add(time.Duration(s) * time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	own := d.table.SeatQuestions(0)
	ownJSON, _ := json.Marshal(own)
	if len(own) == 0 || !strings.Contains(string(ownJSON), "5B") {
		t.Fatalf("seat 0 was not asked about the 5B gone from its rack: %s", ownJSON)
	}
	pub, err := json.Marshal(d.table.State())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(pub), "5B") {
		t.Fatalf("the public state names a concealed tile: %s", pub)
	}
	if !strings.Contains(string(pub), `"seat":0`) {
		t.Fatalf("the public state does not say seat 0 is asked: %s", pub)
	}
}
