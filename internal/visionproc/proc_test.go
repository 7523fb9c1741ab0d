package visionproc

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/internal/visionproc/visiontest"
	"github.com/siamesetable/siamesed/vision/wire"
)

func TestMain(m *testing.M) {
	visiontest.Main()
	os.Exit(m.Run())
}

// fake starts this test binary as the fake worker in mode.
func fake(t *testing.T, mode string, ready time.Duration) (*Proc, error) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(visiontest.Env, mode)
	return Start(self, nil, ready)
}

var at = time.Date(2026, 11, 23, 19, 0, 0, 0, time.UTC)

func TestRequestsAndReplies(t *testing.T) {
	p, err := fake(t, "sim", 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if p.Mode() != wire.ModeSim {
		t.Errorf("mode %q", p.Mode())
	}
	for i, q := range []wire.Request{{Op: wire.OpPut, Face: tile.Dot5, At: at}, {Op: wire.OpTake, Face: tile.Dot5, At: at}, {Op: wire.OpPing}} {
		if line, err := p.Send(q); err != nil || line != i+1 {
			t.Fatalf("send %v: line %d, %v", q.Op, line, err)
		}
	}
	var got []string
	for rep := range p.Replies() {
		got = append(got, string(rep.Kind))
		if rep.Kind == wire.KindDone && rep.Line == 3 {
			break
		}
	}
	if strings.Join(got, " ") != "seen done taken done done" {
		t.Errorf("replies %v", got)
	}
	if err := p.Err(); err != nil {
		t.Errorf("running, yet Err says %v", err)
	}
	if err := p.Close(); err != nil {
		t.Errorf("a clean exit: %v", err)
	}
}

// The worker's C library is held to two malloc arenas, unless the daemon's environment says.
func TestWorkerEnvironment(t *testing.T) {
	for _, c := range []struct{ set, want string }{{"", "MALLOC_ARENA_MAX=1"}, {"4", "MALLOC_ARENA_MAX=4"}} {
		if c.set != "" {
			t.Setenv("MALLOC_ARENA_MAX", c.set)
		}
		_, err := fake(t, "env", 10*time.Second)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("MALLOC_ARENA_MAX %q: %v, want the worker to have %s", c.set, err, c.want)
		}
	}
}

// A worker that is not ready is an error saying what it said, or that it said nothing.
func TestStartFailures(t *testing.T) {
	for _, c := range []struct{ mode, want string }{
		{"mute", "said nothing for"},
		{"old", "began with hello (version 99)"},
		{"bogus", "ended before it was ready; it said: visiontest: no mode \"bogus\""},
	} {
		t.Run(c.mode, func(t *testing.T) {
			p, err := fake(t, c.mode, time.Second)
			if err == nil {
				p.Close()
				t.Fatal("started")
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("%v, want it to say %q", err, c.want)
			}
		})
	}
	if _, err := Start(filepath.Join(t.TempDir(), "nothing"), nil, time.Second); err == nil {
		t.Error("a missing program started")
	}
}

// A worker that crashes closes Replies; Err names how it ended and what it said.
func TestCrash(t *testing.T) {
	p, err := fake(t, "crash:1", 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	p.Send(wire.Request{Op: wire.OpPut, Face: tile.Bam1, At: at})
	p.Send(wire.Request{Op: wire.OpPut, Face: tile.Bam2, At: at})
	for range p.Replies() {
	}
	err = p.Err()
	if !errors.Is(err, ErrExited) || !strings.Contains(err.Error(), "exit status 3") || !strings.Contains(err.Error(), "crashed after 1 requests") {
		t.Errorf("Err: %v", err)
	}
}

// Close ends a worker that has stopped answering.
func TestCloseEndsAStuckWorker(t *testing.T) {
	p, err := fake(t, "hang:0", 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	p.Send(wire.Request{Op: wire.OpPing})
	t0 := time.Now()
	p.Close() // the fake exits on EOF even when hanging
	if time.Since(t0) > 5*time.Second {
		t.Errorf("Close took %v", time.Since(t0))
	}
}

func TestFind(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PATH", dir)
	if _, err := Find(); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "scripts/build.sh") {
		t.Errorf("Find with nothing to find: %v", err)
	}
	bin := filepath.Join(dir, Binary)
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := Find(); err != nil || got != bin {
		t.Errorf("Find() = %q, %v; want %s", got, err, bin)
	}
}
