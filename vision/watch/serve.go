// Package watch is the camera worker the daemon runs (siamesed-vision vision watch): it reads
// requests from the daemon and writes replies (vision/wire), over the simulated table's camera
// (vision/simcam) or a real camera, whose frames it watches (Camera) on an injected clock.
package watch

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/siamesetable/siamesed/vision/classify"
	"github.com/siamesetable/siamesed/vision/discard"
	"github.com/siamesetable/siamesed/vision/wire"
)

// Out takes reply lines; *wire.Writer is one. It must be safe for concurrent use: a camera's
// frame loop and health reports write beside the answers to requests.
type Out interface {
	Reply(wire.Reply) error
}

// Handler answers one request: the replies to write before done (events, or what the op
// asks for), or an error, written as the request's error line.
type Handler func(wire.Request) ([]wire.Reply, error)

// Ops are a worker's handlers by op: the one place a worker's requests are dispatched. A new
// op is a wire.Op, its Handler in the worker's Ops (SimOps, Camera.Ops), and nothing else here.
type Ops map[wire.Op]Handler

// Serve reads requests until in ends, answering each by its handler: its replies, then done,
// or an error naming the request's line. A line that is not a request, or an op the worker has
// no handler for, gets an error naming its line, and serving goes on.
func Serve(ctx context.Context, in io.Reader, out Out, ops Ops) error {
	r := wire.NewReader(in)
	for ctx.Err() == nil {
		q, err := r.Request()
		var le *wire.LineError
		switch {
		case errors.Is(err, io.EOF):
			return nil
		case errors.As(err, &le):
			if err := out.Reply(wire.Reply{Kind: wire.KindError, Line: le.Line, Error: err.Error()}); err != nil {
				return err
			}
			continue
		case err != nil:
			return fmt.Errorf("vision watch: stdin: %w", err)
		}
		reps, err := dispatch(ops, q)
		for _, rep := range reps {
			if err := out.Reply(rep); err != nil {
				return err
			}
		}
		end := wire.Reply{Kind: wire.KindDone, Line: r.Line()}
		if err != nil {
			end = wire.Reply{Kind: wire.KindError, Line: r.Line(), Error: fmt.Sprintf("line %d: %s: %v", r.Line(), q.Op, err)}
		}
		if err := out.Reply(end); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// dispatch answers q by its op's handler.
func dispatch(ops Ops, q wire.Request) ([]wire.Reply, error) {
	h, ok := ops[q.Op]
	if !ok {
		return nil, errors.New("this worker does not answer it")
	}
	return h(q)
}

// ping answers that the worker is there.
func ping(wire.Request) ([]wire.Reply, error) { return nil, nil }

// EventReply is a Watcher's event as a reply line.
func EventReply(e discard.Event) wire.Reply {
	r := wire.Reply{Kind: wire.KindSeen, Face: e.Face, Known: e.Known, Confidence: e.Confidence, Runner: e.Runner, At: e.At}
	if e.Kind == discard.DiscardTaken {
		r.Kind = wire.KindTaken
	}
	switch {
	case e.Known:
	case e.Why == classify.TooClose:
		r.Why = wire.WhyClose
	default:
		r.Why = wire.WhyFar
	}
	return r
}

// eventReplies are events as reply lines.
func eventReplies(evs []discard.Event, err error) ([]wire.Reply, error) {
	reps := make([]wire.Reply, 0, len(evs))
	for _, e := range evs {
		reps = append(reps, EventReply(e))
	}
	return reps, err
}
