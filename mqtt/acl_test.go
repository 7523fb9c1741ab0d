package mqtt

import "testing"

// TestCanPublish: the one check for every message that enters: who may put what where,
// retained or not.
func TestCanPublish(t *testing.T) {
	p := Policy{Topics: TopicsFor("t1")}
	cases := []struct {
		user, topic string
		retained    bool
		want        bool
	}{
		{DaemonUser, "siamese/t1/state", true, true},
		{DaemonUser, "siamese/t1/cmd/0", true, true}, // clearing a retained command
		{DaemonUser, "siamese/t2/state", false, false},
		{DaemonUser, "siamese/t1/#", false, false},
		{DisplayUser, "siamese/t1/state", false, false},
		{DisplayUser, "siamese/t1/cmd/0", false, false},
		{"0", "siamese/t1/cmd/0", false, true},
		{"0", "siamese/t1/cmd/0", true, false}, // a retained command would be played again
		{"0", "siamese/t1/cmd/1", false, false},
		{"0", "siamese/t1/seat/0/private", false, false},
		{"0", "siamese/t1/status", true, false},
		{"0", "siamese/t2/cmd/0", false, false},
		{"0", "siamese/t1/cmd/+", false, false},
		{"4", "siamese/t1/cmd/4", false, false},
		{"", "siamese/t1/cmd/0", false, false},
		{"00", "siamese/t1/cmd/00", false, false},
	}
	for _, c := range cases {
		if got := p.CanPublish(c.user, c.topic, c.retained); got != c.want {
			t.Errorf("CanPublish(%q, %q, retained %v) = %v, want %v", c.user, c.topic, c.retained, got, c.want)
		}
	}
}
