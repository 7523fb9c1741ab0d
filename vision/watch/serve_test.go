package watch

import (
	"gocv.io/x/gocv"

	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/vision/wire"
)

// Requests are answered by their op's handler, in the order they came: its replies, then done
// naming the request's line; a handler's error, a line that is no request and an op the worker
// has no handler for are errors naming their line, and serving goes on to the end of input.
func TestServeDispatchesByOp(t *testing.T) {
	ops := Ops{
		wire.OpPing: ping,
		wire.OpPut: func(q wire.Request) ([]wire.Reply, error) {
			if q.Face == tile.Joker {
				return nil, errors.New("no jokers here")
			}
			return []wire.Reply{{Kind: wire.KindSeen, Face: q.Face, Known: true, Confidence: 0.9, Runner: tile.NoFace, At: q.At}}, nil
		},
	}
	in := `{"op":"put","face":"5D","at":"2026-11-25T19:00:00Z"}
{"op":"ping"}
put 5D now
{"op":"put","face":"J","at":"2026-11-25T19:00:01Z"}
{"op":"take","face":"5D","at":"2026-11-25T19:00:02Z"}
{"op":"put","face":"6D","at":"2026-11-25T19:00:03Z"}
`
	out := &chanOut{c: make(chan wire.Reply, 100)}
	if err := Serve(context.Background(), strings.NewReader(in), out, ops); err != nil {
		t.Fatal(err)
	}
	close(out.c)
	var got []string
	for r := range out.c {
		switch r.Kind {
		case wire.KindError:
			if !strings.Contains(r.Error, fmt.Sprintf("line %d: ", r.Line)) {
				t.Errorf("error %q does not name its line %d", r.Error, r.Line)
			}
			got = append(got, fmt.Sprintf("error %d: %s", r.Line, r.Error[strings.LastIndex(r.Error, ": ")+2:]))
		case wire.KindDone:
			got = append(got, fmt.Sprintf("done %d", r.Line))
		default:
			got = append(got, line(r)[:len("seen 5D true")])
		}
	}
	want := []string{"seen 5D true", "done 1", "done 2", "error 3: invalid character 'p' looking for beginning of value",
		"error 4: no jokers here", "error 5: this worker does not answer it", "seen 6D true", "done 6"}
	if !slices.Equal(got, want) {
		t.Errorf("replies:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A real camera answers ping and refuses the simulated camera's moves, naming why.
func TestCameraOps(t *testing.T) {
	var c Camera
	ops := c.Ops()
	if reps, err := dispatch(ops, wire.Request{Op: wire.OpPing}); err != nil || len(reps) > 0 {
		t.Errorf("ping: %v %v", reps, err)
	}
	for _, op := range []wire.Op{wire.OpPut, wire.OpTake, wire.OpClear, wire.OpLay} {
		if _, err := dispatch(ops, wire.Request{Op: op}); err == nil || !strings.Contains(err.Error(), "a real camera sees what hands do: "+string(op)) {
			t.Errorf("%s: %v", op, err)
		}
	}
	// The set-up page's snapshot is the camera's last frame; before the first, an error.
	c.latest = gocv.NewMat()
	defer c.latest.Close()
	if _, err := dispatch(ops, wire.Request{Op: wire.OpSnapshot}); err == nil || !strings.Contains(err.Error(), "no frame yet") {
		t.Errorf("snapshot before a frame: %v", err)
	}
	frame := gocv.NewMatWithSize(48, 64, gocv.MatTypeCV8UC3)
	defer frame.Close()
	frame.CopyTo(&c.latest)
	reps, err := dispatch(ops, wire.Request{Op: wire.OpSnapshot})
	if err != nil || len(reps) != 1 || reps[0].Kind != wire.KindPicture || reps[0].Width != 64 || reps[0].Height != 48 {
		t.Errorf("snapshot: %+v %v, want one 64x48 picture", reps, err)
	}
}
