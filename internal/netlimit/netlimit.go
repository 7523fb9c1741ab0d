// Package netlimit bounds how many connections a server holds at once: one past the limit is
// closed at once rather than queued, so that a flood of idle connections costs the table
// nothing but the time its deadlines take to drop them.
package netlimit

import (
	"log/slog"
	"net"
	"sync"
)

// Listener accepts at most Max connections at once from the listener it wraps.
type Listener struct {
	net.Listener
	max int
	log *slog.Logger

	mu      sync.Mutex
	open    int
	refused int // refused since the last one was logged
}

// Wrap limits ln to max connections held at once (max > 0).
func Wrap(ln net.Listener, max int, log *slog.Logger) *Listener {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Listener{Listener: ln, max: max, log: log}
}

// Accept returns the next connection within the limit, closing those past it.
func (l *Listener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if l.enter() {
			return &conn{Conn: c, l: l}, nil
		}
		c.Close()
	}
}

// Open is how many accepted connections are open now.
func (l *Listener) Open() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.open
}

func (l *Listener) enter() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.open < l.max {
		l.open++
		if l.refused > 0 {
			l.log.Warn("connections refused: too many open", "addr", l.Addr().String(), "refused", l.refused, "max", l.max)
			l.refused = 0
		}
		return true
	}
	if l.refused++; l.refused == 1 {
		l.log.Warn("connection refused: too many open", "addr", l.Addr().String(), "max", l.max)
	}
	return false
}

func (l *Listener) leave() {
	l.mu.Lock()
	l.open--
	l.mu.Unlock()
}

// conn gives its place back once, when closed.
type conn struct {
	net.Conn
	l    *Listener
	once sync.Once
}

func (c *conn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.l.leave)
	return err
}
