package pn532

import (
	"bytes"
	"errors"
	"testing"
)

func TestEncodeFrameMatchesManual(t *testing.T) {
	// UM0701-02 §7.2.2 GetFirmwareVersion: 00 00 FF 02 FE D4 02 2A 00.
	got := EncodeFrame(cmdGetFirmwareVersion)
	want := []byte{0x00, 0x00, 0xFF, 0x02, 0xFE, 0xD4, 0x02, 0x2A, 0x00}
	if !bytes.Equal(got, want) {
		t.Fatalf("EncodeFrame = % X, want % X", got, want)
	}
}

func TestDecodeFrame(t *testing.T) {
	for _, tc := range []struct {
		name    string
		in      []byte
		kind    frameKind
		payload []byte
		err     error
	}{
		{"ack", ackFrame, kindACK, nil, nil},
		{"nack", nackFrame, kindNACK, nil, nil},
		{"firmware", []byte{0, 0, 0xFF, 6, 0xFA, 0xD5, 3, 0x32, 1, 6, 7, 0xE8, 0, 0, 0}, kindInfo, []byte{3, 0x32, 1, 6, 7}, nil},
		{"error frame", []byte{0, 0, 0xFF, 1, 0xFF, 0x7F, 0x81, 0}, kindError, nil, nil},
		{"bad dcs", []byte{0, 0, 0xFF, 6, 0xFA, 0xD5, 3, 0x32, 1, 6, 7, 0xE9, 0}, 0, nil, ErrChecksum},
		{"bad lcs", []byte{0, 0, 0xFF, 6, 0xFB, 0xD5, 3, 0x32, 1, 6, 7, 0xE8, 0}, 0, nil, ErrChecksum},
		{"no preamble", []byte{1, 2, 3, 4, 5, 6}, 0, nil, ErrFrame},
		{"truncated", []byte{0, 0, 0xFF, 6, 0xFA, 0xD5, 3}, 0, nil, ErrFrame},
		{"host tfi", []byte{0, 0, 0xFF, 2, 0xFE, 0xD4, 2, 0x2A, 0}, 0, nil, ErrFrame},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kind, p, err := DecodeFrame(tc.in)
			if !errors.Is(err, tc.err) {
				t.Fatalf("err = %v, want %v", err, tc.err)
			}
			if err == nil && (kind != tc.kind || !bytes.Equal(p, tc.payload)) {
				t.Fatalf("got %v % X, want %v % X", kind, p, tc.kind, tc.payload)
			}
		})
	}
}

func FuzzDecodeFrame(f *testing.F) {
	f.Add(ackFrame)
	f.Add(nackFrame)
	f.Add([]byte{0, 0, 0xFF, 6, 0xFA, 0xD5, 3, 0x32, 1, 6, 7, 0xE8, 0})
	f.Add([]byte{0, 0, 0xFF, 0x0C, 0xF4, 0xD5, 0x4B, 1, 1, 0, 4, 8, 4, 0xDE, 0xAD, 0xBE, 0xEF, 0x96, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		kind, p, err := DecodeFrame(b)
		if err != nil {
			return
		}
		if kind == kindInfo {
			// Whatever decodes must re-encode (as a chip frame) to the same prefix.
			re := EncodeFrame(p[0], p[1:]...)
			re[5] = tfiChip
			re[len(re)-2] -= tfiChip - tfiHost
			if n := len(re) - 1; !bytes.Equal(re[:n], b[:n]) { // the postamble is not checked
				t.Fatalf("decode/encode mismatch: % X vs % X", re[:n], b[:n])
			}
			if _, err := parseTargets(p); err != nil {
				return
			}
		}
	})
}

func BenchmarkDecodeFrame(b *testing.B) {
	f := []byte{0, 0, 0xFF, 0x0C, 0xF4, 0xD5, 0x4B, 1, 1, 0, 4, 8, 4, 0xDE, 0xAD, 0xBE, 0xEF, 0x96, 0}
	b.ReportAllocs()
	for b.Loop() {
		if _, p, err := DecodeFrame(f); err != nil {
			b.Fatal(err)
		} else if _, err := parseTargets(p); err != nil {
			b.Fatal(err)
		}
	}
}
