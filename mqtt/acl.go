package mqtt

import "strings"

// The users of a table's broker. Seats log in with their seat number as the username, so
// that Mosquitto's `pattern` lines (%u) give each seat its own topics.
const (
	DaemonUser  = "siamesed"
	DisplayUser = "display"
)

// Policy is who may read and write what under one table's prefix: the daemon everything; the
// display the public topics; a seat the public topics and its own seat/<n>/ topics, and it
// writes only its own cmd/<n>; anyone else nothing. The embedded broker enforces it on every
// message; deploy/mosquitto.acl says the same to Mosquitto.
type Policy struct {
	Topics Topics
}

// CanRead reports whether user may receive a message on topic (a topic name, no wildcards).
func (p Policy) CanRead(user, topic string) bool {
	if user == DaemonUser {
		return true
	}
	if user != DisplayUser && !isSeatUser(user) {
		return false
	}
	for _, t := range p.Topics.Public() {
		if topic == t {
			return true
		}
	}
	if isSeatUser(user) {
		return strings.HasPrefix(topic, p.Topics.Prefix+"seat/"+user+"/") && !strings.ContainsAny(topic, "+#")
	}
	return false
}

// CanPublish reports whether user may put a message on topic, retained or not. It is the one
// check for every way a message enters the broker: a publish, a retained publish and a will
// (which the broker publishes for the client when it drops) alike. The daemon writes anything under
// its table's prefix (on a command topic it only ever clears a retained command left there); a
// seat writes its own command topic and nothing else; no one leaves a command retained, since
// a retained command would be played again at every reconnection of the daemon.
func (p Policy) CanPublish(user, topic string, retained bool) bool {
	if strings.ContainsAny(topic, "+#") || !strings.HasPrefix(topic, p.Topics.Prefix) {
		return false
	}
	switch {
	case user == DaemonUser:
		return true
	case isSeatUser(user):
		return topic == p.Topics.Prefix+"cmd/"+user && !retained
	}
	return false
}

// CanSubscribe reports whether user may subscribe to filter. As in Mosquitto, a filter with
// wildcards is allowed to any known user and each message is then checked with CanRead, so a
// display subscribed to # receives the public topics and nothing else.
func (p Policy) CanSubscribe(user, filter string) bool {
	if user != DaemonUser && user != DisplayUser && !isSeatUser(user) {
		return false
	}
	if strings.HasPrefix(filter, "$") && user != DaemonUser {
		return false // broker internals ($SYS)
	}
	if strings.ContainsAny(filter, "+#") {
		return true
	}
	return p.CanRead(user, filter)
}

func isSeatUser(user string) bool {
	_, err := seatNumber(user)
	return err == nil
}
