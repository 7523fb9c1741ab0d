package game

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestReadLogKeepsWhatCameBeforeABadLine(t *testing.T) {
	log := `# a comment
{"seat":0,"act":"deal","tiles":["1B","2B"]}

{"seat":1,"act":"draw","tiles":["J"]}
{"seat":1,"act":"dance"}
{"seat":0,"act":"draw","tiles":["3B"]}
`
	l, err := ReadLog(strings.NewReader(log))
	var le *LogError
	if !errors.As(err, &le) || le.Line != 5 || !strings.Contains(err.Error(), `unknown act "dance"`) {
		t.Fatalf("err = %v, want line 5 unknown act", err)
	}
	if len(l.Actions) != 2 || l.Lines[0] != 2 || l.Lines[1] != 4 {
		t.Fatalf("kept %d actions at lines %v, want 2 at [2 4]", len(l.Actions), l.Lines)
	}
}

const headerLine = `{"log":"siamese-table-game","version":2,"rules":"siamese","options":["nmjl-tournament"],` +
	`"card":{"name":"Test","year":2026,"sha256":"0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"},` +
	`"seats":[{"name":"Ann"},{"name":"Bea"}]}`

func TestReadLogHeader(t *testing.T) {
	l, err := ReadLog(strings.NewReader("# made by hand\n" + headerLine + "\n" + `{"seat":0,"act":"deal","tiles":["1B"]}` + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	h := l.Header
	if h == nil || h.RulesSpec() != "siamese+nmjl-tournament" || h.Seats[1].Name != "Bea" || h.Card.Year != 2026 {
		t.Fatalf("header %+v", h)
	}
	if len(l.Actions) != 1 || l.Lines[0] != 3 {
		t.Fatalf("actions %v at lines %v, want one at line 3", l.Actions, l.Lines)
	}
	back, err := ParseHeader(h.Line())
	if err != nil || back.RulesSpec() != h.RulesSpec() || back.Card != h.Card {
		t.Fatalf("header does not round-trip: %v %+v", err, back)
	}
}

func TestReadLogWithoutHeader(t *testing.T) {
	l, err := ReadLog(strings.NewReader(`{"seat":0,"act":"deal","tiles":["1B"]}` + "\n" + `{"seat":0,"act":"deal","tiles":["2B"]}`))
	if err != nil || l.Header != nil || len(l.Actions) != 2 || l.Lines[1] != 2 {
		t.Fatalf("got %+v, %v; want two actions, no header", l, err)
	}
}

func TestReadLogRejectsBadHeaders(t *testing.T) {
	for name, edit := range map[string][2]string{
		"newer version": {`"version":2`, `"version":3`},
		"version 1":     {`"version":2`, `"version":1`},
		"no rules":      {`"rules":"siamese"`, `"rules":""`},
		"short hash":    {`"sha256":"0123`, `"sha256":"`},
		"one seat":      {`{"name":"Ann"},`, ``},
		"unknown field": {`"version":2`, `"version":2,"colour":"red"`},
		"other log":     {`siamese-table-game`, `chess-game`},
	} {
		t.Run(name, func(t *testing.T) {
			line := strings.Replace(headerLine, edit[0], edit[1], 1)
			if line == headerLine {
				t.Fatalf("edit %q not applied", edit[0])
			}
			_, err := ReadLog(strings.NewReader(line + "\n"))
			var le *LogError
			if !errors.As(err, &le) || le.Line != 1 {
				t.Fatalf("err = %v, want a *LogError at line 1", err)
			}
		})
	}
	_, err := ReadLog(strings.NewReader(`{"seat":0,"act":"deal","tiles":["1B"]}` + "\n" + headerLine + "\n"))
	if err == nil || !strings.Contains(err.Error(), "line 2: a header line is only allowed first") {
		t.Fatalf("a header after an action: %v", err)
	}
}

// TestTornLastLineIsNotDamage: a write cut short by a power cut leaves an unterminated last
// line, which is reported with the offset to cut at; the same bytes with a line after them are
// damage, which stops the reader at that line.
func TestTornLastLineIsNotDamage(t *testing.T) {
	good := headerLine + "\n" + `{"seat":0,"act":"deal","tiles":["1B"]}` + "\n"
	for name, tail := range map[string]string{
		"half a line":   `{"seat":1,"act":"dea`,
		"unwritten NUL": "\x00\x00\x00\x00",
		"half a header": `{"log":"siamese-table-ga`,
	} {
		t.Run(name, func(t *testing.T) {
			l, err := ReadLog(strings.NewReader(good + tail))
			var torn *TornError
			if !errors.As(err, &torn) || torn.Line != 3 || torn.Offset != int64(len(good)) || torn.Bytes != len(tail) {
				t.Fatalf("err = %#v, want a torn line 3 at offset %d", err, len(good))
			}
			if len(l.Actions) != 1 || l.Header == nil {
				t.Fatalf("kept %d actions, want the 1 before the torn line", len(l.Actions))
			}
			_, err = ReadLog(strings.NewReader(good + tail + "\n" + `{"seat":0,"act":"deal","tiles":["2B"]}` + "\n"))
			var le *LogError
			if !errors.As(err, &le) || le.Line != 3 || errors.As(err, &torn) {
				t.Fatalf("damage in the middle: err = %v, want a *LogError at line 3", err)
			}
		})
	}
}

func TestReaderOffsetAndMissingNewline(t *testing.T) {
	whole := headerLine + "\n" + `{"seat":0,"act":"deal","tiles":["1B"]}`
	lr := NewLogReader(strings.NewReader(whole))
	if _, err := lr.Header(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := lr.Next(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := lr.Next(); err != io.EOF {
		t.Fatalf("after the last action: %v, want io.EOF", err)
	}
	if lr.Offset() != int64(len(whole)) || !lr.MissingNewline() {
		t.Fatalf("offset %d (want %d), missing newline %v (want true)", lr.Offset(), len(whole), lr.MissingNewline())
	}
}

func TestReadLogRefusesHugeLines(t *testing.T) {
	huge := `{"seat":0,"act":"deal","tiles":["1B"` + strings.Repeat(`,"1B"`, MaxLogLine/5) + "]}\n"
	_, err := ReadLog(strings.NewReader(huge + huge))
	var le *LogError
	if !errors.As(err, &le) || le.Line != 1 || !strings.Contains(err.Error(), "longer than") {
		t.Fatalf("err = %v, want line 1 too long", err)
	}
}

func TestParseActionRejects(t *testing.T) {
	for name, line := range map[string]string{
		"unknown field":      `{"seat":0,"act":"draw","tiles":["1B"],"colour":"red"}`,
		"bad tile":           `{"seat":0,"act":"draw","tiles":["1Q"]}`,
		"draw two":           `{"seat":0,"act":"draw","tiles":["1B","2B"]}`,
		"call without rack":  `{"seat":0,"act":"call","tiles":["1B","1B","1B"]}`,
		"call for what":      `{"seat":0,"act":"call","tiles":["1B"],"rack":1,"for":"fun"}`,
		"move to same rack":  `{"seat":0,"act":"move","tiles":["1B"],"rack":1,"to":1}`,
		"exchange no target": `{"seat":0,"act":"exchange","tiles":["1B"]}`,
		"rack 3":             `{"seat":0,"act":"discard","tiles":["1B"],"rack":3}`,
		"two values":         `{"seat":0,"act":"wall_end"} {"seat":1,"act":"wall_end"}`,
		"not json":           `seat 0 draws 1B`,
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := ParseAction([]byte(line)); err == nil {
				t.Errorf("ParseAction(%s) accepted", line)
			}
		})
	}
}

func FuzzParseAction(f *testing.F) {
	f.Add([]byte(`{"seat":0,"act":"call","tiles":["1B","1B","J"],"rack":2}`))
	f.Add([]byte(`{"seat":1,"act":"exchange","tiles":["N"],"target":{"seat":0,"rack":2,"exposure":0}}`))
	f.Add([]byte(`{"seat":0,"act":"discard","tiles":["1B"],"named":"2B"}`))
	f.Add([]byte(`{"seat":1,"act":"flower","tiles":["5D"],"rack":2,"to":1}`))
	f.Add([]byte(`{"seat":0,"act":"roll","for":"prevailing","dice":[4]}`))
	c := loadCard(f)
	r := loadRules(f, "siamese")
	wp, limits := loadRules(f, "wright-patterson-siamese"), loadLimitCard(f)
	f.Fuzz(func(t *testing.T, line []byte) {
		a, err := ParseAction(line)
		if err != nil {
			return
		}
		back, err := ParseAction([]byte(a.String()))
		if err != nil || back.String() != a.String() {
			t.Fatalf("%s does not round-trip: %v", a, err)
		}
		// Any well-formed action applied to a fresh game either applies or is refused; never panics.
		for _, s := range []State{New(r, c), New(wp, limits)} {
			if n, _, err := Apply(s, a); err == nil && n.Seq != 1 {
				t.Fatalf("applied but seq %d", n.Seq)
			}
		}
	})
}

// FuzzReplayLog feeds whole logs (every scenario as a seed) through the streaming reader and a
// replay: never a panic; what replays conserves every tile of the set, and replays the same way
// twice; a good log cut anywhere reads as a torn line or as fewer actions, never as others.
func FuzzReplayLog(f *testing.F) {
	files, _ := filepath.Glob("testdata/scenarios/*.jsonl")
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	c, limits := loadCard(f), loadLimitCard(f)
	rules := map[string]*Ruleset{}
	for _, spec := range allRulesets {
		rules[spec] = loadRules(f, spec)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := ReadLog(bytes.NewReader(data))
		var torn *TornError
		var bad *LogError
		if err != nil && !errors.As(err, &torn) && !errors.As(err, &bad) {
			t.Fatalf("ReadLog error of no known kind: %v", err)
		}
		r := rules["siamese"]
		start := StartLegacy(r, c)
		if l.Header != nil {
			if r = rules[l.Header.RulesSpec()]; r == nil {
				return
			}
			if len(r.Scoring.LimitPoints) > 0 {
				start = l.Header.Start(r, limits)
			} else {
				start = l.Header.Start(r, c)
			}
		}
		s1, v1, err1 := Replay(start, l.Actions)
		s2, v2, err2 := Replay(start, l.Actions)
		if (err1 == nil) != (err2 == nil) || !reflect.DeepEqual(v1, v2) || stateKey(s1) != stateKey(s2) {
			t.Fatal("two replays of one log differ")
		}
		if got := tilesOnTable(s1); got != r.TileSet().Count {
			t.Fatalf("tiles not conserved: %v", got)
		}
		if cut := len(data) / 2; cut > 0 && err == nil { // a good log cut anywhere
			lc, _ := ReadLog(bytes.NewReader(data[:cut]))
			if len(lc.Actions) > len(l.Actions) || (len(lc.Actions) > 0 && !reflect.DeepEqual(lc.Actions, l.Actions[:len(lc.Actions)])) {
				t.Fatalf("the first half of a log read as other actions")
			}
		}
	})
}
