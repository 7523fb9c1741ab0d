package daemon

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestDisplayPortLimits: a connection that sends no request, and a keep-alive connection left
// idle, are closed; one connection over the limit is closed at once, and served again once
// one leaves.
func TestDisplayPortLimits(t *testing.T) {
	lim := httpLimits{header: time.Second, idle: 300 * time.Millisecond, headerBytes: 4096, conns: 3}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") })
	go func() { done <- serveHTTPWithin(ctx, "127.0.0.1:0", mux, ready, testLog(), lim) }()
	defer func() { cancel(); <-done }()
	addr := <-ready
	dial := func() net.Conn {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	closedWithin := func(c net.Conn, d time.Duration) bool {
		c.SetReadDeadline(time.Now().Add(d))
		_, err := io.Copy(io.Discard, c)
		var ne net.Error
		return !(errors.As(err, &ne) && ne.Timeout())
	}
	// First, while nothing else is open (the server closes a connection a while after the
	// client sees it end).
	// One more than the limit, each holding its connection with headers begun, not ended:
	// whichever the server accepts last is closed at once.
	var held []net.Conn
	for range lim.conns + 1 {
		c := dial()
		io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n")
		held = append(held, c)
	}
	var closed atomic.Int64
	var wg sync.WaitGroup
	for _, c := range held {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if closedWithin(c, lim.header/3) {
				closed.Add(1)
			}
		}()
	}
	wg.Wait()
	if n := closed.Load(); n != 1 {
		t.Errorf("%d of %d connections closed before their header time, want 1 (the one over the limit)", n, lim.conns+1)
	}
	for _, c := range held {
		c.Close()
	}
	deadline := time.Now().Add(waitFor)
	for {
		resp, err := http.Get("http://" + addr + "/")
		if err == nil {
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if strings.TrimSpace(string(b)) == "ok" {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("not served again once the held connections left: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if c := dial(); !closedWithin(c, 20*lim.header) {
		t.Error("a connection that sent no request is still open")
	}
	idle := dial()
	io.WriteString(idle, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(idle), nil)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("a request: %v", err)
	}
	resp.Body.Close()
	if !closedWithin(idle, 20*lim.idle) {
		t.Error("an idle keep-alive connection is still open")
	}
}
