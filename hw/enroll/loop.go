package enroll

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/hw/rack"
	"github.com/siamesetable/siamesed/internal/clock"
)

// EventKind says what an enrolment event is about.
type EventKind string

// What the enrolment loop tells the person placing tiles.
const (
	Prompt      EventKind = "prompt"       // place a tile of Face on the reader
	Enrolled    EventKind = "enrolled"     // UID is now Face
	Rejected    EventKind = "rejected"     // UID was not taken (Err says why)
	ReaderError EventKind = "reader_error" // the reader failed this time (Err); the loop goes on
	Complete    EventKind = "complete"     // every tile of the set is enrolled
	Stopped     EventKind = "stopped"      // the context ended the loop; run again to resume
	Forgotten   EventKind = "forgotten"    // UID was removed again (Walk.Forget)
)

// Event is one step of an enrolment, with the progress so far.
type Event struct {
	Kind        EventKind
	Face        tile.Face
	UID         string
	Err         error
	Done, Total int
}

// Loop enrols tags one tile at a time: it asks for the next face the set still lacks, reads the
// reader every period, and records the first tag that was not in the field on the read before
// (a tile left lying there is not taken twice). It stops when the set is complete, after limit
// new tags (0: no limit), or when ctx ends; every tag is saved as it is added, so nothing is lost.
func Loop(ctx context.Context, clk clock.Clock, store *Store, r rack.TagReader, period time.Duration, limit int, report func(Event)) error {
	added := 0
	var last []string
	prompted := tile.NoFace
	progress := func(e Event) Event {
		e.Done, e.Total = store.Progress()
		return e
	}
	for {
		next := store.Next()
		if next == tile.NoFace {
			report(progress(Event{Kind: Complete}))
			return nil
		}
		if limit > 0 && added >= limit {
			return nil
		}
		if next != prompted {
			report(progress(Event{Kind: Prompt, Face: next}))
			prompted = next
		}
		uids, err := r.ReadTags()
		if err != nil {
			report(progress(Event{Kind: ReaderError, Err: err}))
		}
		for _, u := range uids {
			if slices.Contains(last, u) {
				continue // still lying there
			}
			if f, ok := store.Face(u); ok {
				report(progress(Event{Kind: Rejected, UID: u, Face: f, Err: ErrDuplicate}))
				continue
			}
			if err := store.Add(u, next); err != nil {
				if errors.Is(err, ErrDuplicate) {
					report(progress(Event{Kind: Rejected, UID: u, Err: err}))
					continue
				}
				return err
			}
			added++
			report(progress(Event{Kind: Enrolled, UID: u, Face: next}))
			prompted = tile.NoFace
			break // one tile at a time
		}
		last = slices.Clone(uids) // a reader may reuse its slice
		t, c := clk.NewTimer(period)
		select {
		case <-ctx.Done():
			t.Stop()
			report(progress(Event{Kind: Stopped}))
			return nil
		case <-c:
		}
	}
}
