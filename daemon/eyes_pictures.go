package daemon

import (
	"fmt"
	"time"

	"github.com/siamesetable/siamesed/vision/wire"
)

// The set-up page's camera pictures from the vision worker: a snapshot or a preview is a
// request like any other, answered by a picture and then done (or by an error) naming its
// line; the page's handler waits for it.

// pictureWait is the longest the page waits for a picture: a simulated camera answers after
// the moves queued before it.
const pictureWait = 20 * time.Second

// workerError is an error line the worker answered a request with: it names what was wrong
// with the request (no tile to capture, say), not the worker.
type workerError struct{ msg string }

func (e *workerError) Error() string { return e.msg }

// picture asks the worker for a snapshot, preview or capture and waits up to wait for the
// picture.
func (e *visionEyes) picture(q wire.Request, wait time.Duration) (wire.Reply, error) {
	rep, err := e.request(q, wait)
	if err == nil && rep.Kind != wire.KindPicture {
		err = fmt.Errorf("the camera worker answered %s without a picture", q.Op)
	}
	return rep, err
}

// request sends q to the worker and waits up to wait for its answer: a picture or checked
// reply, or done; an error line is a *workerError.
func (e *visionEyes) request(q wire.Request, wait time.Duration) (wire.Reply, error) {
	e.mu.Lock()
	_ = e.ensure(e.clk.Now()) // a failure is the camera's status, said below
	p := e.proc
	if p == nil {
		problem := e.status.Problem
		e.mu.Unlock()
		return wire.Reply{}, fmt.Errorf("the camera worker is not running: %s", problem)
	}
	line, err := p.Send(q)
	if err != nil {
		if exit := p.Wait(time.Second); exit != nil {
			err = exit
		}
		e.down(p, err)
		e.mu.Unlock()
		return wire.Reply{}, err
	}
	ch := make(chan wire.Reply, 1)
	if e.pictures == nil {
		e.pictures = map[int]chan wire.Reply{}
	}
	e.pictures[line] = ch
	e.mu.Unlock()
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case rep := <-ch:
		if rep.Kind == wire.KindError {
			return wire.Reply{}, &workerError{rep.Error}
		}
		return rep, nil
	case <-timer.C:
		e.mu.Lock()
		delete(e.pictures, line)
		e.mu.Unlock()
		return wire.Reply{}, fmt.Errorf("no picture from the camera worker within %v", wait)
	}
}

// heardPicture hands a reply to the request waiting for it: a picture or checked reply answers
// the oldest request not yet done; done or error, the request on its line. The caller holds
// e.mu.
func (e *visionEyes) heardPicture(rep wire.Reply) {
	line := rep.Line
	if rep.Kind == wire.KindPicture || rep.Kind == wire.KindChecked {
		line = e.answered + 1
	}
	if ch, ok := e.pictures[line]; ok {
		ch <- rep
		delete(e.pictures, line)
	}
}

// dropPictures fails every picture still waiting: its worker is gone. The caller holds e.mu.
func (e *visionEyes) dropPictures(why string) {
	for line, ch := range e.pictures {
		ch <- wire.Reply{Kind: wire.KindError, Line: line, Error: why}
	}
	clear(e.pictures)
}

// reload has the worker take the calibration just saved: a real camera's worker reads it as it
// starts, so it is started again at once; the simulated camera draws its own area and keeps its
// exact corners.
func (e *visionEyes) reload() (string, error) {
	e.mu.Lock()
	p := e.proc
	if p != nil && p.Mode() == wire.ModeSim {
		e.mu.Unlock()
		return "the simulated camera draws its own discard area and keeps its exact corners (a real camera's worker starts again with the saved ones)", nil
	}
	e.proc, e.retryAt = nil, time.Time{}
	e.gen++
	e.dropPictures("the camera worker is starting again with the new calibration")
	e.cond.Broadcast()
	e.mu.Unlock()
	if p != nil {
		if err := p.Close(); err != nil {
			e.log.Warn("camera worker stopped for its new calibration", "err", err)
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.ensure(e.clk.Now()); err != nil {
		return "", fmt.Errorf("the camera worker did not start again with it: %w", err)
	}
	e.log.Info("camera worker started again with its new calibration")
	return "the camera worker started again with the new corners", nil
}
