package progress

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/internal/clock"
)

func TestBarRedrawsAtMostEveryTenthOfASecond(t *testing.T) {
	var out bytes.Buffer
	clk := clock.NewFake(time.Unix(0, 0))
	b := NewTo(&out, "enrolling", 4, clk)
	b.Add(1)               // first step: drawn
	b.Add(1)               // too soon: not drawn
	clk.Advance(minRedraw) //
	b.Add(1)               // drawn
	b.Add(1)               // done: always drawn
	b.Done()
	want := "\renrolling 1/4 (25%)\renrolling 3/4 (75%)\renrolling 4/4 (100%)\r                    \r"
	if out.String() != want {
		t.Errorf("drew %q\nwant %q", out.String(), want)
	}
}

func TestBarBlanksALongerLine(t *testing.T) {
	var out bytes.Buffer
	clk := clock.NewFake(time.Unix(0, 0))
	b := NewTo(&out, "x", 0, clk) // no total: counts only
	b.Add(100)
	clk.Advance(time.Second)
	b.Add(-95)
	if got := out.String(); got != "\rx 100\rx 5  " {
		t.Errorf("drew %q, want the shorter line padded over the longer", got)
	}
}

func TestQuietWhenNotATerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var buf bytes.Buffer
	for _, w := range []any{f, &buf} {
		if IsTerminal(w.(interface{ Write([]byte) (int, error) })) {
			t.Errorf("%T counted as a terminal", w)
		}
	}
	b := New(f, "eval", 10)
	for i := 0; i < 10; i++ {
		b.Add(1)
	}
	b.Done()
	if st, _ := f.Stat(); st.Size() != 0 {
		t.Errorf("wrote %d bytes to a file", st.Size())
	}
}
