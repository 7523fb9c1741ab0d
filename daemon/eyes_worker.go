package daemon

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/engine/track"
	"github.com/siamesetable/siamesed/hw/config"
	"github.com/siamesetable/siamesed/internal/visionproc"
	"github.com/siamesetable/siamesed/sim/table"
	"github.com/siamesetable/siamesed/vision/wire"
)

// newCamera builds the camera the configuration names: none (nil), the simulated camera
// without the vision pipeline (direct), or the vision worker on the simulated table (sim) or
// on a real camera.
func (d *daemon) newCamera(rules *game.Ruleset) (camera, error) {
	cfg := d.cfg
	switch cfg.Camera {
	case "none":
		return nil, nil
	case "direct":
		return directCamera{table.NewDirectCamera(cfg.Sim.Seed, cfg.Sim.Noise.UnknownDiscard)}, nil
	}
	bin := cfg.Vision.Worker
	if bin == "" {
		var err error
		if bin, err = visionproc.Find(); err != nil {
			return nil, fmt.Errorf("daemon: camera: %s needs the vision pipeline: %w, or set camera: direct to simulate the camera without it",
				cfg.Camera, errors.Unwrap(err))
		}
	}
	set := rules.TileSet()
	args := []string{"vision", "watch", "--sim", "--seed", strconv.FormatUint(cfg.Sim.Seed, 10),
		"--unknown", strconv.FormatFloat(cfg.Sim.Noise.UnknownDiscard, 'g', -1, 64), "--tiles", strconv.Itoa(set.Count.Total())}
	if cfg.Camera != "sim" {
		args = []string{"vision", "watch", "--source", cfg.Camera,
			"--calib", config.InData(d.opt.DataDir, cfg.Vision.Calibration), "--enrolled", config.InData(d.opt.DataDir, cfg.Vision.Enrolment)}
	}
	start := func() (*visionproc.Proc, error) { return visionproc.Start(bin, args, 2*time.Minute) }
	e, err := newVisionEyes(start, d.clk, d.log, cfg.Sim.Fast)
	if err != nil {
		return nil, fmt.Errorf("daemon: camera: %s: %w", cfg.Camera, err)
	}
	d.log.Info("camera worker", "camera", cfg.Camera, "worker", bin)
	return e, nil
}

// ensure starts the worker when none runs and its wait is over, laying again the tiles its
// area held. The caller holds e.mu.
func (e *visionEyes) ensure(now time.Time) error {
	if e.proc != nil || now.Before(e.retryAt) {
		return nil
	}
	p, err := e.start()
	if err != nil {
		e.failed(now, fmt.Sprintf("the camera worker cannot start (%v)", err))
		return err
	}
	e.proc, e.started = p, now
	e.gen++
	e.answered, e.quiet = 0, map[int]bool{}
	go e.listen(p, e.gen)
	if e.failures > 0 {
		e.log.Info("camera worker restarted", "after_failures", e.failures)
	}
	e.setStatus(true, "")
	if e.area != nil && p.Mode() == wire.ModeSim {
		if fs := e.area(); len(fs) > 0 {
			e.send(wire.Request{Op: wire.OpLay, Faces: fs, At: now}, true)
		}
	}
	return nil
}

// failed marks the worker down and sets the wait before the next start. The caller holds e.mu.
func (e *visionEyes) failed(now time.Time, problem string) {
	e.failures++
	wait := backoff(e.failures)
	e.retryAt = now.Add(wait)
	e.setStatus(false, fmt.Sprintf("%s: starting it again in %v", problem, wait))
	e.log.Error("camera", "problem", problem, "retry_in", wait)
}

// send writes a request; in a soak it waits for the answer (e.mu is released meanwhile). A
// quiet request's events are not play (a sweep between games, tiles laid again after a
// restart). The caller holds e.mu.
func (e *visionEyes) send(q wire.Request, quiet bool) {
	_ = e.ensure(e.clk.Now()) // a failure is reported as the camera's status
	if e.proc == nil {
		return // the camera is down: nobody sees this move
	}
	p, gen := e.proc, e.gen
	line, err := p.Send(q)
	e.log.Debug("camera move", "line", line, "op", q.Op, "face", q.Face, "at", q.At)
	if err != nil {
		if exit := p.Wait(time.Second); exit != nil {
			err = exit // why it could not be written to
		}
		e.down(p, err)
		return
	}
	if quiet {
		e.quiet[line] = true
	}
	if !e.soak {
		return
	}
	timer := time.AfterFunc(e.timeout, func() {
		e.mu.Lock()
		defer e.mu.Unlock()
		e.cond.Broadcast()
	})
	defer timer.Stop()
	deadline := time.Now().Add(e.timeout)
	for e.answered < line && e.gen == gen && time.Now().Before(deadline) {
		e.cond.Wait()
	}
	if e.answered < line && e.gen == gen {
		e.down(p, fmt.Errorf("no answer to %s within %v", q.Op, e.timeout))
	}
}

// down stops a worker that failed. The caller holds e.mu.
func (e *visionEyes) down(p *visionproc.Proc, err error) {
	if e.proc != p {
		return
	}
	if err == nil {
		err = errors.New("its output ended")
	}
	e.proc = nil
	e.gen++
	e.cond.Broadcast()
	e.dropPictures(fmt.Sprintf("the camera worker stopped (%v)", err))
	go func() { _ = p.Close() }() // its error is err's cause, reported below
	e.failed(e.clk.Now(), fmt.Sprintf("the camera worker stopped (%v)", err))
}

// listen hears the worker's replies until it exits.
func (e *visionEyes) listen(p *visionproc.Proc, gen int) {
	for rep := range p.Replies() {
		e.mu.Lock()
		if e.gen == gen {
			e.hear(rep)
		}
		e.mu.Unlock()
	}
	err := p.Wait(time.Minute) // its output has ended: it is exiting
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.gen == gen {
		e.down(p, err)
	}
}

// hear takes one reply. The caller holds e.mu.
func (e *visionEyes) hear(rep wire.Reply) {
	switch rep.Kind {
	case wire.KindSeen, wire.KindTaken:
		e.log.Debug("camera event", "line", e.answered+1, "kind", rep.Kind, "face", rep.Face, "known", rep.Known, "why", rep.Why,
			"confidence", rep.Confidence, "at", rep.At)
		if e.quiet[e.answered+1] { // in sim mode every event answers the oldest open request
			return
		}
		e.queue = append(e.queue, track.DiscardReading{Seen: rep.Kind == wire.KindSeen, Face: rep.Face, Known: rep.Known, At: rep.At})
	case wire.KindStatus:
		e.setStatus(rep.Working, rep.Problem)
	case wire.KindPicture, wire.KindChecked:
		e.heardPicture(rep)
	case wire.KindError:
		e.log.Warn("camera worker", "line", rep.Line, "err", rep.Error)
		fallthrough
	case wire.KindDone:
		e.heardPicture(rep)
		if rep.Line > e.answered {
			delete(e.quiet, rep.Line)
			e.answered = rep.Line
			if e.clk.Now().Sub(e.started) > time.Minute {
				e.failures = 0 // it has worked a while: the next failure waits a second again
			}
			e.cond.Broadcast()
		}
	}
}
