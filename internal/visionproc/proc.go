package visionproc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/siamesetable/siamesed/vision/wire"
)

// Proc is a running camera worker. Its replies arrive on Replies, in order; the channel closes
// when the worker's output ends (it exited), and Err then says how.
type Proc struct {
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	w       *wire.Writer
	replies chan wire.Reply
	hello   wire.Reply
	stderr  *tail
	exited  chan struct{}
	waitErr error

	mu   sync.Mutex
	line int // requests written
}

// ErrExited is wrapped by the errors of a worker that has stopped.
var ErrExited = errors.New("visionproc: the camera worker stopped")

// Start runs path with args (e.g. "vision", "watch", "--sim") and waits up to ready for its
// hello. A worker that ends or says something else first is an error quoting the end of what
// it wrote on stderr. Close stops it.
func Start(path string, args []string, ready time.Duration) (*Proc, error) {
	cmd := exec.Command(path, args...)
	cmd.Env = workerEnv(os.Environ())
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("visionproc: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("visionproc: %w", err)
	}
	p := &Proc{cmd: cmd, stdin: stdin, w: wire.NewWriter(stdin), replies: make(chan wire.Reply, 256), stderr: &tail{max: 2048}, exited: make(chan struct{})}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("visionproc: %s: %w", path, err)
	}
	first := make(chan error, 1)
	go p.read(stdout, first)
	timer := time.NewTimer(ready)
	defer timer.Stop()
	select {
	case err = <-first:
	case <-timer.C:
		err = fmt.Errorf("visionproc: %s said nothing for %v", path, ready)
	}
	if err != nil {
		p.Close()
		return nil, p.explain(err)
	}
	return p, nil
}

// workerEnv is the worker's environment: the daemon's, with glibc held to one malloc arena
// unless told otherwise. OpenCV's and cgo's threads each take an arena of their own, which
// cost the worker some 15 MB of resident memory for nothing at a table's pace (a second arena
// alone 3-7 MB; 150 discards of the simulated camera took no more time in one).
func workerEnv(env []string) []string {
	if !slices.ContainsFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "MALLOC_ARENA_MAX=") }) {
		env = append(env, "MALLOC_ARENA_MAX=1")
	}
	return env
}

// read reads the worker's replies until its output ends, then waits for it to exit. The first
// reply must be hello: first hears whether it was.
func (p *Proc) read(stdout io.Reader, first chan<- error) {
	// Replies close after exited (defers run last first): whoever sees them closed finds Err
	// saying how the worker ended, never nil.
	defer close(p.replies)
	defer close(p.exited)
	r := wire.NewReader(stdout)
	for greeted := false; ; {
		rep, err := r.Reply()
		if !greeted {
			switch {
			case errors.Is(err, io.EOF):
				err = errors.New("visionproc: the worker ended before it was ready")
			case err == nil && (rep.Kind != wire.KindHello || rep.Version != wire.Version):
				err = fmt.Errorf("visionproc: the worker began with %s (version %d), want hello version %d", rep.Kind, rep.Version, wire.Version)
			}
			if err == nil {
				greeted, p.hello = true, rep // before Start hears of it
			}
			first <- err
			if err != nil {
				break
			}
			continue
		}
		var le *wire.LineError
		if errors.As(err, &le) { // a line the worker should not have written: report it, read on
			p.replies <- wire.Reply{Kind: wire.KindError, Error: fmt.Sprintf("the worker wrote %v", err)}
			continue
		}
		if err != nil {
			break
		}
		p.replies <- rep
	}
	_, _ = io.Copy(io.Discard, stdout) // drain, so that the worker never blocks writing
	p.waitErr = p.cmd.Wait()
}

// Mode is the mode the worker said hello in: wire.ModeSim or wire.ModeCamera.
func (p *Proc) Mode() string { return p.hello.Mode }

// Replies are the worker's replies after hello; closed when it has exited.
func (p *Proc) Replies() <-chan wire.Reply { return p.replies }

// Send writes one request and returns its line, which the reply ending it (done or error)
// names.
func (p *Proc) Send(q wire.Request) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.w.Request(q); err != nil {
		return 0, p.explain(err)
	}
	p.line++
	return p.line, nil
}

// Wait waits up to d for the worker to exit, and returns Err.
func (p *Proc) Wait(d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.exited:
	case <-t.C:
	}
	return p.Err()
}

// Err is how the worker ended, with the end of its stderr: nil while it runs.
func (p *Proc) Err() error {
	select {
	case <-p.exited:
	default:
		return nil
	}
	if p.waitErr == nil {
		return p.explain(fmt.Errorf("%w (exit status 0)", ErrExited))
	}
	return p.explain(fmt.Errorf("%w: %v", ErrExited, p.waitErr))
}

// explain adds what the worker last wrote on stderr to err.
func (p *Proc) explain(err error) error {
	if s := p.stderr.String(); s != "" {
		return fmt.Errorf("%w; it said: %s", err, s)
	}
	return err
}

// Close ends the worker: its stdin closes, and it is killed if it has not exited within two
// seconds. It returns how the worker ended, nil for a clean exit.
func (p *Proc) Close() error {
	p.stdin.Close()
	go func() { // nobody may read the replies any more
		for range p.replies {
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	select {
	case <-p.exited:
	case <-ctx.Done():
		_ = p.cmd.Process.Kill() // it may have exited meanwhile
		<-p.exited
	}
	if p.waitErr != nil {
		return p.explain(fmt.Errorf("%w: %v", ErrExited, p.waitErr))
	}
	return nil
}

// tail keeps the last max bytes written to it, as one line.
type tail struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = t.b[len(t.b)-t.max:]
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.Join(strings.Fields(string(bytes.ToValidUTF8(t.b, nil))), " ")
}
