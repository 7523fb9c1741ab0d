package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/siamesetable/siamesed/desk"
)

func init() {
	register("desk", "the tournament desk: desk --event FILE --data DIR [--http ADDR] [--nats URL,URL,URL | --nats embedded] [--simulate]", runDesk)
}

func runDesk(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fl := newFlags("desk", stderr)
	ev := fl.String("event", "", "the event file (tables, players, rounds, movement; docs/tournament.md)")
	data := fl.String("data", "", "the desk's data directory: its record (desk.db) and the director's password")
	httpAddr := fl.String("http", "127.0.0.1:8090", "where the director's pages are served")
	natsURLs := fl.String("nats", "nats://127.0.0.1:4222,nats://127.0.0.1:4223,nats://127.0.0.1:4224", "the cluster's URLs, comma-separated; embedded: a single NATS server inside the desk")
	replicas := fl.Int("replicas", 3, "replicas of the streams the desk makes: 3 on a three-node cluster, 1 on one server")
	simulate := fl.Bool("simulate", false, "play every table of the event with virtual players (an event on one machine)")
	pace := fl.Duration("pace", 0, "with --simulate: a game a table every PACE (default 2s)")
	debug := fl.Bool("debug", false, "log every message")
	if err := parseFlags(fl, args); err != nil {
		return err
	}
	if *ev == "" || *data == "" || fl.NArg() > 0 {
		return fmt.Errorf("%w: desk needs --event FILE and --data DIR, and takes no arguments", errUsage)
	}
	level := slog.LevelInfo
	if *debug {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	listening := make(chan string, 1)
	go func() {
		if addr, ok := <-listening; ok {
			fmt.Fprintf(stdout, "desk: http://%s/ (standings), /tables, /sheets, /seating, /calls; data %s\n", addr, *data)
		}
	}()
	return desk.Run(ctx, desk.Options{Event: *ev, DataDir: *data, HTTP: *httpAddr, NATS: strings.Split(*natsURLs, ","),
		Replicas: *replicas, Simulate: *simulate, Pace: *pace, Log: log, Listening: listening})
}
