package game

import (
	"errors"
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
	acts, lines, err := ReadLog(strings.NewReader(log))
	var le *LogError
	if !errors.As(err, &le) || le.Line != 5 || !strings.Contains(err.Error(), `unknown act "dance"`) {
		t.Fatalf("err = %v, want line 5 unknown act", err)
	}
	if len(acts) != 2 || lines[0] != 2 || lines[1] != 4 {
		t.Fatalf("kept %d actions at lines %v, want 2 at [2 4]", len(acts), lines)
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
	c := loadCard(f)
	r := loadRules(f, "siamese")
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
		s := New(r, c)
		if n, _, err := Apply(s, a); err == nil && n.Seq != 1 {
			t.Fatalf("applied but seq %d", n.Seq)
		}
	})
}
