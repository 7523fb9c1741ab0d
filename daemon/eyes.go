package daemon

import (
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/engine/track"
	"github.com/siamesetable/siamesed/internal/clock"
	"github.com/siamesetable/siamesed/internal/visionproc"
	"github.com/siamesetable/siamesed/sim/table"
	"github.com/siamesetable/siamesed/vision/wire"
)

// camera watches the discard area for the table: the vision worker (visionEyes) or, with
// camera: direct, the simulated table's direct camera output, without the vision pipeline.
type camera interface {
	table.Camera
	// due returns the reports whose view has settled by now.
	due(now time.Time) []track.DiscardReading
	// health is the camera's state at now, and whether it changed since last asked.
	health(now time.Time) (track.CameraStatus, bool)
	close() error
}

var (
	_ camera        = &visionEyes{}
	_ table.Sweeper = &visionEyes{}
	_ camera        = directCamera{}
)

// visionEyes is the camera of the vision worker (siamesed-vision vision watch), a child
// process speaking vision/wire. With camera: sim the virtual players' moves are shown to its
// simulated camera, whose frames go through the real pipeline; otherwise it watches a real
// camera. A worker that stops is restarted, with a growing wait, and the table told meanwhile
// that the camera is not working.
type visionEyes struct {
	start   func() (*visionproc.Proc, error)
	clk     clock.Clock
	log     *slog.Logger
	soak    bool          // each move waits for the worker's answer, so that a soak is deterministic
	timeout time.Duration // the longest wait for an answer before the worker counts as stuck

	mu       sync.Mutex
	cond     *sync.Cond
	proc     *visionproc.Proc
	gen      int // the worker the listener serves; a new one on each start
	answered int // the last request line answered (done or error)
	quiet    map[int]bool
	queue    []track.DiscardReading
	// area, on the simulated table, is what its discard area holds: laid again for a worker
	// started again.
	area     func() []tile.Face
	status   track.CameraStatus
	told     bool // the status was given to the table
	failures int
	retryAt  time.Time
	started  time.Time
	pictures map[int]chan wire.Reply // the set-up page's pictures waited for, by request line
}

// newVisionEyes starts the worker (start runs it and waits for its hello) and keeps it
// running: a worker that cannot start at all is an error, so that the daemon says so at once.
func newVisionEyes(start func() (*visionproc.Proc, error), clk clock.Clock, log *slog.Logger, soak bool) (*visionEyes, error) {
	e := &visionEyes{
		start:   start,
		clk:     clk,
		log:     log,
		soak:    soak,
		timeout: time.Minute,
		quiet:   map[int]bool{},
		status:  track.CameraStatus{Working: true},
	}
	e.cond = sync.NewCond(&e.mu)
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.ensure(clk.Now()); err != nil {
		return nil, err
	}
	return e, nil
}

// Show implements table.Camera: a virtual player laid a tile in the discards or took one.
func (e *visionEyes) Show(seen bool, f tile.Face, at time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	q := wire.Request{Op: wire.OpPut, Face: f, At: at}
	if !seen {
		q.Op = wire.OpTake
	}
	e.send(q, false)
}

// Clear implements table.Sweeper: the players swept the discards away for the next game. What the
// camera reports of the sweep is not play, and is dropped.
func (e *visionEyes) Clear(at time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.send(wire.Request{Op: wire.OpClear, At: at}, true)
}

// Lay implements table.Sweeper: these discards lie on the table as the players sit down again.
func (e *visionEyes) Lay(fs []tile.Face, at time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if at.IsZero() {
		at = e.clk.Now()
	}
	e.send(wire.Request{Op: wire.OpLay, Faces: fs, At: at}, true)
}

// due implements camera; it also restarts a stopped worker once its wait is over.
func (e *visionEyes) due(now time.Time) []track.DiscardReading {
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.ensure(now); err != nil {
		e.log.Debug("camera worker", "err", err)
	}
	var out []track.DiscardReading
	out, e.queue = settled(e.queue, now)
	return out
}

// health implements camera.
func (e *visionEyes) health(now time.Time) (track.CameraStatus, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	changed := !e.told
	e.told = true
	st := e.status
	st.At = now
	return st, changed
}

// close stops the worker.
func (e *visionEyes) close() error {
	e.mu.Lock()
	p := e.proc
	e.proc = nil
	e.gen++
	e.mu.Unlock()
	if p == nil {
		return nil
	}
	return p.Close()
}

// setStatus records the camera's state; the table hears of it at the next tick.
func (e *visionEyes) setStatus(working bool, problem string) {
	if e.status.Working != working || e.status.Problem != problem {
		e.status, e.told = track.CameraStatus{Working: working, Problem: problem}, false
	}
}

// backoff is the wait before the n-th start in a row after a failure: 1 s, doubling, at most
// a minute.
func backoff(n int) time.Duration {
	return min(time.Minute, time.Second<<min(n-1, 6))
}

// describe is the camera's state in words, for the health line.
func describe(name string, st track.CameraStatus) string {
	if st.Working {
		return fmt.Sprintf("%s: working", name)
	}
	return fmt.Sprintf("%s: %s", name, st.Problem)
}
