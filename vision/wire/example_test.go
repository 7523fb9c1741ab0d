package wire_test

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/siamesetable/siamesed/engine/tile"
	"github.com/siamesetable/siamesed/vision/wire"
)

// The daemon lays a five of dots in the simulated discard area; the worker answers with what its
// frames showed, then done.
func Example() {
	at := time.Date(2026, 11, 23, 19, 0, 0, 0, time.UTC)
	req := wire.NewWriter(os.Stdout)
	_ = req.Request(wire.Request{Op: wire.OpPut, Face: tile.Dot5, At: at})

	worker := `{"kind":"seen","face":"5D","known":true,"confidence":0.81,"runner":"6D","at":"2026-11-23T19:00:00.266Z"}
{"kind":"done","line":1}
`
	r := wire.NewReader(strings.NewReader(worker))
	for {
		rep, err := r.Reply()
		if err != nil {
			break
		}
		if rep.IsEvent() {
			fmt.Println(rep.Kind, rep.Face, rep.Known, rep.At.Sub(at))
		} else {
			fmt.Println(rep.Kind, rep.Line)
		}
	}
	// Output:
	// {"op":"put","face":"5D","at":"2026-11-23T19:00:00Z"}
	// seen 5D true 266ms
	// done 1
}
