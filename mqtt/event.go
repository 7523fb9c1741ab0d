package mqtt

import (
	"fmt"
	"time"

	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/engine/track"
)

// Event types on the events topic (and a seat's events topic).
const (
	EventAct      = "act"      // an act played, with the engine's verdicts
	EventQuestion = "question" // the tracker asks the players
	EventRefused  = "refused"  // a seat's command was refused (the reason goes to that seat)
	EventError    = "error"    // on seat/<n>/events: what was wrong with that seat's command
	EventOK       = "ok"       // on seat/<n>/events: the command was taken
	EventGame     = "game"     // a new game began
)

// Event is one message on an events topic. N numbers the daemon's events on that topic from
// 1, so a subscriber can tell one was lost (QoS 1 may deliver one twice; N tells that too).
type Event struct {
	Schema SchemaVersion `json:"schema"` // docs/mqtt.md
	N      uint64        `json:"n"`
	Type   string        `json:"type"`
	Game   string        `json:"game,omitempty"`
	Seq    int           `json:"seq,omitempty"`
	At     time.Time     `json:"at"`
	// Act is the act as the table saw it (type act).
	Act *PublicAct `json:"act,omitempty"`
	// Question is the question (type question), in its public form.
	Question *track.Question `json:"question,omitempty"`
	// Seat, Kind and ID name a command (types refused, error, ok).
	Seat  *int              `json:"seat,omitempty"`
	Kind  track.CommandKind `json:"kind,omitempty"`
	ID    string            `json:"id,omitempty"`
	Error string            `json:"error,omitempty"`
}

// PublicAct is an act as anyone at the table sees it: what was drawn, dealt or moved between a
// player's racks is concealed, so those acts carry a count instead of tiles. A flower exchange
// shows the flower laid face up (F); its replacement from the flower wall is concealed, like a
// draw, and counted.
type PublicAct struct {
	Seat     int            `json:"seat"`
	Act      game.Act       `json:"act"`
	Tiles    []tile.Face    `json:"tiles,omitempty"`
	Count    int            `json:"count,omitempty"`
	Rack     int            `json:"rack,omitempty"`
	To       int            `json:"to,omitempty"`
	For      string         `json:"for,omitempty"`
	Named    *tile.Face     `json:"named,omitempty"`
	Target   *game.Target   `json:"target,omitempty"`
	Rivals   []game.Rival   `json:"rivals,omitempty"`
	Both     bool           `json:"both,omitempty"`
	Dice     []int          `json:"dice,omitempty"` // a roll's die (rolls)
	Source   string         `json:"source"`
	Outcome  game.Outcome   `json:"outcome"`
	Verdicts []game.Verdict `json:"verdicts"`
}

// PublicStep is a step the tracker played, as the events topic tells it.
func PublicStep(st track.Step) PublicAct {
	a := st.Action
	p := PublicAct{Seat: a.Seat, Act: a.Act, Rack: a.Rack, To: a.To, For: a.For, Named: a.Named, Target: a.Target,
		Rivals: a.Rivals, Both: a.Both, Dice: a.Dice, Source: st.Source, Outcome: game.OutcomeOf(st.Verdicts), Verdicts: st.Verdicts}
	if p.Verdicts == nil {
		p.Verdicts = []game.Verdict{}
	}
	switch a.Act {
	case game.ActDeal, game.ActDraw, game.ActMove:
		p.Count = len(a.Tiles)
	case game.ActFlower:
		p.Tiles, p.Count = []tile.Face{tile.Flower}, len(a.Tiles)
	default:
		p.Tiles = a.Tiles
	}
	return p
}

// PublicQuestion is a question as the table display may show it. A question to one seat
// about its rack names concealed tiles ("5B is missing from rack 1"), so the table sees only
// that the seat is asked; the question itself goes to that seat's private topic. A question to
// anyone is about the discards, which lie face up.
func PublicQuestion(q track.Question, seatName string) track.Question {
	if q.Seat < 0 {
		return q
	}
	return track.Question{ID: q.ID, Seat: q.Seat, About: q.About, Since: q.Since,
		Text: fmt.Sprintf("%s: %s does not read as the game expects; answer on your phone, or put the tiles right", seatName, q.About)}
}
