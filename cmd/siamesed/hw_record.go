package main

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/siamesetable/siamesed/internal/safefile"

	"github.com/siamesetable/siamesed/hw/build"
	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/i2c/i2ctest"
)

// hwRecorder wraps a Host so that every I2C transaction is captured with periph's i2ctest.Record:
// a recording from a real rack becomes the Ops of an i2ctest.Playback in a unit test.
type hwRecorder struct {
	build.Host
	mu   sync.Mutex
	recs map[string]*i2ctest.Record
}

type recordedBus struct {
	*i2ctest.Record
	closer i2c.BusCloser
}

func (b recordedBus) Close() error { return b.closer.Close() }

// OpenI2C opens the real bus and records it.
func (h *hwRecorder) OpenI2C(name string) (i2c.BusCloser, error) {
	b, err := h.Host.OpenI2C(name)
	if err != nil {
		return nil, err
	}
	r := &i2ctest.Record{Bus: b}
	h.mu.Lock()
	if h.recs == nil {
		h.recs = map[string]*i2ctest.Record{}
	}
	h.recs[name] = r
	h.mu.Unlock()
	return recordedBus{Record: r, closer: b}, nil
}

// save writes {bus: [{Addr, W, R}...]} as JSON (byte slices in base64, as encoding/json does).
func (h *hwRecorder) save(path string) error {
	h.mu.Lock()
	out := map[string][]i2ctest.IO{}
	for name, r := range h.recs {
		r.Lock()
		out[name] = append([]i2ctest.IO(nil), r.Ops...)
		r.Unlock()
	}
	h.mu.Unlock()
	b, err := json.MarshalIndent(out, "", " ")
	if err != nil {
		return fmt.Errorf("record: %w", err)
	}
	if err := safefile.WriteFile(path, b, 0o644); err != nil {
		return fmt.Errorf("record: %w", err)
	}
	return nil
}
