package daemon

import (
	"encoding/json"
	"sync"

	"github.com/siamesetable/siamesed/engine/card"
	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/engine/track"
	"github.com/siamesetable/siamesed/mqtt"
)

// SeatPrivate is what goes to one seat alone (seat/<n>/private): its own view with its
// concealed tiles, the questions it may answer in full, and the Siamese advisor's counsel.
type SeatPrivate struct {
	Schema    mqtt.SchemaVersion `json:"schema"` // docs/mqtt.md
	Table     string             `json:"table"`
	Game      string             `json:"game"`
	Seq       int                `json:"seq"`
	Seat      int                `json:"seat"`
	Name      string             `json:"name"`
	View      game.SeatView      `json:"view"`
	Questions []track.Question   `json:"questions"`
	// Advice is the best pairs of hands for the two racks, closest first.
	Advice []card.Advice `json:"advice"`
	// Discards, in the seat's turn to discard: each tile it could throw and the best pair of
	// hands the rest leaves, best throw first.
	Discards []card.Discard `json:"discards,omitempty"`
}

// AdviceTop is how many pairs of hands a phone shows.
const AdviceTop = 5

// advisor computes each seat's advice off the table loop: the loop hands it the latest seat
// views (never blocking; a newer view replaces one not yet advised on) and it publishes.
type advisor struct {
	card *card.Card
	set  tile.Counts
	send func(seat int, payload []byte)

	mu      sync.Mutex
	pending map[int]SeatPrivate
	wake    chan struct{}
}

func newAdvisor(c *card.Card, set tile.Counts, send func(int, []byte)) *advisor {
	return &advisor{card: c, set: set, send: send, pending: map[int]SeatPrivate{}, wake: make(chan struct{}, 1)}
}

// offer hands over a seat's latest private view (from the table loop).
func (a *advisor) offer(p SeatPrivate) {
	a.mu.Lock()
	a.pending[p.Seat] = p
	a.mu.Unlock()
	select {
	case a.wake <- struct{}{}:
	default:
	}
}

// run advises until done closes.
func (a *advisor) run(done <-chan struct{}) {
	for {
		select {
		case <-done:
			return
		case <-a.wake:
		}
		a.mu.Lock()
		batch := a.pending
		a.pending = map[int]SeatPrivate{}
		a.mu.Unlock()
		for seat, p := range batch {
			a.advise(&p)
			b, err := json.Marshal(p)
			if err != nil {
				continue // a SeatPrivate always encodes
			}
			a.send(seat, b)
		}
	}
}

// advise fills in the advice for a seat's holding, with the tiles out of its reach (the
// discards and the other seats' exposures) counted dead.
func (a *advisor) advise(p *SeatPrivate) {
	v := &p.View
	if p.Seat < 0 || p.Seat >= len(v.Seats) || v.Phase == game.PhaseOver {
		p.Advice = []card.Advice{}
		return
	}
	var s card.Siamese
	for r := range v.Concealed {
		for _, f := range v.Concealed[r] {
			s.Concealed[f]++
		}
		for _, e := range v.Seats[p.Seat].Racks[r].Exposures {
			s.Exposed[r] = append(s.Exposed[r], card.Exposure(e.Tiles))
		}
	}
	t := &card.Table{Set: a.set}
	for _, f := range v.Discards {
		t.Dead[f]++
	}
	for i, seat := range v.Seats {
		if i == p.Seat {
			continue
		}
		for _, r := range seat.Racks {
			for _, e := range r.Exposures {
				for _, f := range e.Tiles {
					t.Dead[f]++
				}
			}
		}
	}
	if t.Check(s.Concealed, s.Exposed[0], s.Exposed[1]) != nil {
		t = nil // a table the sensors have not settled yet: advise on the holding alone
	}
	p.Advice = a.card.AdviseSiamese(s, AdviceTop, t)
	if p.Advice == nil {
		p.Advice = []card.Advice{}
	}
	if v.Turn == p.Seat && v.Phase == game.PhaseDiscard {
		p.Discards = a.card.AdviseDiscards(s, t)
	}
}
