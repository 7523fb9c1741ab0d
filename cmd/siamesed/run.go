package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"

	"github.com/siamesetable/siamesed/configs"
	"github.com/siamesetable/siamesed/daemon"
	"github.com/siamesetable/siamesed/internal/datadir"
	"github.com/siamesetable/siamesed/setup"
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
	// The owner's password is heard (on first start) before the display port listens.
	var ownerPassword string
	go func() {
		if addr, ok := <-listening; ok {
			log.Info("display", "url", "http://"+addr+"/", "setup", "http://"+addr+"/setup", "state", "http://"+addr+"/api/state", "data", *data)
			if ownerPassword != "" {
				printFirstStart(stdout, setupURL(cfg.HTTP, addr), ownerPassword, setup.OwnerFile(*data))
			}
		}
	}()
	configFile := *cfgPath
	if configFile == "" {
		configFile = "the built-in configs/sim.yaml"
	}
	return daemon.Run(ctx, cfg, daemon.Options{DataDir: *data, Log: log, Host: hwOpenHost, Notify: daemon.Systemd{}, Listening: listening,
		OwnerCreated: func(pw string) { ownerPassword = pw }, ConfigFile: configFile})
}

// printFirstStart tells the owner, once, where to set the table up and with which password.
// It goes to standard output, not the log (under systemd both reach the journal; the password
// also stays in its file).
func printFirstStart(w io.Writer, url, password, file string) {
	fmt.Fprintf(w, "\nSiamese Table: set the table up at %s\n  the owner's password: %s\n  (shown only on this first start; it is kept in %s)\n\n", url, password, file)
}

// setupURL is the set-up page's address for the owner: the machine's network address when
// the display port listens on every interface (localhost when it has none).
func setupURL(listen, addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "http://" + addr + "/setup"
	}
	if lan := setup.LANHost(listen); lan != "" {
		host = lan
	} else if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port) + "/setup"
}
