package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/history"
	"github.com/siamesetable/siamesed/journal"
)

var crashKills = flag.Int("crash.kills", 100, "how many times TestCrashAndRestart kills the daemon (the soak: 1000)")

// asMain makes the test binary run as siamesed itself, so a test can start the daemon as a
// process of its own and kill it.
const asMain = "SIAMESED_TEST_AS_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(asMain) == "1" {
		main()
	}
	os.Exit(m.Run())
}

// TestCrashAndRestart kills `siamesed run` (a simulated table at full speed) with SIGKILL at
// random points, again and again. After each kill it restarts the daemon on the same data
// directory and checks that it resumed exactly the state its journal held (the state's digest,
// concealed tiles and wall included), and that no journaled act was ever lost (every file's
// whole lines at each kill begin the file at the end). The last run must finish its game, every
// game must then be over and in the history.
func TestCrashAndRestart(t *testing.T) {
	if testing.Short() {
		t.Skip("kills the daemon a hundred times; skipped with -short")
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	data := t.TempDir()
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	seenAt := map[string][]byte{} // each journal's whole lines at some kill
	resumed, fresh, early := 0, 0, 0
	for k := 0; k < *crashKills; k++ {
		want := openGameDigest(t, data)
		cfg := writeCrashConfig(t, k, 0)
		child := startChild(t, self, cfg, data)
		if rng.IntN(10) == 0 {
			// Kill it while it starts: replaying, cutting a torn line, recording a game.
			time.Sleep(time.Duration(rng.IntN(30)) * time.Millisecond)
			child.kill(t)
			early++
		} else {
			line := child.waitFor(t, `msg="(game resumed|new game)"`)
			api := regexp.MustCompile(`state=(\S+)`).FindStringSubmatch(child.waitFor(t, `msg=display `))
			switch {
			case want != "" && !strings.Contains(line, "digest="+want):
				t.Fatalf("kill %d: the journal held state %s, the daemon says: %s\n%s", k, want, line, child.log())
			case want == "" && strings.Contains(line, "game resumed"):
				t.Fatalf("kill %d: no game was open, the daemon says: %s", k, line)
			case want != "":
				resumed++
			default:
				fresh++
			}
			time.Sleep(time.Duration(rng.IntN(800)) * time.Millisecond)
			shown, err := shownState(api[1])
			if err != nil {
				t.Fatalf("kill %d: the daemon stopped by itself: %v\n%s", k, err, child.log())
			}
			child.kill(t)
			// Every act shown before the kill was journaled before it was shown.
			if shown.Seq > 0 {
				g, err := journal.Load(filepath.Join(data, journal.GamesDir, shown.Game+journal.LogExt), journal.Sources{})
				if err != nil {
					t.Fatalf("kill %d: %v", k, err)
				}
				if g.State.Seq < shown.Seq {
					t.Fatalf("kill %d: the display showed act %d of %s, the journal holds %d", k, shown.Seq, shown.Game, g.State.Seq)
				}
			}
		}
		for path, whole := range wholeLines(t, data) {
			if old := seenAt[path]; !bytes.HasPrefix(whole, old) {
				t.Fatalf("kill %d: %s lost journaled acts:\nhad %d bytes, now %d", k, path, len(old), len(whole))
			}
			seenAt[path] = whole
		}
	}
	t.Logf("%d kills: %d after resuming a game, %d after starting a new one, %d while starting; %d games journaled", *crashKills, resumed, fresh, early, len(seenAt))

	// The last run plays on until a game finishes, then stops by itself.
	want := openGameDigest(t, data)
	child := startChild(t, self, writeCrashConfig(t, *crashKills, 1), data)
	if err := child.wait(3 * time.Minute); err != nil {
		t.Fatalf("the last run: %v\n%s", err, child.log())
	}
	if want != "" && !strings.Contains(child.log(), "digest="+want) {
		t.Fatalf("the last run did not resume state %s:\n%s", want, child.log())
	}
	dir, err := journal.OpenDir(data)
	if err != nil {
		t.Fatal(err)
	}
	open, over, err := dir.Unrecorded(nil)
	if err != nil {
		t.Fatalf("a journal cannot be read after the kills: %v", err)
	}
	if len(open) > 0 {
		t.Fatalf("%d games left unfinished, e.g. %s", len(open), open[0].Path)
	}
	db, err := history.Open(history.Path(data), history.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, g := range over {
		if _, err := db.Get(g.ID); err != nil {
			t.Errorf("game %s finished but is not in the history: %v", g.ID, err)
		}
		if whole := readWhole(t, g.Path); !bytes.HasPrefix(whole, seenAt[g.Path]) {
			t.Errorf("%s lost journaled acts at the end", g.Path)
		}
	}
}

// shownState is what the daemon's display port shows now.
func shownState(url string) (s struct {
	Game string `json:"game"`
	Seq  int    `json:"seq"`
}, err error) {
	resp, err := http.Get(url)
	if err != nil {
		return s, err
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(&s); err != nil {
		return s, fmt.Errorf("%s: %w", url, err)
	}
	return s, nil
}

// writeCrashConfig is a soak of the simulated table with noise and faults; games 0 plays on
// until killed.
func writeCrashConfig(t *testing.T, k, games int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "crash.yaml")
	cfg := fmt.Sprintf(`camera: direct
http: 127.0.0.1:0
mqtt: {broker: embedded, listen: "127.0.0.1:0"}
sim:
  fast: true
  games: %d
  seed: %d
  faults: 0.01
  noise: {tag_dropout: 0.002, bus_error: 0.00002, ghost_tag: 0.0002, weight_spike: 0.001, unknown_discard: 0.05}
`, games, k+1)
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// openGameDigest is the digest of the state the unfinished game's journal holds ("" if none).
func openGameDigest(t *testing.T, data string) string {
	t.Helper()
	dir, err := journal.OpenDir(data)
	if err != nil {
		t.Fatal(err)
	}
	done, err := recordedIDs(data)
	if err != nil {
		t.Fatal(err)
	}
	open, err := dir.Unfinished(done)
	if err != nil {
		t.Fatalf("after a kill: %v", err)
	}
	if len(open) == 0 {
		return ""
	}
	return open[0].Game.State.Digest()
}

func recordedIDs(data string) (func(string) bool, error) {
	db, err := history.Open(history.Path(data), history.Options{ReadOnly: true})
	if errors.Is(err, history.ErrNoHistory) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer db.Close()
	games, err := db.List(history.Filter{})
	if err != nil {
		return nil, err
	}
	ids := map[string]bool{}
	for _, g := range games {
		ids[g.ID] = true
	}
	return func(id string) bool { return ids[id] }, nil
}

// wholeLines reads every journal up to its last newline.
func wholeLines(t *testing.T, data string) map[string][]byte {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(data, journal.GamesDir, "*"+journal.LogExt))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, p := range paths {
		out[p] = readWhole(t, p)
	}
	return out
}

func readWhole(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b[:bytes.LastIndexByte(b, '\n')+1]
}

// child is a daemon process.
type child struct {
	cmd   *exec.Cmd
	lines chan string
	done  chan error
	buf   *bytes.Buffer
}

func startChild(t *testing.T, self, cfg, data string) *child {
	t.Helper()
	cmd := exec.Command(self, "run", "--config", cfg, "--data", data)
	cmd.Env = append(os.Environ(), asMain+"=1")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &child{cmd: cmd, lines: make(chan string, 4096), done: make(chan error, 1), buf: &bytes.Buffer{}}
	var logged = make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stderr)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			select {
			case c.lines <- sc.Text():
			default: // nobody is waiting for lines any more; the log still keeps them
			}
		}
		close(logged)
	}()
	go func() {
		<-logged
		c.done <- cmd.Wait()
	}()
	return c
}

// waitFor returns the first line matching re, keeping every line read in the log.
func (c *child) waitFor(t *testing.T, re string) string {
	t.Helper()
	m := regexp.MustCompile(re)
	deadline := time.After(time.Minute)
	for {
		select {
		case l := <-c.lines:
			c.buf.WriteString(l + "\n")
			if m.MatchString(l) {
				return l
			}
		case <-deadline:
			t.Fatalf("no line like %s in a minute:\n%s", re, c.buf)
		}
	}
}

func (c *child) drain() {
	for {
		select {
		case l := <-c.lines:
			c.buf.WriteString(l + "\n")
		default:
			return
		}
	}
}

func (c *child) log() string { c.drain(); return c.buf.String() }

// kill sends SIGKILL and waits for the process to be gone.
func (c *child) kill(t *testing.T) {
	t.Helper()
	if err := c.cmd.Process.Signal(syscall.SIGKILL); err != nil && !strings.Contains(err.Error(), "finished") {
		t.Fatal(err)
	}
	err := <-c.done
	c.drain()
	if ee, ok := err.(*exec.ExitError); !ok || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("the daemon ended before it was killed: %v\n%s", err, c.buf)
	}
}

// wait waits for the process to end by itself.
func (c *child) wait(limit time.Duration) error {
	select {
	case err := <-c.done:
		return err
	case <-time.After(limit):
		c.cmd.Process.Kill()
		return fmt.Errorf("still running after %v", limit)
	}
}
