package mqtt

import (
	"errors"
	"net"
	"sync"

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
	mu     sync.Mutex
	closed bool
	conns  map[net.Conn]struct{}
	active sync.WaitGroup
}

// wrap returns establish guarded by the gate: refused once the gate is shut, else counted and
// remembered until mochi is done with the connection. A connection the gate closed ended as
// asked, and its read error is no news (mochi would log it as a warning).
func (g *gate) wrap(establish listeners.EstablishFn) listeners.EstablishFn {
	return func(id string, c net.Conn) error {
		if !g.enter(c) {
			c.Close()
			return errBrokerClosed
		}
		defer g.leave(c)
		err := establish(id, c)
		if err != nil && g.isShut() {
			return nil
		}
		return err
	}
}

func (g *gate) isShut() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.closed
}

func (g *gate) enter(c net.Conn) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed {
		return false
	}
	if g.conns == nil {
		g.conns = map[net.Conn]struct{}{}
	}
	g.conns[c] = struct{}{}
	g.active.Add(1)
	return true
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
