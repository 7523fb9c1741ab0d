package mqtt

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"time"

	"github.com/mochi-mqtt/server/v2/listeners"
)

// errBrokerClosed answers a connection that arrives while the broker is closing.
var errBrokerClosed = errors.New("mqtt: broker: closed")

// gate holds every connection the embedded broker serves, on every listener, so that Close can
// end them all and wait until each client's goroutine has left mochi before mochi's own Close
// runs. mochi v2.7.9's Server.Close lists each listener's clients under a read lock that it
// takes twice (Clients.GetByListener calls Clients.Len); a client leaving at that moment asks
// for the write lock in between, and the three wait on each other for ever. With the gate,
// nothing leaves while mochi lists its clients: they are all gone already.
type gate struct {
	max    int // connections held at once
	log    *slog.Logger
	mu     sync.Mutex
	closed bool
	conns  map[net.Conn]struct{}
	active sync.WaitGroup
}

// wrap returns establish guarded by the gate: refused once the gate is shut or holds
// MaxConnections, else counted and remembered until mochi is done with the connection. mochi
// is handed a connection only once it has sent a CONNECT of at most MaxConnectBytes within
// ConnectWithin (readConnect). The gate logs why a connection ended badly, naming its address,
// and tells mochi nothing (mochi would log it as a warning with no message); a connection the
// gate closed ended as asked, and its read error is no news.
func (g *gate) wrap(establish listeners.EstablishFn) listeners.EstablishFn {
	return func(id string, c net.Conn) error {
		if err := g.enter(c); err != nil {
			g.log.Warn("mqtt: connection refused", "listener", id, "remote", c.RemoteAddr().String(), "err", err)
			c.Close()
			return nil
		}
		defer g.leave(c)
		defer c.Close() // mochi closes what it served; the gate closes what it refused
		read, err := readConnect(c, time.Now())
		if err == nil {
			err = establish(id, withReplay(c, read))
		}
		if err != nil && !g.isShut() {
			g.log.Info("mqtt: connection ended", "listener", id, "remote", c.RemoteAddr().String(), "err", err)
		}
		return nil
	}
}

// open is how many connections the gate holds now.
func (g *gate) open() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.conns)
}

func (g *gate) isShut() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.closed
}

func (g *gate) enter(c net.Conn) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return errBrokerClosed
	}
	if len(g.conns) >= g.max {
		return fmt.Errorf("mqtt: broker: %d connections open, the most it holds", len(g.conns))
	}
	if g.conns == nil {
		g.conns = map[net.Conn]struct{}{}
	}
	g.conns[c] = struct{}{}
	g.active.Add(1)
	return nil
}

func (g *gate) leave(c net.Conn) {
	g.mu.Lock()
	delete(g.conns, c)
	g.mu.Unlock()
	g.active.Done()
}

// shut refuses new connections, closes every open one and waits until mochi has finished with
// each (a closed connection ends its client's read at once).
func (g *gate) shut() {
	g.mu.Lock()
	g.closed = true
	for c := range g.conns {
		c.Close()
	}
	g.mu.Unlock()
	g.active.Wait()
}

// gatedListener is a mochi listener whose connections pass through a gate.
type gatedListener struct {
	listeners.Listener
	gate *gate
}

func (l gatedListener) Serve(establish listeners.EstablishFn) {
	l.Listener.Serve(l.gate.wrap(establish))
}
