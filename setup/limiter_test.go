package setup

import (
	"testing"
	"time"
)

// TestLimiter: a burst of tries, then one every period; each key on its own.
func TestLimiter(t *testing.T) {
	clk := newNow()
	l := NewLimiter(3, 10*time.Second, 100)
	for i := range 3 {
		if ok, _ := l.Allow("a", clk.t); !ok {
			t.Fatalf("try %d refused within the burst", i+1)
		}
	}
	ok, wait := l.Allow("a", clk.t)
	if ok || wait != 10*time.Second {
		t.Fatalf("past the burst: ok %v, wait %v", ok, wait)
	}
	if ok, _ := l.Allow("b", clk.t); !ok {
		t.Fatal("another key was held back")
	}
	clk.advance(4 * time.Second)
	if w := l.Wait("a", clk.t); w != 6*time.Second {
		t.Fatalf("wait %v after 4 s, want 6 s", w)
	}
	clk.advance(6 * time.Second)
	if ok, _ := l.Allow("a", clk.t); !ok {
		t.Fatal("no try back after the period")
	}
	if ok, _ := l.Allow("a", clk.t); ok {
		t.Fatal("two tries back after one period")
	}
	clk.advance(time.Hour)
	for i := range 3 {
		if ok, _ := l.Allow("a", clk.t); !ok {
			t.Fatalf("after an hour, try %d refused: the burst is not back", i+1)
		}
	}
}

// TestLimiterBounded: it forgets keys past its most, those whose tries are all back first.
func TestLimiterBounded(t *testing.T) {
	clk := newNow()
	l := NewLimiter(1, time.Minute, 2)
	l.Take("spent", clk.t)
	l.Take("x", clk.t)
	clk.advance(time.Minute) // x and spent have their try back
	l.Take("spent", clk.t)
	l.Take("y", clk.t)
	if len(l.keys) > 2 {
		t.Fatalf("%d keys kept, at most 2", len(l.keys))
	}
	if l.Wait("spent", clk.t) == 0 {
		t.Error("a key with no try left was forgotten before one with its tries back")
	}
}

func TestClientKey(t *testing.T) {
	for in, want := range map[string]string{
		"192.168.1.20:5555":          "192.168.1.20",
		"[::ffff:192.168.1.20]:1":    "192.168.1.20",
		"[2001:db8:1:2:aaaa::1]:443": "2001:db8:1:2::/64",
		"[2001:db8:1:2:bbbb::9]:443": "2001:db8:1:2::/64",
		"[2001:db8:1:3::1]:443":      "2001:db8:1:3::/64",
		"not an address":             "not an address",
	} {
		if got := ClientKey(in); got != want {
			t.Errorf("ClientKey(%q) = %q, want %q", in, got, want)
		}
	}
}
