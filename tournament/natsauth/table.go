package natsauth

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"

	"gopkg.in/yaml.v3"

	"github.com/siamesetable/siamesed/tournament/link"
)

// TableFile is what a table's daemon needs to join the cluster: its nkey, and its MQTT
// client's login on the gateway. It lives in the table's data directory (TableFilePath), mode
// 0600, never in its world-readable configuration.
type TableFile struct {
	Event string `yaml:"event"`
	Table int    `yaml:"table"`
	NKey  string `yaml:"nkey"` // the table's nkey seed
	// MQTTUser and MQTTPassword log the table's MQTT client (its Mosquitto's bridge) in at the
	// gateway, where it may publish its public topics.
	MQTTUser     string `yaml:"mqtt_user"`
	MQTTPassword string `yaml:"mqtt_password"`
}

// TableFilePath is where a table's daemon looks for its credentials in its data directory.
func TableFilePath(dataDir string) string {
	return filepath.Join(dataDir, "tournament", "credentials.yaml")
}

// MQTTTableUser is table n's username on the MQTT gateway; its topics are siamese/table<n>/.
func MQTTTableUser(n int) string { return "table" + strconv.Itoa(n) }

// MQTTDisplayUser is the screens' username on the MQTT gateway.
const MQTTDisplayUser = "display"

// ForTable is table n's credentials file, or an error when the event has no table n.
func (c *Credentials) ForTable(n int) (TableFile, error) {
	t := c.Table(n)
	if t == nil {
		return TableFile{}, fmt.Errorf("natsauth: event %q has no credentials for table %d (%d tables)", c.Event, n, len(c.Tables))
	}
	return TableFile{Event: c.Event, Table: n, NKey: t.NKey, MQTTUser: MQTTTableUser(n), MQTTPassword: t.MQTT}, nil
}

// Marshal is the file's text, with a head saying what it is and how to keep it.
func (f TableFile) Marshal() ([]byte, error) {
	b, err := yaml.Marshal(f)
	if err != nil {
		return nil, fmt.Errorf("natsauth: %w", err)
	}
	head := fmt.Sprintf("# Table %d of %q on the tournament's NATS cluster, from `siamesed desk auth --print table-%d`.\n"+
		"# Install as DATA/tournament/credentials.yaml on the table (mode 0600, the daemon's user); keep private.\n", f.Table, f.Event, f.Table)
	return append([]byte(head), b...), nil
}

// Write saves the file with mode 0600 in a directory of mode 0700.
func (f TableFile) Write(path string) error {
	b, err := f.Marshal()
	if err != nil {
		return err
	}
	return writePrivate(path, b)
}

// LoadTable reads a table's credentials file and checks it is for event's table n: a file
// that others may read, or another table's, is refused with what to do.
func LoadTable(path, event string, n int) (TableFile, error) {
	b, err := readPrivate(path, "a table's NATS credentials")
	if err != nil {
		return TableFile{}, err
	}
	f, err := ParseTable(b)
	if err != nil {
		return TableFile{}, fmt.Errorf("natsauth: %s: %w", path, err)
	}
	if f.Event != event || f.Table != n {
		return TableFile{}, fmt.Errorf("natsauth: %s is for table %d of %q, not table %d of %q: install this table's (siamesed desk auth --print table-%d)", path, f.Table, f.Event, n, event, n)
	}
	return f, nil
}

// ParseTable decodes and checks a table's credentials file.
func ParseTable(b []byte) (TableFile, error) {
	var f TableFile
	if err := yaml.Unmarshal(b, &f); err != nil {
		return TableFile{}, err
	}
	var errs []error
	if f.Event == "" {
		errs = append(errs, errors.New("event: empty"))
	}
	if f.Table < 1 {
		errs = append(errs, fmt.Errorf("table: %d, want the table's number", f.Table))
	}
	if _, err := PublicKey(f.NKey); err != nil {
		errs = append(errs, fmt.Errorf("nkey: %w", err))
	}
	return f, errors.Join(errs...)
}

// Link is how the table logs in to the cluster (link.Options without the URLs).
func (f TableFile) Link() link.Options {
	return link.Options{Name: fmt.Sprintf("table-%d", f.Table), NKey: f.NKey, Inbox: link.TableInbox(f.Table)}
}

// DeskLink is how the desk logs in to the cluster (link.Options without the URLs).
func (c *Credentials) DeskLink() link.Options {
	return link.Options{Name: "desk", NKey: c.Desk, Inbox: link.DeskInbox}
}
