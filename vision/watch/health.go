package watch

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/siamesetable/siamesed/vision/wire"
)

// trouble sets (or, with "", clears) the camera's lasting trouble and reports a change at once.
func (c *Camera) trouble(p string) {
	c.mu.Lock()
	c.problem = p
	c.mu.Unlock()
	c.status(c.cfg.Clock.Now())
	select {
	case c.poke <- struct{}{}: // the reporter's next look may now be sooner (frames awaited again)
	default:
	}
}

// report writes the status when it falls due and as soon as frames stop coming, which no
// frame's arrival can tell: it sleeps until the earlier of the two, or until the trouble
// changes. The frame loop writes the
// first, as it opens the camera; a camera that never opens is stale.
func (c *Camera) report(ctx context.Context) {
	timer, fired := c.cfg.Clock.NewTimer(c.cfg.Stale + time.Millisecond)
	defer timer.Stop()
	due := c.since.Add(c.cfg.Stale + time.Millisecond)
	for {
		select {
		case <-ctx.Done():
			return
		case <-fired:
			due = c.status(due) // as of the instant it fell due, however late the timer fired
		case <-c.poke:
			due = c.status(c.cfg.Clock.Now())
		}
		timer.Reset(due.Sub(c.cfg.Clock.Now()))
	}
}

// status writes the status when it changed, or when Every has passed since the last; it
// returns when it must be looked at next: when the next is due, or the camera turns stale.
func (c *Camera) status(now time.Time) (next time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	now = latest(now, c.heard, c.saidAt) // never a status older than what it follows
	r := wire.Reply{Kind: wire.KindStatus, At: now}
	last := c.heard
	stale := last.Add(c.cfg.Stale)
	switch {
	case c.problem != "":
		r.Problem = c.problem
	case now.After(stale):
		r.Problem = fmt.Sprintf("no frame from camera %s for %v", c.cfg.Name, now.Sub(last).Round(time.Second))
	case c.watch == nil:
		r.Problem = "waiting for the empty discard area to hold still, to take it as the reference"
	}
	r.Working = r.Problem == ""
	changed := c.said == nil || c.said.Working != r.Working || (c.said.Problem != r.Problem && !strings.HasPrefix(r.Problem, "no frame from"))
	if changed || !now.Before(c.saidAt.Add(c.cfg.Every)) {
		if err := c.cfg.Out.Reply(r); err != nil {
			fmt.Fprintf(c.cfg.Log, "vision watch: %v\n", err)
		}
		c.said, c.saidAt = &r, now
	}
	next = c.saidAt.Add(c.cfg.Every)
	if c.problem == "" && !now.After(stale) && stale.Before(next) { // frames are awaited, waiting for the empty area too
		next = stale.Add(time.Millisecond) // the first instant it is stale
	}
	return next
}

func latest(t time.Time, ts ...time.Time) time.Time {
	for _, u := range ts {
		if u.After(t) {
			t = u
		}
	}
	return t
}
