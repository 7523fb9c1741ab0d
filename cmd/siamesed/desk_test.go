package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/siamesetable/siamesed/desk"
	"github.com/siamesetable/siamesed/tournament/event"
)

func TestDeskUsage(t *testing.T) {
	var out, errb bytes.Buffer
	if code := dispatch(context.Background(), []string{"desk", "--data", t.TempDir()}, &out, &errb); code != 2 {
		t.Errorf("desk without --event: exit %d, want 2\n%s", code, errb.String())
	}
	var out2, errb2 bytes.Buffer
	bad := filepath.Join(t.TempDir(), "e.yaml")
	os.WriteFile(bad, []byte("name: x\nrounds: 0\n"), 0o644)
	if code := dispatch(context.Background(), []string{"desk", "--event", bad, "--data", t.TempDir()}, &out2, &errb2); code != 1 || !strings.Contains(errb2.String(), "e.yaml:2: rounds: 0 is out of range") {
		t.Errorf("a bad event file: exit %d\n%s", code, errb2.String())
	}
}

// TestDeskSimulatesAnEvent: the README's one command plays the club night's tables into the
// desk's record.
func TestDeskSimulatesAnEvent(t *testing.T) {
	if testing.Short() {
		t.Skip("plays games for some seconds")
	}
	data := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	var out, errb bytes.Buffer
	code := dispatch(ctx, []string{"desk", "--event", "../../configs/events/club-night.yaml", "--data", data, "--nats", "embedded", "--simulate", "--pace", "300ms", "--http", "127.0.0.1:0"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errb.String())
	}
	if !strings.Contains(out.String(), "desk: http://127.0.0.1:") {
		t.Errorf("no address printed: %q", out.String())
	}
	ev, err := event.Load("../../configs/events/club-night.yaml", event.ConfigsRules)
	if err != nil {
		t.Fatal(err)
	}
	d, err := desk.Open(ev, data, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	counted := 0
	for _, s := range d.View().Standings {
		counted += s.Games
	}
	if counted < 4*4 { // at least a game at each table, signed
		t.Errorf("%d player-games counted after 15 s:\n%s", counted, errb.String())
	}
}
