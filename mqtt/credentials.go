package mqtt

import (
	"crypto/rand"
	"crypto/subtle"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/siamesetable/siamesed/internal/userfile"

	"gopkg.in/yaml.v3"
)

// Credentials are the passwords of a table's broker users: the daemon, the display and each
// seat. The default set-up generates them on first start and keeps them in the data directory
// (never in the repository), readable by the daemon's user alone.
type Credentials struct {
	Daemon  string   `yaml:"siamesed"`
	Display string   `yaml:"display"`
	Seats   []string `yaml:"seats"` // seat n's password; its username is n
}

// CredentialsFile is where the data directory keeps them.
func CredentialsFile(dataDir string) string {
	return filepath.Join(dataDir, "mqtt", "credentials.yaml")
}

// LoadOrCreateCredentials reads the credentials at path, or generates them there (mode 0600)
// when the file does not exist; created says which.
func LoadOrCreateCredentials(path string) (c Credentials, created bool, err error) {
	b, err := userfile.ReadFile(path, "a credentials file", 64<<10)
	if errors.Is(err, fs.ErrNotExist) {
		c, err = NewCredentials()
		if err != nil {
			return c, false, err
		}
		return c, true, c.Write(path)
	}
	if err != nil {
		return c, false, fmt.Errorf("mqtt: credentials: %w", err)
	}
	if err := yaml.Unmarshal(b, &c); err != nil {
		return c, false, fmt.Errorf("mqtt: credentials %s: %w", path, err)
	}
	return c, false, c.check(path)
}

func (c Credentials) check(path string) error {
	var errs []error
	if len(c.Daemon) < 8 {
		errs = append(errs, fmt.Errorf("siamesed: a password of at least 8 characters"))
	}
	if len(c.Display) < 8 {
		errs = append(errs, fmt.Errorf("display: a password of at least 8 characters"))
	}
	if len(c.Seats) != MaxSeats {
		errs = append(errs, fmt.Errorf("seats: %d passwords, want %d", len(c.Seats), MaxSeats))
	}
	for i, s := range c.Seats {
		if len(s) < 8 {
			errs = append(errs, fmt.Errorf("seats[%d]: a password of at least 8 characters", i))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("mqtt: credentials %s: %w", path, err)
	}
	return nil
}

// NewCredentials makes fresh random passwords.
func NewCredentials() (Credentials, error) {
	var c Credentials
	var err error
	pw := func() string {
		if err != nil {
			return ""
		}
		var s string
		s, err = password()
		return s
	}
	c.Daemon, c.Display = pw(), pw()
	for range MaxSeats {
		c.Seats = append(c.Seats, pw())
	}
	return c, err
}

// password is 12 letters and digits a player can type on a phone (about 60 bits).
func password() (string, error) {
	const alphabet = "abcdefghjkmnpqrstuvwxyz23456789"
	b := make([]byte, 12)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("mqtt: credentials: %w", err)
	}
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b), nil
}

// Write saves the credentials with mode 0600 in a directory of mode 0700.
func (c Credentials) Write(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("mqtt: credentials: %w", err)
	}
	b, err := yaml.Marshal(c)
	if err != nil {
		return fmt.Errorf("mqtt: credentials: %w", err)
	}
	head := "# The MQTT users of this table: generated on first start; keep private.\n# Seat n logs in as user n.\n"
	if err := os.WriteFile(path, append([]byte(head), b...), 0o600); err != nil {
		return fmt.Errorf("mqtt: credentials: %w", err)
	}
	return nil
}

// Check reports whether user's password is right, in constant time.
func (c Credentials) Check(user, pass string) bool {
	want, ok := c.passwordOf(user)
	return ok && subtle.ConstantTimeCompare([]byte(want), []byte(pass)) == 1
}

func (c Credentials) passwordOf(user string) (string, bool) {
	switch user {
	case DaemonUser:
		return c.Daemon, true
	case DisplayUser:
		return c.Display, true
	}
	if n, err := seatNumber(user); err == nil && n < len(c.Seats) {
		return c.Seats[n], true
	}
	return "", false
}

// PasswordLines is the credentials as Mosquitto's plain password file (user:password a line),
// for `mosquitto_passwd -U` to hash.
func (c Credentials) PasswordLines() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s:%s\n%s:%s\n", DaemonUser, c.Daemon, DisplayUser, c.Display)
	for i, s := range c.Seats {
		b.WriteString(strconv.Itoa(i) + ":" + s + "\n")
	}
	return b.String()
}
