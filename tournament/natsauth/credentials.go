// Package natsauth is who may do what on a tournament's NATS cluster. The desk makes the
// event's credentials on its first start and keeps them in its data directory: an nkey for
// itself and for each table (the servers hold only the public keys, and a client proves its
// key by signing the server's nonce, so nothing secret crosses the event's network), a
// password for the MQTT gateway's screens and for each table's MQTT client, and the password
// the cluster's nodes give one another on their routes. From them it writes the servers'
// authorization (each user with the subjects it may publish and read) and each table's own
// credentials file.
package natsauth

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/nats-io/nkeys"
	"gopkg.in/yaml.v3"

	"github.com/siamesetable/siamesed/internal/safefile"
	"github.com/siamesetable/siamesed/internal/userfile"
)

// maxFile bounds a credentials file (a thousand tables' keys fit in a fraction of it).
const maxFile = 1 << 20

// Credentials are an event's secrets on the cluster, as the desk keeps them.
type Credentials struct {
	Event   string  `yaml:"event"`
	Route   string  `yaml:"route"`   // the password the nodes give one another
	Desk    string  `yaml:"desk"`    // the desk's nkey seed
	Display string  `yaml:"display"` // the MQTT screens' password
	Tables  []Table `yaml:"tables"`
}

// Table is one table's secrets.
type Table struct {
	Table int    `yaml:"table"`
	NKey  string `yaml:"nkey"` // its nkey seed
	MQTT  string `yaml:"mqtt"` // its MQTT client's password on the gateway
}

// File is where the desk keeps the credentials in its data directory.
func File(dataDir string) string { return filepath.Join(dataDir, "nats", "credentials.yaml") }

// LoadOrCreate reads the event's credentials at path, or makes them there (mode 0600) for
// tables 1 to tables; a table the event gained since is given its own and the file written
// again. changed says the file was written.
func LoadOrCreate(path, event string, tables int) (c *Credentials, changed bool, err error) {
	b, err := readPrivate(path, "the NATS credentials")
	if errors.Is(err, fs.ErrNotExist) {
		c = &Credentials{Event: event}
		if c.Route, err = password(); err == nil {
			if c.Desk, err = newSeed(); err == nil {
				c.Display, err = password()
			}
		}
	} else if err == nil {
		c = &Credentials{}
		if err = yaml.Unmarshal(b, c); err != nil {
			return nil, false, fmt.Errorf("natsauth: %s: %w", path, err)
		}
		if err = c.check(); err != nil {
			return nil, false, fmt.Errorf("natsauth: %s: %w", path, err)
		}
		if c.Event != event {
			return nil, false, fmt.Errorf("natsauth: %s holds event %q's credentials, not %q's: give this event a data directory of its own", path, c.Event, event)
		}
	}
	if err != nil {
		return nil, false, err
	}
	for n := 1; n <= tables; n++ {
		if c.Table(n) != nil {
			continue
		}
		t := Table{Table: n}
		if t.NKey, err = newSeed(); err == nil {
			t.MQTT, err = password()
		}
		if err != nil {
			return nil, false, err
		}
		c.Tables = append(c.Tables, t)
		changed = true
	}
	if !changed && b != nil {
		return c, false, nil
	}
	slices.SortFunc(c.Tables, func(a, b Table) int { return a.Table - b.Table })
	return c, true, c.write(path)
}

// Table is table n's secrets, nil when the credentials have none for it.
func (c *Credentials) Table(n int) *Table {
	for i := range c.Tables {
		if c.Tables[i].Table == n {
			return &c.Tables[i]
		}
	}
	return nil
}

func (c *Credentials) check() error {
	var errs []error
	if c.Event == "" {
		errs = append(errs, errors.New("event: empty"))
	}
	if len(c.Route) < 16 {
		errs = append(errs, errors.New("route: a password of at least 16 characters"))
	}
	if len(c.Display) < 16 {
		errs = append(errs, errors.New("display: a password of at least 16 characters"))
	}
	if _, err := PublicKey(c.Desk); err != nil {
		errs = append(errs, fmt.Errorf("desk: %w", err))
	}
	seen := map[int]bool{}
	for i, t := range c.Tables {
		if t.Table < 1 || seen[t.Table] {
			errs = append(errs, fmt.Errorf("tables[%d]: table %d: want a number from 1, once", i, t.Table))
		}
		seen[t.Table] = true
		if _, err := PublicKey(t.NKey); err != nil {
			errs = append(errs, fmt.Errorf("tables[%d].nkey: %w", i, err))
		}
		if len(t.MQTT) < 16 {
			errs = append(errs, fmt.Errorf("tables[%d].mqtt: a password of at least 16 characters", i))
		}
	}
	return errors.Join(errs...)
}

func (c *Credentials) write(path string) error {
	b, err := yaml.Marshal(c)
	if err != nil {
		return fmt.Errorf("natsauth: %w", err)
	}
	head := "# The tournament's credentials on its NATS cluster: made by the desk; keep private.\n" +
		"# `siamesed desk auth` prints what the servers and each table need from them.\n"
	return writePrivate(path, append([]byte(head), b...))
}

// PublicKey is the public key of a user's nkey seed, or an error saying what is wrong with it.
func PublicKey(seed string) (string, error) {
	prefix, _, err := nkeys.DecodeSeed([]byte(seed))
	if err != nil {
		return "", fmt.Errorf("not an nkey seed (%w)", err)
	}
	if prefix != nkeys.PrefixByteUser {
		return "", errors.New("not a user's nkey seed (SU...)")
	}
	kp, err := nkeys.FromSeed([]byte(seed))
	if err != nil {
		return "", fmt.Errorf("not an nkey seed (%w)", err)
	}
	return kp.PublicKey()
}

func newSeed() (string, error) {
	kp, err := nkeys.CreateUser()
	if err != nil {
		return "", fmt.Errorf("natsauth: %w", err)
	}
	s, err := kp.Seed()
	return string(s), err
}

// password is 26 random letters and digits (128 bits): never typed by a player, only copied.
func password() (string, error) { return rand.Text(), nil }

// readPrivate reads a file of secrets, refusing one that others may read.
func readPrivate(path, what string) ([]byte, error) {
	b, err := userfile.ReadFile(path, what, maxFile)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("natsauth: %s holds secrets but others may read it (mode %04o): chmod 600 %s", path, st.Mode().Perm(), path)
	}
	return b, nil
}

// writePrivate writes a file of secrets with mode 0600 in a directory of mode 0700.
func writePrivate(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("natsauth: %w", err)
	}
	if err := safefile.WriteFile(path, data, 0o600); err != nil {
		return fmt.Errorf("natsauth: %w", err)
	}
	return nil
}
