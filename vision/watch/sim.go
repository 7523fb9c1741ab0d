package watch

import (
	"context"
	"io"

	"gocv.io/x/gocv"

	"github.com/siamesetable/siamesed/vision/simcam"
	"github.com/siamesetable/siamesed/vision/wire"
)

// SimOps are the simulated camera's requests: each move puts tiles in the simulated discard
// area, whose frames go through the real pipeline, and is answered with the events they gave;
// snapshot and preview show its last frame.
func SimOps(cam *simcam.Table) Ops {
	snapshot := func(dst *gocv.Mat) error { cam.Snapshot(dst); return nil }
	return PictureOps(snapshot).with(Ops{
		wire.OpPing: ping,
		wire.OpPut:  func(q wire.Request) ([]wire.Reply, error) { return eventReplies(cam.Put(q.Face, q.At)) },
		wire.OpTake: func(q wire.Request) ([]wire.Reply, error) { return eventReplies(cam.Take(q.Face, q.At)) },
		wire.OpClear: func(q wire.Request) ([]wire.Reply, error) {
			return eventReplies(cam.Clear(q.At))
		},
		wire.OpLay: func(q wire.Request) ([]wire.Reply, error) {
			_, err := cam.Lay(q.Faces, q.At) // the daemon knows these tiles: nothing to report
			return nil, err
		},
	})
}

// ServeSim says hello as the simulated camera and serves its requests until in ends.
func ServeSim(ctx context.Context, in io.Reader, out Out, cam *simcam.Table) error {
	if err := out.Reply(wire.Reply{Kind: wire.KindHello, Version: wire.Version, Mode: wire.ModeSim}); err != nil {
		return err
	}
	return Serve(ctx, in, out, SimOps(cam))
}
