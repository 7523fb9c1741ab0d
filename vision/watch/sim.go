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
// snapshot and preview show its last frame; show lays faces alone there for the set-up page's
// enrolment, whose captures cap takes from the same frames.
func SimOps(cam *simcam.Table, cap *Capturer) Ops {
	return PictureOps(simFrame(cam)).with(EnrolOps(cap)).with(Ops{
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
		wire.OpShow: func(q wire.Request) ([]wire.Reply, error) { return nil, cam.Show(q.Faces) },
	})
}

// simFrame is the simulated camera's last frame.
func simFrame(cam *simcam.Table) LatestFrame {
	return func(dst *gocv.Mat) error { cam.Snapshot(dst); return nil }
}

// NewSimCapturer captures from the simulated camera's frames: it draws none between two asks,
// so its frames agree at once.
func NewSimCapturer(cam *simcam.Table) *Capturer {
	return NewCapturer(simFrame(cam), nil, cam.TileW())
}

// ServeSim says hello as the simulated camera and serves its requests until in ends.
func ServeSim(ctx context.Context, in io.Reader, out Out, cam *simcam.Table) error {
	if err := out.Reply(wire.Reply{Kind: wire.KindHello, Version: wire.Version, Mode: wire.ModeSim}); err != nil {
		return err
	}
	cap := NewSimCapturer(cam)
	defer cap.Close()
	return Serve(ctx, in, out, SimOps(cam, cap))
}
