package history

import (
	"bytes"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Filter picks games to list: all of them, one session's, or one day's.
type Filter struct {
	Session string
	Day     string // DayLayout
}

// CheckDay reads a day as DayLayout writes it.
func CheckDay(day string) error {
	if _, err := time.Parse(DayLayout, day); err != nil {
		return fmt.Errorf("day %q is not a date like 2026-11-23", day)
	}
	return nil
}

// List returns the games f picks, in the order they finished.
func (db *DB) List(f Filter) ([]Game, error) {
	index, prefix := byTimeBucket, []byte(nil)
	switch {
	case f.Session != "" && f.Day != "":
		return nil, fmt.Errorf("history: a session or a day, not both")
	case f.Session != "":
		if err := CheckSession(f.Session); err != nil {
			return nil, fmt.Errorf("history: %w", err)
		}
		index, prefix = bySessBucket, []byte(f.Session+"\x00")
	case f.Day != "":
		if err := CheckDay(f.Day); err != nil {
			return nil, fmt.Errorf("history: %w", err)
		}
		index, prefix = byDayBucket, []byte(f.Day+"\x00")
	}
	var out []Game
	err := db.view(func(tx *bolt.Tx) error {
		idx, err := bucket(tx, index)
		if err != nil {
			return err
		}
		games, err := bucket(tx, gamesBucket)
		if err != nil {
			return err
		}
		c := idx.Cursor()
		for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
			id := k[bytes.LastIndexByte(k, 0)+1:]
			b := games.Get(id)
			if b == nil {
				return fmt.Errorf("damaged: the index %s names game %q, which is missing", index, id)
			}
			g, err := decodeGame(id, b)
			if err != nil {
				return err
			}
			out = append(out, g)
		}
		return nil
	})
	return out, err
}

// Latest returns the game that finished last, or ErrNotFound when none is recorded.
func (db *DB) Latest() (Game, error) {
	var id []byte
	err := db.view(func(tx *bolt.Tx) error {
		idx, err := bucket(tx, byTimeBucket)
		if err != nil {
			return err
		}
		if k, _ := idx.Cursor().Last(); k != nil {
			id = bytes.Clone(k[bytes.LastIndexByte(k, 0)+1:])
		}
		return nil
	})
	if err != nil {
		return Game{}, err
	}
	if id == nil {
		return Game{}, fmt.Errorf("history: %w recorded", ErrNotFound)
	}
	return db.Get(string(id))
}
