package mqtt

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/engine/track"
)

// forgery is one attempt to put a message on a topic: as user, by a publish or a will,
// retained or not.
type forgery struct {
	user, pass string
	topic      string
	will       bool
	retain     bool
}

func (f forgery) String() string {
	way := "publish"
	if f.will {
		way = "will"
	}
	if f.retain {
		way = "retained " + way
	}
	return fmt.Sprintf("%s %s on %s", f.user, way, f.topic)
}

// forgeries lists, for every user (a wrong password and no login too), every way a message
// enters a broker, to every topic of the table.
func forgeries(creds Credentials, topics Topics) []forgery {
	users := [][2]string{{DisplayUser, creds.Display}, {"0", creds.Seats[0]}, {"1", creds.Seats[1]},
		{"1", "not-the-password"}, {"", ""}}
	var out []forgery
	for _, u := range users {
		for _, topic := range tableTopics(topics) {
			for _, will := range []bool{false, true} {
				for _, retain := range []bool{false, true} {
					out = append(out, forgery{user: u[0], pass: u[1], topic: topic, will: will, retain: retain})
				}
			}
		}
	}
	return out
}

// tableTopics are a table's topics, for two seats. Tests subscribe to them by name where
// messages may be published meanwhile: mochi v2.7.9 scans for retained messages without a
// lock when a wildcard subscription arrives (docs/mqtt.md#brokers).
func tableTopics(topics Topics) []string {
	out := topics.Public()
	for seat := range 2 {
		out = append(out, topics.SeatPrivate(seat), topics.SeatEvents(seat), topics.Cmd(seat))
	}
	return out
}

// allowed is what the policy lets through: a seat's own command, not retained. Mosquitto's
// ACL cannot tell a retained publish from another, so there a seat's retained command is
// delivered as it is sent (and refused when it would be played again: TestMosquittoRetained...).
func (f forgery) allowed(creds Credentials, topics Topics, retainedCommandsPass bool) bool {
	own := isSeatUser(f.user) && f.pass == creds.Seats[mustSeat(f.user)] && f.topic == topics.Cmd(mustSeat(f.user))
	return own && (!f.retain || retainedCommandsPass)
}

func mustSeat(user string) int {
	n, err := seatNumber(user)
	if err != nil {
		return -1
	}
	return n
}

// attempt makes one forgery at url with payload. Refusals are the broker's answer, not errors.
func (f forgery) attempt(t *testing.T, url string, payload []byte) {
	rc := dialRaw(t, url)
	var will *rawWill
	if f.will {
		will = &rawWill{topic: f.topic, payload: payload, retain: f.retain}
	}
	code, err := rc.connect(f.user, f.pass, fmt.Sprintf("forger-%d", clientIDs.Add(1)), 30, will)
	if err != nil || code != 0 {
		return // refused at login: nothing entered
	}
	if f.will {
		rc.drop() // the broker publishes the will, if it kept it
		return
	}
	if err := rc.publish(f.topic, payload, f.retain); err == nil {
		rc.disconnect()
	}
}

// checkForgeries makes every forgery at url and checks that only what the policy allows
// reached the table: no other message on any topic, no command but a seat's own at the
// table loop, nothing forged kept retained for the next subscriber, and the daemon never
// knocked off.
func checkForgeries(t *testing.T, url string, creds Credentials, topics Topics, retainedCommandsPass bool, keep func(forgery) bool) {
	var mu sync.Mutex
	var commands []string
	p := startPublisher(t, url, creds, topics, func(_ context.Context, c track.Command) error {
		mu.Lock()
		commands = append(commands, fmt.Sprintf("seat %d %s", c.Seat, c.Kind))
		mu.Unlock()
		return nil
	})
	p.State([]byte(`{"seq":1}`))
	all := tableTopics(topics)
	watch, _ := subscribe(t, url, DaemonUser, creds.Daemon, all[0], all[1:]...)
	watch.until(t, "the state", func(m Message) bool { return m.Topic == topics.State() })

	var fs []forgery
	for _, f := range forgeries(creds, topics) {
		if keep == nil || keep(f) {
			fs = append(fs, f)
		}
	}
	want := map[string]bool{}
	for i, f := range fs {
		payload := fmt.Appendf(nil, `{"kind":"wall_game","id":"forged-%d"}`, i)
		if f.allowed(creds, topics, retainedCommandsPass) {
			want[fmt.Sprintf("forged-%d", i)] = true
		}
		f.attempt(t, url, payload)
	}
	// A will sent last, from a seat to its own command topic: once it reached the table, the
	// wills left before it have been published or never will be.
	last := forgery{user: "0", pass: creds.Seats[0], topic: topics.Cmd(0), will: true}
	last.attempt(t, url, []byte(`{"kind":"wall_game","id":"last"}`))
	watch.until(t, "the last will", func(m Message) bool { return strings.Contains(string(m.Payload), `"last"`) })
	p.State([]byte(`{"seq":2}`))
	watch.until(t, "the marker", func(m Message) bool { return string(m.Payload) == `{"seq":2}` })

	got := map[string]bool{}
	for _, m := range watch.all() {
		for i, f := range fs {
			id := fmt.Sprintf(`"forged-%d"`, i)
			if strings.Contains(string(m.Payload), id) {
				got[strings.Trim(id, `"`)] = true
				if !f.allowed(creds, topics, retainedCommandsPass) {
					t.Errorf("%s: delivered on %s", f, m.Topic)
				}
			}
		}
	}
	for id := range want {
		if !got[id] {
			t.Errorf("%s, which the policy allows, was not delivered", id)
		}
	}
	// The intake hands commands to the table on a goroutine of its own: wait for the last.
	played := func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), commands...) }
	for deadline := time.Now().Add(waitFor); len(played()) < len(want)+1 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond) // polling the table's count
	}
	if got := played(); len(got) != len(want)+1 {
		t.Errorf("%d commands reached the table, want %d (the seats' own and the last): %v", len(got), len(want)+1, got)
	}
	// What a subscriber arriving now is given as retained: only the daemon's retained messages.
	// (Live messages may still arrive, such as the daemon's replies to the seats' commands,
	// which name the command's id.)
	late, _ := subscribe(t, url, DaemonUser, creds.Daemon, all[0], all[1:]...)
	p.State([]byte(`{"seq":3}`))
	late.until(t, "the marker", func(m Message) bool { return string(m.Payload) == `{"seq":3}` })
	late.untilKept(t, "retained message for a late subscriber, not even the state")
	for _, m := range late.retained() {
		if strings.Contains(string(m.Payload), "forged") && !(retainedCommandsPass && strings.Contains(m.Topic, "/cmd/")) {
			t.Errorf("a forged message kept retained on %s: %s", m.Topic, m.Payload)
		}
	}
	if st := p.Stats(); st.Reconnects != 0 || !st.Connected {
		t.Errorf("the daemon reconnected %d times (connected now: %v): it was knocked off", st.Reconnects, st.Connected)
	}
	t.Logf("%d forgeries, %d allowed", len(fs), len(want))
}

// TestBrokerRefusesEveryForgery: on the embedded broker, over TCP and over WebSocket.
func TestBrokerRefusesEveryForgery(t *testing.T) {
	b, creds, topics := startBroker(t)
	t.Run("tcp", func(t *testing.T) { checkForgeries(t, b.URL(), creds, topics, false, nil) })
	web := httptest.NewServer(b.WebSocket())
	defer web.Close()
	t.Run("websocket", func(t *testing.T) { checkForgeries(t, wsURL(web.Listener.Addr().String()), creds, topics, false, nil) })
}

// TestMosquittoRefusesEveryForgery: Mosquitto with deploy/'s configuration and ACL.
func TestMosquittoRefusesEveryForgery(t *testing.T) {
	creds, err := NewCredentials()
	if err != nil {
		t.Fatal(err)
	}
	m := startMosquitto(t, creds)
	checkForgeries(t, m.url(), creds, TopicsFor("table1"), true, nil)
}

// checkNoTakeover connects every user with the daemon's client id (and with the id the
// daemon had before, siamesed-<table>), and checks that the daemon stays connected and the
// table never shows offline.
func checkNoTakeover(t *testing.T, url string, creds Credentials, topics Topics, ids []string) {
	p := startPublisher(t, url, creds, topics, nil)
	status, _ := subscribe(t, url, DisplayUser, creds.Display, topics.Status())
	status.until(t, "online", func(m Message) bool { return string(m.Payload) == "online" })
	for _, u := range [][2]string{{DisplayUser, creds.Display}, {"0", creds.Seats[0]}, {"1", creds.Seats[1]}} {
		for _, id := range ids {
			for range 3 {
				rc := dialRaw(t, url)
				if code, err := rc.connect(u[0], u[1], id, 30, nil); err != nil || code != 0 {
					t.Fatalf("%s with client id %s: refused (%d, %v); it should log in, in a space of its own", u[0], id, code, err)
				}
				rc.disconnect()
			}
		}
	}
	p.State([]byte(`{"seq":9}`))
	watch, _ := subscribe(t, url, DisplayUser, creds.Display, topics.State())
	watch.until(t, "the state", func(m Message) bool { return string(m.Payload) == `{"seq":9}` })
	for _, m := range status.all() {
		if string(m.Payload) == "offline" {
			t.Error("the table went offline")
		}
	}
	if st := p.Stats(); st.Reconnects != 0 || !st.Connected {
		t.Errorf("the daemon reconnected %d times (connected now: %v): it was knocked off", st.Reconnects, st.Connected)
	}
}

// TestBrokerKeepsClientIDsToTheirUser: on the embedded broker no other user can take the
// daemon's session, even knowing its client id.
func TestBrokerKeepsClientIDsToTheirUser(t *testing.T) {
	b, creds, topics := startBroker(t)
	checkNoTakeover(t, b.URL(), creds, topics, []string{DaemonClientID("t1", creds.Daemon), "siamesed-t1"})
}

// TestMosquittoDaemonCannotBeTakenOver: Mosquitto lets any user take any client id, so the
// daemon's is one no one else can make; the id it had before is harmless.
func TestMosquittoDaemonCannotBeTakenOver(t *testing.T) {
	creds, err := NewCredentials()
	if err != nil {
		t.Fatal(err)
	}
	m := startMosquitto(t, creds)
	checkNoTakeover(t, m.url(), creds, TopicsFor("table1"), []string{"siamesed-table1", "siamesed"})
}

func TestDaemonClientIDIsTheTablesAndSecret(t *testing.T) {
	a, b := DaemonClientID("t1", "password-one"), DaemonClientID("t1", "password-two")
	if a == b || !strings.HasPrefix(a, "siamesed-t1-") || len(a) != len("siamesed-t1-")+16 {
		t.Errorf("ids %q and %q: want siamesed-t1- and 16 hex digits that differ with the password", a, b)
	}
	if a != DaemonClientID("t1", "password-one") {
		t.Error("the id changes from one start to the next")
	}
}
