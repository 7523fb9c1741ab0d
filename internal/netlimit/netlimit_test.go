package netlimit

import (
	"errors"
	"io"
	"net"
	"testing"
	"time"
)

// TestListenerClosesWhatIsOverItsLimit: with max connections held, the next one is closed at
// once; closing a held one (twice, even) frees one place.
func TestListenerClosesWhatIsOverItsLimit(t *testing.T) {
	inner, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln := Wrap(inner, 2, nil)
	defer ln.Close()
	accepted := make(chan net.Conn, 8)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- c
		}
	}()
	dial := func() net.Conn {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	dial()
	dial()
	a, b := <-accepted, <-accepted
	third := dial()
	third.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := third.Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
		t.Fatalf("the third connection: %v, want closed (EOF)", err)
	}
	if n := ln.Open(); n != 2 {
		t.Fatalf("%d open, want 2", n)
	}
	a.Close()
	a.Close()
	if n := ln.Open(); n != 1 {
		t.Fatalf("%d open after one closed twice, want 1", n)
	}
	dial()
	select {
	case <-accepted:
	case <-time.After(5 * time.Second):
		t.Fatal("a connection within the limit again was not accepted")
	}
	b.Close()
}
