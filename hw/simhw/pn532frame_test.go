package simhw

import (
	"bytes"
	"errors"
	"testing"
)

// hostFrame encodes a command as the manual's §6.2.1.1 says, independently of both the driver
// and the decoder under test.
func hostFrame(cmd byte, params ...byte) []byte {
	data := append([]byte{tfiHost, cmd}, params...)
	n := byte(len(data))
	f := []byte{0x00, 0x00, 0xFF, n, byte(0x100 - int(n))}
	sum := 0
	for _, c := range data {
		sum += int(c)
	}
	f = append(f, data...)
	return append(f, byte(0x100-sum%0x100), 0x00)
}

func TestDecodeHostFrame(t *testing.T) {
	for _, tc := range []struct {
		name   string
		in     []byte
		kind   hostFrameKind
		cmd    byte
		params []byte
		bad    bool
	}{
		// UM0701-02 §7.2.2: GetFirmwareVersion is 00 00 FF 02 FE D4 02 2A 00.
		{"firmware", []byte{0x00, 0x00, 0xFF, 0x02, 0xFE, 0xD4, 0x02, 0x2A, 0x00}, hostInfo, 0x02, nil, false},
		{"in list", hostFrame(0x4A, 0x02, 0x00), hostInfo, 0x4A, []byte{0x02, 0x00}, false},
		{"ack", []byte{0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00}, hostACK, 0, nil, false},
		{"nack", []byte{0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00}, hostNACK, 0, nil, false},
		// §6.2.1.2: FF FF, then LENM LENL LCS.
		{"extended", []byte{0x00, 0x00, 0xFF, 0xFF, 0xFF, 0x00, 0x02, 0xFE, 0xD4, 0x02, 0x2A, 0x00}, hostInfo, 0x02, nil, false},
		// §6.2.1.6: preamble and postamble may be longer.
		{"long preamble and postamble", []byte{0, 0, 0, 0, 0xFF, 0x02, 0xFE, 0xD4, 0x02, 0x2A, 0, 0, 0}, hostInfo, 0x02, nil, false},
		{"bad LCS", []byte{0x00, 0x00, 0xFF, 0x02, 0xFD, 0xD4, 0x02, 0x2A, 0x00}, 0, 0, nil, true},
		{"bad DCS", []byte{0x00, 0x00, 0xFF, 0x02, 0xFE, 0xD4, 0x02, 0x2B, 0x00}, 0, 0, nil, true},
		{"chip TFI", []byte{0x00, 0x00, 0xFF, 0x02, 0xFE, 0xD5, 0x02, 0x29, 0x00}, 0, 0, nil, true},
		{"no postamble", []byte{0x00, 0x00, 0xFF, 0x02, 0xFE, 0xD4, 0x02, 0x2A}, 0, 0, nil, true},
		{"garbage after", []byte{0x00, 0x00, 0xFF, 0x02, 0xFE, 0xD4, 0x02, 0x2A, 0x00, 0x17}, 0, 0, nil, true},
		{"no preamble", []byte{0x00, 0xFF, 0x02, 0xFE, 0xD4, 0x02, 0x2A, 0x00}, 0, 0, nil, true},
		{"length past the end", []byte{0x00, 0x00, 0xFF, 0x05, 0xFB, 0xD4, 0x02, 0x2A, 0x00}, 0, 0, nil, true},
		{"no command code", []byte{0x00, 0x00, 0xFF, 0x01, 0xFF, 0xD4, 0x2C, 0x00}, 0, 0, nil, true},
		{"empty", nil, 0, 0, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kind, cmd, params, err := decodeHostFrame(tc.in)
			if tc.bad {
				if !errors.Is(err, errFrame) {
					t.Fatalf("err = %v, want a bad frame", err)
				}
				return
			}
			if err != nil || kind != tc.kind || cmd != tc.cmd || !bytes.Equal(params, tc.params) {
				t.Fatalf("got %v %02X % X %v, want %v %02X % X", kind, cmd, params, err, tc.kind, tc.cmd, tc.params)
			}
		})
	}
}

// TestChipFrame: the response frames the manual prints come out byte for byte.
func TestChipFrame(t *testing.T) {
	for _, tc := range []struct {
		data []byte
		want []byte
	}{
		{[]byte{0x03, 0x32, 0x01, 0x06, 0x07}, []byte{0, 0, 0xFF, 6, 0xFA, 0xD5, 3, 0x32, 1, 6, 7, 0xE8, 0}},
		{[]byte{0x15}, []byte{0, 0, 0xFF, 2, 0xFE, 0xD5, 0x15, 0x16, 0}},
		{[]byte{0x4B, 0x00}, []byte{0, 0, 0xFF, 3, 0xFD, 0xD5, 0x4B, 0x00, 0xE0, 0}},
	} {
		if got := appendChipFrame(nil, tc.data...); !bytes.Equal(got, tc.want) {
			t.Errorf("% X: got % X, want % X", tc.data, got, tc.want)
		}
	}
}

func FuzzDecodeHostFrame(f *testing.F) {
	f.Add(hostFrame(0x02))
	f.Add(hostFrame(0x4A, 0x01, 0x00))
	f.Add(ackFrame)
	f.Add([]byte{0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00})
	f.Add([]byte{0x00, 0x00, 0xFF, 0xFF, 0xFF, 0x00, 0x02, 0xFE, 0xD4, 0x02, 0x2A, 0x00})
	f.Fuzz(func(t *testing.T, b []byte) {
		kind, cmd, params, err := decodeHostFrame(b)
		if err != nil || kind != hostInfo {
			return
		}
		// Whatever decodes re-encodes (normal frame, one preamble and postamble byte) to a frame
		// that decodes the same.
		if len(params) > 250 {
			return
		}
		re := hostFrame(cmd, params...)
		k2, c2, p2, err := decodeHostFrame(re)
		if err != nil || k2 != kind || c2 != cmd || !bytes.Equal(p2, params) {
			t.Fatalf("% X decoded to %02X % X but its re-encoding % X gives %02X % X %v", b, cmd, params, re, c2, p2, err)
		}
	})
}

// validChipFrame checks a frame read from the chip: an ACK, the syntax error frame, or a normal
// information frame with TFI D5 whose checksums hold.
func validChipFrame(b []byte) bool {
	if bytes.HasPrefix(b, ackFrame) || bytes.HasPrefix(b, errorFrame) {
		return true
	}
	if len(b) < 7 || !bytes.HasPrefix(b, []byte{0, 0, 0xFF}) || b[3]+b[4] != 0 || len(b) < 5+int(b[3])+2 {
		return false
	}
	var sum byte
	for _, c := range b[5 : 5+int(b[3])+1] {
		sum += c
	}
	return sum == 0 && b[5] == tfiChip && b[5+int(b[3])+1] == 0
}

// FuzzPN532Write sends the chip whatever the fuzzer writes, after a normal start: it must never
// panic, and whatever it then offers to read is a well-formed frame.
func FuzzPN532Write(f *testing.F) {
	f.Add(hostFrame(0x4A, 0x02, 0x00))
	f.Add(hostFrame(0x32, 0x05, 0xFF, 0x01, 0x01))
	f.Add(hostFrame(0x14, 0x01))
	f.Add([]byte{0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00})
	f.Fuzz(func(t *testing.T, w []byte) {
		r := newRig(t, tagA, Phone([3]byte{1, 2, 3}), tagB)
		r.init()
		if err := r.bus.Tx(0x24, w, nil); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 3; i++ {
			b := r.read(1 + 64)
			if b[0] == 0x01 && !validChipFrame(b[1:]) {
				t.Fatalf("after writing % X the chip offers % X", w, b)
			}
		}
	})
}
