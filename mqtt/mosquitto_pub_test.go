package mqtt

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
)

// TestMosquittoACL: the shipped deploy/mosquitto.acl enforces the same policy as the
// embedded broker.
func TestMosquittoACL(t *testing.T) {
	creds, err := NewCredentials()
	if err != nil {
		t.Fatal(err)
	}
	m := startMosquitto(t, creds)
	checkACL(t, m.url(), creds, TopicsFor("table1"))
}

// TestMosquittoLateSubscriberGetsTheState: a display that subscribes after the state was
// published gets the latest state at once (retained).
func TestMosquittoLateSubscriberGetsTheState(t *testing.T) {
	creds, err := NewCredentials()
	if err != nil {
		t.Fatal(err)
	}
	m := startMosquitto(t, creds)
	topics := TopicsFor("table1")
	p := startPublisher(t, m.url(), creds, topics, nil)
	early, _ := subscribe(t, m.url(), DisplayUser, creds.Display, topics.State())
	for seq := 1; seq <= 5; seq++ {
		p.State(fmt.Appendf(nil, `{"seq":%d}`, seq))
	}
	early.until(t, "state 5", func(m Message) bool { return string(m.Payload) == `{"seq":5}` })
	late, _ := subscribe(t, m.url(), DisplayUser, creds.Display, topics.State())
	got := late.until(t, "the retained state", func(Message) bool { return true })
	if string(got.Payload) != `{"seq":5}` {
		t.Fatalf("a late subscriber got %s first, want the latest state {\"seq\":5}", got.Payload)
	}
}

// TestMosquittoRestartMidGame: the broker stops mid-game and comes back; the retained state
// is current again once it is back, and no QoS 1 event is lost (those published while it was
// down wait in the outbox). The time from its return to the current state is logged.
func TestMosquittoRestartMidGame(t *testing.T) {
	creds, err := NewCredentials()
	if err != nil {
		t.Fatal(err)
	}
	m := startMosquitto(t, creds)
	topics := TopicsFor("table1")
	p := startPublisher(t, m.url(), creds, topics, nil)
	// The display keeps its session (clean session off), so the broker queues its QoS 1
	// events while it reconnects.
	r := &received{more: make(chan struct{}, 1)}
	o := clientOpts(m.url(), DisplayUser, creds.Display).SetClientID("display-restart").SetCleanSession(false).
		SetOnConnectHandler(func(c paho.Client) {
			c.Subscribe(topics.Prefix+"#", 1, func(_ paho.Client, msg paho.Message) { r.add(msg) })
		})
	if _, err := connect(t, o); err != nil {
		t.Fatal(err)
	}
	r.until(t, "online", func(m Message) bool { return m.Topic == topics.Status() && string(m.Payload) == "online" })
	seq := 0
	play := func(n int) {
		for range n {
			seq++
			p.State(fmt.Appendf(nil, `{"seq":%d}`, seq))
			p.Event(Event{Type: EventAct, Seq: seq, At: time.Now()})
		}
	}
	play(20)
	r.until(t, "event 20", func(m Message) bool { return eventN(m, topics) == 20 })
	m.stop()
	play(20) // while the broker is down
	m.start()
	back := time.Now()
	want := fmt.Sprintf(`{"seq":%d}`, seq)
	r.until(t, "the current state after the restart", func(m Message) bool { return m.Topic == topics.State() && string(m.Payload) == want })
	t.Logf("state current %v after the broker's return", time.Since(back).Round(time.Millisecond))
	play(20)
	r.until(t, "event 60", func(m Message) bool { return eventN(m, topics) == 60 })
	seen := map[uint64]bool{}
	for _, msg := range r.all() {
		if n := eventN(msg, topics); n > 0 {
			seen[n] = true
		}
	}
	for n := uint64(1); n <= 60; n++ {
		if !seen[n] {
			t.Errorf("event %d lost", n)
		}
	}
	if st := p.Stats(); st.Dropped != 0 || st.Reconnects < 1 {
		t.Errorf("publisher stats %+v: want no event dropped and a reconnect", st)
	}
}

// eventN is an event's number, 0 for anything else.
func eventN(m Message, topics Topics) uint64 {
	if m.Topic != topics.Events() {
		return 0
	}
	var e Event
	if json.Unmarshal(m.Payload, &e) != nil {
		return 0
	}
	return e.N
}
