package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/siamesetable/siamesed/internal/safefile"
	"github.com/siamesetable/siamesed/tournament/event"
	"github.com/siamesetable/siamesed/tournament/natsauth"
)

func init() {
	register("desk auth", "the event's logins on its NATS cluster, for the servers and each table: desk auth --event FILE --data DIR --print users|routes|table-N|tables [--out PATH] [--nodes HOST:PORT,...]", runDeskAuth)
}

// runDeskAuth prints (or writes) what the servers and the tables need from the credentials
// the desk keeps in its data directory, making them first if the desk has not yet started.
func runDeskAuth(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fl := newFlags("desk auth", stderr)
	evPath := fl.String("event", "", "the event file")
	data := fl.String("data", "", "the desk's data directory (its credentials: DIR/nats/credentials.yaml)")
	what := fl.String("print", "", "users: the servers' siamese-users.conf; routes: the cluster's siamese-routes.conf; table-N: table N's credentials.yaml; tables: every table's, into --out DIR")
	out := fl.String("out", "", "write to this file (mode 0600) instead of the standard output; with --print tables, a directory")
	nodes := fl.String("nodes", strings.Join(natsauth.DefaultNodes, ","), "with --print routes: the nodes' route addresses, comma-separated")
	if err := parseFlags(fl, args); err != nil {
		return err
	}
	if *evPath == "" || *data == "" || *what == "" || fl.NArg() > 0 {
		return fmt.Errorf("%w: desk auth needs --event FILE, --data DIR and --print WHAT, and takes no arguments", errUsage)
	}
	ev, err := event.Load(*evPath, event.ConfigsRules)
	if err != nil {
		return err
	}
	creds, made, err := natsauth.LoadOrCreate(natsauth.File(*data), ev.Name, ev.Tables())
	if err != nil {
		return err
	}
	if made {
		fmt.Fprintf(stderr, "desk auth: credentials made (or given new tables) in %s: install the servers' users again\n", natsauth.File(*data))
	}
	var text []byte
	switch n, isTable := strings.CutPrefix(*what, "table-"); {
	case *what == "users":
		s, err := creds.UsersConf()
		if err != nil {
			return err
		}
		text = []byte(s)
	case *what == "routes":
		text = []byte(creds.RoutesConf(strings.Split(*nodes, ",")))
	case *what == "tables":
		if *out == "" {
			return fmt.Errorf("%w: desk auth --print tables needs --out DIR", errUsage)
		}
		return writeTableFiles(creds, ev.Tables(), *out, stdout)
	case isTable:
		table, err := strconv.Atoi(n)
		if err != nil {
			return fmt.Errorf("%w: desk auth --print %s: want table-N, N a table's number", errUsage, *what)
		}
		f, err := creds.ForTable(table)
		if err != nil {
			return err
		}
		if text, err = f.Marshal(); err != nil {
			return err
		}
	default:
		return fmt.Errorf("%w: desk auth --print %q: want users, routes, table-N or tables", errUsage, *what)
	}
	if *out == "" {
		_, err := stdout.Write(text)
		return err
	}
	return safefile.WriteFile(*out, text, 0o600)
}

// writeTableFiles writes each table's credentials file into dir as table-N.yaml.
func writeTableFiles(creds *natsauth.Credentials, tables int, dir string, stdout io.Writer) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	for n := 1; n <= tables; n++ {
		f, err := creds.ForTable(n)
		if err != nil {
			return err
		}
		path := filepath.Join(dir, fmt.Sprintf("table-%d.yaml", n))
		if err := f.Write(path); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s: install on table %d as DATA/tournament/credentials.yaml, mode 0600\n", path, n)
	}
	return nil
}
