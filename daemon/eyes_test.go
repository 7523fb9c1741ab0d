package daemon

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/configs"
	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/engine/track"
	"github.com/siamesetable/siamesed/internal/clock"
	"github.com/siamesetable/siamesed/internal/visionproc"
	"github.com/siamesetable/siamesed/internal/visionproc/visiontest"
)

var eyesT0 = time.Date(2026, 11, 23, 19, 0, 0, 0, time.UTC)

// fakeEyes runs this test binary as a fake camera worker in mode (visiontest.Env), in a soak.
func fakeEyes(t *testing.T, mode string, clk clock.Clock) (*visionEyes, error) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(visiontest.Env, mode)
	start := func() (*visionproc.Proc, error) { return visionproc.Start(self, nil, 5*time.Second) }
	e, err := newVisionEyes(start, clk, slog.New(slog.DiscardHandler), true)
	if e != nil {
		t.Cleanup(func() { e.close() })
	}
	return e, err
}

func readings(rs []track.DiscardReading) string {
	var b []string
	for _, r := range rs {
		k := "taken"
		if r.Seen {
			k = "seen"
		}
		b = append(b, k+" "+r.Face.String()+" +"+r.At.Sub(eyesT0).String())
	}
	return strings.Join(b, ", ")
}

// In a soak each move is answered before Show returns, and its events come due when the view
// has settled; the sweep between games is not play.
func TestVisionEyesInASoak(t *testing.T) {
	clk := clock.NewFake(eyesT0)
	e, err := fakeEyes(t, "sim", clk)
	if err != nil {
		t.Fatal(err)
	}
	e.Show(true, tile.Dot5, eyesT0)
	e.Show(true, tile.Joker, eyesT0.Add(time.Second))
	e.Show(false, tile.Joker, eyesT0.Add(2*time.Second))
	if got := readings(e.due(eyesT0.Add(time.Second))); got != "seen 5D +267ms" {
		t.Errorf("due after 1s: %s", got)
	}
	if got := readings(e.due(eyesT0.Add(time.Minute))); got != "seen J +1.267s, taken J +2.267s" {
		t.Errorf("due after a minute: %s", got)
	}
	e.Clear(eyesT0.Add(time.Minute))
	if got := e.due(eyesT0.Add(time.Hour)); len(got) != 0 {
		t.Errorf("the sweep between games reported: %s", readings(got))
	}
	if st, changed := e.health(eyesT0); !st.Working || !changed {
		t.Errorf("health %+v, %v; want working, news", st, changed)
	}
	if _, changed := e.health(eyesT0); changed {
		t.Error("the same health told twice")
	}
}

// A worker that crashes: the camera is not working, saying why and when it starts again; once
// the wait is over the worker is started again, the tiles lying there are laid again, and the
// camera works.
func TestVisionEyesRestartAStoppedWorker(t *testing.T) {
	clk := clock.NewFake(eyesT0)
	e, err := fakeEyes(t, "crash:2", clk)
	if err != nil {
		t.Fatal(err)
	}
	e.area = func() []tile.Face { return []tile.Face{tile.Bam1, tile.Crak2, tile.Dot3} } // the simulated table's discards
	e.Show(true, tile.Bam1, eyesT0)
	e.Show(true, tile.Crak2, eyesT0)
	e.Show(true, tile.Dot3, eyesT0) // the worker dies reading this
	st, changed := e.health(eyesT0)
	if st.Working || !changed || !strings.Contains(st.Problem, "the camera worker stopped") || !strings.Contains(st.Problem, "crashed after 2 requests") ||
		!strings.Contains(st.Problem, "starting it again in 1s") {
		t.Fatalf("health %+v, %v", st, changed)
	}
	if got := readings(e.due(eyesT0.Add(time.Minute))); got != "seen 1B +267ms, seen 2C +267ms" {
		t.Errorf("due: %s", got)
	}
	clk.Advance(time.Second)
	e.due(clk.Now())
	if st, changed := e.health(clk.Now()); !st.Working || !changed {
		t.Errorf("after the wait: %+v, %v; want working again", st, changed)
	}
	if e.proc == nil {
		t.Error("no worker after the wait")
	}
	// The new worker crashes too (after the lay and one more move): the wait doubles.
	e.Show(false, tile.Dot3, clk.Now())
	e.Show(true, tile.Bam9, clk.Now())
	if st, _ := e.health(clk.Now()); st.Working || !strings.Contains(st.Problem, "starting it again in 2s") {
		t.Errorf("second failure: %+v", st)
	}
}

// A worker that stops answering is stopped and reported, not waited for forever.
func TestVisionEyesStuckWorker(t *testing.T) {
	clk := clock.NewFake(eyesT0)
	e, err := fakeEyes(t, "hang:1", clk)
	if err != nil {
		t.Fatal(err)
	}
	e.timeout = 300 * time.Millisecond
	e.Show(true, tile.Bam1, eyesT0)
	e.Show(true, tile.Bam2, eyesT0)
	if st, _ := e.health(eyesT0); st.Working || !strings.Contains(st.Problem, "no answer to put within 300ms") {
		t.Errorf("health %+v", st)
	}
}

// A real camera's worker says the camera is not working: the table hears it.
func TestVisionEyesPassesTheCamerasStatus(t *testing.T) {
	e, err := fakeEyes(t, "down", clock.Real{})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		st, _ := e.health(time.Now())
		if !st.Working && st.Problem == "no frame from camera 0 for 3s" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("health %+v", st)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if got := describe("0", track.CameraStatus{Problem: "dark"}); got != "0: dark" {
		t.Errorf("describe: %q", got)
	}
}

// camera: sim without siamesed-vision: the daemon says so at start, and how to fix it; a
// worker that cannot start is an error at start too.
func TestMissingWorkerIsSaidAtStart(t *testing.T) {
	rules, err := configs.LoadRuleset("siamese")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", t.TempDir())
	cfg := Defaults()
	d := &daemon{cfg: cfg, log: slog.New(slog.DiscardHandler), clk: clock.NewFake(eyesT0)}
	_, err = d.newCamera(rules)
	for _, want := range []string{"camera: sim needs the vision pipeline", "siamesed-vision is not beside siamesed nor on PATH", "scripts/build.sh", "camera: direct"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v, want it to say %q", err, want)
		}
	}
	dir := t.TempDir()
	d = &daemon{cfg: cfg, opt: Options{DataDir: dir}, log: slog.New(slog.DiscardHandler), clk: clock.NewFake(eyesT0)}
	if err := d.build(); err == nil || !strings.Contains(err.Error(), "scripts/build.sh") {
		t.Errorf("build: %v", err)
	}
	if games, _ := filepath.Glob(filepath.Join(dir, "games", "*")); len(games) > 0 {
		t.Errorf("a daemon that cannot start began a game: %v", games)
	}
	d.cfg.Vision.Worker = os.Args[0]
	t.Setenv(visiontest.Env, "old")
	if _, err := d.newCamera(rules); err == nil || !strings.Contains(err.Error(), "camera: sim: visionproc: the worker began with hello (version 99)") {
		t.Errorf("a worker of another version: %v", err)
	}
}
