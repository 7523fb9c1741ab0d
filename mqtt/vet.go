package mqtt

import (
	"fmt"

	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/engine/track"
)

// Vet refuses an act entered over MQTT that the engine would record as an infraction (out of
// turn, a second draw, a refused call) or that cannot have happened. At the table a rule
// broken stands, because the table is the truth; a phone is not the table, so a command that
// breaks a rule is an error for its sender and changes nothing. Other kinds are the tracker's
// to judge. Vet runs on the table loop, against the game in play.
func Vet(s game.State, c track.Command) error {
	if c.Kind != track.CmdAct || c.Action == nil {
		return nil
	}
	_, vs, err := game.Apply(s, *c.Action)
	if err != nil {
		return fmt.Errorf("mqtt: %w: %w", track.ErrCommand, err)
	}
	for _, v := range vs {
		if v.Faulty() {
			return fmt.Errorf("mqtt: %w: %s breaks %s: %s", track.ErrCommand, c.Action.Act, v.Rule, v.Detail)
		}
	}
	return nil
}
