package daemon

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/configs"
	"github.com/siamesetable/siamesed/engine/game"
	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/engine/track"
	"github.com/siamesetable/siamesed/hw/rack"
	"github.com/siamesetable/siamesed/mqtt"
	"github.com/siamesetable/siamesed/sim"
)

var update = flag.Bool("update", false, "rewrite the golden MQTT payloads in testdata/contract")

// contractPayloads are the table's MQTT payloads as the daemon's own types encode them, from a
// Siamese game played by virtual players up to a discard with an exposure on the table.
func contractPayloads(t *testing.T) map[string]any {
	t.Helper()
	rules, err := configs.LoadRuleset("siamese")
	if err != nil {
		t.Fatal(err)
	}
	card, err := configs.LoadCardFor("", rules)
	if err != nil {
		t.Fatal(err)
	}
	// find plays games until one reaches a state cond accepts.
	find := func(cond func(game.State) bool) game.State {
		for seed := uint64(1); seed <= 50; seed++ {
			g := sim.NewGame(rules, card.Card, seed, 0)
			for {
				if _, ok := g.Next(); !ok {
					break
				}
				if cond(g.State) {
					return g.State
				}
			}
		}
		t.Fatal("no such state in the first 50 games")
		return game.State{}
	}
	exposed := func(st game.State) bool {
		return len(st.Seats[0].Racks[1].Exposures)+len(st.Seats[0].Racks[0].Exposures) > 0
	}
	// The public state while East's discard may be called; seat 1's view in its turn to discard.
	pub := find(func(st game.State) bool { return exposed(st) && st.PublicView().LastDiscard != nil })
	s := find(func(st game.State) bool { return exposed(st) && st.Phase == game.PhaseDiscard && st.Turn == 1 })
	at := time.Date(2026, 11, 23, 19, 4, 9, 512000000, time.UTC)
	q := track.Question{ID: 3, Seat: 1, Text: "a 5D stands in seat 1 rack 2 that the game does not explain: where did it come from?", About: "seat 1 rack 2",
		Options: []track.Option{{Key: "discarded", Text: "it was discarded"}}, Since: at}
	state := State{Table: "table1", Game: "2026-11-23T19-00-00.000Z", Seq: pub.Seq, Seats: []string{"East", "West"}, Card: card.Name,
		View: pub.PublicView(), Questions: []track.Question{mqtt.PublicQuestion(q, "West")}, Sensors: []track.SensorNote{}, Observed: &at}
	private := SeatPrivate{Table: "table1", Game: state.Game, Seq: s.Seq, Seat: 1, Name: "West", View: s.SeatView(1), Questions: []track.Question{q}}
	newAdvisor(card.Card, rules.TileSet().Count, nil).advise(&private)
	seat := 1
	verdicts := []game.Verdict{{Seq: 57, Kind: game.Legal, Seat: 0}}
	two, _ := tile.Parse("2C")
	events := map[string]mqtt.Event{
		"event-act": {N: 41, Type: mqtt.EventAct, Game: state.Game, Seq: 57, At: at,
			Act: &mqtt.PublicAct{Seat: 0, Act: game.ActDiscard, Tiles: []tile.Face{two}, Rack: 1, Source: "sensors", Outcome: game.Applied, Verdicts: verdicts}},
		"event-draw": {N: 42, Type: mqtt.EventAct, Game: state.Game, Seq: 58, At: at,
			Act: &mqtt.PublicAct{Seat: 1, Act: game.ActDraw, Count: 1, Rack: 2, Source: "sensors", Outcome: game.Applied, Verdicts: []game.Verdict{}}},
		"event-question": {N: 43, Type: mqtt.EventQuestion, Game: state.Game, Seq: 58, At: at, Question: &state.Questions[0]},
		"event-refused":  {N: 44, Type: mqtt.EventRefused, At: at, Seat: &seat, Kind: track.CmdAct, ID: "p1-7"},
		"event-game":     {N: 45, Type: mqtt.EventGame, Game: "2026-11-23T19-21-13.000Z", At: at},
		"seat-ok":        {N: 12, Type: mqtt.EventOK, At: at, Seat: &seat, Kind: track.CmdMahJongg, ID: "p1-7"},
		"seat-error":     {N: 13, Type: mqtt.EventError, At: at, Seat: &seat, Kind: track.CmdAct, ID: "p1-9", Error: "mqtt: bad command: discard breaks siamese turn: seat 1 discarded out of turn"},
	}
	// The health as daemon/mqtt.go's healthOf puts it on the topic.
	health := struct {
		Health
		MQTT mqtt.PublisherStats `json:"mqtt"`
	}{Health{Racks: []RackHealth{{Health: rack.Health{Rack: "p1a", Zone: rack.Zones[0],
		Readers: []rack.ReaderHealth{{Reader: "in-01", ReadRate: 0.99, Tags: 1}, {Reader: "in-02", ReadRate: 0.62, Tags: 1, Failing: true}}},
		At: &RackSeat{Seat: 0, Name: "East", Rack: 1}}}, Camera: "sim: working", Journal: "ok", Games: 3}, mqtt.PublisherStats{Connected: true, Reconnects: 1, Published: 5120}}
	out := map[string]any{"state": state, "private": private, "health": health}
	for k, e := range events {
		out[k] = e
	}
	return out
}

// TestMQTTContract: every payload carries the schema and encodes as its golden file; every
// example of docs/mqtt.md names only fields the payloads have, where they have them, and says
// its schema; each command example is one the daemon takes.
func TestMQTTContract(t *testing.T) {
	payloads := contractPayloads(t)
	golden := map[string]any{}
	for name, p := range payloads {
		got, err := json.MarshalIndent(p, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("testdata", "contract", name+".json")
		if *update {
			os.MkdirAll(filepath.Dir(path), 0o755)
			if err := os.WriteFile(path, append(got, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (go test ./daemon -run TestMQTTContract -update writes it)", err)
		}
		if !bytes.Equal(bytes.TrimSpace(want), got) {
			t.Errorf("%s encodes otherwise than %s: the contract changed; if on purpose, raise mqtt.Schema where a field's meaning changed, update docs/mqtt.md and run with -update\n got: %s", name, path, got)
		}
		var v any
		json.Unmarshal(want, &v)
		golden[name] = v
		if m, ok := v.(map[string]any); !ok || m["schema"] != float64(mqtt.Schema) {
			t.Errorf("%s: no \"schema\": %d", name, mqtt.Schema)
		}
	}
	doc, err := os.ReadFile("../docs/mqtt.md")
	if err != nil {
		t.Fatal(err)
	}
	examples := docExamples(t, string(doc))
	if len(examples) < 14 {
		t.Fatalf("%d JSON examples found in docs/mqtt.md", len(examples))
	}
	for _, ex := range examples {
		name := ex.payload
		if name == "command" {
			if _, _, err := mqtt.ParseCommand(1, []byte(ex.text), time.Now()); err != nil {
				t.Errorf("docs/mqtt.md line %d: the command example is refused: %v", ex.line, err)
			}
			continue
		}
		if m, ok := ex.value.(map[string]any); !ok || m["schema"] != float64(mqtt.Schema) {
			t.Errorf("docs/mqtt.md line %d (%s): no \"schema\":%d", ex.line, name, mqtt.Schema)
		}
		have := paths(golden[name], "")
		for _, p := range sortedKeys(paths(ex.value, "")) {
			if !have[p] {
				t.Errorf("docs/mqtt.md line %d (%s): %s is not in the payload (testdata/contract/%s.json)", ex.line, name, p, name)
			}
		}
	}
}

type example struct {
	line    int
	payload string // the golden payload it shows
	text    string
	value   any
}

// docExamples reads each JSON value of the ```json blocks, naming the payload it shows by the
// heading above it (and an event by its type).
func docExamples(t *testing.T, doc string) []example {
	var out []example
	heading, block := "", 0
	lines := strings.Split(doc, "\n")
	for i := 0; i < len(lines); i++ {
		if strings.HasPrefix(lines[i], "### ") {
			heading, block = lines[i], 0
		}
		if lines[i] != "```json" {
			continue
		}
		block++
		start := i + 1
		var body []string
		for i++; i < len(lines) && lines[i] != "```"; i++ {
			body = append(body, lines[i])
		}
		dec := json.NewDecoder(strings.NewReader(strings.Join(body, "\n")))
		for {
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				if err.Error() != "EOF" {
					t.Fatalf("docs/mqtt.md: the block at line %d is not JSON: %v", start, err)
				}
				break
			}
			var v any
			json.Unmarshal(raw, &v)
			line := start + strings.Count(strings.Join(body, "\n")[:dec.InputOffset()-int64(len(raw))], "\n")
			ex := example{line: line, text: string(raw), value: v}
			typ, _ := v.(map[string]any)["type"].(string)
			switch {
			case strings.Contains(heading, "### state"):
				ex.payload = "state"
			case strings.Contains(heading, "### health"):
				ex.payload = "health"
			case strings.Contains(heading, "/private"):
				ex.payload = "private"
			case strings.Contains(heading, "### events"):
				ex.payload = map[string]string{"act": "event-act", "question": "event-question", "refused": "event-refused", "game": "event-game"}[typ]
				if ex.payload == "event-act" && strings.Contains(ex.text, `"count"`) {
					ex.payload = "event-draw"
				}
			case strings.Contains(heading, "cmd/") && block == 1:
				ex.payload = "command"
			case strings.Contains(heading, "cmd/"):
				ex.payload = "seat-" + typ
			default:
				t.Fatalf("docs/mqtt.md line %d: a JSON example under %q, which the test does not know", line, heading)
			}
			if ex.payload == "" {
				t.Fatalf("docs/mqtt.md line %d: an event of type %q the test does not know", line, typ)
			}
			out = append(out, ex)
		}
	}
	return out
}

var placeholder = regexp.MustCompile(`^\.\.\.`)

// paths lists the field paths of a JSON value ("view.seats[].racks[].concealed"), leaving out
// the documentation's placeholders ("...": "...").
func paths(v any, prefix string) map[string]bool {
	out := map[string]bool{}
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if placeholder.MatchString(k) {
				continue
			}
			p := strings.TrimPrefix(prefix+"."+k, ".")
			out[p] = true
			for q := range paths(e, p) {
				out[q] = true
			}
		}
	case []any:
		for _, e := range x {
			for q := range paths(e, prefix+"[]") {
				out[q] = true
			}
		}
	}
	return out
}

func sortedKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
