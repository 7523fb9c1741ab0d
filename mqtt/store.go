package mqtt

import (
	"bytes"
	"sync"

	paho "github.com/eclipse/paho.mqtt.golang"
	"github.com/eclipse/paho.mqtt.golang/packets"
)

// privateStore is paho's memory store keeping packets of its own. On reconnect paho v1.5.1 marks
// each stored publish as a duplicate (client.resume sets its Dup flag) while the new connection's
// writer may be sending that same packet object: a data race on the packet's header (CI's race
// detector caught it in TestMosquittoRestartMidGame). Here Put keeps a copy (paho puts a packet
// before it hands it to the writer) and Get hands out a fresh copy, so the packets paho sends and
// marks are never the ones stored, nor each other.
type privateStore struct {
	mu sync.Mutex // one copy at a time: writing a packet out sets its length field
	*paho.MemoryStore
}

func newPrivateStore() *privateStore { return &privateStore{MemoryStore: paho.NewMemoryStore()} }

// Put stores a copy of m; m itself should it not copy (paho could not send it either), so that
// nothing paho asked to keep is dropped.
func (s *privateStore) Put(key string, m packets.ControlPacket) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c := copyPacket(m); c != nil {
		m = c
	}
	s.MemoryStore.Put(key, m)
}

// Get returns a copy of the stored packet, or nil (paho skips the key) when there is none.
func (s *privateStore) Get(key string) packets.ControlPacket {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.MemoryStore.Get(key)
	if m == nil {
		return nil
	}
	return copyPacket(m)
}

// copyPacket is m written out and read back: a packet that shares nothing with m, or nil when m
// cannot be written (paho then treats the key as empty).
func copyPacket(m packets.ControlPacket) packets.ControlPacket {
	var b bytes.Buffer
	if err := m.Write(&b); err != nil {
		return nil
	}
	c, err := packets.ReadPacket(&b)
	if err != nil {
		return nil
	}
	return c
}
