package daemon

import (
	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/engine/track"
)

// State is what the table shows anyone: the public view of the game, the questions to the
// players and the sensors that need attention. It never holds a concealed tile.
type State struct {
	Table     string             `json:"table"`
	Game      string             `json:"game"`
	Seq       int                `json:"seq"` // acts played in this game
	Seats     []string           `json:"seats"`
	Card      string             `json:"card"`
	Waiting   bool               `json:"waiting,omitempty"` // over: the next game begins when every rack is empty
	View      game.PublicView    `json:"view"`
	Questions []track.Question   `json:"questions"`
	Sensors   []track.SensorNote `json:"sensors"`
}

// State is the table's public state now.
func (t *Table) State() State {
	s := t.tracker.State()
	st := State{Table: t.cfg.Table, Game: t.game, Seq: s.Seq, Seats: t.layout.names, Card: t.card.Name,
		Waiting: t.waiting, View: s.PublicView(), Questions: t.tracker.Questions(), Sensors: t.tracker.Sensors()}
	if st.Questions == nil {
		st.Questions = []track.Question{}
	}
	if st.Sensors == nil {
		st.Sensors = []track.SensorNote{}
	}
	return st
}

func (t *Table) publish() {
	if t.Publish != nil {
		t.Publish(t.State())
	}
}

// SeatView is one seat's own view: its concealed tiles too. It goes to that seat alone.
func (t *Table) SeatView(seat int) game.SeatView {
	s := t.tracker.State()
	return s.SeatView(seat)
}
