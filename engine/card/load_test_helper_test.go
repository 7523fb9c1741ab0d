package card

import (
	"fmt"
	"os"
)

// Load reads and compiles a card file, for tests only: the engine itself does no file I/O
// (cmd/siamesed reads files and calls Parse).
func Load(path string) (*Card, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("card: %w", err)
	}
	return Parse(path, data)
}
