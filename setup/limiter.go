package setup

import (
	"net"
	"net/netip"
	"sync"
	"time"
)

// Limiter holds back guessing: each key (a client's address, or "" for everyone at once) may
// try burst times, then once more every `every`. It remembers at most max keys; past that the
// keys whose tries have all come back are forgotten first.
type Limiter struct {
	burst int
	every time.Duration
	max   int

	mu   sync.Mutex
	keys map[string]*bucket
}

type bucket struct {
	tries float64 // tries left at `at`
	at    time.Time
}

// NewLimiter allows burst tries a key, one more every `every`, for at most max keys.
func NewLimiter(burst int, every time.Duration, max int) *Limiter {
	return &Limiter{burst: burst, every: every, max: max, keys: map[string]*bucket{}}
}

// Wait is how long key must wait before its next try (0: it may try now).
func (l *Limiter) Wait(key string, now time.Time) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	left := l.left(key, now)
	if left >= 1 {
		return 0
	}
	return time.Duration((1 - left) * float64(l.every))
}

// Take uses one of key's tries.
func (l *Limiter) Take(key string, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	left := l.left(key, now)
	b := l.keys[key]
	if b == nil {
		l.forget(now)
		b = &bucket{}
		l.keys[key] = b
	}
	b.tries, b.at = max(left-1, 0), now
}

// Allow takes a try if key has one left; otherwise it says how long to wait.
func (l *Limiter) Allow(key string, now time.Time) (bool, time.Duration) {
	if w := l.Wait(key, now); w > 0 {
		return false, w
	}
	l.Take(key, now)
	return true, 0
}

// left is how many tries key has at now (the lock held).
func (l *Limiter) left(key string, now time.Time) float64 {
	b := l.keys[key]
	if b == nil {
		return float64(l.burst)
	}
	back := float64(now.Sub(b.at)) / float64(l.every)
	return min(b.tries+max(back, 0), float64(l.burst))
}

// forget makes room for one more key (the lock held).
func (l *Limiter) forget(now time.Time) {
	if len(l.keys) < l.max {
		return
	}
	for k := range l.keys {
		if l.left(k, now) >= float64(l.burst) {
			delete(l.keys, k)
		}
	}
	for k := range l.keys {
		if len(l.keys) < l.max {
			break
		}
		delete(l.keys, k)
	}
}

// ClientKey is the limiter's key for a request's remote address: the IP address, an IPv6
// address by its /64 (one machine may hold a whole /64).
func ClientKey(remoteAddr string) string {
	host, _, err := net.SplitHostPort(remoteAddr)
	if err != nil {
		host = remoteAddr
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	ip = ip.Unmap()
	if ip.Is6() {
		p, _ := ip.Prefix(64)
		return p.String()
	}
	return ip.String()
}
