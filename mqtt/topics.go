package mqtt

import (
	"fmt"
	"strconv"
	"strings"
)

// Topics is the topic schema of one table: every topic starts with siamese/<table>/.
type Topics struct {
	Prefix string
}

// MaxSeats bounds the seat numbers a topic may carry (Royale: four players).
const MaxSeats = 4

// TopicsFor is the schema of the named table.
func TopicsFor(table string) Topics { return Topics{Prefix: "siamese/" + table + "/"} }

// Status is the availability topic: "online" or "offline" (retained; the will says offline).
func (t Topics) Status() string { return t.Prefix + "status" }

// State is the retained public state.
func (t Topics) State() string { return t.Prefix + "state" }

// Events is the stream of acts, verdicts, questions and refusals (not retained).
func (t Topics) Events() string { return t.Prefix + "events" }

// Health is the sensors', camera's, journal's and publisher's health (retained).
func (t Topics) Health() string { return t.Prefix + "health" }

// SeatPrivate is a seat's own view and advice (retained), readable by that seat alone.
func (t Topics) SeatPrivate(seat int) string {
	return t.Prefix + "seat/" + strconv.Itoa(seat) + "/private"
}

// SeatEvents is the replies to a seat's commands (not retained), readable by that seat alone.
func (t Topics) SeatEvents(seat int) string {
	return t.Prefix + "seat/" + strconv.Itoa(seat) + "/events"
}

// Cmd is the topic a seat commands on; only that seat may write it.
func (t Topics) Cmd(seat int) string { return t.Prefix + "cmd/" + strconv.Itoa(seat) }

// CmdFilter subscribes to every seat's commands.
func (t Topics) CmdFilter() string { return t.Prefix + "cmd/+" }

// Public lists the topics anyone with the display's credentials may read.
func (t Topics) Public() []string {
	return []string{t.Status(), t.State(), t.Events(), t.Health()}
}

// SeatOfCmd is the seat a command topic belongs to: the seat comes from the topic, never from
// the payload.
func (t Topics) SeatOfCmd(topic string) (int, error) {
	rest, ok := strings.CutPrefix(topic, t.Prefix+"cmd/")
	if !ok {
		return 0, fmt.Errorf("mqtt: %q is not a command topic of %s", topic, t.Prefix)
	}
	return seatNumber(rest)
}

// seatNumber reads a seat number as topics and usernames write it: 0 to MaxSeats-1, no sign,
// no leading zero.
func seatNumber(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n >= MaxSeats || strconv.Itoa(n) != s {
		return 0, fmt.Errorf("mqtt: %q is not a seat (0 to %d)", s, MaxSeats-1)
	}
	return n, nil
}
