package history

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"

	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/journal"
)

// DayLayout is how a day is written: a session's default name and `history tally --day`.
const DayLayout = "2006-01-02"

// Game is one finished game as the history keeps it.
type Game struct {
	ID       string       `json:"id"`
	Path     string       `json:"path"` // its log, for `siamesed replay`
	Rules    string       `json:"rules"`
	Card     game.CardRef `json:"card"`
	Seats    []string     `json:"seats"` // the players' names in turn order, East first
	Session  string       `json:"session"`
	Started  time.Time    `json:"started,omitzero"`
	Finished time.Time    `json:"finished"` // as the daemon passed it: its zone gives the Day
	Result   game.Result  `json:"result"`
	Faults   int          `json:"faults"`  // verdicts that record a broken rule (game.Verdict.Faulty)
	Actions  int          `json:"actions"` // acts in the log
}

// Day is the date the game finished, in the zone of its finish time (the table's local time).
func (g *Game) Day() string { return g.Finished.Format(DayLayout) }

// DefaultSession names a session by the day of t, "2026-11-23", when the daemon is given none.
func DefaultSession(t time.Time) string { return t.Format(DayLayout) }

// GameOf is the record of a game replayed or played to its end: it reads g's Path, Header,
// Rules, Verdicts and State. An empty session is DefaultSession(finished).
func GameOf(g *journal.Game, session string, finished time.Time) (Game, error) {
	switch {
	case g.Header == nil:
		return Game{}, fmt.Errorf("history: %s: a log without a header is not the daemon's", g.Path)
	case g.State.Phase != game.PhaseOver || g.State.Result == nil:
		return Game{}, fmt.Errorf("history: %s: the game is not over", g.Path)
	}
	if session == "" {
		session = DefaultSession(finished)
	}
	h := g.Header
	rec := Game{
		ID: h.Game, Path: g.Path, Rules: h.RulesSpec(), Card: h.Card, Session: session,
		Finished: finished, Result: *g.State.Result, Actions: g.State.Seq,
	}
	if rec.ID == "" {
		rec.ID = strings.TrimSuffix(filepath.Base(g.Path), journal.LogExt)
	}
	if g.Rules != nil {
		rec.Rules = g.Rules.Name
	}
	for _, s := range h.Seats {
		rec.Seats = append(rec.Seats, s.Name)
	}
	if h.Started != "" {
		t, err := time.Parse(time.RFC3339, h.Started)
		if err != nil {
			return Game{}, fmt.Errorf("history: %s: header started: %w", g.Path, err)
		}
		rec.Started = t
	}
	for _, v := range g.Verdicts {
		if v.Faulty() {
			rec.Faults++
		}
	}
	return rec, rec.check()
}

// check validates a record before it is kept.
func (g *Game) check() error {
	if err := journal.CheckID(g.ID); err != nil {
		return fmt.Errorf("history: %w", err)
	}
	if err := CheckSession(g.Session); err != nil {
		return fmt.Errorf("history: game %s: %w", g.ID, err)
	}
	switch {
	case len(g.Seats) < 2 || len(g.Seats) > 4:
		return fmt.Errorf("history: game %s: %d seats, want 2 to 4", g.ID, len(g.Seats))
	case len(g.Result.Scores) != len(g.Seats):
		return fmt.Errorf("history: game %s: %d scores for %d seats", g.ID, len(g.Result.Scores), len(g.Seats))
	case g.Result.Reason == "":
		return fmt.Errorf("history: game %s: no result", g.ID)
	case g.Finished.IsZero():
		return fmt.Errorf("history: game %s: no finish time", g.ID)
	case g.Rules == "":
		return fmt.Errorf("history: game %s: no rules", g.ID)
	}
	return nil
}

// MaxSessionLen bounds a session name.
const MaxSessionLen = 100

// CheckSession accepts a session name: printable text of 1 to MaxSessionLen bytes.
func CheckSession(s string) error {
	switch {
	case s == "":
		return errors.New("no session name")
	case len(s) > MaxSessionLen:
		return fmt.Errorf("session name of %d bytes, more than %d", len(s), MaxSessionLen)
	case !utf8.ValidString(s):
		return fmt.Errorf("session name %q is not UTF-8", s)
	case strings.IndexFunc(s, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0:
		return fmt.Errorf("session name %q has a control character", s)
	}
	return nil
}

// recordVersion is the version of a record's JSON; a newer one asks for a newer siamesed.
const recordVersion = 1

type stored struct {
	V int `json:"v"`
	Game
}

func encodeGame(g Game) ([]byte, error) {
	return json.Marshal(stored{V: recordVersion, Game: g})
}

// decodeGame reads the record kept under id.
func decodeGame(id, b []byte) (Game, error) {
	var s stored
	if err := json.Unmarshal(b, &s); err != nil {
		return Game{}, fmt.Errorf("game %q: damaged record: %w", id, err)
	}
	switch {
	case s.V > recordVersion:
		return Game{}, fmt.Errorf("game %q: record version %d is newer than this siamesed reads (%d): update siamesed", id, s.V, recordVersion)
	case s.V < 1:
		return Game{}, fmt.Errorf("game %q: damaged record: no version", id)
	case s.ID != string(id):
		return Game{}, fmt.Errorf("game %q: damaged record: it names game %q", id, s.ID)
	}
	return s.Game, nil
}

// Record keeps a finished game. A game already recorded (the same id) is left as it was and
// added is false, so a daemon restarted after recording never counts a game twice. The game
// and its index entries are committed together, or nothing is.
func (db *DB) Record(g Game) (added bool, err error) {
	if err := g.check(); err != nil {
		return false, err
	}
	val, err := encodeGame(g)
	if err != nil {
		return false, fmt.Errorf("history: game %s: %w", g.ID, err)
	}
	err = db.update(func(tx *bolt.Tx) error {
		added, err = record(tx, g, val)
		return err
	})
	return added, err
}

// record writes one game and its index entries in tx, unless its id is there already.
func record(tx *bolt.Tx, g Game, val []byte) (bool, error) {
	games, err := bucket(tx, gamesBucket)
	if err != nil {
		return false, err
	}
	if games.Get([]byte(g.ID)) != nil {
		return false, nil
	}
	at := timeKey(g.Finished)
	for _, put := range []struct {
		bucket []byte
		key    string
		val    []byte
	}{
		{gamesBucket, g.ID, val},
		{byTimeBucket, at + "\x00" + g.ID, nil},
		{bySessBucket, g.Session + "\x00" + at + "\x00" + g.ID, nil},
		{byDayBucket, g.Day() + "\x00" + at + "\x00" + g.ID, nil},
	} {
		b, err := bucket(tx, put.bucket)
		if err != nil {
			return false, err
		}
		if err := b.Put([]byte(put.key), put.val); err != nil {
			return false, fmt.Errorf("game %s: %w", g.ID, err)
		}
	}
	return true, nil
}

// timeKey writes t so that keys sort in time order: UTC with fixed-width nanoseconds.
func timeKey(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000000000Z")
}

// Get returns the game recorded under id.
func (db *DB) Get(id string) (Game, error) {
	var g Game
	err := db.view(func(tx *bolt.Tx) error {
		games, err := bucket(tx, gamesBucket)
		if err != nil {
			return err
		}
		b := games.Get([]byte(id))
		if b == nil {
			return fmt.Errorf("%w %q", ErrNotFound, id)
		}
		g, err = decodeGame([]byte(id), b)
		return err
	})
	return g, err
}

// Has reports whether a game is recorded: what journal.Dir.Unfinished skips without a replay.
func (db *DB) Has(id string) (bool, error) {
	var has bool
	err := db.view(func(tx *bolt.Tx) error {
		games, err := bucket(tx, gamesBucket)
		has = err == nil && games.Get([]byte(id)) != nil
		return err
	})
	return has, err
}
