package classify

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// OpenCV 4.6 throws C++ exceptions from deep inside its ONNX importer for files that are
// well-formed protobuf but wrong in a way CheckONNX does not see (a kernel size that does not fit
// its weights, a broken attribute); gocv does not catch them and the process aborts. So a model is
// first loaded in a child process: the program's own executable, started again with ProbeEnv set,
// which loads the model, runs it once and exits. Only when the child came back well is the model
// loaded in this process.

// ProbeEnv is the environment variable that turns a process into a model probe. A program that
// loads models calls ServeProbe first thing in main; a test binary in TestMain.
const ProbeEnv = "SIAMESED_MODEL_PROBE"

// probeTimeout bounds a probe: loading and one run take well under a second.
const probeTimeout = 30 * time.Second

// ServeProbe returns at once unless ProbeEnv is set. Then the process is a probe: it writes
// "probe", reads a model from standard input, loads it and runs it as NewNet would, writes "ok"
// to standard output and exits 0, or writes the error and exits 3. An abort inside OpenCV ends it
// before the answer (Go reports the SIGABRT and exits 2).
func ServeProbe() {
	if os.Getenv(ProbeEnv) == "" {
		return
	}
	os.Exit(serveProbe(os.Stdin, os.Stdout))
}

func serveProbe(in io.Reader, out io.Writer) int {
	fmt.Fprintln(out, probeHello)
	data, err := io.ReadAll(in)
	if err == nil {
		var n *netEmbedder
		if n, err = loadNet(os.Getenv(ProbeEnv), data); err == nil {
			err = n.close()
		}
	}
	if err != nil {
		fmt.Fprintf(out, "error: %v\n", err)
		return 3
	}
	fmt.Fprintln(out, "ok")
	return 0
}

var probed struct {
	sync.Mutex
	verdict map[[sha256.Size]byte]error
}

// Probe loads the model data (named name in errors) in a child process and reports whether that
// went well: nil, or ErrBadModel with what the child said or how it died. Verdicts are kept per
// name and content for the life of the process.
func Probe(name string, data []byte) error {
	sum := sha256.Sum256(append([]byte(name+"\x00"), data...))
	probed.Lock()
	defer probed.Unlock()
	if err, ok := probed.verdict[sum]; ok {
		return err
	}
	err := probe(name, data)
	if probed.verdict == nil {
		probed.verdict = map[[sha256.Size]byte]error{}
	}
	probed.verdict[sum] = err
	return err
}

// probeHello is a probe's first line: the child did start as a probe.
const probeHello = "probe"

// errProbeSetUp marks a probe that could not run at all (not a verdict on the model).
var errProbeSetUp = errors.New("classify: model probe")

func probe(name string, data []byte) error {
	if os.Getenv(ProbeEnv) != "" {
		return fmt.Errorf("%w: asked for a probe inside a probe: the program's main (or TestMain) must call classify.ServeProbe first", errProbeSetUp)
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("%w: %w", errProbeSetUp, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	// -test.run=^$: a test binary whose TestMain forgot ServeProbe then runs no test and says so
	// by not answering "ok".
	cmd := exec.CommandContext(ctx, exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), ProbeEnv+"="+name)
	cmd.Stdin = bytes.NewReader(data)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	hello, answer, _ := strings.Cut(strings.TrimSpace(stdout.String()), "\n")
	switch {
	case hello != probeHello:
		return fmt.Errorf("%w: %s did not start as a probe (%v: %q); does its main (or TestMain) call classify.ServeProbe?",
			errProbeSetUp, exe, runErr, stdout.String())
	case runErr == nil && answer == "ok":
		return nil
	case ctx.Err() != nil:
		return fmt.Errorf("%w: %s: loading it took over %v", ErrBadModel, name, probeTimeout)
	case strings.HasPrefix(answer, "error: "):
		return fmt.Errorf("%w: %s", ErrBadModel, strings.TrimPrefix(strings.TrimPrefix(answer, "error: "), ErrBadModel.Error()+": "))
	}
	return fmt.Errorf("%w: %s: OpenCV cannot load it: the probe process died (%v)%s", ErrBadModel, name, runErr, opencvSays(stderr.String()))
}

// opencvSays picks OpenCV's own message out of a probe's standard error.
func opencvSays(stderr string) string {
	for _, line := range strings.Split(stderr, "\n") {
		if i := strings.Index(line, "error: ("); i >= 0 {
			return "; OpenCV: " + strings.TrimSpace(line[i+len("error: "):])
		}
	}
	if s := strings.TrimSpace(stderr); s != "" {
		return "; " + s[max(0, len(s)-200):]
	}
	return ""
}
