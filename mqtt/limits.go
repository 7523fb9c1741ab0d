package mqtt

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"time"
)

// The broker's limits (docs/mqtt.md#limits). A table's broker serves a handful of displays and
// phones: these bound what anyone on the club's network can make it hold.
const (
	// MaxConnectBytes bounds a CONNECT packet, read before the client has logged in: ours are
	// under 200 bytes (a will of "offline" included).
	MaxConnectBytes = 16 << 10
	// MaxPacketBytes bounds every packet after login: the largest the daemon publishes (a
	// seat's private view with its advice) is a few kilobytes, a command at most 4 KiB.
	MaxPacketBytes = 256 << 10
	// ConnectWithin is how long a new connection has to send its CONNECT.
	ConnectWithin = 5 * time.Second
	// MaxKeepalive is the longest keepalive a client may ask for (and what a client that asks
	// for none gets): a client silent for one and a half of it is dropped.
	MaxKeepalive = 120
	// MaxConnections bounds the connections the broker holds at once, logged in or not.
	MaxConnections = 256
)

var (
	errNotConnect    = errors.New("the first packet is not a CONNECT")
	errConnectTooBig = fmt.Errorf("a CONNECT of more than %d bytes", MaxConnectBytes)
)

// readConnect reads a connection's first packet, which must be a CONNECT of at most
// MaxConnectBytes arriving within ConnectWithin, and returns its bytes. Nothing larger is read
// into memory, and a connection that sends nothing is not held past the deadline.
func readConnect(c net.Conn, now time.Time) ([]byte, error) {
	if err := c.SetReadDeadline(now.Add(ConnectWithin)); err != nil {
		return nil, err
	}
	r := bufio.NewReaderSize(c, 64)
	first, err := r.ReadByte()
	if err != nil {
		return nil, fmt.Errorf("no CONNECT within %v: %w", ConnectWithin, err)
	}
	if first>>4 != 1 {
		return nil, errNotConnect
	}
	head := []byte{first}
	var size, shift int
	for i := 0; ; i++ {
		b, err := r.ReadByte()
		if err != nil {
			return nil, fmt.Errorf("a CONNECT cut short: %w", err)
		}
		head = append(head, b)
		size |= int(b&0x7f) << shift
		if b&0x80 == 0 {
			break
		}
		if shift += 7; i == 3 || size > MaxConnectBytes {
			return nil, errConnectTooBig
		}
	}
	if size > MaxConnectBytes {
		return nil, errConnectTooBig
	}
	packet := make([]byte, len(head)+size)
	copy(packet, head)
	if _, err := io.ReadFull(r, packet[len(head):]); err != nil {
		return nil, fmt.Errorf("a CONNECT cut short: %w", err)
	}
	// What the reader holds beyond the CONNECT (a client may send its SUBSCRIBE at once) is
	// passed on too.
	rest := make([]byte, r.Buffered())
	r.Read(rest)
	return append(packet, rest...), c.SetReadDeadline(time.Time{})
}

// replayConn is a connection whose first reads return bytes already read from it.
type replayConn struct {
	net.Conn
	r io.Reader
}

func (c *replayConn) Read(p []byte) (int, error) { return c.r.Read(p) }

func withReplay(c net.Conn, read []byte) net.Conn {
	return &replayConn{Conn: c, r: io.MultiReader(bytes.NewReader(read), c)}
}
