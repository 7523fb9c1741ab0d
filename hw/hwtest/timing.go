package hwtest

import (
	"sync"
	"time"

	"periph.io/x/conn/v3/i2c"
	"periph.io/x/conn/v3/physic"
)

// TimingBus wraps an i2c.Bus and adds up the time the traffic would take on a real bus at
// Speed: per transaction a start bit, the address byte and every data byte at 9 clocks each
// (8 bits and ACK), a stop bit; a combined write-then-read adds a repeated start and address.
// It models the wire only, not clock stretching or the device's processing time.
type TimingBus struct {
	i2c.Bus
	Speed physic.Frequency

	mu    sync.Mutex
	bits  int64
	count int
}

// Tx forwards to the wrapped bus and counts clocks.
func (b *TimingBus) Tx(addr uint16, w, r []byte) error {
	clocks := int64(2 + 9 + 9*(len(w)+len(r)))
	if len(w) > 0 && len(r) > 0 {
		clocks += 1 + 9
	}
	b.mu.Lock()
	b.bits += clocks
	b.count++
	b.mu.Unlock()
	return b.Bus.Tx(addr, w, r)
}

// Elapsed is the modelled wire time so far, and the number of transactions.
func (b *TimingBus) Elapsed() (time.Duration, int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return time.Duration(b.bits) * time.Second / time.Duration(b.Speed/physic.Hertz), b.count
}
