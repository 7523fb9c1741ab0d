package game

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
)

// LogError is a malformed game-log line; the actions before it were read.
type LogError struct {
	Line int
	Err  error
}

func (e *LogError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }
func (e *LogError) Unwrap() error { return e.Err }

// ReadLog reads a game log (JSON lines, one Action a line; blank lines and lines starting with
// # are skipped). On a malformed line it returns the actions before it and a *LogError.
func ReadLog(r io.Reader) ([]Action, []int, error) {
	var acts []Action
	var lines []int
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 || b[0] == '#' {
			continue
		}
		a, err := ParseAction(b)
		if err != nil {
			return acts, lines, &LogError{Line: n, Err: err}
		}
		acts = append(acts, a)
		lines = append(lines, n)
	}
	if err := sc.Err(); err != nil {
		return acts, lines, &LogError{Line: n + 1, Err: err}
	}
	return acts, lines, nil
}
