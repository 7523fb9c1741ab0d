package pn532

import (
	"errors"
	"testing"

	"periph.io/x/conn/v3/i2c/i2ctest"
)

const addr = DefaultAddr

// Exact traffic, built from the manual's frames. A read is the status byte then the frame.
func write(f []byte) i2ctest.IO { return i2ctest.IO{Addr: addr, W: f} }
func status(ready bool) i2ctest.IO {
	b := byte(0)
	if ready {
		b = 1
	}
	return i2ctest.IO{Addr: addr, R: []byte{b}}
}
func readAck() i2ctest.IO  { return i2ctest.IO{Addr: addr, R: append([]byte{1}, ackFrame...)} }
func readNack() i2ctest.IO { return i2ctest.IO{Addr: addr, R: append([]byte{1}, nackFrame...)} }

// readResp is the fixed-length response read: status, the frame, zero padding.
func readResp(frame []byte) i2ctest.IO {
	r := make([]byte, 1+testReadLen)
	r[0] = 1
	copy(r[1:], frame)
	return i2ctest.IO{Addr: addr, R: r}
}

const testReadLen = 40

// exchange is one command with a clean ACK and response.
func exchange(cmd []byte, resp []byte) []i2ctest.IO {
	return []i2ctest.IO{write(cmd), status(true), readAck(), status(true), readResp(resp)}
}

var (
	getFirmware  = []byte{0x00, 0x00, 0xFF, 0x02, 0xFE, 0xD4, 0x02, 0x2A, 0x00}
	firmwareResp = []byte{0x00, 0x00, 0xFF, 0x06, 0xFA, 0xD5, 0x03, 0x32, 0x01, 0x06, 0x07, 0xE8, 0x00}
	samConfig    = []byte{0x00, 0x00, 0xFF, 0x05, 0xFB, 0xD4, 0x14, 0x01, 0x14, 0x01, 0x02, 0x00}
	samResp      = []byte{0x00, 0x00, 0xFF, 0x02, 0xFE, 0xD5, 0x15, 0x16, 0x00}
	rfConfig     = []byte{0x00, 0x00, 0xFF, 0x06, 0xFA, 0xD4, 0x32, 0x05, 0xFF, 0x01, 0x01, 0xF4, 0x00}
	rfResp       = []byte{0x00, 0x00, 0xFF, 0x02, 0xFE, 0xD5, 0x33, 0xF8, 0x00}
	listOne      = []byte{0x00, 0x00, 0xFF, 0x04, 0xFC, 0xD4, 0x4A, 0x01, 0x00, 0xE1, 0x00}
	listTwo      = []byte{0x00, 0x00, 0xFF, 0x04, 0xFC, 0xD4, 0x4A, 0x02, 0x00, 0xE0, 0x00}
	// No tag: D5 4B 00.
	listNone = []byte{0x00, 0x00, 0xFF, 0x03, 0xFD, 0xD5, 0x4B, 0x00, 0xE0, 0x00}
	// One MIFARE Classic tag, UID DE AD BE EF: D5 4B 01 01 00 04 08 04 DE AD BE EF.
	listTag = []byte{0x00, 0x00, 0xFF, 0x0C, 0xF4, 0xD5, 0x4B, 0x01, 0x01, 0x00, 0x04, 0x08, 0x04, 0xDE, 0xAD, 0xBE, 0xEF, 0x96, 0x00}
	// Two NTAG tags with 7-byte UIDs.
	listTags2 = []byte{0x00, 0x00, 0xFF, 0x1B, 0xE5, 0xD5, 0x4B, 0x02,
		0x01, 0x00, 0x44, 0x00, 0x07, 0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66,
		0x02, 0x00, 0x44, 0x00, 0x07, 0x04, 0x77, 0x88, 0x99, 0xAA, 0xBB, 0xCC,
		0x0F, 0x00}
)

func newDev(t *testing.T, ops []i2ctest.IO) (*Dev, *i2ctest.Playback) {
	t.Helper()
	bus := &i2ctest.Playback{Ops: ops, DontPanic: true}
	d, err := NewI2C(bus, addr, &Opts{NoWait: true, ReadLen: testReadLen, ReadyPolls: 3})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := bus.Close(); err != nil {
			t.Error(err)
		}
	})
	return d, bus
}

func TestChecksumsOfTestFrames(t *testing.T) {
	for i, f := range [][]byte{firmwareResp, samResp, rfResp, listNone, listTag, listTags2} {
		if _, _, err := DecodeFrame(f); err != nil {
			t.Errorf("frame %d: %v", i, err)
		}
	}
	for i, c := range []struct{ got, want []byte }{
		{EncodeFrame(cmdSAMConfiguration, 1, 0x14, 1), samConfig},
		{EncodeFrame(cmdRFConfiguration, 5, 0xFF, 1, 1), rfConfig},
		{EncodeFrame(cmdInListPassiveTarget, 1, 0), listOne},
		{EncodeFrame(cmdInListPassiveTarget, 2, 0), listTwo},
	} {
		if string(c.got) != string(c.want) {
			t.Errorf("command %d: % X, want % X", i, c.got, c.want)
		}
	}
}

func TestInit(t *testing.T) {
	var ops []i2ctest.IO
	ops = append(ops, status(false)) // not ready on the first poll
	ops[0] = write(getFirmware)
	ops = append(ops, status(false), status(true), readAck(), status(true), readResp(firmwareResp))
	ops = append(ops, exchange(samConfig, samResp)...)
	ops = append(ops, exchange(rfConfig, rfResp)...)
	d, _ := newDev(t, ops)
	fw, err := d.Init()
	if err != nil {
		t.Fatal(err)
	}
	if fw.IC != 0x32 || fw.String() != "PN532 v1.6" {
		t.Fatalf("firmware %+v %s", fw, fw)
	}
}

func TestTargets(t *testing.T) {
	t.Run("none", func(t *testing.T) {
		d, _ := newDev(t, exchange(listOne, listNone))
		ts, err := d.Targets(1)
		if err != nil || len(ts) != 0 {
			t.Fatalf("Targets = %v, %v; want none", ts, err)
		}
	})
	t.Run("one", func(t *testing.T) {
		d, _ := newDev(t, exchange(listOne, listTag))
		ts, err := d.Targets(1)
		if err != nil || len(ts) != 1 || ts[0].UIDString() != "DE:AD:BE:EF" {
			t.Fatalf("Targets = %+v, %v", ts, err)
		}
	})
	t.Run("two", func(t *testing.T) {
		d, _ := newDev(t, exchange(listTwo, listTags2))
		ts, err := d.Targets(2)
		if err != nil || len(ts) != 2 {
			t.Fatalf("Targets = %+v, %v", ts, err)
		}
		if a, b := ts[0].UIDString(), ts[1].UIDString(); a != "04:11:22:33:44:55:66" || b != "04:77:88:99:AA:BB:CC" {
			t.Fatalf("UIDs %s %s", a, b)
		}
	})
}

func TestBadChecksumIsReRequested(t *testing.T) {
	bad := append([]byte(nil), listTag...)
	bad[len(bad)-2]++ // DCS off by one
	ops := []i2ctest.IO{write(listOne), status(true), readAck(), status(true), readResp(bad),
		write(nackFrame), status(true), readResp(listTag)}
	d, _ := newDev(t, ops)
	ts, err := d.Targets(1)
	if err != nil || len(ts) != 1 {
		t.Fatalf("Targets = %v, %v", ts, err)
	}
}

func TestBadChecksumEveryTimeFails(t *testing.T) {
	bad := append([]byte(nil), listTag...)
	bad[len(bad)-2]++
	ops := []i2ctest.IO{write(listOne), status(true), readAck(), status(true), readResp(bad)}
	for i := 0; i < 2; i++ { // Retries defaults to 2
		ops = append(ops, write(nackFrame), status(true), readResp(bad))
	}
	d, _ := newDev(t, ops)
	if _, err := d.Targets(1); !errors.Is(err, ErrChecksum) {
		t.Fatalf("err = %v, want ErrChecksum", err)
	}
}

func TestNACKResendsCommand(t *testing.T) {
	ops := []i2ctest.IO{write(listOne), status(true), readNack()}
	ops = append(ops, exchange(listOne, listNone)...)
	d, _ := newDev(t, ops)
	if ts, err := d.Targets(1); err != nil || len(ts) != 0 {
		t.Fatalf("Targets = %v, %v", ts, err)
	}
}

func TestNACKEveryTimeFails(t *testing.T) {
	var ops []i2ctest.IO
	for i := 0; i < 3; i++ {
		ops = append(ops, write(listOne), status(true), readNack())
	}
	d, _ := newDev(t, ops)
	if _, err := d.Targets(1); !errors.Is(err, ErrNACK) {
		t.Fatalf("err = %v, want ErrNACK", err)
	}
}

func TestSilentReader(t *testing.T) {
	// The reader ACKs, then never raises its ready bit: ReadyPolls (3) polls and it is silent.
	ops := []i2ctest.IO{write(listOne), status(true), readAck(), status(false), status(false), status(false)}
	d, _ := newDev(t, ops)
	if _, err := d.Targets(1); !errors.Is(err, ErrNotReady) {
		t.Fatalf("err = %v, want ErrNotReady", err)
	}
}

func TestReaderStopsAnswering(t *testing.T) {
	// One good scan, then the bus refuses the next write (an address NACK on a real bus; here
	// Playback runs out of operations and returns an error).
	d, _ := newDev(t, exchange(listOne, listTag))
	if _, err := d.Targets(1); err != nil {
		t.Fatal(err)
	}
	_, err := d.Targets(1)
	if err == nil || errors.Is(err, ErrNotReady) {
		t.Fatalf("err = %v, want a bus error", err)
	}
}

func TestErrorFrame(t *testing.T) {
	d, _ := newDev(t, exchange(listOne, []byte{0, 0, 0xFF, 1, 0xFF, 0x7F, 0x81, 0}))
	if _, err := d.Targets(1); !errors.Is(err, ErrSyntax) {
		t.Fatalf("err = %v, want ErrSyntax", err)
	}
}
