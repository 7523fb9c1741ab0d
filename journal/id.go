package journal

import (
	"fmt"
	"strings"
)

// MaxIDLen bounds a game id: it names a file and a history key.
const MaxIDLen = 64

// CheckID accepts a game id that is safe as a file name on any system the daemon writes to:
// 1 to MaxIDLen letters, digits, '.', '_' or '-', starting with a letter or digit (so no
// hidden files, no "..", no path separators), e.g. "2026-11-23T19-04-11Z".
func CheckID(id string) error {
	if id == "" {
		return fmt.Errorf("journal: the header has no game id (the daemon sets one, e.g. %q)", "2026-11-23T19-04-11Z")
	}
	if len(id) > MaxIDLen {
		return fmt.Errorf("journal: game id %.20q... is %d bytes, more than %d", id, len(id), MaxIDLen)
	}
	for i, r := range id {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
		if i > 0 {
			ok = ok || strings.ContainsRune("._-", r)
		}
		if !ok {
			return fmt.Errorf("journal: game id %q: %q at byte %d (letters, digits, '.', '_' and '-' only, starting with a letter or digit)", id, r, i)
		}
	}
	return nil
}
