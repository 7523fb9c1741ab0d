package synth

import (
	"io"

	"gocv.io/x/gocv"
)

// Script is a frame source (see vision/source) that plays scenes through a renderer, each for
// a number of frames, as a camera would see them; Read returns io.EOF after the last.
type Script struct {
	r     *Renderer
	steps []Step
	i, n  int
	seed  uint64
}

// Step is one scene shown for Frames frames (at least one).
type Step struct {
	Scene  Scene
	Frames int
}

// NewScript plays steps through r; r stays the caller's to close.
func NewScript(r *Renderer, steps ...Step) *Script { return &Script{r: r, steps: steps} }

// Read renders the next frame into dst.
func (s *Script) Read(dst *gocv.Mat) error {
	for s.i < len(s.steps) && s.n >= max(1, s.steps[s.i].Frames) {
		s.i, s.n = s.i+1, 0
	}
	if s.i >= len(s.steps) {
		return io.EOF
	}
	s.n++
	s.seed++
	m, err := s.r.Render(s.steps[s.i].Scene, s.seed)
	if err != nil {
		return err
	}
	defer m.Close()
	m.CopyTo(dst)
	return nil
}

// Close does nothing: the renderer is the caller's.
func (s *Script) Close() error { return nil }
