package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/hw/build"
	"github.com/siamesetable/siamesed/hw/config"
	"github.com/siamesetable/siamesed/hw/enroll"
	"github.com/siamesetable/siamesed/hw/rack"
	"github.com/siamesetable/siamesed/hw/sim"
)

func init() {
	register("enroll tags", "record tag UID -> face as tiles are placed one by one (resumable)", runEnrollTags)
}

func runEnrollTags(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, profile := hwFlags("enroll tags", stderr)
	setName := fs.String("set", "american", "tile set: american, royale-4, royale-3")
	slot := fs.String("reader", "", "rack/slot of the reader to enrol on (default: the first)")
	limit := fs.Int("limit", 0, "stop after this many new tags (0: until the set is complete)")
	seed := fs.Uint("sim-seed", 1, "sim profile: seed of the simulated tags")
	if err := hwParseFlags(fs, args); err != nil {
		return err
	}
	setup, err := hwOpenSetup(*profile, *setName)
	if err != nil {
		return err
	}
	if setup.tags == nil {
		return errHWNoEnrolment
	}
	var reader rack.TagReader
	name := "sim"
	if setup.profile.Kind == config.KindSim {
		reader = sim.NewTagStream(uint32(*seed))
	} else {
		rig, err := setup.rig()
		if err != nil {
			return err
		}
		defer rig.Close()
		i := slices.IndexFunc(rig.TagReaders, func(s build.Slot) bool { return *slot == "" || s.Rack+"/"+s.Name == *slot })
		if i < 0 {
			return fmt.Errorf("%w: no reader %q in %s", errUsage, *slot, *profile)
		}
		reader, name = rig.TagReaders[i].Reader, rig.TagReaders[i].Rack+"/"+rig.TagReaders[i].Name
	}
	store := setup.tags
	done, total := store.Progress()
	fmt.Fprintf(stdout, "enrolling on %s into %s: %d/%d already enrolled; Ctrl-C stops, nothing is lost\n",
		name, config.Path(*profile, setup.profile.Enrolment), done, total)
	return enrolLoop(ctx, store, reader, setup.profile.Period, *limit, stdout)
}

// enrolLoop asks for the next face, waits for a tag that was not in the field on the previous
// read, and records it.
func enrolLoop(ctx context.Context, store *enroll.Store, r rack.TagReader, period time.Duration, limit int, w io.Writer) error {
	added := 0
	var last []string
	prompted := tile.NoFace
	for {
		next := store.Next()
		if next == tile.NoFace {
			fmt.Fprintln(w, "every tile of the set is enrolled")
			return nil
		}
		if limit > 0 && added >= limit {
			return nil
		}
		if next != prompted {
			done, total := store.Progress()
			fmt.Fprintf(w, "place a %s on the reader (%d/%d)\n", next, done+1, total)
			prompted = next
		}
		uids, err := r.ReadTags()
		if err != nil {
			fmt.Fprintf(w, "reader: %v\n", err)
		}
		for _, u := range uids {
			if slices.Contains(last, u) {
				continue // still lying there
			}
			if f, ok := store.Face(u); ok {
				fmt.Fprintf(w, "rejected: tag %s is already enrolled as %s; take it away\n", u, f)
				continue
			}
			if err := store.Add(u, next); err != nil {
				if errors.Is(err, enroll.ErrDuplicate) {
					fmt.Fprintf(w, "rejected: %v\n", err)
					continue
				}
				return err
			}
			added++
			done, total := store.Progress()
			fmt.Fprintf(w, "%d/%d %s <- %s\n", done, total, next, u)
			prompted = tile.NoFace
			break // one tile at a time
		}
		last = uids
		t, c := hwClock.NewTimer(period)
		select {
		case <-ctx.Done():
			t.Stop()
			done, total := store.Progress()
			fmt.Fprintf(w, "stopped at %d/%d; run again to resume\n", done, total)
			return nil
		case <-c:
		}
	}
}
