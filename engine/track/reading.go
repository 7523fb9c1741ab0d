// Package track turns what the table's sensors report into game actions, like an electronic
// chessboard program: it waits for the racks to settle, then matches the new picture against
// the engine's legal next states. A picture that a legal act explains becomes that act; one that
// only a rule-breaking act explains (a second draw, a draw out of turn, an exposure on the wrong
// rack) becomes that act too, and the engine names the infraction; one that nothing explains, or
// that rests on a reading not to be trusted, becomes a question to the players. Never a guess: an
// unconfirmed reading never becomes an action.
//
// Like the engine it is pure: no I/O, no clock, no goroutines. Readings carry their time, and
// Tick tells the tracker what time it is.
package track

import (
	"time"

	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/engine/tile"
)

// Zone is where tiles sit on a rack: concealed tiles stand IN it, exposures lie ON it.
type Zone int

// The two zones of a rack.
const (
	In Zone = iota
	On
)

func (z Zone) String() string {
	if z == On {
		return "on"
	}
	return "in"
}

// Place is one rack zone at the table: seat, rack (1 or 2) and zone.
type Place struct {
	Seat, Rack int
	Zone       Zone
}

// RackReading is the settled reading of one rack zone (a hw/rack snapshot in the tracker's
// terms).
type RackReading struct {
	Place
	// Tiles are the faces read from enrolled tags.
	Tiles tile.Counts
	// Complete: the tags name every tile in the zone (readers and load cell agree, none failed).
	Complete bool
	// Count is the number of tiles in the zone when CountKnown (by weight, or by tags when
	// Complete). An "on" zone holds more tiles than its readers can name (a kong on one reader
	// shows two tags), so there the count comes from the load cell.
	Count      int
	CountKnown bool
	// Problem says what is wrong with the reading when it is not Complete, for the players
	// ("reader in-07 silent", "weight says 14 tiles, tags say 13").
	Problem string
	// At is when the reading settled; Since, when the zone first read this way (the time its
	// tiles changed, earlier than At when a flapping tag kept it from settling). Zero: At.
	At    time.Time
	Since time.Time
	// Left and Came date the tiles gone from and new in the zone since its last reading, where
	// the sensors read each move before the zone settled: a throw and a pick read together
	// are told apart by them.
	Left, Came []Moved
	// Confidence is the chance that the tags named are exactly those in the readers' reach
	// (hw/rack: a tag missed for a few polls may have left, a new one read a few times may be a
	// ghost); Sure says it is 0.99 or more. A reading from a source that cannot say (a test's
	// fake) leaves both zero.
	Confidence float64
	Sure       bool
}

// Moved is a face and when a zone's readings first showed a tile of it leave or arrive.
type Moved struct {
	Face tile.Face
	At   time.Time
}

// movedAt is when moves shows f move, or zero.
func movedAt(moves []Moved, f tile.Face) time.Time {
	for _, m := range moves {
		if m.Face == f {
			return m.At
		}
	}
	return time.Time{}
}

// DiscardReading is the camera's report on the discard area: a tile that appeared there and
// stayed (Seen) or a tile that left it (Taken).
type DiscardReading struct {
	Seen  bool
	Face  tile.Face
	Known bool // the face was recognised with confidence; otherwise Face is only a guess
	At    time.Time
}

// CameraStatus says whether the camera is watching the discard area.
type CameraStatus struct {
	Working bool
	Problem string // what is wrong when not working
	At      time.Time
}

// CommandKind names a player command.
type CommandKind string

// Player commands.
const (
	// CmdMahJongg: "Mah Jongg!" on Rack (0: both at once). With a discard to call it is a call
	// for Mah Jongg; in one's own turn, a self-picked declaration.
	CmdMahJongg CommandKind = "mahjong"
	// CmdAnswer answers Question with Option.
	CmdAnswer CommandKind = "answer"
	// CmdAct enters an act by hand (a sensor that failed, a reading a player corrects): the
	// engine judges it like any other.
	CmdAct CommandKind = "act"
	// CmdWallGame: the players agree the wall is used and the last discard is not called.
	CmdWallGame CommandKind = "wall_game"
	// CmdRacksRight: the players say the racks are right as they are. The tracker plays the
	// legal acts that take the game to them, taking back as few of its last acts as it must
	// (acts it recorded that the table never saw), or says what no legal act explains.
	CmdRacksRight CommandKind = "racks_right"
	// CmdTakeBack: the last act the table recorded never happened. The tracker takes it back
	// and reads the racks again.
	CmdTakeBack CommandKind = "take_back"
)

// Command is what a player says through a display or phone.
type Command struct {
	Seat     int
	Kind     CommandKind
	Rack     int
	Question int
	Option   string
	Action   *game.Action
	At       time.Time

	// judgeFrom, for a Mah Jongg declaration kept waiting while the players answer questions
	// asked before it, is when it last waited: AskAfter counts from then.
	judgeFrom time.Time
}

// Step is one action the tracker played, with what the engine found.
type Step struct {
	Action   game.Action
	Verdicts []game.Verdict
	// Source says what made the tracker play it: "sensors", "command", "answer", "timer", or
	// "reconciled" (the players said the racks are right as they are).
	Source string
	// At is the table time it was played; Shown, for an act the sensors showed, when the
	// first of them did (zero otherwise): At minus Shown is how long the table took to act.
	At, Shown time.Time
	// Settled is when the sensors had settled on what shows the act: the first settled rack
	// reading that showed its seat's racks otherwise than the game (since they last agreed),
	// or the camera's report it uses, whichever came later, and never before Shown. At minus
	// Settled is how long the tracker itself held it (zero for an act not the sensors').
	Settled time.Time
}

// Question asks the players about something the sensors cannot settle. It stays open until the
// table explains itself or a player answers.
type Question struct {
	ID    int    `json:"id"`
	Seat  int    `json:"seat"` // who should answer; -1: anyone
	Text  string `json:"text"`
	About string `json:"about,omitempty"` // the rack zone or sensor concerned
	// Options a player may answer with; each names what the tracker will do.
	Options []Option  `json:"options,omitempty"`
	Since   time.Time `json:"since"`
}

// Option is one answer to a question.
type Option struct {
	Key    string       `json:"key"`
	Text   string       `json:"text"`
	Action *game.Action `json:"action,omitempty"`
}

// SensorNote is a sensor the tracker cannot rely on now, and what it needs.
type SensorNote struct {
	About string    `json:"about"`
	Text  string    `json:"text"`
	Since time.Time `json:"since"`
}
