package setup

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"sync"
	"time"
)

// Sessions are the owner's logins: each a random token (256 bits) in an HttpOnly cookie, kept
// here only as its SHA-256, valid until its expiry. They live in memory: a restarted daemon
// asks the owner to log in again.
type Sessions struct {
	now func() time.Time
	ttl time.Duration
	max int

	mu   sync.Mutex
	open map[[32]byte]time.Time // token's hash -> expiry
}

// NewSessions keeps at most max sessions, each valid for ttl from its login.
func NewSessions(now func() time.Time, ttl time.Duration, max int) *Sessions {
	return &Sessions{now: now, ttl: ttl, max: max, open: map[[32]byte]time.Time{}}
}

// Open starts a session: its token and when it ends. Past max sessions, the one that would
// end first is closed.
func (s *Sessions) Open() (string, time.Time, error) {
	var raw [32]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", time.Time{}, fmt.Errorf("setup: session: %w", err)
	}
	token := base64.RawURLEncoding.EncodeToString(raw[:])
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.sweep(now)
	for len(s.open) >= s.max {
		var first [32]byte
		var at time.Time
		for h, exp := range s.open {
			if at.IsZero() || exp.Before(at) {
				first, at = h, exp
			}
		}
		delete(s.open, first)
	}
	exp := now.Add(s.ttl)
	s.open[sha256.Sum256([]byte(token))] = exp
	return token, exp, nil
}

// Valid reports whether token is an open session's.
func (s *Sessions) Valid(token string) bool {
	if token == "" {
		return false
	}
	h := sha256.Sum256([]byte(token))
	s.mu.Lock()
	defer s.mu.Unlock()
	exp, ok := s.open[h]
	if ok && !s.now().Before(exp) {
		delete(s.open, h)
		return false
	}
	return ok
}

// Close ends token's session (logging out).
func (s *Sessions) Close(token string) {
	s.mu.Lock()
	delete(s.open, sha256.Sum256([]byte(token)))
	s.mu.Unlock()
}

func (s *Sessions) sweep(now time.Time) {
	for h, exp := range s.open {
		if !now.Before(exp) {
			delete(s.open, h)
		}
	}
}
