package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/hw/build"
	"github.com/siamesetable/siamesed/hw/config"
	"github.com/siamesetable/siamesed/hw/enroll"
	"github.com/siamesetable/siamesed/hw/rack"
	"github.com/siamesetable/siamesed/hw/simtable"
)

func init() {
	register("enroll tags", "record tag UID -> face as tiles are placed one by one (resumable)", runEnrollTags)
}

func runEnrollTags(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, profile, data := hwFlags("enroll tags", stderr)
	setName := fs.String("set", "american", "tile set: american, royale-4, royale-3")
	slot := fs.String("reader", "", "rack/slot of the reader to enrol on (default: the first)")
	limit := fs.Int("limit", 0, "stop after this many new tags (0: until the set is complete)")
	seed := fs.Uint("sim-seed", 1, "sim profile: seed of the simulated tags")
	if err := hwParseFlags(fs, args); err != nil {
		return err
	}
	setup, err := hwOpenSetup(*profile, *data, *setName)
	if err != nil {
		return err
	}
	if err := setup.hwRefuseSimulated("enrols its tiles' tags"); err != nil {
		return err
	}
	if setup.tags == nil {
		return errHWNoEnrolment
	}
	var reader rack.TagReader
	name := "sim"
	if setup.profile.Kind == config.KindSim {
		reader = simtable.NewTagStream(uint32(*seed))
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
		name, setup.tagPath, done, total)
	return enrolLoop(ctx, store, reader, setup.profile.Period, *limit, stdout)
}

// enrolLoop runs the enrolment and prints each step for the person placing tiles.
func enrolLoop(ctx context.Context, store *enroll.Store, r rack.TagReader, period time.Duration, limit int, w io.Writer) error {
	return enroll.Loop(ctx, hwClock, store, r, period, limit, func(e enroll.Event) {
		switch e.Kind {
		case enroll.Prompt:
			fmt.Fprintf(w, "place a %s on the reader (%d/%d)\n", e.Face, e.Done+1, e.Total)
		case enroll.Enrolled:
			fmt.Fprintf(w, "%d/%d %s <- %s\n", e.Done, e.Total, e.Face, e.UID)
		case enroll.Rejected:
			if e.Face != tile.NoFace {
				fmt.Fprintf(w, "rejected: tag %s is already enrolled as %s; take it away\n", e.UID, e.Face)
			} else {
				fmt.Fprintf(w, "rejected: %v\n", e.Err)
			}
		case enroll.ReaderError:
			fmt.Fprintf(w, "reader: %v\n", e.Err)
		case enroll.Complete:
			fmt.Fprintln(w, "every tile of the set is enrolled")
		case enroll.Stopped:
			fmt.Fprintf(w, "stopped at %d/%d; run again to resume\n", e.Done, e.Total)
		}
	})
}
