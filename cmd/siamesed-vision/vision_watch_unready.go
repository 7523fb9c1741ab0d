package main

import (
	"context"
	"fmt"
	"io"

	"github.com/siamesetable/siamesed/internal/clock"
	"github.com/siamesetable/siamesed/vision/area"
	"github.com/siamesetable/siamesed/vision/source"
	"github.com/siamesetable/siamesed/vision/watch"
	"github.com/siamesetable/siamesed/vision/wire"
)

// watchUnready runs a real camera that cannot watch yet (no calibration or no enrolled faces):
// watch.ServeUnready on the wall clock, re-checking the files for every status line; the empty
// area's view for the set-up page's captures is kept beside the enrolment folder.
func watchUnready(ctx context.Context, stdin io.Reader, out *wire.Writer, f watchFlags) error {
	spec, err := source.Parse(f.source)
	if err != nil {
		return fmt.Errorf("%w: --source: %v", errUsage, err)
	}
	kept := watch.EmptyKept{Enrolled: f.enrolled}
	if a, err := area.Load(f.calib); err == nil {
		kept.Area = a // none saved, or one that cannot be read: an empty view kept is dropped
	}
	return watch.ServeUnready(ctx, stdin, watch.UnreadyConfig{Open: func() (source.Source, error) { return source.OpenSpec(spec) },
		Live: spec.Live(), TileW: f.tileW, EmptyKept: kept, Why: func() string { return watch.Missing(f.calib, f.enrolled) }, Every: f.every, Clock: clock.Real{}, Out: out})
}
