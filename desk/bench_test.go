package desk

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/tournament/wire"
)

// benchResults are n results of the pairs event, each a distinct game.
func benchResults(n, offset int) []wire.Message {
	var out []wire.Message
	for i := range n {
		h := sha256.Sum256(fmt.Appendf(nil, "%d", i+offset))
		j := hex.EncodeToString(h[:])
		r := &wire.Result{Game: 1, GameID: "g", Journal: j, Seats: []string{"x", "y"}, Rules: "siamese", Reason: "wall_game", Scores: []int{10, 20}, Penalty: []int{0, 0}}
		out = append(out, wire.Message{Schema: wire.Schema, ID: wire.ResultID(j), Kind: wire.KindResult, Event: "Siamese pairs", Table: i%3 + 1, Round: 1, At: time.Now(), Result: r})
	}
	return out
}

// BenchmarkReceive: one message recorded (one transaction, one sync) and applied.
func BenchmarkReceive(b *testing.B) {
	d, err := Open(pairs(b), b.TempDir(), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	ms := benchResults(b.N, 0)
	b.ResetTimer()
	for i := range b.N {
		if _, err := d.Receive(ms[i]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReceiveAll500: 500 messages that arrived together, in one transaction; per message.
func BenchmarkReceiveAll500(b *testing.B) {
	d, err := Open(pairs(b), b.TempDir(), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	ms := benchResults(500*((b.N+499)/500), 0)
	b.ResetTimer()
	for i := 0; i < len(ms); i += 500 {
		for _, err := range func() []error { _, e := d.ReceiveAll(ms[i : i+500]); return e }() {
			if err != nil {
				b.Fatal(err)
			}
		}
	}
}
