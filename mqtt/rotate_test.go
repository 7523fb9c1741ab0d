package mqtt

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	mochi "github.com/mochi-mqtt/server/v2"
	"github.com/mochi-mqtt/server/v2/packets"
)

// phone connects as user without reconnecting, and reports when its connection is lost.
func phone(t *testing.T, url, user, pass string) (paho.Client, <-chan error, error) {
	t.Helper()
	lost := make(chan error, 1)
	o := clientOpts(url, user, pass).SetAutoReconnect(false).SetConnectionLostHandler(func(_ paho.Client, err error) { lost <- err })
	c, err := connect(t, o)
	return c, lost, err
}

// TestBrokerTakesASeatBack: a seat's new password is accepted at once, the old one refused at
// once, and the phone that held the seat is dropped; other seats stay connected.
func TestBrokerTakesASeatBack(t *testing.T) {
	b, creds, _ := startBroker(t)
	_, lost1, err := phone(t, b.URL(), "1", creds.Seats[1])
	if err != nil {
		t.Fatalf("seat 1 connects: %v", err)
	}
	_, lost0, err := phone(t, b.URL(), "0", creds.Seats[0])
	if err != nil {
		t.Fatalf("seat 0 connects: %v", err)
	}
	next, err := creds.WithNewSeatPassword(1)
	if err != nil {
		t.Fatal(err)
	}
	if next.Seats[1] == creds.Seats[1] || next.Seats[0] != creds.Seats[0] || next.Display != creds.Display || creds.Seats[1] == "" {
		t.Fatalf("only seat 1's password may change: %+v -> %+v", creds, next)
	}
	b.SetCredentials(next)
	if n := b.Drop("1"); n != 1 {
		t.Errorf("Drop(1) dropped %d clients, want 1", n)
	}
	select {
	case <-lost1:
	case <-time.After(waitFor):
		t.Fatal("the phone that held seat 1 is still connected")
	}
	if _, _, err := phone(t, b.URL(), "1", creds.Seats[1]); err == nil {
		t.Error("seat 1's old password is still accepted")
	}
	if _, _, err := phone(t, b.URL(), "1", next.Seats[1]); err != nil {
		t.Errorf("seat 1's new password is refused: %v", err)
	}
	select {
	case err := <-lost0:
		t.Errorf("seat 0 was dropped too: %v", err)
	default:
	}
}

// raceHook changes the credentials between a client's login and its session: the moment a
// login checked with the old password could slip past Drop.
type raceHook struct {
	mochi.HookBase
	b    *Broker
	next Credentials
}

func (h *raceHook) ID() string           { return "race" }
func (h *raceHook) Provides(b byte) bool { return b == mochi.OnSessionEstablish }
func (h *raceHook) OnSessionEstablish(cl *mochi.Client, pk packets.Packet) {
	h.b.SetCredentials(h.next)
	h.b.Drop(string(pk.Connect.Username)) // the client is not among the broker's yet
}

// TestBrokerDropsALoginThatRacedTheChange: a client whose password was right when checked
// but changed before its session began is dropped all the same.
func TestBrokerDropsALoginThatRacedTheChange(t *testing.T) {
	b, creds, _ := startBroker(t)
	next, err := creds.WithNewSeatPassword(0)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.srv.AddHook(&raceHook{b: b, next: next}, nil); err != nil {
		t.Fatal(err)
	}
	_, lost, err := phone(t, b.URL(), "0", creds.Seats[0])
	if err != nil {
		return // refused outright: as good
	}
	select {
	case <-lost:
	case <-time.After(waitFor):
		t.Fatal("a login with the password just replaced stays connected")
	}
}

// TestCredentialsRewrittenPrivately: the file with a seat's new password is written whole,
// mode 0600, and read back as written.
func TestCredentialsRewrittenPrivately(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mqtt", "credentials.yaml")
	c, created, err := LoadOrCreateCredentials(path)
	if err != nil || !created {
		t.Fatalf("created %v: %v", created, err)
	}
	next, err := c.WithNewSeatPassword(1)
	if err != nil {
		t.Fatal(err)
	}
	if err := next.Write(path); err != nil {
		t.Fatal(err)
	}
	back, created, err := LoadOrCreateCredentials(path)
	if err != nil || created || back.Seats[1] != next.Seats[1] || back.Seats[0] != c.Seats[0] {
		t.Fatalf("read back %v (created %v): %+v", err, created, back)
	}
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v: %v", st.Mode(), err)
	}
	ents, _ := os.ReadDir(filepath.Dir(path))
	if len(ents) != 1 {
		t.Errorf("left beside it: %v", ents)
	}
	if _, err := c.WithNewSeatPassword(MaxSeats); err == nil {
		t.Error("a seat the table has not got was given a password")
	}
}
