package simhw

import (
	"errors"
	"fmt"
	"sync"
)

// ErrProtocol marks a protocol violation: something a correct host never does.
var ErrProtocol = errors.New("simhw: protocol violation")

// maxKept bounds how many violations a Log keeps; it counts them all.
const maxKept = 64

// Log collects protocol violations from every emulator that shares it. The zero value is ready.
type Log struct {
	mu   sync.Mutex
	errs []error
	n    int
}

// Addf records a violation by dev.
func (l *Log) Addf(dev, format string, a ...any) {
	err := fmt.Errorf("%w: %s: %s", ErrProtocol, dev, fmt.Sprintf(format, a...))
	l.mu.Lock()
	defer l.mu.Unlock()
	l.n++
	if len(l.errs) < maxKept {
		l.errs = append(l.errs, err)
	}
}

// Len is how many violations were recorded.
func (l *Log) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.n
}

// Err joins the recorded violations (the first 64 of them), or is nil when there were none.
func (l *Log) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	errs := append([]error(nil), l.errs...)
	if l.n > len(l.errs) {
		errs = append(errs, fmt.Errorf("simhw: and %d more violations", l.n-len(l.errs)))
	}
	return errors.Join(errs...)
}
