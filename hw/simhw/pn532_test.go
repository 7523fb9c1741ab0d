package simhw

import (
	"bytes"
	"testing"
)

// chipFrame is a response frame as the manual writes it, built apart from appendChipFrame.
func chipFrame(data ...byte) []byte {
	f := hostFrame(data[0], data[1:]...)
	f[5] = tfiChip
	f[len(f)-2]--
	return f
}

// rig is one emulated PN532 on a bus, driven byte by byte.
type rig struct {
	t    *testing.T
	log  *Log
	bus  *Bus
	chip *PN532
	tags []Tag
}

func newRig(t *testing.T, tags ...Tag) *rig {
	r := &rig{t: t, log: &Log{}, tags: tags}
	r.bus = NewBus("t", r.log)
	r.chip = NewPN532("pn532-test", 0x24, r.log, func(dst []Tag) []Tag { return append(dst, r.tags...) })
	r.bus.Attach(r.chip)
	return r
}

func (r *rig) write(f []byte) {
	r.t.Helper()
	if err := r.bus.Tx(0x24, f, nil); err != nil {
		r.t.Fatal(err)
	}
}

// read reads n bytes (status byte included).
func (r *rig) read(n int) []byte {
	r.t.Helper()
	b := make([]byte, n)
	if err := r.bus.Tx(0x24, nil, b); err != nil {
		r.t.Fatal(err)
	}
	return b
}

// expect reads a frame after its status byte and compares it; the rest must be zero padding.
func (r *rig) expect(want []byte) {
	r.t.Helper()
	got := r.read(1 + len(want) + 4)
	if got[0] != 0x01 || !bytes.Equal(got[1:1+len(want)], want) || !bytes.Equal(got[1+len(want):], make([]byte, 4)) {
		r.t.Fatalf("read % X, want 01 % X and padding", got, want)
	}
}

func (r *rig) status() byte { r.t.Helper(); return r.read(1)[0] }

// exchange sends a command and checks its ACK and response.
func (r *rig) exchange(cmd []byte, resp []byte) {
	r.t.Helper()
	r.write(cmd)
	r.expect(ackFrame)
	for i := 0; i < r.chip.Busy; i++ {
		if s := r.status(); s != 0 {
			r.t.Fatalf("busy poll %d: status %02X, want 00", i, s)
		}
	}
	r.expect(resp)
}

func (r *rig) init() {
	r.t.Helper()
	r.exchange(hostFrame(0x02), chipFrame(0x03, 0x32, 0x01, 0x06, 0x07))
	r.exchange(hostFrame(0x14, 0x01, 0x14, 0x01), chipFrame(0x15))
	r.exchange(hostFrame(0x32, 0x05, 0xFF, 0x01, 0x01), chipFrame(0x33))
}

func (r *rig) clean() {
	r.t.Helper()
	if err := r.log.Err(); err != nil {
		r.t.Fatal(err)
	}
}

var (
	tagA = NTAG213([7]byte{0, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66})
	tagB = NTAG213([7]byte{0, 0x77, 0x88, 0x99, 0xAA, 0xBB, 0xCC})
	tagC = NTAG213([7]byte{0, 1, 2, 3, 4, 5, 6})
)

// TestInListPassiveTarget: §7.3.5 answers for 0, 1, 2 and 3 tags in the field; MaxTg bounds
// the list, and the chip lists no more than two.
func TestInListPassiveTarget(t *testing.T) {
	one := []byte{0x01, 0x00, 0x44, 0x00, 0x07, 0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66}
	two := []byte{0x02, 0x00, 0x44, 0x00, 0x07, 0x04, 0x77, 0x88, 0x99, 0xAA, 0xBB, 0xCC}
	for _, tc := range []struct {
		name  string
		tags  []Tag
		maxTg byte
		want  []byte
	}{
		{"none", nil, 2, []byte{0x4B, 0}},
		{"one", []Tag{tagA}, 2, append([]byte{0x4B, 1}, one...)},
		{"two", []Tag{tagA, tagB}, 2, append(append([]byte{0x4B, 2}, one...), two...)},
		{"three, two listed", []Tag{tagA, tagB, tagC}, 2, append(append([]byte{0x4B, 2}, one...), two...)},
		{"two, MaxTg 1", []Tag{tagA, tagB}, 1, append([]byte{0x4B, 1}, one...)},
		{"phone with its ATS", []Tag{Phone([3]byte{1, 2, 3})}, 1,
			[]byte{0x4B, 1, 1, 0x00, 0x04, 0x20, 0x04, 0x08, 1, 2, 3, 0x05, 0x78, 0x80, 0x70, 0x02}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, tc.tags...)
			r.chip.Busy = 2
			r.init()
			r.exchange(hostFrame(0x4A, tc.maxTg, 0x00), chipFrame(tc.want...))
			r.clean()
		})
	}
}

// TestNACKResendsTheLastResponse: §6.2.1.4, with no ACK before it.
func TestNACKResendsTheLastResponse(t *testing.T) {
	r := newRig(t, tagA)
	r.init()
	resp := chipFrame(0x4B, 1, 1, 0x00, 0x44, 0x00, 0x07, 0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66)
	r.exchange(hostFrame(0x4A, 1, 0), resp)
	r.write([]byte{0, 0, 0xFF, 0xFF, 0, 0})
	r.expect(resp)
	if s := r.status(); s != 0 {
		t.Fatalf("status %02X after the resent frame was read", s)
	}
	r.clean()
}

// TestACKAborts: §6.2.1.3, an ACK from the host drops the command in progress.
func TestACKAborts(t *testing.T) {
	r := newRig(t, tagA)
	r.init()
	r.write(hostFrame(0x4A, 1, 0))
	r.expect(ackFrame)
	r.write(ackFrame)
	if s := r.status(); s != 0 {
		t.Fatalf("status %02X after an abort", s)
	}
	r.clean()
}

// TestBadFramesAreViolations: what a correct driver never sends is recorded, and the chip
// answers as the manual has it: no ACK for a frame it cannot read, the syntax error frame
// (§6.2.1.5) for a command it does not know or bad parameters.
func TestBadFramesAreViolations(t *testing.T) {
	t.Run("checksum", func(t *testing.T) {
		r := newRig(t)
		f := hostFrame(0x02)
		f[len(f)-2]++
		r.write(f)
		if s := r.status(); s != 0 || r.log.Len() != 1 {
			t.Fatalf("status %02X, %d violations; want no ACK and one violation", s, r.log.Len())
		}
	})
	for _, tc := range []struct {
		name  string
		frame []byte
	}{
		{"unknown command", hostFrame(0x04)},
		{"MaxTg 3", hostFrame(0x4A, 3, 0)},
		{"CfgItem 05 short", hostFrame(0x32, 0x05, 0xFF, 0x01)},
		{"SAM mode 2", hostFrame(0x14, 0x02)},
		{"firmware with a parameter", hostFrame(0x02, 0x00)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t)
			r.exchange(tc.frame, errorFrame)
			if r.log.Len() != 1 {
				t.Fatalf("%d violations, want 1", r.log.Len())
			}
		})
	}
	t.Run("list before SAM", func(t *testing.T) {
		r := newRig(t, tagA)
		r.exchange(hostFrame(0x32, 0x05, 0xFF, 0x01, 0x01), chipFrame(0x33))
		r.write(hostFrame(0x4A, 1, 0))
		if r.log.Len() != 1 {
			t.Fatalf("%d violations, want 1", r.log.Len())
		}
	})
	t.Run("write and read at once", func(t *testing.T) {
		r := newRig(t)
		if err := r.bus.Tx(0x24, hostFrame(0x02), make([]byte, 8)); err != nil || r.log.Len() != 1 {
			t.Fatalf("err %v, %d violations", err, r.log.Len())
		}
	})
}

// TestForeverRetriesNeverAnswer: MxRtyPassiveActivation is FF at power-on (§7.3.1): with an
// empty field InListPassiveTarget keeps trying and the chip never raises RDY.
func TestForeverRetriesNeverAnswer(t *testing.T) {
	r := newRig(t)
	r.exchange(hostFrame(0x14, 0x01), chipFrame(0x15))
	r.write(hostFrame(0x4A, 1, 0))
	r.expect(ackFrame)
	for i := 0; i < 50; i++ {
		if s := r.status(); s != 0 {
			t.Fatalf("poll %d: status %02X; the chip answered with MxRtyPassiveActivation FF", i, s)
		}
	}
	r.clean()
}

func TestSilentAndUnplugged(t *testing.T) {
	r := newRig(t, tagA)
	r.init()
	r.chip.SetSilent(true)
	r.write(hostFrame(0x4A, 1, 0))
	if s := r.status(); s != 0 {
		t.Fatalf("a silent chip raised RDY")
	}
	r.chip.SetSilent(false)
	r.exchange(hostFrame(0x02), chipFrame(0x03, 0x32, 0x01, 0x06, 0x07))
	r.chip.Unplug(true)
	if err := r.bus.Tx(0x24, nil, make([]byte, 1)); err == nil {
		t.Fatal("an unplugged chip acknowledged its address")
	}
	r.clean()
}
