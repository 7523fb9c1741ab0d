// Package progress shows how far long work has got (enrolment, vision evaluation, soak runs) on
// a terminal, redrawing one line in place, and stays quiet when the output is a file or a pipe,
// so logs and golden outputs hold only results.
package progress

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/siamesetable/siamesed/internal/clock"
)

// minRedraw is the least time between two redraws: often enough to look alive, rarely enough
// to cost nothing.
const minRedraw = 100 * time.Millisecond

// Bar counts work done out of a total and draws "label 12/40 (30%)" on a terminal ("label 12"
// when the total is not known: 0).
type Bar struct {
	w     io.Writer // nil: quiet
	label string
	total int
	done  int
	clk   clock.Clock
	drawn time.Time // when the line was last drawn; zero: never
	width int       // length of the last line drawn, to blank it out
}

// New returns a bar over w for total steps, drawn only if w is a terminal.
func New(w io.Writer, label string, total int) *Bar {
	if !IsTerminal(w) {
		w = nil
	}
	return NewTo(w, label, total, clock.Real{})
}

// NewTo returns a bar that always draws to w (nil: never), on clock clk; for tests and for
// callers that decided themselves.
func NewTo(w io.Writer, label string, total int, clk clock.Clock) *Bar {
	return &Bar{w: w, label: label, total: total, clk: clk}
}

// IsTerminal reports whether w is a character device (a terminal), not a file or a pipe.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Add records n more steps done, redrawing when enough time has passed or the work is done.
func (b *Bar) Add(n int) {
	b.done += n
	if b.w == nil {
		return
	}
	now := b.clk.Now()
	if b.done < b.total && !b.drawn.IsZero() && now.Sub(b.drawn) < minRedraw {
		return
	}
	b.drawn = now
	line := fmt.Sprintf("%s %d", b.label, b.done)
	if b.total > 0 {
		line += fmt.Sprintf("/%d (%d%%)", b.total, 100*b.done/b.total)
	}
	pad := max(0, b.width-len(line))
	b.width = len(line)
	fmt.Fprintf(b.w, "\r%s%*s", line, pad, "")
}

// Done ends the bar's line (if one was drawn), so what is printed next starts clean.
func (b *Bar) Done() {
	if b.w != nil && !b.drawn.IsZero() {
		fmt.Fprintf(b.w, "\r%*s\r", b.width, "")
	}
}
