package setup

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/siamesetable/siamesed/internal/safefile"
	"github.com/siamesetable/siamesed/internal/userfile"
)

// Dir is the data directory's folder for what the set-up page keeps: the owner's password,
// the saved table settings and their card, which seats are taken.
func Dir(dataDir string) string { return filepath.Join(dataDir, "setup") }

// OwnerFile is where the owner's password is kept (mode 0600).
func OwnerFile(dataDir string) string { return filepath.Join(Dir(dataDir), "owner-password") }

// Owner is the table owner's password: it opens the set-up page.
type Owner struct{ password string }

// ownerAlphabet leaves out letters and digits that read alike (l 1 i, o 0).
const ownerAlphabet = "abcdefghjkmnpqrstuvwxyz23456789"

// LoadOrCreateOwner reads the owner's password, or makes one when there is none (the daemon's
// first start; created says so): 12 letters and digits in three groups (about 59 bits),
// written with mode 0600 in a folder of mode 0700, never anywhere else.
func LoadOrCreateOwner(dataDir string) (o Owner, created bool, err error) {
	path := OwnerFile(dataDir)
	b, err := userfile.ReadFile(path, "the owner's password file", 4<<10)
	if errors.Is(err, fs.ErrNotExist) {
		pw, err := random(ownerAlphabet, 12)
		if err != nil {
			return o, false, err
		}
		pw = pw[:4] + "-" + pw[4:8] + "-" + pw[8:]
		if err := os.MkdirAll(Dir(dataDir), 0o700); err != nil {
			return o, false, fmt.Errorf("setup: %w", err)
		}
		if err := safefile.WriteFile(path, []byte(pw+"\n"), 0o600); err != nil {
			return o, false, fmt.Errorf("setup: the owner's password: %w", err)
		}
		return Owner{password: pw}, true, nil
	}
	if err != nil {
		return o, false, fmt.Errorf("setup: %w", err)
	}
	pw := strings.TrimSpace(string(b))
	if len(normalPassword(pw)) < 8 || strings.ContainsAny(pw, "\n\r") {
		return o, false, fmt.Errorf("setup: %s: want one line, a password of at least 8 letters and digits (remove the file and restart for a new one)", path)
	}
	return Owner{password: pw}, false, nil
}

// Password is the password itself, for the one time it is printed (the first start).
func (o Owner) Password() string { return o.password }

// Check reports whether pass is the owner's password, in constant time; case, spaces and
// dashes do not matter (a tablet's keyboard capitalises the first letter).
func (o Owner) Check(pass string) bool {
	want, got := normalPassword(o.password), normalPassword(pass)
	return len(want) > 0 && subtle.ConstantTimeCompare([]byte(want), []byte(got)) == 1
}

// normalPassword keeps a password's letters (lower case) and digits.
func normalPassword(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return b.String()
}
