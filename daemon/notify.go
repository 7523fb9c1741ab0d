package daemon

import (
	"context"
	"sync/atomic"
	"time"

	sd "github.com/coreos/go-systemd/v22/daemon"
)

// Notifier tells a service manager how the daemon is: ready, alive, stopping.
type Notifier interface {
	Ready() error
	Alive() error
	Stopping() error
	// WatchdogInterval is how often Alive must be called; 0: no watchdog.
	WatchdogInterval() time.Duration
}

// Systemd notifies systemd through $NOTIFY_SOCKET (Type=notify units); without one every call
// does nothing.
type Systemd struct{}

func (Systemd) Ready() error    { _, err := sd.SdNotify(false, sd.SdNotifyReady); return err }
func (Systemd) Alive() error    { _, err := sd.SdNotify(false, sd.SdNotifyWatchdog); return err }
func (Systemd) Stopping() error { _, err := sd.SdNotify(false, sd.SdNotifyStopping); return err }
func (Systemd) WatchdogInterval() time.Duration {
	d, err := sd.SdWatchdogEnabled(false)
	if err != nil {
		return 0
	}
	return d
}

// feedWatchdog tells the service manager the daemon is alive at half its watchdog interval,
// as long as the table loop has been seen within stall; a stuck loop stops the feeding, and
// systemd restarts the daemon.
func feedWatchdog(ctx context.Context, n Notifier, heartbeat *atomic.Int64, stall time.Duration) {
	every := n.WatchdogInterval() / 2
	if every <= 0 {
		return
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			if now.Sub(time.Unix(0, heartbeat.Load())) < stall {
				_ = n.Alive()
			}
		}
	}
}
