package mqtt

import (
	"log/slog"
	"sync"
)

// Outbox is what the table loop hands the publisher. Nothing in it blocks: retained topics
// (state, health, each seat's private view) keep only their latest payload, so a slow broker
// sees fewer, newer states; events queue in order up to a bound, and an event that finds the
// queue full is dropped, counted and logged with the reason, never silently.
type Outbox struct {
	mu      sync.Mutex
	latest  map[string][]byte // retained topic -> latest payload not yet published
	events  []Message
	max     int
	dropped uint64
	lastLog uint64 // dropped count when last logged
	wake    chan struct{}
	log     *slog.Logger
}

// Message is one payload for one topic.
type Message struct {
	Topic   string
	Payload []byte
}

// NewOutbox queues at most max events.
func NewOutbox(max int, log *slog.Logger) *Outbox {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Outbox{latest: map[string][]byte{}, max: max, wake: make(chan struct{}, 1), log: log}
}

// Retain sets the latest payload of a retained topic, replacing one not yet published.
func (o *Outbox) Retain(topic string, payload []byte) {
	o.mu.Lock()
	o.latest[topic] = payload
	o.mu.Unlock()
	o.signal()
}

// Event queues an event; it reports false when the queue was full and the event dropped.
func (o *Outbox) Event(topic string, payload []byte) bool {
	o.mu.Lock()
	if len(o.events) >= o.max {
		o.dropped++
		d := o.dropped
		logIt := d == 1 || d >= 2*o.lastLog // log the first drop, then at doublings
		if logIt {
			o.lastLog = d
		}
		o.mu.Unlock()
		if logIt {
			o.log.Warn("mqtt: event dropped: the publish queue is full (the broker is unreachable or too slow)",
				"topic", topic, "queue", o.max, "dropped", d)
		}
		return false
	}
	o.events = append(o.events, Message{topic, payload})
	o.mu.Unlock()
	o.signal()
	return true
}

func (o *Outbox) signal() {
	select {
	case o.wake <- struct{}{}:
	default:
	}
}

// Wake is signalled when something was added.
func (o *Outbox) Wake() <-chan struct{} { return o.wake }

// Take empties the outbox: the retained payloads (sorted by topic, so state goes out in a
// stable order) and up to n events, oldest first.
func (o *Outbox) Take(n int) (retained, events []Message) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for t, p := range o.latest {
		retained = append(retained, Message{t, p})
	}
	clear(o.latest)
	k := min(n, len(o.events))
	events = append(events, o.events[:k]...)
	o.events = append(o.events[:0], o.events[k:]...)
	if len(o.events) > 0 {
		o.signal()
	}
	sortMessages(retained)
	return retained, events
}

// Putback returns what could not be published: retained payloads unless a newer one came
// meanwhile, events to the front of the queue in their order (they may exceed the bound: they
// were already counted in).
func (o *Outbox) Putback(retained, events []Message) {
	o.mu.Lock()
	for _, m := range retained {
		if _, newer := o.latest[m.Topic]; !newer {
			o.latest[m.Topic] = m.Payload
		}
	}
	o.events = append(append([]Message(nil), events...), o.events...)
	o.mu.Unlock()
	o.signal()
}

func (o *Outbox) hasRetained() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.latest) > 0
}

// Stats is the outbox's state for the health topic.
type Stats struct {
	Queued  int    `json:"queued"`
	Dropped uint64 `json:"dropped_events"`
}

// Stats counts what waits and what was dropped.
func (o *Outbox) Stats() Stats {
	o.mu.Lock()
	defer o.mu.Unlock()
	return Stats{Queued: len(o.events), Dropped: o.dropped}
}

func sortMessages(ms []Message) {
	for i := 1; i < len(ms); i++ {
		for j := i; j > 0 && ms[j].Topic < ms[j-1].Topic; j-- {
			ms[j], ms[j-1] = ms[j-1], ms[j]
		}
	}
}
