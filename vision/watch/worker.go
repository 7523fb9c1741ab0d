package watch

import (
	"context"
	"fmt"
	"io"

	"github.com/siamesetable/siamesed/vision/wire"
)

// Ops are a real camera's requests: ping, snapshot and preview of its last frame, and the
// set-up page's enrolment from its frames. The simulated camera's moves are refused, naming
// why: a real camera sees what hands do.
func (c *Camera) Ops() Ops {
	refuse := func(q wire.Request) ([]wire.Reply, error) {
		return nil, fmt.Errorf("a real camera sees what hands do: %s is for the simulated camera (--sim)", q.Op)
	}
	return PictureOps(c.latestFrame).with(EnrolOps(c.capture)).with(Ops{wire.OpPing: ping,
		wire.OpPut: refuse, wire.OpTake: refuse, wire.OpClear: refuse, wire.OpLay: refuse, wire.OpShow: refuse})
}

// ServeCamera says hello as a real camera, watches it and serves its requests (c.Ops) until in
// ends or ctx does.
func ServeCamera(ctx context.Context, in io.Reader, out Out, c *Camera) error {
	if err := out.Reply(wire.Reply{Kind: wire.KindHello, Version: wire.Version, Mode: wire.ModeCamera}); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ran := make(chan struct{})
	go func() { defer close(ran); c.Run(ctx) }()
	err := Serve(ctx, in, out, c.Ops())
	cancel()
	<-ran
	return err
}
