package desk

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nkeys"

	"github.com/siamesetable/siamesed/desk/embedded"
	"github.com/siamesetable/siamesed/internal/natstest"
	"github.com/siamesetable/siamesed/tournament/link"
	"github.com/siamesetable/siamesed/tournament/natsauth"
	"github.com/siamesetable/siamesed/tournament/simtable"
	"github.com/siamesetable/siamesed/tournament/table"
	"github.com/siamesetable/siamesed/tournament/wire"
)

// ground is a server the desk and the tables meet on, and the event's logins there.
type ground struct {
	urls  []string
	mqtt  string // the MQTT gateway's host:port, empty if none
	creds *natsauth.Credentials
}

func (g ground) login(o link.Options) link.Options {
	o.URLs, o.Replicas = g.urls, 1
	return o
}

// TestForgery: on each server the tournament ships (deploy/nats/single.conf run by the Go
// server and by Debian's nats-server, and the desk's own `--nats embedded`), every way a
// stranger or another table might speak for table 2 is tried while table 2 plays its round:
// no login, a key not the event's, the screens' and the routes' passwords, the MQTT gateway,
// table 1 publishing on table 2's subjects or a ruling, reading table 2's rulings, and, on
// the subjects table 1 may use, messages that say they are table 2's, ids of table 2's,
// a signature of table 2's game. The desk records none of it, table 2 receives no ruling
// but the director's, and each of table 2's own messages counts.
func TestForgery(t *testing.T) {
	if testing.Short() {
		t.Skip("starts NATS servers")
	}
	ev := pairs(t)
	t.Run("single.conf", func(t *testing.T) {
		c := natstest.Start(t, 1, ev.Tables())
		forgeries(t, ground{urls: c.URLs(), mqtt: c.MQTTAddr(0), creds: c.Creds})
	})
	t.Run("single.conf/nats-server", func(t *testing.T) {
		bin, err := exec.LookPath("nats-server")
		if err != nil {
			t.Skip("no nats-server (apt-get install nats-server)")
		}
		c := natstest.StartProgram(t, bin, 1, ev.Tables())
		forgeries(t, ground{urls: c.URLs(), mqtt: c.MQTTAddr(0), creds: c.Creds})
	})
	t.Run("embedded", func(t *testing.T) {
		dir := t.TempDir()
		creds, _, err := natsauth.LoadOrCreate(natsauth.File(dir), ev.Name, ev.Tables())
		if err != nil {
			t.Fatal(err)
		}
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		mqttAddr := l.Addr().String()
		l.Close()
		srv, err := embedded.Start("127.0.0.1:0", mqttAddr, dir, creds)
		if err != nil {
			t.Fatal(err)
		}
		defer srv.Close()
		forgeries(t, ground{urls: []string{srv.URL()}, mqtt: mqttAddr, creds: creds})
	})
}

func forgeries(t *testing.T, g ground) {
	ev := pairs(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	d, err := Open(ev, t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	dc, err := link.Dial(g.login(g.creds.DeskLink()))
	if err != nil {
		t.Fatal(err)
	}
	defer dc.Close()
	served := make(chan error, 1)
	go func() { served <- d.Serve(ctx, dc) }()
	defer func() { cancel(); <-served }()
	t1, err := g.creds.ForTable(1)
	if err != nil {
		t.Fatal(err)
	}
	forger, err := link.Dial(g.login(t1.Link()))
	if err != nil {
		t.Fatal(err)
	}
	defer forger.Close()
	refusals := make(chan error, 100)
	forger.NC.SetErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
		select {
		case refusals <- err:
		default:
		}
	})
	victim, err := simtable.Open(ev, 2, t.TempDir(), 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer victim.Close()
	t2, err := g.creds.ForTable(2)
	if err != nil {
		t.Fatal(err)
	}
	vc, err := link.Dial(g.login(t2.Link()))
	if err != nil {
		t.Fatal(err)
	}
	defer vc.Close()
	go vc.RunTable(ctx, victim.Table)

	// Table 2 plays its round; its games reach the desk, unsigned.
	for range ev.GamesPerRound {
		if _, _, err := victim.Play(time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	sh := victim.Sheet(1)
	waitFor(t, "table 2's games at the desk", 30*time.Second, func() bool { return len(d.View().Tables[1].Sheets[0].Games) == ev.GamesPerRound })

	// Everything forged is signed by Mallory, or says so.
	forged := forgedMessages(t, ev.Name, sh, d.View().Tables[1].Sheets[0].Games)

	// 1. No login: each, were it let in, would send table 2's forgeries on table 2's subjects
	// and a ruling for table 2.
	stranger, _ := nkeys.CreateUser()
	strangerPub, _ := stranger.PublicKey()
	for what, opt := range map[string]nats.Option{
		"anonymous":                               func(*nats.Options) error { return nil },
		"an nkey not the event's":                 nats.Nkey(strangerPub, stranger.Sign),
		"the screens' password":                   nats.UserInfo(natsauth.MQTTDisplayUser, g.creds.Display),
		"table 2's MQTT password":                 nats.UserInfo(natsauth.MQTTTableUser(2), g.creds.Table(2).MQTT),
		"the routes' password, as a client":       nats.UserInfo(natsauth.RouteUser, g.creds.Route),
		"table 2's public key, signed by another": nats.Nkey(mustPublic(t, t2.NKey), stranger.Sign),
	} {
		nc, err := nats.Connect(strings.Join(g.urls, ","), opt, nats.Timeout(5*time.Second))
		if err == nil {
			t.Errorf("%s: logged in", what)
			for _, f := range forged.asTable2 {
				nc.Publish(f.subject, f.body)
			}
			nc.Publish(link.OutSubject(2), forged.ruling)
			nc.Flush()
			nc.Close()
		}
	}
	// 2. The MQTT gateway, with each MQTT login: table 2's subjects as topics.
	if g.mqtt != "" {
		for _, login := range [][2]string{{"", ""}, {natsauth.MQTTDisplayUser, g.creds.Display}, {natsauth.MQTTTableUser(1), g.creds.Table(1).MQTT}, {natsauth.MQTTTableUser(2), g.creds.Table(2).MQTT}} {
			mc, err := mqttLogin(g.mqtt, login[0], login[1])
			if err != nil {
				continue // refused at login (anonymous)
			}
			if login[0] == "" {
				t.Errorf("MQTT: logged in with no user")
			}
			for _, f := range append(forged.asTable2, forgedOn{subject: link.OutSubject(2), body: forged.ruling}) {
				mc.Publish(strings.ReplaceAll(f.subject, ".", "/"), 1, false, f.body).WaitTimeout(5 * time.Second)
			}
			mc.Disconnect(100)
		}
	}
	// 3. Table 1, with its own key, on table 2's subjects and the rulings'.
	for _, f := range forged.asTable2 {
		forger.NC.Publish(f.subject, f.body)
	}
	forger.NC.Publish(link.OutSubject(2), forged.ruling)
	forger.NC.Publish(link.OutSubject(1), forged.ruling)
	forger.NC.Flush()
	// 4. Table 1 reading table 2's rulings: their subject, table 2's consumer, a consumer of its own.
	var mu sync.Mutex
	var read []string
	for _, subject := range []string{link.OutSubject(2), link.InSubject(2, "*"), ">"} {
		forger.NC.Subscribe(subject, func(m *nats.Msg) {
			mu.Lock()
			read = append(read, m.Subject)
			mu.Unlock()
		})
	}
	cctx, ccancel := context.WithTimeout(ctx, 3*time.Second)
	if c, err := forger.JS.Consumer(cctx, link.OutStream, link.TableConsumer(2)); err == nil {
		if b, err := c.FetchNoWait(10); err == nil {
			for m := range b.Messages() {
				read = append(read, "table 2's consumer: "+m.Subject())
			}
		}
	}
	if _, err := forger.JS.CreateOrUpdateConsumer(cctx, link.OutStream, jetstream.ConsumerConfig{Durable: "mallory", FilterSubject: link.OutSubject(2)}); err == nil {
		t.Error("table 1 made a consumer of table 2's rulings")
	}
	ccancel()
	// 5. Table 1 on its own subjects, speaking for table 2.
	for _, f := range forged.onOwn {
		if _, err := forger.JS.Publish(ctx, f.subject, f.body, f.opts...); err != nil {
			t.Fatalf("table 1 publishing on its own subject %s: %v", f.subject, err)
		}
	}
	forger.NC.Publish(link.ProgressSubject(1), forged.progress)
	forger.NC.Flush()

	// The director rules for table 2, then table 2 signs and initials: each counted, nothing forged.
	time.Sleep(time.Second) // what was forged would have arrived by now
	for _, gm := range d.View().Tables[1].Sheets[0].Games {
		if len(gm.Signed) > 0 {
			t.Errorf("table 2's game %d signed before its players signed it: %v", gm.Number, gm.Signed)
		}
	}
	if _, err := d.Rule(2, 1, wire.Ruling{Director: "Dee", Text: "the director's own ruling"}); err != nil {
		t.Fatal(err)
	}
	signAll(t, victim, 1)
	waitFor(t, "table 2's sheet closed by its own players", 30*time.Second, func() bool { return d.View().Tables[1].Sheets[0].Closed })
	waitFor(t, "the director's ruling at table 2", 30*time.Second, func() bool { return len(victim.Sheet(1).Rulings) > 0 })
	time.Sleep(time.Second) // anything forged still on its way has arrived
	all, err := d.Changes(0)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range all {
		if strings.Contains(string(c.Body), "Mallory") || (c.Table != 2 && c.Kind != wire.KindRuling) {
			t.Errorf("recorded: %s %s by %s (table %d): %s", c.Kind, c.Ref, c.Who, c.Table, c.Body)
		}
	}
	v := d.View()
	if gl := v.Tables[1].Glance; gl.Waiting == "Mallory" || gl.Round == 3 {
		t.Errorf("table 2 at a glance: %+v, table 1's forgery", gl)
	}
	if len(v.Tables[1].Sheets[0].Games) != ev.GamesPerRound {
		t.Errorf("table 2's sheet has %d games", len(v.Tables[1].Sheets[0].Games))
	}
	for _, r := range victim.Sheet(1).Rulings {
		if strings.Contains(string(mustJSON(t, r)), "Mallory") {
			t.Errorf("table 2 took a forged ruling: %+v", r.Ruling)
		}
	}
	mu.Lock()
	if len(read) > 0 {
		t.Errorf("table 1 read %q", read)
	}
	mu.Unlock()
	if n := len(refusals); n < len(forged.asTable2)+2 {
		t.Errorf("the server refused table 1 %d times, want at least %d", n, len(forged.asTable2)+2)
	}
}

// forgedOn is a forgery and where it is sent.
type forgedOn struct {
	subject string
	body    []byte
	opts    []jetstream.PublishOpt
}

type forgeryKit struct {
	asTable2 []forgedOn // table 2's messages, on table 2's subjects
	onOwn    []forgedOn // table 2's messages, or ids, on table 1's own subjects
	ruling   []byte     // a ruling for table 2
	progress []byte     // table 2's progress, said by table 1
}

// forgedMessages makes Mallory's messages for table 2's first round: its initials (with table
// 2's ids), a call, a result, a signature of each of its games and a ruling.
func forgedMessages(t *testing.T, event string, sh table.Sheet, games []GameView) forgeryKit {
	t.Helper()
	var k forgeryKit
	add := func(to *[]forgedOn, subject string, m wire.Message, msgID string) {
		var opts []jetstream.PublishOpt
		if msgID != "" {
			opts = append(opts, jetstream.WithMsgID(msgID))
		}
		*to = append(*to, forgedOn{subject: subject, body: mustJSON(t, m), opts: opts})
	}
	now := time.Now()
	for seat, by := range sh.Initial {
		id := wire.InitialsID(2, 1, seat, sh.Totals[seat])
		m := wire.Message{Schema: wire.Schema, ID: id, Kind: wire.KindInitials, Event: event, Table: 2, Round: 1, At: now,
			Sign: &wire.Sign{Seat: seat, By: by, Name: "Mallory", Total: sh.Totals[seat]}}
		add(&k.asTable2, link.InSubject(2, wire.KindInitials), m, "")
		add(&k.onOwn, link.InSubject(1, wire.KindInitials), m, id) // table 2's, on table 1's subject
		m.Table = 1
		add(&k.onOwn, link.InSubject(1, wire.KindInitials), m, id) // table 1's, with table 2's id
	}
	signers := 0
	for _, gm := range games { // table 2's games as the desk shows them, ids and all
		for _, mj := range gm.Result.Signers() {
			m := wire.Message{Schema: wire.Schema, ID: wire.SignID(gm.ID, mj), Kind: wire.KindSign, Event: event, Table: 1, Round: 1, At: now,
				Sign: &wire.Sign{Game: gm.Number, Result: gm.ID, Seat: mj, By: mj, Name: "Mallory"}}
			add(&k.onOwn, link.InSubject(1, wire.KindSign), m, "") // table 1 signs table 2's game
			m.Table = 2
			add(&k.asTable2, link.InSubject(2, wire.KindSign), m, "")
			signers++
		}
	}
	if signers == 0 {
		t.Fatal("table 2's games have no Mah Jongg to sign: choose another seed")
	}
	call := wire.Message{Schema: wire.Schema, ID: wire.CallID(2, now.UnixNano()), Kind: wire.KindCall, Event: event, Table: 2, Round: 1, At: now,
		Call: &wire.Call{Game: 1, Note: "Mallory calls"}}
	add(&k.asTable2, link.InSubject(2, wire.KindCall), call, "")
	call.Table = 1
	add(&k.onOwn, link.InSubject(1, wire.KindCall), call, "") // table 1's call, named for table 2
	res := sh.Played[0].Result
	res.Scores, res.Journal, res.Game, res.GameID = []int{-500, 500}, strings.Repeat("ab", 32), 2, "Mallory"
	rm := wire.Message{Schema: wire.Schema, ID: wire.ResultID(res.Journal), Kind: wire.KindResult, Event: event, Table: 2, Round: 1, At: now, Result: &res}
	add(&k.asTable2, link.InSubject(2, wire.KindResult), rm, "")
	add(&k.onOwn, link.InSubject(1, wire.KindResult), rm, "")
	k.ruling = mustJSON(t, wire.Message{Schema: wire.Schema, ID: "u-mallory", Kind: wire.KindRuling, Event: event, Table: 2, Round: 1, At: now,
		Ruling: &wire.Ruling{Director: "Mallory", Text: "Mallory rules", Penalty: &wire.Penalty{Seat: 0, Points: -100}}})
	k.progress = mustJSON(t, wire.Message{Schema: wire.Schema, ID: wire.ProgressID(2, now.UnixNano()), Kind: wire.KindProgress, Event: event, Table: 2, Round: 3, At: now.Add(time.Hour),
		Progress: &wire.Progress{Game: 1, Phase: "over", Waiting: "Mallory"}})
	k.asTable2 = append(k.asTable2, forgedOn{subject: link.ProgressSubject(2), body: k.progress})
	return k
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustPublic(t *testing.T, seed string) string {
	t.Helper()
	p, err := natsauth.PublicKey(seed)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func mqttLogin(addr, user, pass string) (paho.Client, error) {
	o := paho.NewClientOptions().AddBroker("tcp://" + addr).SetClientID(fmt.Sprintf("mallory-%s-%d", user, time.Now().UnixNano())).
		SetUsername(user).SetPassword(pass).SetAutoReconnect(false).SetConnectRetry(false).SetConnectTimeout(10 * time.Second)
	mc := paho.NewClient(o)
	tok := mc.Connect()
	if !tok.WaitTimeout(15 * time.Second) {
		return nil, fmt.Errorf("no CONNACK in 15 s")
	}
	return mc, tok.Error()
}
