package natstest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nkeys"

	"github.com/siamesetable/siamesed/tournament/link"
)

// CheckAccess tries on a running cluster (of at least four tables) what its users may and may
// not do over NATS, and fails t for every refusal that did not happen and every right refused:
// no one logs in without a key or password of the event's; table 3 publishes its own messages
// but not table 4's, a ruling, or anything to the streams' API; it reads its own rulings and
// nothing else; the desk publishes rulings and reads the tables' messages, nothing else.
func CheckAccess(t *testing.T, c *Cluster) {
	t.Helper()
	urls := strings.Join(c.URLs(), ",")
	// Who may not log in at all.
	stranger, _ := nkeys.CreateUser()
	strangerPub, _ := stranger.PublicKey()
	for what, opt := range map[string]nats.Option{
		"anonymous":                                            func(*nats.Options) error { return nil },
		"an nkey not the event's":                              nats.Nkey(strangerPub, stranger.Sign),
		"the screens' user, a wrong password":                  nats.UserInfo("display", "wrong-password"),
		"the screens' user and password over NATS (MQTT only)": nats.UserInfo("display", c.Creds.Display),
		"a route's user and password as a client":              nats.UserInfo("route", c.Creds.Route),
	} {
		nc, err := nats.Connect(urls, opt, nats.Timeout(5*time.Second))
		if err == nil {
			nc.Close()
			t.Errorf("%s: logged in", what)
		} else if !strings.Contains(strings.ToLower(err.Error()), "authorization violation") {
			t.Errorf("%s: %v, want an authorization violation", what, err)
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	desk := dial(t, c.Desk())
	for try := 0; ; try++ {
		pctx, cancelTry := context.WithTimeout(ctx, 20*time.Second)
		err := desk.conn.Prepare(pctx, 4)
		cancelTry()
		if err == nil {
			break
		}
		if try == 5 {
			t.Fatalf("the desk preparing the cluster: %v", err)
		}
	}
	t3, t4 := dial(t, c.Table(3)), dial(t, c.Table(4))

	// What each may publish.
	must := func(who *client, subject string) {
		t.Helper()
		if _, err := who.conn.JS.Publish(ctx, subject, []byte(`{}`)); err != nil {
			t.Errorf("%s publishing on %s: %v", who.name, subject, err)
		}
	}
	must(t3, link.InSubject(3, "result"))
	rulingFor4 := mustRuling(t, ctx, desk, 4)
	mustRuling(t, ctx, desk, 3)
	for _, subject := range []string{
		link.InSubject(4, "result"), link.InSubject(4, "sign"), link.OutSubject(3), link.OutSubject(4), link.ProgressSubject(4),
		"$JS.API.STREAM.CREATE.SIAMESE_T3", "$JS.API.STREAM.DELETE." + link.InStream, "$JS.API.STREAM.PURGE." + link.OutStream,
		"$JS.API.STREAM.UPDATE." + link.InStream, "$JS.API.STREAM.MSG.GET." + link.OutStream, "$JS.API.DIRECT.GET." + link.OutStream,
		"$JS.API.CONSUMER.CREATE." + link.OutStream, "$JS.API.CONSUMER.CREATE." + link.OutStream + ".table-3",
		"$JS.API.CONSUMER.CREATE." + link.OutStream + ".table-3." + link.OutSubject(4),
		"$JS.API.CONSUMER.CREATE." + link.OutStream + ".table-3." + link.OutSubject(3),
		"$JS.API.CONSUMER.DURABLE.CREATE." + link.OutStream + ".t3", "$JS.API.CONSUMER.DELETE." + link.OutStream + ".table-4",
		"$JS.API.CONSUMER.INFO." + link.OutStream + ".table-4", "$JS.API.CONSUMER.MSG.NEXT." + link.OutStream + ".table-4",
		"$JS.API.CONSUMER.MSG.NEXT." + link.InStream + ".desk", "$JS.ACK." + link.InStream + ".desk.1.1.1.1.1.0",
		"$JS.ACK." + link.OutStream + ".table-4.1.1.1.1.1.0", "$JS.API.INFO",
	} {
		t3.refusedPublish(t, subject)
	}
	for _, subject := range []string{link.InSubject(4, "result"), link.ProgressSubject(4), "$JS.API.STREAM.DELETE." + link.InStream} {
		desk.refusedPublish(t, subject)
	}
	// What each may read.
	for _, subject := range []string{link.OutSubject(4), link.OutSubject(3), "siamese.desk.>", "_INBOX.>", link.TableInbox(4) + ".>",
		link.DeskInbox + ".>", link.ProgressSubject(3), ">", "$JS.>"} {
		t3.refusedSubscribe(t, subject)
	}
	for _, subject := range []string{link.OutSubject(4), "siamese.desk.in.>", "_INBOX.>", link.TableInbox(4) + ".>"} {
		desk.refusedSubscribe(t, subject)
	}
	// Table 3 reads its own rulings through its consumer, never table 4's.
	got := rulings(t, ctx, t3, 3)
	if len(got) != 1 || strings.Contains(got[0], rulingFor4) {
		t.Errorf("table 3 read %q through its consumer, want its own ruling only", got)
	}
	if got := rulings(t, ctx, t4, 4); len(got) != 1 || !strings.Contains(got[0], rulingFor4) {
		t.Errorf("table 4 read %q through its consumer, want its ruling", got)
	}
	bctx, cancelB := context.WithTimeout(ctx, 3*time.Second)
	if _, err := t3.conn.JS.Consumer(bctx, link.OutStream, link.TableConsumer(4)); err == nil {
		t.Error("table 3 bound to table 4's consumer")
	}
	cancelB()
	// The streams hold what was allowed and nothing else.
	for stream, want := range map[string]uint64{link.InStream: 1, link.OutStream: 2} {
		st, err := desk.conn.JS.Stream(ctx, stream)
		if err != nil {
			t.Fatal(err)
		}
		info, err := st.Info(ctx, jetstream.WithSubjectFilter(">"))
		if err != nil {
			t.Fatal(err)
		}
		if info.State.Msgs != want {
			t.Errorf("stream %s holds %d messages (%v), want %d", stream, info.State.Msgs, info.State.Subjects, want)
		}
	}
}

// client is a user's connection, with the refusals the server sent it.
type client struct {
	name    string
	conn    *link.Conn
	mu      sync.Mutex
	refusal []string
}

func dial(t *testing.T, o link.Options) *client {
	t.Helper()
	c := &client{name: o.Name}
	conn, err := link.Dial(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(conn.Close)
	conn.NC.SetErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
		c.mu.Lock()
		c.refusal = append(c.refusal, err.Error())
		c.mu.Unlock()
	})
	deadline := time.Now().Add(20 * time.Second)
	for !conn.NC.IsConnected() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not connected: %v", o.Name, conn.NC.LastError())
		}
		time.Sleep(20 * time.Millisecond)
	}
	c.conn = conn
	return c
}

// refused waits for the server's refusal naming subject.
func (c *client) refused(t *testing.T, what, subject string) {
	t.Helper()
	want := fmt.Sprintf("%q", subject)
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		c.mu.Lock()
		for _, r := range c.refusal {
			if strings.Contains(strings.ToLower(r), "permissions violation for "+what) && strings.Contains(r, want) {
				c.mu.Unlock()
				return
			}
		}
		c.mu.Unlock()
		time.Sleep(20 * time.Millisecond)
	}
	t.Errorf("%s: no refusal of %s to %s (refusals: %q)", c.name, what, subject, c.refusal)
}

func (c *client) refusedPublish(t *testing.T, subject string) {
	t.Helper()
	if err := c.conn.NC.PublishRequest(subject, c.conn.NC.NewRespInbox(), []byte(`{"forged":true}`)); err != nil {
		t.Fatal(err)
	}
	c.conn.NC.Flush()
	c.refused(t, "publish", subject)
}

func (c *client) refusedSubscribe(t *testing.T, subject string) {
	t.Helper()
	sub, err := c.conn.NC.Subscribe(subject, func(m *nats.Msg) { t.Errorf("%s read %s: %s", c.name, m.Subject, m.Data) })
	if err != nil {
		t.Fatal(err)
	}
	c.conn.NC.Flush()
	c.refused(t, "subscription", subject)
	sub.Unsubscribe()
}

// mustRuling has the desk publish a ruling (any text) for table, and returns its text.
func mustRuling(t *testing.T, ctx context.Context, desk *client, table int) string {
	t.Helper()
	text := fmt.Sprintf("ruling for table %d at %d", table, time.Now().UnixNano())
	if err := desk.conn.PublishOnce(ctx, link.OutSubject(table), text, []byte(text)); err != nil {
		t.Fatalf("the desk's ruling for table %d: %v", table, err)
	}
	return text
}

// rulings are what table reads through its own consumer within a few seconds.
func rulings(t *testing.T, ctx context.Context, who *client, table int) []string {
	t.Helper()
	var mu sync.Mutex
	var got []string
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	who.conn.Consume(cctx, link.OutStream, link.TableConsumer(table), func(m link.Msg) error {
		mu.Lock()
		got = append(got, string(m.Data))
		mu.Unlock()
		return nil
	})
	mu.Lock()
	defer mu.Unlock()
	return got
}
