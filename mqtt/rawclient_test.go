package mqtt

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/mochi-mqtt/server/v2/packets"
)

// rawClient speaks MQTT byte by byte, so a test can do what paho will not: leave without a
// DISCONNECT (and so have the broker publish its will), send an oversized or a slow CONNECT.
type rawClient struct {
	conn net.Conn
	r    *bufio.Reader
}

// dialRaw opens a TCP connection to a broker URL (tcp://host:port) or a WebSocket one
// (ws://host:port/path).
func dialRaw(t testing.TB, url string) *rawClient {
	t.Helper()
	var c net.Conn
	if strings.HasPrefix(url, "ws://") {
		ws, _, err := (&websocket.Dialer{Subprotocols: []string{"mqtt"}}).Dial(url, nil)
		if err != nil {
			t.Fatalf("websocket %s: %v", url, err)
		}
		c = &wsConn{Conn: ws.UnderlyingConn(), c: ws}
	} else {
		var err error
		if c, err = net.DialTimeout("tcp", strings.TrimPrefix(url, "tcp://"), waitFor); err != nil {
			t.Fatalf("dial %s: %v", url, err)
		}
	}
	t.Cleanup(func() { c.Close() })
	return &rawClient{conn: c, r: bufio.NewReader(c)}
}

// rawWill is a will to give in the CONNECT.
type rawWill struct {
	topic   string
	payload []byte
	retain  bool
}

// connect logs in (MQTT 3.1.1, or 5 with v5) and returns the CONNACK's return code, or an
// error when the broker closed the connection instead of answering.
func (rc *rawClient) connect(user, pass, id string, keepalive uint16, will *rawWill) (byte, error) {
	pk := packets.Packet{FixedHeader: packets.FixedHeader{Type: packets.Connect}, ProtocolVersion: 4,
		Connect: packets.ConnectParams{ProtocolName: []byte("MQTT"), ClientIdentifier: id, Clean: true, Keepalive: keepalive,
			Username: []byte(user), UsernameFlag: user != "", Password: []byte(pass), PasswordFlag: pass != ""}}
	if will != nil {
		pk.Connect.WillFlag, pk.Connect.WillTopic, pk.Connect.WillPayload = true, will.topic, will.payload
		pk.Connect.WillQos, pk.Connect.WillRetain = 1, will.retain
	}
	var buf bytes.Buffer
	if err := pk.ConnectEncode(&buf); err != nil {
		return 0, err
	}
	if _, err := rc.conn.Write(buf.Bytes()); err != nil {
		return 0, err
	}
	head, body, err := rc.read()
	if err != nil {
		return 0, err
	}
	if head>>4 != packets.Connack || len(body) < 2 {
		return 0, fmt.Errorf("a %d packet where a CONNACK belongs", head>>4)
	}
	return body[1], nil
}

// publish sends a QoS 1 PUBLISH and waits for its PUBACK; an error when the broker closed
// the connection instead (mochi's answer to a QoS 1 publish its user may not make).
func (rc *rawClient) publish(topic string, payload []byte, retain bool) error {
	pk := packets.Packet{FixedHeader: packets.FixedHeader{Type: packets.Publish, Qos: 1, Retain: retain}, ProtocolVersion: 4,
		TopicName: topic, Payload: payload, PacketID: 7}
	var buf bytes.Buffer
	if err := pk.PublishEncode(&buf); err != nil {
		return err
	}
	if _, err := rc.conn.Write(buf.Bytes()); err != nil {
		return err
	}
	for {
		head, _, err := rc.read()
		if err != nil {
			return err
		}
		if head>>4 == packets.Puback {
			return nil
		}
	}
}

// disconnect leaves cleanly (the will is dropped); drop leaves without a word (the broker
// publishes the will).
func (rc *rawClient) disconnect() { rc.conn.Write([]byte{packets.Disconnect << 4, 0}); rc.conn.Close() }
func (rc *rawClient) drop()       { rc.conn.Close() }

// read reads one packet within waitFor.
func (rc *rawClient) read() (byte, []byte, error) {
	rc.conn.SetReadDeadline(time.Now().Add(waitFor))
	head, err := rc.r.ReadByte()
	if err != nil {
		return 0, nil, err
	}
	size, shift := 0, 0
	for {
		b, err := rc.r.ReadByte()
		if err != nil {
			return 0, nil, err
		}
		size |= int(b&0x7f) << shift
		if shift += 7; b&0x80 == 0 {
			break
		}
	}
	body := make([]byte, size)
	_, err = io.ReadFull(rc.r, body)
	return head, body, err
}

// closedWithin reports whether the broker closes the connection within d, reading and
// dropping whatever it sends meanwhile.
func (rc *rawClient) closedWithin(d time.Duration) bool {
	rc.conn.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, rc.r)
	var ne net.Error
	return !(errors.As(err, &ne) && ne.Timeout())
}

// wsURL is the broker's WebSocket served by an HTTP server at addr.
func wsURL(addr string) string { return "ws://" + addr + "/mqtt" }
