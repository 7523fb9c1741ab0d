package track

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/engine/tile"
)

// asker keeps the open questions and sensor notes, with ids that stay the same while the same
// thing is asked.
type asker struct {
	ids       map[string]int // question key -> id
	next      int
	since     map[string]time.Time // when each unexplained thing was first seen
	questions []Question
	keys      []string
	notes     []SensorNote
}

// Questions are the questions open now, oldest first.
func (t *Tracker) Questions() []Question { return slices.Clone(t.asks.questions) }

// Sensors are the sensors the tracker cannot rely on now.
func (t *Tracker) Sensors() []SensorNote { return slices.Clone(t.asks.notes) }

// review rebuilds the questions and notes from what the readings leave unexplained.
func (t *Tracker) review() {
	a := &t.asks
	if a.since == nil {
		a.since = map[string]time.Time{}
	}
	seenNow := map[string]bool{}
	first := func(key string) time.Time {
		seenNow[key] = true
		if at, ok := a.since[key]; ok {
			return at
		}
		a.since[key] = t.now
		return t.now
	}
	var qs []Question
	var keys []string
	var notes []SensorNote
	ask := func(key string, q Question) {
		q.Since = first(key)
		if slices.Contains(keys, key) {
			return // asked already: several tiles of one face gone are one question
		}
		if t.now.Sub(q.Since) < t.cfg.AskAfter || t.state.Phase == game.PhaseOver {
			return
		}
		id, ok := a.ids[key]
		if !ok {
			a.next++
			id = a.next
			a.ids[key] = id
		}
		q.ID = id
		qs = append(qs, q)
		keys = append(keys, key)
	}
	exp := expected(&t.state)
	for seat := range t.state.Seats {
		for r := 1; r <= 2; r++ {
			d := t.diff(exp, seat, r)
			if !d.readable {
				key := fmt.Sprintf("sensor %d/%d: %s", seat, r, d.problem)
				notes = append(notes, SensorNote{About: rackName(seat, r), Text: d.problem + ": its tiles are not tracked until it reads right again, or a player enters the act by hand", Since: first(key)})
				continue
			}
			t.askAboutRack(seat, r, d, ask)
		}
	}
	for _, s := range t.seen {
		ask(cameraKey("seen", s), Question{Seat: -1, About: "discards", Options: misread,
			Text: fmt.Sprintf("the camera saw a tile (%s) arrive in the discards, but no rack shows it leaving: who discarded it?", faceText(s.Face, s.Known))})
	}
	for _, s := range t.taken {
		ask(cameraKey("taken", s), Question{Seat: -1, About: "discards", Options: misread,
			Text: fmt.Sprintf("the camera saw a tile (%s) leave the discards, but no rack shows it arriving: who took it?", faceText(s.Face, s.Known))})
	}
	if t.cfg.Camera && !t.camera.Working {
		notes = append(notes, SensorNote{About: "camera", Text: orText(t.camera.Problem, "the camera sees nothing") + ": discards are asked about until it sees again", Since: first("camera " + t.camera.Problem)})
	}
	for k := range a.since {
		if !seenNow[k] {
			delete(a.since, k)
			delete(a.ids, k)
		}
	}
	a.questions, a.keys, a.notes = qs, keys, notes
}

// misread answers a question about what the camera saw: nothing happened (a hand, a shadow, a
// tile nudged); the camera's report is dropped. Where a tile did move, a player enters the act.
var misread = []Option{{Key: "misread", Text: "nothing moved there: the camera misread"}}

func cameraKey(kind string, d DiscardReading) string {
	return fmt.Sprintf("%s %v %v", kind, d.Face, d.At.UnixNano())
}

// dropMisread forgets the camera report a question asked about.
func (t *Tracker) dropMisread(key string) {
	t.seen = slices.DeleteFunc(t.seen, func(d DiscardReading) bool { return cameraKey("seen", d) == key })
	t.taken = slices.DeleteFunc(t.taken, func(d DiscardReading) bool { return cameraKey("taken", d) == key })
}

// askAboutRack asks about what one readable rack shows that the game does not explain.
func (t *Tracker) askAboutRack(seat, r int, d rackDiff, ask func(string, Question)) {
	where := rackName(seat, r)
	for _, f := range d.minus.Faces() {
		q := Question{Seat: seat, About: where, Text: fmt.Sprintf("%s is missing from %s", f, where)}
		if t.state.Turn == seat && t.state.Phase == game.PhaseDiscard {
			q.Text += ": was it discarded?"
			if mismatch := t.cameraReadOther(f); mismatch != tile.NoFace {
				q.Text = fmt.Sprintf("%s left %s but the camera read the discard as %s: which was discarded?", f, where, mismatch)
			}
			discard := game.Action{Seat: seat, Act: game.ActDiscard, Tiles: []tile.Face{f}, Rack: r}
			q.Options = []Option{{Key: "discarded", Text: fmt.Sprintf("%s was discarded", f), Action: &discard}}
		} else {
			q.Text += ": put it back, or say where it went"
		}
		ask(fmt.Sprintf("minus %d/%d %v", seat, r, f), q)
	}
	for _, f := range d.plus.Faces() {
		ask(fmt.Sprintf("plus %d/%d %v", seat, r, f), Question{Seat: seat, About: where,
			Text: fmt.Sprintf("a %s stands in %s that the game does not explain: where did it come from?", f, where)})
	}
	if d.onDelta != 0 {
		ask(fmt.Sprintf("on %d/%d %d", seat, r, d.onDelta), Question{Seat: seat, About: where,
			Text: fmt.Sprintf("%s lie on %s %s its exposures: %s", plural(abs(d.onDelta), "tile"), where, moreOrFewer(d.onDelta), "lay the exposure out as called, or say what was called")})
	}
	if x := d.onExtra.Faces(); len(x) > 0 && d.onDelta == 0 {
		ask(fmt.Sprintf("extra %d/%d %v", seat, r, x), Question{Seat: seat, About: where,
			Text: fmt.Sprintf("%s read on %s, which its exposures do not hold", tile.Format(x), where)})
	}
}

// cameraReadOther is the face of a pending camera arrival read as something other than f, or
// NoFace.
func (t *Tracker) cameraReadOther(f tile.Face) tile.Face {
	for _, s := range t.seen {
		if s.Known && s.Face != f {
			return s.Face
		}
	}
	return tile.NoFace
}

// answer plays a player's answer to an open question.
func (t *Tracker) answer(c Command) ([]Step, error) {
	i := slices.IndexFunc(t.asks.questions, func(q Question) bool { return q.ID == c.Question })
	if i < 0 {
		return nil, fmt.Errorf("track: %w: no open question %d", ErrCommand, c.Question)
	}
	q := t.asks.questions[i]
	if q.Seat >= 0 && q.Seat != c.Seat {
		return nil, fmt.Errorf("track: %w: question %d is seat %d's to answer", ErrCommand, q.ID, q.Seat)
	}
	j := slices.IndexFunc(q.Options, func(o Option) bool { return o.Key == c.Option })
	if j < 0 {
		keys := make([]string, len(q.Options))
		for k, o := range q.Options {
			keys[k] = o.Key
		}
		return nil, fmt.Errorf("track: %w: question %d has no option %q (options: %s)", ErrCommand, q.ID, c.Option, strings.Join(keys, ", "))
	}
	o := q.Options[j]
	if o.Key == misread[0].Key {
		t.dropMisread(t.asks.keys[i])
		return nil, nil
	}
	if o.Action == nil {
		return nil, nil
	}
	st, err := t.play(*o.Action, "answer")
	if err != nil {
		return nil, fmt.Errorf("track: %w: %w", ErrCommand, err)
	}
	t.owe(*o.Action)
	return []Step{st}, nil
}

func faceText(f tile.Face, known bool) string {
	if !known {
		return "not recognised"
	}
	return f.String()
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func moreOrFewer(n int) string {
	if n > 0 {
		return "more than"
	}
	return "fewer than"
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
