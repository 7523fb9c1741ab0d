package daemon

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/journal"
	"github.com/siamesetable/siamesed/mqtt"
)

// TestDisplayNeverReceivesAConcealedTile: a client with the display's credentials, subscribed
// to # through a whole simulated game (sensor noise, rules broken on purpose, questions),
// receives only public topics, each payload of the public schema, and never a tile that was
// not face up on the table at that point of the game (checked on every message against the
// game replayed from its journal).
func TestDisplayNeverReceivesAConcealedTile(t *testing.T) {
	displayNeverReceivesAConcealedTile(t, fastConfig(1, 0.02))
}

// TestWrightPattersonDisplayNeverReceivesAConcealedTile: the same on a Wright-Patterson table,
// where a flower exchange shows the flower laid, never its replacement.
func TestWrightPattersonDisplayNeverReceivesAConcealedTile(t *testing.T) {
	displayNeverReceivesAConcealedTile(t, wpConfig(1, 0.02))
}

func displayNeverReceivesAConcealedTile(t *testing.T, cfg Config) {
	dir := t.TempDir()
	b := startTableBroker(t, dir, cfg.Table)
	cfg.MQTT = MQTTConfig{Broker: b.url, Queue: 1 << 16}
	display := collect(t, b.url, mqtt.DisplayUser, b.creds.Display, "#")
	seat0 := collect(t, b.url, "0", b.creds.Seats[0], "#")
	_, wait := runDaemon(t, cfg, dir)
	if err := wait(); err != nil {
		t.Fatal(err)
	}
	topics := mqtt.TopicsFor(cfg.Table)
	offline := func(m message) bool { return m.topic == topics.Status() && string(m.payload) == "offline" }
	display.until(t, "offline at the end", offline)
	seat0.until(t, "offline at the end", offline)

	up := faceUpByAct(t, dir)
	msgs := display.all()
	var states, acts int
	for _, m := range msgs {
		switch m.topic {
		case topics.Status():
			if s := string(m.payload); s != "online" && s != "offline" {
				t.Errorf("status %q", s)
			}
		case topics.State():
			var s State
			strictJSON(t, m, &s)
			checkFaces(t, m, up, s.Game, s.Seq)
			states++
		case topics.Events():
			var e mqtt.Event
			strictJSON(t, m, &e)
			seq := e.Seq
			if e.Type == mqtt.EventQuestion && e.Question.Seat < 0 {
				seq = -1 // the camera asks about a tile lying face up in the discards before its act
			}
			checkFaces(t, m, up, e.Game, seq)
			if e.Type == mqtt.EventAct {
				acts++
			}
		case topics.Health():
			checkFaces(t, m, up, "", 0)
		default:
			t.Errorf("the display received %s", m.topic)
		}
	}
	if states < 10 || acts < 50 {
		t.Fatalf("%d states and %d acts received: the game was not followed", states, acts)
	}
	// The seat, on the other hand, sees its own concealed tiles.
	var private int
	for _, m := range seat0.all() {
		if strings.Contains(m.topic, "/seat/1/") {
			t.Errorf("seat 0 received %s", m.topic)
		}
		if m.topic == topics.SeatPrivate(0) && bytes.Contains(m.payload, []byte(`"concealed":[[`)) {
			private++
		}
	}
	if private == 0 {
		t.Error("seat 0 never received its concealed tiles")
	}
	t.Logf("%d messages checked: %d states, %d acts", len(msgs), states, acts)
}

// strictJSON decodes a payload into the public type, refusing any field it does not have.
func strictJSON(t *testing.T, m message, v any) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(m.payload))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: %v: %s", m.topic, err, m.payload)
	}
}

// faceUp is what was face up in each game after each act: the discards, the exposures, the
// tiles of declared Mah Jonggs, the flowers laid on the racks and every tile named aloud (the
// prevailing wind too), cumulated (a tile once shown stays known); index -1 is everything the
// game ever showed.
type faceUp map[string]map[int]map[tile.Face]bool

func faceUpByAct(t *testing.T, dir string) faceUp {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "games", "*.jsonl"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no game journals: %v", err)
	}
	up := faceUp{}
	for _, p := range paths {
		g, err := journal.Load(p, journal.Sources{})
		if err != nil {
			t.Fatal(err)
		}
		s := g.Header.Start(g.Rules, g.Card.Card)
		seen := map[tile.Face]bool{}
		byAct := map[int]map[tile.Face]bool{0: {}}
		for _, a := range g.Actions {
			s, _, err = game.Apply(s, a)
			if err != nil {
				t.Fatal(err)
			}
			if a.Act == game.ActDiscard || a.Act == game.ActCall || a.Act == game.ActExchange {
				for _, f := range a.Tiles {
					seen[f] = true
				}
				seen[tile.Joker] = seen[tile.Joker] || a.Act == game.ActExchange
			}
			if a.Named != nil {
				seen[*a.Named] = true
			}
			if a.Act == game.ActFlower {
				seen[tile.Flower] = true // laid face up; its replacement is concealed
			}
			if w := s.PrevailingWind(); w != tile.NoFace {
				seen[w] = true // the prevailing wind, named aloud (no tile)
			}
			for _, f := range s.Discards {
				seen[f] = true
			}
			for _, st := range s.Seats {
				for _, r := range st.Racks {
					for _, e := range r.Exposures {
						for _, f := range e.Tiles {
							seen[f] = true
						}
					}
					if r.MahJongg != nil {
						for _, f := range r.Concealed.Faces() {
							seen[f] = true
						}
					}
				}
			}
			cp := map[tile.Face]bool{}
			for f := range seen {
				cp[f] = true
			}
			byAct[s.Seq] = cp
		}
		byAct[-1] = seen
		up[g.Header.Game] = byAct
	}
	return up
}

// canonical tile names as a payload would write them: in a JSON string of their own, or as a
// word of a text (two-character faces only, so English words are not taken for winds; not
// inside a tag's hex id like 08:1B:B2:AD).
var (
	faceWord  = regexp.MustCompile(`(?:^|[\s(\[,])([1-9][BCD]|RD|GD|WD)(?:$|[\s)\],.;?!]|: )`)
	faceAlone = regexp.MustCompile(`^([1-9][BCD]|[ESWNFJ]|RD|GD|WD)$`)
)

// checkFaces fails the test for any tile in a payload that was not face up in game after
// act seq (-1: at any point of the game; no game: none may appear).
func checkFaces(t *testing.T, m message, up faceUp, gameID string, seq int) {
	t.Helper()
	var v any
	if err := json.Unmarshal(m.payload, &v); err != nil {
		t.Fatalf("%s: %v", m.topic, err)
	}
	allowed := up[gameID][seq]
	if allowed == nil && seq >= 0 {
		// a state published between acts (a question came up): the latest act before it
		for s := seq; s >= 0 && allowed == nil; s-- {
			allowed = up[gameID][s]
		}
	}
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		case string:
			var words []string
			if faceAlone.MatchString(x) {
				words = []string{x}
			} else {
				for _, sub := range faceWord.FindAllStringSubmatch(x, -1) {
					words = append(words, sub[1])
				}
			}
			for _, w := range words {
				f, err := tile.Parse(w)
				if err != nil || !allowed[f] {
					t.Errorf("%s (game %q act %d) names %s, which was not face up: %.300s", m.topic, gameID, seq, w, m.payload)
				}
			}
		}
	}
	walk(v)
}
