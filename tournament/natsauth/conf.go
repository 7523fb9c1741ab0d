package natsauth

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/siamesetable/siamesed/tournament/wire"
)

// RouteUser is the name the nodes give one another on their routes.
const RouteUser = "route"

// Limits are what any client may make a server hold, as deploy/nats/*.conf set them (a test
// holds the shipped files to these) and as the desk's embedded server sets them.
var Limits = struct {
	MaxPayload       int32         // bytes in a message, headers included: a message (wire.MaxSize) and its headers
	MaxConnections   int           // clients at once on a server: tables, the desk, screens
	MaxPending       int64         // bytes a server holds for one client that reads slowly, before it closes it
	MaxSubscriptions int           // subscriptions one client may hold
	MaxControlLine   int32         // bytes in a protocol line (CONNECT included)
	AuthTimeout      time.Duration // a client's CONNECT, after the server's greeting, within
	MQTTAuthTimeout  time.Duration // an MQTT client's CONNECT within
	PingInterval     time.Duration // the server pings a quiet client this often...
	MaxPingsOut      int           // ...and closes it after this many pings unanswered
	WriteDeadline    time.Duration // a write to a client that does not read is given up after
	JetStreamMemory  int64         // bytes of streams a server keeps in memory (the MQTT gateway's)
	JetStreamFile    int64         // bytes of streams a server keeps on disk
}{
	MaxPayload:       wire.MaxSize + 8<<10,
	MaxConnections:   1024,
	MaxPending:       32 << 20,
	MaxSubscriptions: 1024,
	MaxControlLine:   4096,
	AuthTimeout:      2 * time.Second,
	MQTTAuthTimeout:  5 * time.Second,
	PingInterval:     30 * time.Second,
	MaxPingsOut:      3,
	WriteDeadline:    10 * time.Second,
	JetStreamMemory:  256e6, // as nats-server reads 256M
	JetStreamFile:    8e9,   // 8G
}

// UsersConf is the servers' list of users (the `users` of their `authorization` block): every
// login with its permissions. It holds the nkeys' public keys and the MQTT passwords' bcrypt
// hashes, nothing a client could log in with.
func (c *Credentials) UsersConf() (string, error) {
	users, err := c.Users()
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Siamese Table: who may log in to the tournament's NATS servers for event %q, and what\n", c.Event)
	b.WriteString("# each may publish and read. Made by `siamesed desk auth --print users`; the same file on every\n" +
		"# node, beside siamese-cluster.conf (or single.conf), which includes it. No one else may log in.\n" +
		"users: [\n")
	for _, u := range users {
		fmt.Fprintf(&b, "  # %s\n  {", u.Who)
		switch u.Via {
		case "nats":
			fmt.Fprintf(&b, "nkey: %s, allowed_connection_types: [\"STANDARD\"]", strconv.Quote(u.Login))
		case "mqtt":
			// The passwords are 128 random bits: the hash keeps them out of this file, and its
			// lowest cost keeps a stranger's logins from costing the server much.
			h, err := bcrypt.GenerateFromPassword([]byte(u.password), bcrypt.MinCost)
			if err != nil {
				return "", fmt.Errorf("natsauth: %w", err)
			}
			fmt.Fprintf(&b, "user: %s, password: %s, allowed_connection_types: [\"MQTT\"]", strconv.Quote(u.Login), strconv.Quote(string(h)))
		default:
			return "", fmt.Errorf("natsauth: user %s connects via %q", u.Who, u.Via)
		}
		fmt.Fprintf(&b, ",\n   permissions: {publish: %s, subscribe: %s}}\n", permission(u.Publish), permission(u.Subscribe))
	}
	b.WriteString("]\n")
	return b.String(), nil
}

// permission is an allow list, or a deny of everything when nothing is allowed.
func permission(subjects []string) string {
	if len(subjects) == 0 {
		return `{deny: [">"]}`
	}
	q := make([]string, len(subjects))
	for i, s := range subjects {
		q[i] = strconv.Quote(s)
	}
	return "{allow: [" + strings.Join(q, ", ") + "]}"
}

// DefaultNodes are the cluster's route addresses as deploy/nats/ names its machines.
var DefaultNodes = []string{"nats-1:6222", "nats-2:6222", "nats-3:6222"}

// RoutesConf is the inside of the servers' `cluster` block that carries a secret: the
// password the nodes give one another and the routes to each node (host:port) with it.
func (c *Credentials) RoutesConf(nodes []string) string {
	var b strings.Builder
	b.WriteString("# Siamese Table: the routes between the tournament cluster's nodes, with the password they give\n" +
		"# one another. Made by `siamesed desk auth --print routes`; the same file on every node, beside\n" +
		"# siamese-cluster.conf, which includes it in its cluster block. Keep private (mode 0640, group nats).\n")
	fmt.Fprintf(&b, "authorization {user: %s, password: %s, timeout: %g}\nroutes: [\n", strconv.Quote(RouteUser), strconv.Quote(c.Route), Limits.AuthTimeout.Seconds())
	for _, n := range nodes {
		fmt.Fprintf(&b, "  %s\n", strconv.Quote("nats-route://"+RouteUser+":"+c.Route+"@"+n))
	}
	b.WriteString("]\n")
	return b.String()
}
