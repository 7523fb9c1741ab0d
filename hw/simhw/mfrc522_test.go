package simhw

import (
	"bytes"
	"testing"
	"time"

	"periph.io/x/devices/v3/mfrc522"
)

// TestCRCA checks CRC_A, as sent on air (LSB first), against ISO/IEC 14443-3 Annex B's examples
// and the well-known HLTA frame 50 00 57 CD.
func TestCRCA(t *testing.T) {
	for _, tc := range []struct{ in, want []byte }{
		{[]byte{0x00, 0x00}, []byte{0xA0, 0x1E}},
		{[]byte{0x12, 0x34}, []byte{0x26, 0xCF}},
		{[]byte{0x50, 0x00}, []byte{0x57, 0xCD}},
	} {
		f := appendCRC(append([]byte(nil), tc.in...))
		if !bytes.Equal(f[len(tc.in):], tc.want) || !crcOK(f) {
			t.Errorf("CRC_A(% X) sent as % X, want % X", tc.in, f[len(tc.in):], tc.want)
		}
	}
}

func newMFRC(t *testing.T, tags ...Tag) (*MFRC522, *mfrc522.Dev, *Log) {
	t.Helper()
	log := &Log{}
	field := tags
	m := NewMFRC522("mfrc522-test", log, func(dst []Tag) []Tag { return append(dst, field...) })
	d, err := mfrc522.NewSPI(m.Open(), m.Reset, m.IRQ, mfrc522.WithSync())
	if err != nil {
		t.Fatal(err)
	}
	return m, d, log
}

// TestPeriphMFRC522ReadsUIDs: periph's driver waits for the IRQ edge of a card answering REQA,
// then runs REQA, anticollision and select (and cascade level 2 for a 7-byte UID) through the
// emulated registers, FIFO, CRC coprocessor and card.
func TestPeriphMFRC522ReadsUIDs(t *testing.T) {
	for _, tc := range []struct {
		name string
		tag  Tag
	}{
		{"NTAG213, 7-byte UID", tagA},
		{"MIFARE Classic, 4-byte UID", Tag{UID: []byte{0xDE, 0xAD, 0xBE, 0xEF}, SensRes: 0x0004, SelRes: 0x08}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, d, log := newMFRC(t, tc.tag)
			for i := 0; i < 3; i++ {
				uid, err := d.ReadUID(time.Second)
				if err != nil || !bytes.Equal(uid, tc.tag.UID) {
					t.Fatalf("read %d: % X, %v; want % X", i, uid, err, tc.tag.UID)
				}
			}
			if err := log.Err(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestPeriphMFRC522NoCard: with no card, no edge comes and the driver times out at once (the
// emulator knows nobody answered its REQA), not after the full timeout.
func TestPeriphMFRC522NoCard(t *testing.T) {
	_, d, log := newMFRC(t)
	start := time.Now()
	if _, err := d.ReadUID(10 * time.Second); err == nil {
		t.Fatal("a UID with no card")
	}
	if time.Since(start) > 5*time.Second {
		t.Fatal("the IRQ wait sat out its timeout")
	}
	if err := log.Err(); err != nil {
		t.Fatal(err)
	}
}

// TestPeriphMFRC522TwoCards: two cards answer the anticollision at once; the chip flags CollErr
// and periph's driver, which has no anticollision loop, fails.
func TestPeriphMFRC522TwoCards(t *testing.T) {
	m, d, log := newMFRC(t, tagA, tagB)
	if uid, err := d.ReadUID(time.Second); err == nil {
		t.Fatalf("read % X from two cards", uid)
	}
	if m.regs[regError]&errColl == 0 {
		t.Fatal("no CollErr")
	}
	if err := log.Err(); err != nil {
		t.Fatal(err)
	}
}

// FuzzCardAnswer hands a card any frame: it must not panic, and it answers only REQA/WUPA (7
// bits), an anticollision or a select of its own UID with a good CRC_A.
func FuzzCardAnswer(f *testing.F) {
	f.Add([]byte{cmdREQA}, uint8(7))
	f.Add([]byte{cmdSelCL1, nvbAnti}, uint8(16))
	f.Add(appendCRC([]byte{cmdSelCL1, nvbSelect, 0x88, 0x04, 0x11, 0x22, 0x88 ^ 0x04 ^ 0x11 ^ 0x22}), uint8(72))
	f.Fuzz(func(t *testing.T, fr []byte, bits uint8) {
		c := &card{tag: tagA, state: cardReady}
		a := c.answer(fr, int(bits))
		if a == nil {
			return
		}
		switch {
		case int(bits) == 7 && len(fr) == 1 && (fr[0] == cmdREQA || fr[0] == cmdWUPA):
		case len(fr) == 2 && fr[1] == nvbAnti:
		case len(fr) == 9 && fr[1] == nvbSelect && crcOK(fr):
		default:
			t.Fatalf("the card answered % X (%d bits) with % X", fr, bits, a)
		}
	})
}
