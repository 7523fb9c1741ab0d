package main

import (
	"context"
	"fmt"
	"io"

	"github.com/siamesetable/siamesed/internal/datadir"
	"github.com/siamesetable/siamesed/mqtt"
)

func init() {
	register("mqtt passwords", "the MQTT users' passwords as Mosquitto's plain password file (for mosquitto_passwd -U): mqtt passwords [--data DIR | --credentials FILE]", mqttPasswords)
}

func mqttPasswords(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fl := newFlags("mqtt passwords", stderr)
	data := fl.String("data", "", "data directory whose mqtt/credentials.yaml to read, made on first use (default: $"+datadir.Env+", else $XDG_STATE_HOME/siamesed or ~/.local/state/siamesed)")
	file := fl.String("credentials", "", "the credentials `FILE` (the daemon's mqtt.credentials), instead of the data directory's")
	if err := parseFlags(fl, args); err != nil {
		return err
	}
	if fl.NArg() > 0 {
		return fmt.Errorf("%w: mqtt passwords takes no arguments, only flags", errUsage)
	}
	path := *file
	if path == "" {
		dir := *data
		if dir == "" {
			var err error
			if dir, err = datadir.Default(); err != nil {
				return err
			}
		}
		path = mqtt.CredentialsFile(dir)
	}
	c, created, err := mqtt.LoadOrCreateCredentials(path)
	if err != nil {
		return err
	}
	if created {
		fmt.Fprintf(stderr, "generated %s\n", path)
	}
	_, err = io.WriteString(stdout, c.PasswordLines())
	return err
}
