package mqtt

import (
	"bytes"
	"sync"
	"testing"

	"github.com/eclipse/paho.mqtt.golang/packets"
)

// What paho does on reconnect, at once: its writer sends a publish it handed over, while resume
// takes the stored one and marks it a duplicate. Under -race this fails if the store hands out
// (or keeps) the packet paho sends; the copies must still be the same packet on the wire.
func TestStoreKeepsPacketsOfItsOwn(t *testing.T) {
	s := newPrivateStore()
	s.Open()
	defer s.Close()
	p := packets.NewControlPacket(packets.Publish).(*packets.PublishPacket)
	p.TopicName, p.Qos, p.MessageID, p.Payload = "siamese/t1/state", 1, 7, []byte(`{"hand":3}`)
	s.Put("o.7", p)

	var wg sync.WaitGroup
	wg.Add(2)
	go func() { // the connection's writer
		defer wg.Done()
		for range 200 {
			var b bytes.Buffer
			if err := p.Write(&b); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	go func() { // resume
		defer wg.Done()
		for range 200 {
			got, ok := s.Get("o.7").(*packets.PublishPacket)
			if !ok {
				t.Error("stored publish missing")
				return
			}
			got.Dup = true
		}
	}()
	wg.Wait()

	if p.Dup {
		t.Error("marking the stored copy marked the packet paho sent")
	}
	got := s.Get("o.7").(*packets.PublishPacket)
	if got == p || got.Dup || got.MessageID != 7 || got.Qos != 1 || got.TopicName != p.TopicName || !bytes.Equal(got.Payload, p.Payload) {
		t.Errorf("stored copy %v, want the same publish as %v and a packet of its own", got, p)
	}
	if s.Get("o.8") != nil {
		t.Error("a key never stored gave a packet")
	}
}
