// Package wire is what a tournament's tables and its desk say to each other: a table's
// finished games (results), the players' signatures and initials on the score sheet, calls for
// the director, the table's progress; the desk's rulings back. Every message is JSON with a
// schema version and an id that is the same every time the same thing is sent, so the desk
// counts each once however often it arrives.
package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"time"
)

// Schema is the messages' version; a message of a newer one is refused with a clear error.
const Schema = 1

// MaxSize bounds a message (a call carries the table's public state).
const MaxSize = 256 << 10

// Kinds of message.
const (
	KindResult   = "result"   // table -> desk: a finished game
	KindSign     = "sign"     // table -> desk: a Mah Jongg's signature on a game
	KindInitials = "initials" // table -> desk: a player's initials on the round's total
	KindCall     = "call"     // table -> desk: East calls for the director
	KindProgress = "progress" // table -> desk: where the table is (round, game, waiting)
	KindRuling   = "ruling"   // desk -> table: the director's ruling
)

// Message is one thing said: Kind names which body it has.
type Message struct {
	Schema int       `json:"schema"`
	ID     string    `json:"id"`
	Kind   string    `json:"kind"`
	Event  string    `json:"event"` // the event's name
	Table  int       `json:"table"`
	Round  int       `json:"round"`
	At     time.Time `json:"at"`

	Result   *Result   `json:"result,omitempty"`
	Sign     *Sign     `json:"sign,omitempty"`
	Call     *Call     `json:"call,omitempty"`
	Progress *Progress `json:"progress,omitempty"`
	Ruling   *Ruling   `json:"ruling,omitempty"`
}

// Result is a finished game as the table's engine scored it.
type Result struct {
	Game    int       `json:"game"`    // 1, 2, ... within the round
	GameID  string    `json:"game_id"` // the journal's game id at the table
	Journal string    `json:"journal"` // SHA-256 of the game's log: the result's identity
	Seats   []string  `json:"seats"`   // the players' names, East first, as the table had them
	Rules   string    `json:"rules"`
	Reason  string    `json:"reason"`
	Scores  []int     `json:"scores"`    // per seat, penalties and bonuses included
	Penalty []int     `json:"penalties"` // per seat: the penalties and bonuses among Scores
	MahJong []MahJong `json:"mahjongs"`
}

// MahJong is who made Mah Jongg with what.
type MahJong struct {
	Seat       int    `json:"seat"`
	Rack       int    `json:"rack"`
	Hand       string `json:"hand"`
	Points     int    `json:"points"`
	SelfPicked bool   `json:"self_picked"`
	Jokerless  bool   `json:"jokerless"`
}

// Signers are the seats that must sign a game: each that made Mah Jongg, once.
func (r *Result) Signers() []int {
	var out []int
	for _, m := range r.MahJong {
		dup := false
		for _, s := range out {
			dup = dup || s == m.Seat
		}
		if !dup {
			out = append(out, m.Seat)
		}
	}
	return out
}

// Sign is a signature on the score sheet: by a Mah Jongg player on a game (Game > 0, Result
// its id), or initials on the round's total of seat Seat (Game 0) by seat By: each player
// initials their own, West for East.
type Sign struct {
	Game   int    `json:"game,omitempty"`
	Result string `json:"result,omitempty"`
	Seat   int    `json:"seat"`
	By     int    `json:"by"`
	Name   string `json:"name"`            // the signer as the table knows them
	Total  int    `json:"total,omitempty"` // initials: the total the player checked
}

// Call is East calling for the director, with the table's public state as it stood.
type Call struct {
	Game  int             `json:"game"`
	Note  string          `json:"note,omitempty"`
	State json.RawMessage `json:"state,omitempty"`
}

// Progress is where a table is: shown on the desk's "every table at a glance".
type Progress struct {
	Game    int    `json:"game"`              // the game in play (or the last, when waiting)
	Phase   string `json:"phase"`             // the engine's phase, or "over"
	Waiting string `json:"waiting,omitempty"` // who the table waits for: "signatures", "initials", "next round"
}

// Ruling is the director's ruling on a call or on a table's sheet, as recorded at the desk.
type Ruling struct {
	Call     string `json:"call,omitempty"` // the call's id, if it answers one
	Director string `json:"director"`
	Text     string `json:"text"`
	// Penalty, when set, is points to a seat in a game of the round (negative: a penalty).
	Penalty *Penalty `json:"penalty,omitempty"`
	// Correction, when set, replaces a game's scores.
	Correction *Correction `json:"correction,omitempty"`
}

// Penalty is points the director gives a seat.
type Penalty struct {
	Game   int `json:"game"`
	Seat   int `json:"seat"`
	Points int `json:"points"`
}

// Correction replaces the scores of a result.
type Correction struct {
	Result string `json:"result"`
	Scores []int  `json:"scores"`
}

var idPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$`)

// Decode reads one message strictly: an unknown field, a newer schema, a body that is not its
// kind's, or values out of range are errors naming what is wrong.
func Decode(b []byte) (Message, error) {
	if len(b) > MaxSize {
		return Message{}, fmt.Errorf("wire: a message of %d bytes, more than %d", len(b), MaxSize)
	}
	var m Message
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return Message{}, fmt.Errorf("wire: bad message: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return Message{}, errors.New("wire: bad message: something after the message")
	}
	return m, m.Check()
}

// Encode writes a message, checked first.
func Encode(m Message) ([]byte, error) {
	if err := m.Check(); err != nil {
		return nil, err
	}
	return json.Marshal(m)
}
