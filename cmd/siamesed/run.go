package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"github.com/siamesetable/siamesed/configs"
	"github.com/siamesetable/siamesed/daemon"
	"github.com/siamesetable/siamesed/internal/datadir"
)

func init() {
	register("run", "the daemon: run [--config FILE] [--data DIR] [--debug]; with no config, a simulated table (configs/sim.yaml)", runDaemon)
}

func runDaemon(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fl := newFlags("run", stderr)
	cfgPath := fl.String("config", "", "configuration file (default: the built-in configs/sim.yaml, a simulated table)")
	data := fl.String("data", "", "data directory for the journal and history (default: $"+datadir.Env+", else $XDG_STATE_HOME/siamesed or ~/.local/state/siamesed)")
	debug := fl.Bool("debug", false, "log every act and the tracker's reasoning")
	if err := parseFlags(fl, args); err != nil {
		return err
	}
	if fl.NArg() > 0 {
		return fmt.Errorf("%w: run takes no arguments, only flags", errUsage)
	}
	var cfg daemon.Config
	var err error
	if *cfgPath == "" {
		b, rerr := configs.Files.ReadFile("sim.yaml")
		if rerr != nil {
			return rerr
		}
		cfg, err = daemon.ParseConfig("configs/sim.yaml", b)
	} else {
		cfg, err = daemon.LoadConfig(*cfgPath)
	}
	if err != nil {
		return err
	}
	if *data == "" {
		if *data, err = datadir.Default(); err != nil {
			return err
		}
	}
	level := slog.LevelInfo
	if *debug {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	listening := make(chan string, 1)
	go func() {
		if addr, ok := <-listening; ok {
			log.Info("display", "url", "http://"+addr+"/", "state", "http://"+addr+"/api/state", "data", *data)
		}
	}()
	return daemon.Run(ctx, cfg, daemon.Options{DataDir: *data, Log: log, Host: hwOpenHost, Notify: daemon.Systemd{}, Listening: listening})
}
