package mqtt

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/siamesetable/siamesed/engine/track"
)

// Submit gives a command to the table loop and returns its verdict: nil when taken, an error
// wrapping track.ErrCommand when refused (and nothing changed).
type Submit func(ctx context.Context, c track.Command) error

// Replier is where the intake's replies go (the Publisher).
type Replier interface {
	Event(Event) bool
	SeatEvent(seat int, e Event) bool
}

// Intake takes commands from the command topics: the seat is the topic's, the payload is
// parsed strictly, the table loop judges the command, and the seat hears the verdict on its
// own events topic. A refusal also goes on the public events topic, without its reason, so
// the table display can show that a command was refused without telling anyone's tiles.
type Intake struct {
	topics Topics
	submit Submit
	reply  Replier
	now    func() time.Time
	log    *slog.Logger
	queue  chan Message
}

// NewIntake queues at most 64 commands; paho's goroutine hands them over with Offer.
func NewIntake(t Topics, submit Submit, reply Replier, now func() time.Time, log *slog.Logger) *Intake {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Intake{topics: t, submit: submit, reply: reply, now: now, log: log, queue: make(chan Message, 64)}
}

// Offer hands over a message from a command topic without blocking; a command that finds
// the queue full is refused as such.
func (in *Intake) Offer(topic string, payload []byte) {
	select {
	case in.queue <- Message{Topic: topic, Payload: append([]byte(nil), payload...)}:
	default:
		in.refuse(topic, payload, fmt.Errorf("mqtt: %w: the table is busy: too many commands waiting", track.ErrCommand))
	}
}

// Run judges the queued commands in order until ctx ends.
func (in *Intake) Run(ctx context.Context) error {
	for {
		select {
		case <-ctx.Done():
			return nil
		case m := <-in.queue:
			in.Handle(ctx, m.Topic, m.Payload)
		}
	}
}

// Handle judges one command and replies; it returns what was wrong, if anything.
func (in *Intake) Handle(ctx context.Context, topic string, payload []byte) error {
	seat, err := in.topics.SeatOfCmd(topic)
	if err != nil {
		in.log.Warn("mqtt: message on a topic that is no seat's", "topic", topic, "err", err)
		return fmt.Errorf("%w: %w", track.ErrCommand, err)
	}
	c, id, err := ParseCommand(seat, payload, in.now())
	if err == nil {
		err = in.submit(ctx, c)
	}
	at := in.now()
	if err != nil {
		in.log.Info("mqtt: command refused", "seat", seat, "id", id, "kind", c.Kind, "err", err)
		in.reply.SeatEvent(seat, Event{Type: EventError, At: at, Seat: &seat, Kind: c.Kind, ID: id, Error: err.Error()})
		in.reply.Event(Event{Type: EventRefused, At: at, Seat: &seat, Kind: c.Kind, ID: id})
		return err
	}
	in.reply.SeatEvent(seat, Event{Type: EventOK, At: at, Seat: &seat, Kind: c.Kind, ID: id})
	return nil
}

func (in *Intake) refuse(topic string, payload []byte, err error) {
	seat, terr := in.topics.SeatOfCmd(topic)
	if terr != nil {
		return
	}
	id := idOf(payload)
	in.log.Warn("mqtt: command refused", "seat", seat, "id", id, "err", err)
	in.reply.SeatEvent(seat, Event{Type: EventError, At: in.now(), Seat: &seat, ID: id, Error: err.Error()})
	in.reply.Event(Event{Type: EventRefused, At: in.now(), Seat: &seat, ID: id})
}
