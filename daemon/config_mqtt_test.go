package daemon

import (
	"strings"
	"testing"
)

// TestMQTTConfigListsEveryProblem: a bad mqtt section is refused with each problem named.
func TestMQTTConfigListsEveryProblem(t *testing.T) {
	_, err := ParseConfig("t.yaml", []byte("mqtt: {broker: embedded, listen: nowhere, websocket: ws://x:1, queue: 3}\n"))
	if err == nil {
		t.Fatal("accepted")
	}
	for _, want := range []string{"mqtt.listen", "mqtt.websocket: only for an external broker", "mqtt.queue"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%v: does not name %q", err, want)
		}
	}
	if _, err := ParseConfig("t.yaml", []byte("mqtt: {broker: mosquitto}\n")); err == nil || !strings.Contains(err.Error(), "mqtt.broker") {
		t.Errorf("broker: mosquitto: %v", err)
	}
	for _, ok := range []string{"mqtt: {broker: none}\n", "mqtt: {broker: \"tcp://127.0.0.1:1883\", websocket: \"ws://127.0.0.1:9001\"}\n", ""} {
		if _, err := ParseConfig("t.yaml", []byte(ok)); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
}
