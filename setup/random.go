package setup

import (
	"crypto/rand"
	"fmt"
)

// random draws n characters from alphabet, uniformly (bytes past the last whole multiple of
// the alphabet's length are drawn again, so no character is likelier than another).
func random(alphabet string, n int) (string, error) {
	limit := 256 - 256%len(alphabet)
	out := make([]byte, 0, n)
	buf := make([]byte, n+8)
	for len(out) < n {
		if _, err := rand.Read(buf); err != nil {
			return "", fmt.Errorf("setup: random: %w", err)
		}
		for _, b := range buf {
			if int(b) < limit && len(out) < n {
				out = append(out, alphabet[int(b)%len(alphabet)])
			}
		}
	}
	return string(out), nil
}
