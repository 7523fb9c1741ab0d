package mqtt

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestSchema: every payload type says its schema without being told; a command of a newer
// schema is refused, naming it; one without a schema, or of this one, is taken.
func TestSchema(t *testing.T) {
	b, err := json.Marshal(Event{N: 1, Type: EventGame})
	if err != nil || !strings.HasPrefix(string(b), `{"schema":1,`) {
		t.Errorf("an event encodes as %s (%v)", b, err)
	}
	for _, c := range []struct{ in, want string }{
		{`{"schema":2,"id":"p1-1","kind":"wall_game"}`, "schema 2 is newer than this siamesed reads (1)"},
		{`{"schema":"one","id":"p1-1","kind":"wall_game"}`, "is not a number"},
		{`{"schema":1,"id":"p1-1","kind":"wall_game"}`, ""},
		{`{"id":"p1-1","kind":"wall_game"}`, ""},
	} {
		_, _, err := ParseCommand(1, []byte(c.in), time.Now())
		if (c.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: %v, want %q", c.in, err, c.want)
		}
	}
}
