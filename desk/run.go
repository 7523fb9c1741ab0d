package desk

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/siamesetable/siamesed/desk/embedded"
	"github.com/siamesetable/siamesed/internal/safefile"
	"github.com/siamesetable/siamesed/tournament/event"
	"github.com/siamesetable/siamesed/tournament/link"
	"github.com/siamesetable/siamesed/tournament/simtable"
)

// Options are `siamesed desk`'s flags.
type Options struct {
	Event   string // the event file
	DataDir string
	HTTP    string   // the director's pages
	NATS    []string // the cluster's URLs, or ["embedded"]: a single server inside the desk
	// Replicas of the streams: 3 on the three-node cluster, 1 on one server.
	Replicas int
	// Simulate plays every table of the event with virtual players (simtable), a game every
	// Pace, signing as they go: an event on one machine.
	Simulate bool
	Pace     time.Duration
	Log      *slog.Logger
	// Listening hears the pages' address once they are served.
	Listening chan<- string
}

// Run runs the desk until ctx ends.
func Run(ctx context.Context, o Options) error {
	log := o.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	ev, err := event.Load(o.Event, event.ConfigsRules)
	if err != nil {
		return err
	}
	d, err := Open(ev, o.DataDir, log)
	if err != nil {
		return err
	}
	defer d.Close()
	pass, err := directorPassword(o.DataDir, log)
	if err != nil {
		return err
	}
	urls := o.NATS
	if len(urls) == 1 && urls[0] == "embedded" {
		srv, err := embedded.Start("127.0.0.1:0", "", o.DataDir)
		if err != nil {
			return err
		}
		defer srv.Close()
		urls, o.Replicas = []string{srv.URL()}, 1
		log.Info("desk: NATS inside the desk (one server, JetStream)", "url", srv.URL())
	}
	conn, err := link.Dial(link.Options{URLs: urls, Name: "desk", Replicas: o.Replicas, Log: log})
	if err != nil {
		return err
	}
	defer conn.Close()
	ln, err := net.Listen("tcp", o.HTTP)
	if err != nil {
		return fmt.Errorf("desk: pages: %w", err)
	}
	if o.Listening != nil {
		o.Listening <- ln.Addr().String()
	}
	srv := &http.Server{Handler: d.Handler(func(p string) bool { return subtle.ConstantTimeCompare([]byte(p), []byte(pass)) == 1 }), ReadHeaderTimeout: 5 * time.Second}
	g, ctx := errgroup.WithContext(ctx)
	g.Go(func() error {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		return srv.Shutdown(shut)
	})
	g.Go(func() error {
		if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			return fmt.Errorf("desk: pages: %w", err)
		}
		return nil
	})
	g.Go(func() error { return d.Serve(ctx, conn) })
	if o.Simulate {
		if o.Pace == 0 {
			o.Pace = 2 * time.Second
		}
		for n := 1; n <= ev.Tables(); n++ {
			st, err := simtable.Open(ev, n, filepath.Join(o.DataDir, "sim", fmt.Sprintf("t%d", n)), uint64(n), nil)
			if err != nil {
				return err
			}
			defer st.Close()
			g.Go(func() error { return conn.RunTable(ctx, st.Table) })
			g.Go(func() error { return st.Run(ctx, o.Pace, true) })
		}
		log.Info("desk: simulated tables playing", "tables", ev.Tables(), "pace", o.Pace)
	}
	return g.Wait()
}

// directorPassword is the password for rulings, made on first start in DATA/director.password
// (mode 0600), never in the repository.
func directorPassword(dataDir string, log *slog.Logger) (string, error) {
	path := filepath.Join(dataDir, "director.password")
	b, err := os.ReadFile(path)
	if err == nil && len(strings.TrimSpace(string(b))) >= 8 {
		return strings.TrimSpace(string(b)), nil
	}
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("desk: %w", err)
	}
	var r [9]byte
	if _, err := rand.Read(r[:]); err != nil {
		return "", fmt.Errorf("desk: %w", err)
	}
	p := hex.EncodeToString(r[:])
	if err := safefile.WriteFile(path, []byte(p+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("desk: %w", err)
	}
	log.Info("desk: the director's password for rulings was made", "file", path)
	return p, nil
}
