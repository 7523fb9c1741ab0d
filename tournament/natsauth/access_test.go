package natsauth_test

import (
	"testing"

	"github.com/siamesetable/siamesed/internal/natstest"
)

// TestAccess: on deploy/nats's cluster and single server as shipped, with the users an event's
// credentials make, run by the Go server in the test's process: no one logs in without the
// event's key or password, and each user may use its own subjects only (natstest.CheckAccess
// and CheckMQTTAccess list every try). The same tries against Debian's nats-server are in package deploy.
func TestAccess(t *testing.T) {
	if testing.Short() {
		t.Skip("starts NATS servers")
	}
	for name, nodes := range map[string]int{"cluster": 3, "single": 1} {
		t.Run(name, func(t *testing.T) {
			c := natstest.Start(t, nodes, 4)
			natstest.CheckAccess(t, c)
			natstest.CheckMQTTAccess(t, c, nodes-1)
		})
	}
}
