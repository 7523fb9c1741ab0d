package wire

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
)

// Reader reads lines, counting them from 1. A line that cannot be read (too long, bad content)
// is an error naming its number, and the next call reads on from the line after it.
type Reader struct {
	br   *bufio.Reader
	line int
}

// NewReader reads lines from r.
func NewReader(r io.Reader) *Reader { return &Reader{br: bufio.NewReaderSize(r, MaxLine)} }

// Line is the number of the line last read.
func (r *Reader) Line() int { return r.line }

// next returns the next line without its newline (and a carriage return before it); io.EOF
// after the last. A last line without a newline is a line. A line longer than limit (newline
// included) is skipped whole and is an error naming it.
func (r *Reader) next(limit int) ([]byte, error) {
	b, err := r.br.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) { // longer than the buffer: gather it, up to limit
		long := append([]byte(nil), b...)
		for errors.Is(err, bufio.ErrBufferFull) && len(long) <= limit {
			b, err = r.br.ReadSlice('\n')
			long = append(long, b...)
		}
		if len(long) > limit {
			r.line++
			for errors.Is(err, bufio.ErrBufferFull) { // skip the rest of the line
				_, err = r.br.ReadSlice('\n')
			}
			if err != nil && !errors.Is(err, io.EOF) {
				return nil, err
			}
			return nil, &LineError{Line: r.line, Err: bad("longer than %d bytes", limit)}
		}
		b = long
	}
	switch {
	case errors.Is(err, io.EOF) && len(b) == 0:
		return nil, io.EOF
	case err != nil && !errors.Is(err, io.EOF):
		return nil, err
	}
	r.line++
	b = bytes.TrimSuffix(b, []byte("\n"))
	return bytes.TrimSuffix(b, []byte("\r")), nil
}

// Request reads the next request; a line that is not one is a *LineError, and reading goes on
// after it. io.EOF after the last line.
func (r *Reader) Request() (Request, error) {
	b, err := r.next(MaxLine)
	if err != nil {
		return Request{}, err
	}
	q, err := ParseRequest(b)
	if err != nil {
		return Request{}, &LineError{Line: r.line, Err: err}
	}
	return q, nil
}

// Reply reads the next reply, as Request does; a reply line may be as long as MaxReplyLine, to
// hold a picture.
func (r *Reader) Reply() (Reply, error) {
	b, err := r.next(MaxReplyLine)
	if err != nil {
		return Reply{}, err
	}
	p, err := ParseReply(b)
	if err != nil {
		return Reply{}, &LineError{Line: r.line, Err: err}
	}
	return p, nil
}

// Writer writes requests or replies, a line each, flushed at once. It is safe for concurrent
// use: lines never interleave.
type Writer struct {
	mu sync.Mutex
	w  io.Writer
}

// NewWriter writes lines to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Request writes one request line.
func (w *Writer) Request(r Request) error { return w.write(r) }

// Reply writes one reply line.
func (w *Writer) Reply(r Reply) error { return w.write(r) }

func (w *Writer) write(v json.Marshaler) error {
	b, err := v.MarshalJSON()
	if err != nil {
		return err
	}
	b = append(b, '\n')
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, err := w.w.Write(b); err != nil {
		return fmt.Errorf("wire: %w", err)
	}
	return nil
}
