package game

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/siamesetable/siamesed/engine/tile"
)

// Digest is a short fingerprint of the whole state, concealed tiles and the wall included: two
// states with the same digest are the same game at the same point. A daemon restarted from its
// journal logs it, so a test (or a person) can check the state it resumed is the one it lost.
func (s State) Digest() string {
	whole := struct {
		State
		Rules      string           `json:"rules"`
		Card       string           `json:"card"`
		Concealed  [][2]tile.Counts `json:"concealed"`
		Unseen     tile.Counts      `json:"unseen"`
		LogVersion int              `json:"log_version"`
	}{State: s, Unseen: s.Unseen, LogVersion: s.LogVersion}
	if s.Rules != nil {
		whole.Rules = s.Rules.Name
	}
	if s.Card != nil {
		whole.Card = s.Card.Name
	}
	for _, seat := range s.Seats {
		whole.Concealed = append(whole.Concealed, [2]tile.Counts{seat.Racks[0].Concealed, seat.Racks[1].Concealed})
	}
	b, err := json.Marshal(whole)
	if err != nil {
		// A State holds only plain values: this cannot fail, and a digest that hid a failure
		// would make two different states look the same.
		panic("game: digest: " + err.Error())
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:12])
}
