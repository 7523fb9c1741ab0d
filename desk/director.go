package desk

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/siamesetable/siamesed/desk/store"
	"github.com/siamesetable/siamesed/tournament/wire"
)

// Rule records the director's ruling at a table in a round (on a call, or on the sheet) and
// sends it to the table. The ruling is recorded before it is sent; a ruling that could not be
// sent goes again at Resend.
func (d *Desk) Rule(table, round int, r wire.Ruling) (wire.Message, error) {
	var rnd [6]byte
	if _, err := rand.Read(rnd[:]); err != nil {
		return wire.Message{}, fmt.Errorf("desk: %w", err)
	}
	m := wire.Message{Schema: wire.Schema, ID: "d-" + hex.EncodeToString(rnd[:]), Kind: wire.KindRuling, Event: d.ev.Name,
		Table: table, Round: round, At: d.now(), Ruling: &r}
	if err := m.Check(); err != nil {
		return m, fmt.Errorf("desk: ruling: %w", err)
	}
	if table > d.ev.Tables() || round < 1 || round > d.ev.Rounds {
		return m, fmt.Errorf("desk: ruling: table %d round %d: the event has %d tables, %d rounds", table, round, d.ev.Tables(), d.ev.Rounds)
	}
	if err := d.checkRuling(table, round, r); err != nil {
		return m, err
	}
	body, _ := json.Marshal(m)
	if _, err := d.record([]store.Change{{At: m.At, Who: "director " + r.Director, Why: r.Text, Kind: wire.KindRuling, Ref: m.ID, Table: table, Round: round, Body: body}}, []wire.Message{m}); err != nil {
		return m, err
	}
	d.log.Info("ruling", "table", table, "round", round, "director", r.Director, "text", r.Text)
	if d.Rulings != nil {
		if err := d.Rulings(m); err != nil {
			d.log.Warn("ruling recorded, not yet sent to the table", "table", table, "ruling", m.ID, "err", err)
		}
	}
	return m, nil
}

func (d *Desk) checkRuling(table, round int, r wire.Ruling) error {
	d.mu.RLock()
	defer d.mu.RUnlock()
	if r.Call != "" {
		found := false
		for _, c := range d.book.calls {
			found = found || (c.ID == r.Call && c.Table == table)
		}
		if !found {
			return fmt.Errorf("desk: ruling: table %d made no call %s", table, r.Call)
		}
	}
	if r.Penalty != nil && r.Penalty.Seat >= d.ev.Seats {
		return fmt.Errorf("desk: ruling: a penalty to seat %d of %d", r.Penalty.Seat, d.ev.Seats)
	}
	if c := r.Correction; c != nil {
		g := d.book.results[c.Result]
		if g == nil {
			return fmt.Errorf("desk: ruling: no result %s to correct", c.Result)
		}
		if len(c.Scores) != len(g.Scores) {
			return fmt.Errorf("desk: ruling: %d scores for a game of %d seats", len(c.Scores), len(g.Scores))
		}
	}
	return nil
}

// Resend sends every recorded ruling again (after a start: the table dedupes by id).
func (d *Desk) Resend() error {
	if d.Rulings == nil {
		return nil
	}
	all, err := d.st.Since(0)
	if err != nil {
		return err
	}
	var errs []error
	for _, c := range all {
		if c.Kind != wire.KindRuling {
			continue
		}
		var m wire.Message
		if err := json.Unmarshal(c.Body, &m); err != nil {
			return fmt.Errorf("desk: change %d: %w", c.N, err)
		}
		if err := d.Rulings(m); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Changes lists the record after n (the director's audit page).
func (d *Desk) Changes(after int64) ([]store.Change, error) { return d.st.Since(after) }
