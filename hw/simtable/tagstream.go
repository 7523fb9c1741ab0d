package simtable

import (
	"fmt"
	"sync"
)

// TagStream is a simulated enrolment reader: someone places a tile, lifts it, places the next.
// Calls alternate between one tag and an empty field; every fifth placement puts back a tag
// already shown, so enrolment's duplicate check is exercised. Seeds give disjoint UIDs.
type TagStream struct {
	mu    sync.Mutex
	seed  uint32
	calls int
	shown []string
}

// NewTagStream returns a stream whose UIDs are unique to seed.
func NewTagStream(seed uint32) *TagStream { return &TagStream{seed: seed} }

// ReadTags implements rack.TagReader.
func (s *TagStream) ReadTags() ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	if s.calls%2 == 0 {
		return nil, nil
	}
	n := s.calls / 2
	if n%5 == 4 && len(s.shown) > 0 {
		return []string{s.shown[len(s.shown)-1]}, nil
	}
	u := fmt.Sprintf("04:%02X:%02X:%02X:%02X", byte(s.seed), byte(s.seed>>8), byte(n>>8), byte(n))
	s.shown = append(s.shown, u)
	return []string{u}, nil
}
