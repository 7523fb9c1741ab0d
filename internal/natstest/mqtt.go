package natstest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	paho "github.com/eclipse/paho.mqtt.golang"

	"github.com/siamesetable/siamesed/tournament/link"
	"github.com/siamesetable/siamesed/tournament/natsauth"
)

// CheckMQTTAccess tries on node's MQTT gateway what its users may and may not do: no one logs
// in without the event's password; screens (display) read every table's public topics and
// publish nothing, and nothing of the tournament's own subjects; table 3's MQTT client publishes its own public topics, not table 4's, and
// nothing onto the tournament's subjects.
func CheckMQTTAccess(t *testing.T, c *Cluster, node int) {
	t.Helper()
	addr := "tcp://" + c.MQTTAddr(node)
	t3 := c.Creds.Table(3)
	for what, login := range map[string][2]string{
		"anonymous":                                   {"", ""},
		"the screens' user, a wrong password":         {natsauth.MQTTDisplayUser, "wrong-password"},
		"table 3's MQTT user with table 4's password": {natsauth.MQTTTableUser(3), c.Creds.Table(4).MQTT},
		"the route's user and password":               {natsauth.RouteUser, c.Creds.Route},
	} {
		if mc, err := mqttConnect(addr, login[0], login[1]); err == nil {
			mc.Disconnect(0)
			t.Errorf("MQTT, %s: logged in", what)
		}
	}
	screen, err := mqttConnect(addr, natsauth.MQTTDisplayUser, c.Creds.Display)
	if err != nil {
		t.Fatalf("MQTT, the screens' user: %v", err)
	}
	defer screen.Disconnect(100)
	var mu sync.Mutex
	var seen []string
	for _, topic := range []string{"siamese/+/state", "siamese/table3/events", "#"} {
		screen.Subscribe(topic, 1, func(_ paho.Client, m paho.Message) {
			mu.Lock()
			seen = append(seen, m.Topic()+" "+string(m.Payload()))
			mu.Unlock()
		}).WaitTimeout(10 * time.Second)
	}
	table, err := mqttConnect(addr, natsauth.MQTTTableUser(3), t3.MQTT)
	if err != nil {
		t.Fatalf("MQTT, table 3's user: %v", err)
	}
	defer table.Disconnect(100)
	// What may not be published, each from a connection of its own (the gateway may close a
	// client that tries), then what may.
	desk := dial(t, c.Desk())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	before := streamMsgs(t, ctx, desk, link.InStream)
	for _, try := range []struct{ user, pass, topic string }{
		{natsauth.MQTTTableUser(3), t3.MQTT, "siamese/table4/state"},
		{natsauth.MQTTTableUser(3), t3.MQTT, "siamese/desk/in/t3/result"},
		{natsauth.MQTTTableUser(3), t3.MQTT, "siamese/desk/progress/t3"},
		{natsauth.MQTTDisplayUser, c.Creds.Display, "siamese/table3/state"},
		{natsauth.MQTTDisplayUser, c.Creds.Display, "siamese/desk/in/t4/result"},
	} {
		mc, err := mqttConnect(addr, try.user, try.pass)
		if err != nil {
			t.Fatalf("MQTT, %s: %v", try.user, err)
		}
		mc.Publish(try.topic, 1, false, "forged by "+try.user).WaitTimeout(5 * time.Second)
		mc.Publish(try.topic, 1, true, "forged and retained by "+try.user).WaitTimeout(5 * time.Second)
		mc.Disconnect(100)
	}
	// Nor may screens read the tournament's own subjects.
	t3nats := dial(t, c.Table(3))
	t3nats.conn.NC.Publish(link.ProgressSubject(3), []byte("not for screens"))
	t3nats.conn.NC.Flush()
	time.Sleep(time.Second) // what was forged would have arrived by now
	for _, m := range []string{`{"seq":1}`, `{"seq":2}`} {
		if tok := table.Publish("siamese/table3/state", 1, false, m); !tok.WaitTimeout(10*time.Second) || tok.Error() != nil {
			t.Errorf("MQTT, table 3 publishing its state: %v", tok.Error())
		}
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		mu.Lock()
		got := strings.Join(seen, "\n")
		mu.Unlock()
		if strings.Contains(got, "forged") || strings.Contains(got, "not for screens") {
			t.Errorf("the screen read a forgery, or what is not for it:\n%s", got)
			break
		}
		if strings.Contains(got, `siamese/table3/state {"seq":2}`) {
			break
		}
		if time.Now().After(deadline) {
			t.Errorf("the screen never read table 3's state; it read:\n%s", got)
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if after := streamMsgs(t, ctx, desk, link.InStream); after != before {
		t.Errorf("the tables' stream went from %d to %d messages through MQTT", before, after)
	}
}

func mqttConnect(addr, user, pass string) (paho.Client, error) {
	o := paho.NewClientOptions().AddBroker(addr).SetClientID(fmt.Sprintf("natstest-%s-%d", user, time.Now().UnixNano())).
		SetUsername(user).SetPassword(pass).SetAutoReconnect(false).SetConnectRetry(false).SetConnectTimeout(10 * time.Second)
	mc := paho.NewClient(o)
	tok := mc.Connect()
	if !tok.WaitTimeout(15 * time.Second) {
		return nil, fmt.Errorf("no CONNACK in 15 s")
	}
	return mc, tok.Error()
}

func streamMsgs(t *testing.T, ctx context.Context, desk *client, stream string) uint64 {
	t.Helper()
	st, err := desk.conn.JS.Stream(ctx, stream)
	if err != nil {
		t.Fatal(err)
	}
	info, err := st.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return info.State.Msgs
}
