package natsauth

import (
	"fmt"
	"strconv"

	"github.com/siamesetable/siamesed/tournament/link"
)

// User is one login on the cluster and what it may do.
type User struct {
	Who   string `json:"who"`   // "desk", "table 3", "screens", "table 3's MQTT client"
	Login string `json:"login"` // the nkey's public key, or the MQTT username
	// Via is how it connects: "nats" (a NATS client, with its nkey) or "mqtt" (the gateway,
	// with a password).
	Via       string   `json:"via"`
	Publish   []string `json:"publish"`   // subjects it may publish to
	Subscribe []string `json:"subscribe"` // subjects it may read
	password  string   // an MQTT user's
}

// The MQTT topics a table publishes for its screens (docs/mqtt.md), as the gateway's subjects.
var publicTopics = []string{"status", "state", "events", "health"}

// mqttDeliveries are where the gateway hands an MQTT client the messages of its QoS 1
// subscriptions (each through a JetStream consumer of its session's): nats-server 2.9 asks the
// client's own permission to read them.
const mqttDeliveries = "$MQTT.sub.>"

// bridgeTopic is where a Mosquitto bridge says whether it is connected (mosquitto-bridge.conf).
const bridgeTopic = "bridge"

// Users are everyone who may log in, with their permissions: nothing else may (no anonymous
// access), and a user may use no subject but those listed.
func (c *Credentials) Users() ([]User, error) {
	desk, err := PublicKey(c.Desk)
	if err != nil {
		return nil, fmt.Errorf("natsauth: the desk's nkey: %w", err)
	}
	users := []User{deskUser(desk), {Who: "screens", Login: MQTTDisplayUser, Via: "mqtt", password: c.Display,
		Publish: []string{}, Subscribe: append(prefixed("siamese.*.", publicTopics...), mqttDeliveries)}}
	for _, t := range c.Tables {
		pub, err := PublicKey(t.NKey)
		if err != nil {
			return nil, fmt.Errorf("natsauth: table %d's nkey: %w", t.Table, err)
		}
		users = append(users, tableUser(t.Table, pub))
	}
	for _, t := range c.Tables {
		users = append(users, User{Who: fmt.Sprintf("table %d's MQTT client", t.Table), Login: MQTTTableUser(t.Table), Via: "mqtt", password: t.MQTT,
			Publish: prefixed("siamese."+MQTTTableUser(t.Table)+".", append(publicTopics, bridgeTopic)...), Subscribe: []string{}})
	}
	return users, nil
}

// deskUser may make the event's two streams, its own consumer and each table's, read the
// tables' messages and progress, and publish rulings.
func deskUser(pub string) User {
	in, out := link.InStream, link.OutStream
	return User{Who: "desk", Login: pub, Via: "nats",
		Publish: []string{
			link.AnyOutSubject,
			api("STREAM.INFO.%s", in), api("STREAM.INFO.%s", out),
			api("STREAM.CREATE.%s", in), api("STREAM.CREATE.%s", out),
			api("CONSUMER.CREATE.%s.%s", in, link.DeskConsumer),
			api("CONSUMER.INFO.%s.%s", in, link.DeskConsumer),
			api("CONSUMER.MSG.NEXT.%s.%s", in, link.DeskConsumer),
			ack(in, link.DeskConsumer),
			api("CONSUMER.CREATE.%s.*.>", out), // each table's consumer, filtered to its rulings
			api("CONSUMER.NAMES.%s", out),
		},
		Subscribe: []string{link.AnyProgressSubject, link.DeskInbox + ".>"},
	}
}

// tableUser may publish its own messages and progress, and pull and acknowledge its own
// rulings through the consumer the desk made for it; it may read nothing but the replies to
// its own requests. It may not make or change a stream or a consumer.
func tableUser(n int, pub string) User {
	out, cons := link.OutStream, link.TableConsumer(n)
	return User{Who: "table " + strconv.Itoa(n), Login: pub, Via: "nats",
		Publish: []string{
			link.InSubject(n, "*"),
			link.ProgressSubject(n),
			api("CONSUMER.INFO.%s.%s", out, cons),
			api("CONSUMER.MSG.NEXT.%s.%s", out, cons),
			ack(out, cons),
		},
		Subscribe: []string{link.TableInbox(n) + ".>"},
	}
}

func api(format string, a ...any) string { return "$JS.API." + fmt.Sprintf(format, a...) }

// ack is where a consumer's messages are acknowledged.
func ack(stream, consumer string) string { return "$JS.ACK." + stream + "." + consumer + ".>" }

func prefixed(prefix string, names ...string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = prefix + n
	}
	return out
}
