package game

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/siamesetable/siamesed/engine/card"
)

// LogVersion is the game-log format this engine writes: version 2 starts with a Header line
// and holds wall_end to the wall count. Version 1 logs (no header) still replay.
const LogVersion = 2

// logKind is the header's "log" field, which tells a header line from an action line.
const logKind = "siamese-table-game"

// Header is the first line of a game log: everything needed to replay it without guessing.
type Header struct {
	Log     string     `json:"log"`               // always "siamese-table-game"
	Version int        `json:"version"`           // the format version, LogVersion
	Rules   string     `json:"rules"`             // the base ruleset, e.g. "siamese"
	Options []string   `json:"options,omitempty"` // rule options, e.g. ["nmjl-tournament"]
	Card    CardRef    `json:"card"`
	Seats   []SeatInfo `json:"seats"`
	// Game and Started are the daemon's: an id for the game and when it began (RFC 3339). The
	// engine has no clock and ignores them.
	Game    string `json:"game,omitempty"`
	Started string `json:"started,omitempty"`
}

// CardRef names the card a game was played with; SHA256 is the hash of the card file's bytes,
// so a replay with a different card is caught even when name and year agree.
type CardRef struct {
	Name   string `json:"name"`
	Year   int    `json:"year"`
	SHA256 string `json:"sha256"`
}

// SeatInfo is one seat of the game, in turn order from East.
type SeatInfo struct {
	Name string `json:"name"`
}

// NewHeader describes a game about to be played with r and the card c read from data.
func NewHeader(r *Ruleset, c *card.Card, data []byte, seats []string) Header {
	base, opts := SplitRulesSpec(r.Name)
	h := Header{Log: logKind, Version: LogVersion, Rules: base, Options: opts, Card: CardRefOf(c, data)}
	for i := 0; i < r.Players; i++ {
		name := fmt.Sprintf("seat %d", i)
		if i < len(seats) && seats[i] != "" {
			name = seats[i]
		}
		h.Seats = append(h.Seats, SeatInfo{Name: name})
	}
	return h
}

// CardRefOf names a card and hashes the bytes it was read from.
func CardRefOf(c *card.Card, data []byte) CardRef {
	sum := sha256.Sum256(data)
	return CardRef{Name: c.Name, Year: c.Year, SHA256: hex.EncodeToString(sum[:])}
}

// SplitRulesSpec splits "siamese+nmjl-tournament" into the base ruleset and its options.
func SplitRulesSpec(spec string) (string, []string) {
	parts := strings.Split(spec, "+")
	if len(parts) == 1 {
		return parts[0], nil
	}
	return parts[0], parts[1:]
}

// RulesSpec is the ruleset and options as one name, "siamese+nmjl-tournament".
func (h *Header) RulesSpec() string {
	return strings.Join(append([]string{h.Rules}, h.Options...), "+")
}

// isHeader tells a header line from an action line without decoding either fully.
func isHeader(b []byte) bool {
	var probe struct {
		Log *string `json:"log"`
	}
	return json.Unmarshal(b, &probe) == nil && probe.Log != nil
}

// ParseHeader reads a header line, strictly.
func ParseHeader(line []byte) (*Header, error) {
	var h Header
	if err := strictUnmarshal(line, &h); err != nil {
		return nil, fmt.Errorf("game: bad log header: %w", err)
	}
	switch {
	case h.Log != logKind:
		return nil, fmt.Errorf("game: bad log header: log is %q, want %q", h.Log, logKind)
	case h.Version < 2:
		return nil, fmt.Errorf("game: bad log header: version %d (headers start at version 2)", h.Version)
	case h.Version > LogVersion:
		return nil, fmt.Errorf("game: log version %d is newer than this siamesed reads (%d): update siamesed", h.Version, LogVersion)
	case h.Rules == "":
		return nil, errors.New("game: bad log header: no rules")
	case len(h.Seats) < 2 || len(h.Seats) > 4:
		return nil, fmt.Errorf("game: bad log header: %d seats, want 2 to 4", len(h.Seats))
	case len(h.Card.SHA256) != 64:
		return nil, errors.New("game: bad log header: card sha256 must be 64 hex digits")
	}
	return &h, nil
}

// Line is the header as one JSON line with its newline, as a log starts.
func (h Header) Line() []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(h) // a Header always encodes
	return b.Bytes()
}

// ErrCardMismatch is wrapped when a log's card is not the card given to replay it.
var ErrCardMismatch = errors.New("card mismatch")

// Check tells whether r and c (read from data) are what the log was played with.
func (h *Header) Check(r *Ruleset, c *card.Card, data []byte) error {
	if got := CardRefOf(c, data); got.SHA256 != h.Card.SHA256 {
		return fmt.Errorf("game: %w: the log was played with %q (%d, sha256 %.12s...) but the card given is %q (%d, sha256 %.12s...)",
			ErrCardMismatch, h.Card.Name, h.Card.Year, h.Card.SHA256, got.Name, got.Year, got.SHA256)
	}
	if r.Name != h.RulesSpec() {
		return fmt.Errorf("game: the log was played by the rules %q, not %q", h.RulesSpec(), r.Name)
	}
	if r.Players != len(h.Seats) {
		return fmt.Errorf("game: the log has %d seats but %s is for %d players", len(h.Seats), r.Name, r.Players)
	}
	return r.CheckCard(c)
}

// Start begins the game the header describes: New, under the header's format version.
func (h *Header) Start(r *Ruleset, c *card.Card) State {
	s := New(r, c)
	s.LogVersion = h.Version
	return s
}

// StartLegacy begins a game for a log without a header (version 1): wall_end is taken at its
// word, as it was before headers.
func StartLegacy(r *Ruleset, c *card.Card) State {
	s := New(r, c)
	s.LogVersion = 1
	return s
}
