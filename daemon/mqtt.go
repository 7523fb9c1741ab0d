package daemon

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/siamesetable/siamesed/engine/track"
	"github.com/siamesetable/siamesed/mqtt"
	"golang.org/x/sync/errgroup"
)

// bridge puts the table on MQTT: the state, events and seats' private views out through the
// publisher, commands in through the intake to the table loop. Its hooks run on the table loop
// and never block it.
type bridge struct {
	topics  mqtt.Topics
	creds   mqtt.Credentials
	file    string // where the credentials are kept
	broker  *mqtt.Broker
	pub     *mqtt.Publisher
	intake  *mqtt.Intake
	advisor *advisor
	ws      http.Handler // MQTT over WebSocket at /mqtt

	game      string
	questions map[int]bool // question ids already announced on the events topic
	health    []byte
	healthAt  time.Time
}

// startMQTT builds the bridge from the configuration: the credentials (generated on first
// start), the embedded broker when asked for, the publisher and the command intake; their
// goroutines join g. With broker: none it returns nil.
func (d *daemon) startMQTT(ctx context.Context, g *errgroup.Group) (*bridge, error) {
	mc := d.cfg.MQTT
	if mc.Broker == "none" {
		return nil, nil
	}
	b := &bridge{topics: mqtt.TopicsFor(d.cfg.Table), file: mc.Credentials, questions: map[int]bool{}}
	if b.file == "" {
		b.file = mqtt.CredentialsFile(d.opt.DataDir)
	}
	creds, created, err := mqtt.LoadOrCreateCredentials(b.file)
	if err != nil {
		return nil, fmt.Errorf("daemon: %w", err)
	}
	b.creds = creds
	if created {
		d.log.Info("mqtt: passwords generated for the display and each seat", "file", b.file)
	} else {
		d.log.Info("mqtt: passwords", "file", b.file)
	}
	brokerURL := mc.Broker
	if mc.Broker == "embedded" {
		if b.broker, err = mqtt.StartBroker(mc.Listen, mqtt.Policy{Topics: b.topics}, creds, d.log.With("part", "broker")); err != nil {
			return nil, fmt.Errorf("daemon: %w", err)
		}
		brokerURL, b.ws = b.broker.URL(), b.broker.WebSocket()
		d.log.Info("mqtt: embedded broker", "tcp", b.broker.Addr(), "websocket", "/mqtt on the display port")
	} else if mc.WebSocket != "" {
		if b.ws, err = mqtt.NewWebSocketProxy(mc.WebSocket, d.log.With("part", "websocket")); err != nil {
			return nil, fmt.Errorf("daemon: mqtt.websocket: %w", err)
		}
	}
	b.pub = mqtt.NewPublisher(b.topics, mqtt.ClientConfig{Broker: brokerURL, Username: mqtt.DaemonUser, Password: creds.Daemon,
		ClientID: mqtt.DaemonClientID(d.cfg.Table, creds.Daemon), QueueSize: mc.Queue}, d.log, func(topic string, payload []byte) { b.intake.Offer(topic, payload) })
	b.intake = mqtt.NewIntake(b.topics, d.submit, b.pub, d.clk.Now, d.log)
	b.advisor = newAdvisor(d.table.card.Card, d.table.rules.TileSet().Count, b.pub.Private)
	g.Go(func() error { return b.pub.Run(ctx) })
	g.Go(func() error { return b.intake.Run(ctx) })
	g.Go(func() error { b.advisor.run(ctx.Done()); return nil })
	return b, nil
}

func (b *bridge) close() {
	if b != nil && b.broker != nil {
		b.broker.Close()
	}
}

// state publishes the public state and each seat's private view (on the table loop).
func (b *bridge) state(t *Table, s State) {
	if s.Game != b.game {
		b.game = s.Game
		clear(b.questions)
		b.pub.Event(mqtt.Event{Type: mqtt.EventGame, Game: s.Game, Seq: s.Seq, At: t.now})
	}
	if j, err := json.Marshal(s); err == nil {
		b.pub.State(j)
	}
	for _, q := range s.Questions {
		if !b.questions[q.ID] {
			b.questions[q.ID] = true
			b.pub.Event(mqtt.Event{Type: mqtt.EventQuestion, Game: s.Game, Seq: s.Seq, At: t.now, Question: &q})
		}
	}
	for seat, name := range s.Seats {
		b.advisor.offer(SeatPrivate{Table: s.Table, Game: s.Game, Seq: s.Seq, Seat: seat, Name: name,
			View: t.SeatView(seat), Questions: t.SeatQuestions(seat)})
	}
}

// steps publishes the acts played, in their public form (on the table loop).
func (b *bridge) steps(t *Table, game string, steps []track.Step) {
	seq := t.Game().Seq - len(steps)
	for _, st := range steps {
		seq++
		a := mqtt.PublicStep(st)
		b.pub.Event(mqtt.Event{Type: mqtt.EventAct, Game: game, Seq: seq, At: t.now, Act: &a})
	}
}

// healthOf publishes the health when it changed, or every healthEvery (on the table loop).
func (b *bridge) healthOf(h Health, now time.Time) {
	j, err := json.Marshal(h)
	if err != nil || (string(j) == string(b.health) && now.Sub(b.healthAt) < healthEvery) {
		return
	}
	b.health, b.healthAt = j, now
	out, err := json.Marshal(struct {
		Health
		MQTT mqtt.PublisherStats `json:"mqtt"`
	}{h, b.pub.Stats()})
	if err == nil {
		b.pub.Health(out)
	}
}

// healthEvery refreshes the retained health (the publisher's counts) while nothing changes.
const healthEvery = 10 * time.Second

// connectInfo is what the display page needs to reach the broker (GET /api/mqtt). The
// display's password is no secret: it reads only what /api/state shows anyone.
type connectInfo struct {
	Path     string   `json:"path"` // MQTT over WebSocket on this HTTP port
	Prefix   string   `json:"prefix"`
	Username string   `json:"username"`
	Password string   `json:"password"`
	Table    string   `json:"table"`
	Seats    []string `json:"seats"`
}

func (b *bridge) connectInfo(table string, seats []string) connectInfo {
	return connectInfo{Path: "/mqtt", Prefix: b.topics.Prefix, Username: mqtt.DisplayUser, Password: b.creds.Display, Table: table, Seats: seats}
}

// submit hands a command from MQTT to the table loop and waits for its verdict.
func (d *daemon) submit(ctx context.Context, c track.Command) error {
	reply := make(chan error, 1)
	select {
	case d.events <- event{cmd: &c, err: reply, vet: true}:
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-reply:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}
