package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/siamesetable/siamesed/display"
	"github.com/siamesetable/siamesed/internal/netlimit"
)

// board holds the latest public state for readers on other goroutines (the HTTP server, and
// MQTT later): the table loop writes, everyone else reads.
type board struct {
	mu     sync.RWMutex
	state  []byte // the public state as JSON
	seq    int
	health []byte
}

func (b *board) set(s State) {
	j, err := json.Marshal(s)
	if err != nil {
		return // a State always encodes
	}
	b.mu.Lock()
	b.state, b.seq = j, s.Seq
	b.mu.Unlock()
}

func (b *board) setHealth(h Health) {
	j, _ := json.Marshal(h)
	b.mu.Lock()
	b.health = j
	b.mu.Unlock()
}

func (b *board) get() ([]byte, []byte) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return b.state, b.health
}

// routes are the display port's: the display (embedded files), GET /api/state (the public
// view as JSON with its sequence number), GET /api/health, GET /api/mqtt (how the page reaches
// the broker) and MQTT over WebSocket at /mqtt.
func (d *daemon) routes() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/state", func(w http.ResponseWriter, r *http.Request) {
		s, _ := d.board.get()
		writeJSON(w, s)
	})
	mux.HandleFunc("GET /api/health", func(w http.ResponseWriter, r *http.Request) {
		_, h := d.board.get()
		writeJSON(w, h)
	})
	mux.HandleFunc("GET /api/mqtt", func(w http.ResponseWriter, r *http.Request) {
		if d.mqtt == nil {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"error":"mqtt.broker is none: the display reads /api/state"}`))
			return
		}
		j, err := json.Marshal(d.mqtt.connectInfo(d.cfg.Table, d.table.layout.names))
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		writeJSON(w, j)
	})
	if d.mqtt != nil && d.mqtt.ws != nil {
		mux.Handle("GET /mqtt", d.mqtt.ws)
	}
	mux.Handle("GET /", display.Handler())
	return mux
}

// httpLimits are the display port's limits (docs/mqtt.md#limits): a request's headers must
// arrive within header; a keep-alive connection idle for idle is closed; at most conns
// connections are held at once (WebSockets included), one more is closed at once.
type httpLimits struct {
	header, idle time.Duration
	headerBytes  int
	conns        int
}

var displayLimits = httpLimits{header: 5 * time.Second, idle: 60 * time.Second, headerBytes: 16 << 10, conns: 512}

// serveHTTP serves mux on addr until ctx ends.
func serveHTTP(ctx context.Context, addr string, mux http.Handler, ready chan<- string, log *slog.Logger) error {
	return serveHTTPWithin(ctx, addr, mux, ready, log, displayLimits)
}

func serveHTTPWithin(ctx context.Context, addr string, mux http.Handler, ready chan<- string, log *slog.Logger, lim httpLimits) error {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("daemon: display port: %w", err)
	}
	ln := netlimit.Wrap(l, lim.conns, log)
	if ready != nil {
		ready <- ln.Addr().String()
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: lim.header, IdleTimeout: lim.idle, MaxHeaderBytes: lim.headerBytes,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelDebug)}
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(shut)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("daemon: display port: %w", err)
	}
	return nil
}

func writeJSON(w http.ResponseWriter, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	if body == nil {
		w.WriteHeader(http.StatusServiceUnavailable)
		body = []byte(`{"error":"starting"}`)
	}
	w.Write(body)
}
