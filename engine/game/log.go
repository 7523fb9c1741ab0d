package game

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// MaxLogLine bounds one game-log line; a longer line is damage, not an action.
const MaxLogLine = 1 << 20

// LogError is a malformed game-log line with more of the log after it: damage in the middle,
// which nothing may guess past. The actions before it were read.
type LogError struct {
	Line int
	Err  error
}

func (e *LogError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }
func (e *LogError) Unwrap() error { return e.Err }

// TornError is a last line cut short, as a power cut in the middle of a write leaves it: it has
// no newline and is not a whole action. Everything before Offset is good; a journal cuts the
// file there and goes on.
type TornError struct {
	Line   int
	Offset int64 // byte offset where the torn line starts
	Bytes  int   // how long the torn piece is
}

func (e *TornError) Error() string {
	return fmt.Sprintf("line %d: torn last line (%d bytes with no newline, not a whole action)", e.Line, e.Bytes)
}

// LogReader reads a game log as a stream: an optional header line, then actions. Blank lines
// and lines starting with # are skipped.
type LogReader struct {
	r       *bufio.Reader
	line    int   // lines read
	off     int64 // bytes read
	good    int64 // offset just after the last line accepted
	started bool
	header  *Header
	first   *Action // an action read while looking for the header
	firstAt int
	noEOL   bool
}

// NewLogReader reads a game log from r.
func NewLogReader(r io.Reader) *LogReader {
	return &LogReader{r: bufio.NewReaderSize(r, 64*1024)}
}

// Header returns the log's header, or nil for a log written before headers (version 1). It
// reads up to the first action, so call it before Next.
func (lr *LogReader) Header() (*Header, error) {
	if lr.started {
		return lr.header, nil
	}
	lr.started = true
	b, eol, err := lr.nextLine()
	if err != nil {
		return nil, err
	}
	if isHeader(b) {
		h, err := ParseHeader(b)
		if err != nil {
			return nil, lr.lineError(b, eol, err)
		}
		lr.accept(eol)
		lr.header = h
		return h, nil
	}
	a, err := ParseAction(b)
	if err != nil {
		return nil, lr.lineError(b, eol, err)
	}
	lr.accept(eol)
	lr.first, lr.firstAt = &a, lr.line
	return nil, nil
}

// Next returns the next action and its line number: io.EOF after the last, a *TornError for a
// torn last line, a *LogError for a bad line with more after it.
func (lr *LogReader) Next() (Action, int, error) {
	if !lr.started {
		if _, err := lr.Header(); err != nil {
			return Action{}, lr.line, err
		}
	}
	if lr.first != nil {
		a := *lr.first
		lr.first = nil
		return a, lr.firstAt, nil
	}
	b, eol, err := lr.nextLine()
	if err != nil {
		return Action{}, lr.line, err
	}
	if isHeader(b) {
		return Action{}, lr.line, lr.lineError(b, eol, errors.New("a header line is only allowed first"))
	}
	a, err := ParseAction(b)
	if err != nil {
		return Action{}, lr.line, lr.lineError(b, eol, err)
	}
	lr.accept(eol)
	return a, lr.line, nil
}

// Offset is the byte offset just after the last whole line read: where a journal resumes writing.
func (lr *LogReader) Offset() int64 { return lr.good }

// MissingNewline reports that the last line read was whole but had no newline, so a writer
// appending to the log must add one first.
func (lr *LogReader) MissingNewline() bool { return lr.noEOL }

// lineError decides what a bad line is: torn when it is the unterminated last line, else damage.
func (lr *LogReader) lineError(b []byte, eol bool, err error) error {
	if !eol {
		return &TornError{Line: lr.line, Offset: lr.good, Bytes: int(lr.off - lr.good)}
	}
	return &LogError{Line: lr.line, Err: err}
}

// nextLine returns the next line that is not blank or a comment, trimmed, and whether it ended
// with a newline (only the last line of a file can lack one). io.EOF at the end. The caller
// accepts the line once it parses, which moves Offset past it.
func (lr *LogReader) nextLine() ([]byte, bool, error) {
	for {
		raw, err := lr.readLine()
		if err != nil && err != io.EOF {
			return nil, false, &LogError{Line: lr.line + 1, Err: err}
		}
		if len(raw) == 0 {
			return nil, false, io.EOF
		}
		lr.line++
		lr.off += int64(len(raw))
		eol := raw[len(raw)-1] == '\n'
		b := bytes.TrimSpace(raw)
		if len(b) == 0 || b[0] == '#' {
			lr.accept(eol || len(b) == 0)
			continue
		}
		return b, eol, nil
	}
}

// accept moves Offset past the line just read.
func (lr *LogReader) accept(eol bool) {
	lr.good = lr.off
	lr.noEOL = !eol
}

// readLine reads one raw line with its newline, at most MaxLogLine bytes.
func (lr *LogReader) readLine() ([]byte, error) {
	var buf []byte
	for {
		frag, err := lr.r.ReadSlice('\n')
		buf = append(buf, frag...)
		if len(buf) > MaxLogLine {
			return buf, fmt.Errorf("line longer than %d bytes", MaxLogLine)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return buf, err
	}
}

// Log is a whole game log read into memory.
type Log struct {
	Header  *Header // nil for a log without one (version 1)
	Actions []Action
	Lines   []int // the line of each action
}

// ReadLog reads a whole game log. On a bad line it returns what came before it with a
// *LogError (damage) or a *TornError (a torn last line, which a reader may cut and go on).
func ReadLog(r io.Reader) (*Log, error) {
	lr := NewLogReader(r)
	l := &Log{}
	h, err := lr.Header()
	if err != nil {
		if err == io.EOF {
			return l, nil
		}
		return l, err
	}
	l.Header = h
	for {
		a, line, err := lr.Next()
		if err == io.EOF {
			return l, nil
		}
		if err != nil {
			return l, err
		}
		l.Actions = append(l.Actions, a)
		l.Lines = append(l.Lines, line)
	}
}
