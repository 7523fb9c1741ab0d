package daemon

import (
	"fmt"
	"strings"
	"time"

	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/engine/track"
	"github.com/siamesetable/siamesed/mqtt"
)

// State is what the table shows anyone: the public view of the game, the questions to the
// players and the sensors that need attention. It never holds a concealed tile.
type State struct {
	Schema    mqtt.SchemaVersion `json:"schema"` // docs/mqtt.md
	Table     string             `json:"table"`
	Game      string             `json:"game"`
	Seq       int                `json:"seq"` // acts played in this game
	Seats     []string           `json:"seats"`
	Card      string             `json:"card"`
	Waiting   bool               `json:"waiting,omitempty"` // over: the next game begins when every rack is empty
	View      game.PublicView    `json:"view"`
	Questions []track.Question   `json:"questions"`
	Sensors   []track.SensorNote `json:"sensors"`
	// Observed is when the observation that played the latest act reached the table (wall
	// clock): a display measures its own delay from it, end to end.
	Observed *time.Time `json:"observed,omitempty"`
	// WallPot is the session's wall-game pot waiting for the next first Mah Jongg, where the
	// ruleset has one (wright-patterson-siamese), as of the last game finished.
	WallPot *int `json:"wall_pot,omitempty"`
}

// State is the table's public state now. A question to one seat about its rack names its
// concealed tiles, so the public state has only its public form (mqtt.PublicQuestion); the
// question itself is in that seat's private view.
func (t *Table) State() State {
	s := t.tracker.State()
	st := State{Table: t.cfg.Table, Game: t.game, Seq: s.Seq, Seats: t.layout.names, Card: t.card.Name,
		Waiting: t.waiting, View: s.PublicView(), Questions: []track.Question{}, Sensors: t.tracker.Sensors(), WallPot: t.wallPot}
	if !t.observed.IsZero() {
		o := t.observed
		st.Observed = &o
	}
	for _, q := range t.tracker.Questions() {
		name := "anyone"
		if q.Seat >= 0 && q.Seat < len(t.layout.names) {
			name = t.layout.names[q.Seat]
		}
		st.Questions = append(st.Questions, mqtt.PublicQuestion(q, name))
	}
	if st.Sensors == nil {
		st.Sensors = []track.SensorNote{}
	}
	return st
}

func (t *Table) publish() {
	t.asked = t.askedKey()
	if t.Publish != nil {
		t.Publish(t.State())
	}
}

// SeatQuestions are the open questions a seat may answer: its own, in full, and those to
// anyone.
func (t *Table) SeatQuestions(seat int) []track.Question {
	out := []track.Question{}
	for _, q := range t.tracker.Questions() {
		if q.Seat == seat || q.Seat < 0 {
			out = append(out, q)
		}
	}
	return out
}

// askedKey names the open questions and sensor notes: they come and go with time, not only
// with acts, and the state is published again when they change.
func (t *Table) askedKey() string {
	var b strings.Builder
	for _, q := range t.tracker.Questions() {
		fmt.Fprintf(&b, "q%d;", q.ID)
	}
	for _, n := range t.tracker.Sensors() {
		fmt.Fprintf(&b, "s%s:%s;", n.About, n.Text)
	}
	return b.String()
}

// SeatView is one seat's own view: its concealed tiles too. It goes to that seat alone.
func (t *Table) SeatView(seat int) game.SeatView {
	s := t.tracker.State()
	return s.SeatView(seat)
}
