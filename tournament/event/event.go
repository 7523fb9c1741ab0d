// Package event reads a tournament's event file: the tables and who sits where in the first
// round, the rounds, games per round, ruleset with options, movement and scoring. The desk and
// every table read the same file; its SHA-256 names the event on the wire, so a table given
// another version of the file is noticed.
package event

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"

	"github.com/siamesetable/siamesed/tournament/movement"
)

// MaxSize bounds an event file: anything larger is not one.
const MaxSize = 1 << 20

// Scoring methods: how standings rank players.
const (
	ScorePoints   = "points"   // total points; ties by Mah Jonggs, then name
	ScoreMahJongs = "mahjongs" // Mah Jonggs made; ties by points, then name
)

// Event is a tournament as its file describes it.
type Event struct {
	Name          string
	Rules         string // a ruleset with options, "royale-4+nmjl-tournament", or a path
	Card          string // the card file; "" the built-in example card
	Seats         int    // seats a table, from the ruleset
	Rounds        int
	GamesPerRound int
	Movement      movement.Movement
	Scoring       string
	// First is the first round's seating: First[table-1][seat], East first.
	First movement.Seating
	// Hash is the file's SHA-256 (hex): tables and desk agree on it.
	Hash string
	File string
}

// Tables is how many tables play.
func (e *Event) Tables() int { return len(e.First) }

// Seating is who sits where in round round (1-based).
func (e *Event) Seating(round int) movement.Seating { return e.Movement.Round(e.First, round) }

// Players lists every player, table by table as the first round seats them.
func (e *Event) Players() []string {
	var out []string
	for _, t := range e.First {
		out = append(out, t...)
	}
	return out
}

// RulesPlayers tells how many seats a ruleset spec has.
type RulesPlayers func(spec string) (int, error)

// Load reads an event file.
func Load(path string, rules RulesPlayers) (*Event, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("event: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("event: %w", err)
	}
	if st.Size() > MaxSize {
		return nil, fmt.Errorf("event: %s: %d bytes, more than an event file (%d)", path, st.Size(), MaxSize)
	}
	data := make([]byte, st.Size())
	if _, err := f.ReadAt(data, 0); err != nil && st.Size() > 0 {
		return nil, fmt.Errorf("event: %s: %w", path, err)
	}
	return Parse(path, data, rules)
}

func hashOf(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}
