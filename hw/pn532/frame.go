// Package pn532 drives an NXP PN532 NFC reader over I2C, following the PN532 User Manual
// (UM0701-02, §6.2 "Host controller communication protocol" and §7 "Commands supported").
//
// The driver takes a periph i2c.Bus, so a reader behind a PCA9548 multiplexer port works the same
// as one on the Pi's bus, and tests replay exact frames with i2ctest.Playback.
package pn532

import (
	"bytes"
	"errors"
	"fmt"
)

// Frame identifiers (UM0701-02 §6.2.1.1): TFI is 0xD4 from host to PN532 and 0xD5 back.
const (
	tfiHost = 0xD4
	tfiChip = 0xD5
)

// Command codes (UM0701-02 §7.1 table 14).
const (
	cmdGetFirmwareVersion  = 0x02
	cmdSAMConfiguration    = 0x14
	cmdRFConfiguration     = 0x32
	cmdInListPassiveTarget = 0x4A
)

var (
	preamble = []byte{0x00, 0x00, 0xFF}
	// ackFrame and nackFrame: UM0701-02 §6.2.1.3 and §6.2.1.4.
	ackFrame  = []byte{0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00}
	nackFrame = []byte{0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00}
)

// Errors a caller can test with errors.Is.
var (
	ErrChecksum  = errors.New("pn532: checksum mismatch")
	ErrNACK      = errors.New("pn532: reader answered NACK")
	ErrSyntax    = errors.New("pn532: reader reported a syntax error frame")
	ErrFrame     = errors.New("pn532: malformed frame")
	ErrNotReady  = errors.New("pn532: reader not ready (silent)")
	ErrUnexpCode = errors.New("pn532: unexpected response code")
)

// EncodeFrame returns the normal information frame carrying cmd and its parameters from the
// host: 00 00 FF LEN LCS D4 cmd params... DCS 00 (UM0701-02 §6.2.1.1).
func EncodeFrame(cmd byte, params ...byte) []byte {
	n := 2 + len(params) // TFI + command code + parameters
	f := make([]byte, 0, n+7)
	f = append(f, preamble...)
	f = append(f, byte(n), byte(-n))
	sum := byte(tfiHost) + cmd
	f = append(f, tfiHost, cmd)
	for _, p := range params {
		sum += p
	}
	f = append(f, params...)
	f = append(f, -sum, 0x00)
	return f
}

// frameKind says what DecodeFrame found.
type frameKind int

const (
	kindInfo frameKind = iota
	kindACK
	kindNACK
	kindError
)

// DecodeFrame parses one frame from the PN532 at the start of b (bytes after the postamble are
// ignored: the I2C driver reads a fixed length). For an information frame it returns the bytes
// after TFI 0xD5: the response code and its data.
func DecodeFrame(b []byte) (kind frameKind, payload []byte, err error) {
	if len(b) >= 6 && bytes.Equal(b[:6], ackFrame) {
		return kindACK, nil, nil
	}
	if len(b) >= 6 && bytes.Equal(b[:6], nackFrame) {
		return kindNACK, nil, nil
	}
	if len(b) < 5 || !bytes.Equal(b[:3], preamble) {
		return 0, nil, fmt.Errorf("%w: no preamble 00 00 FF in % X", ErrFrame, head(b))
	}
	n, lcs := b[3], b[4]
	if n == 0xFF && lcs == 0xFF {
		return 0, nil, fmt.Errorf("%w: extended frames are not supported", ErrFrame)
	}
	if n+lcs != 0 {
		return 0, nil, fmt.Errorf("%w: length %#02x with LCS %#02x", ErrChecksum, n, lcs)
	}
	if n == 0 {
		return 0, nil, fmt.Errorf("%w: empty information frame", ErrFrame)
	}
	if len(b) < 5+int(n)+2 {
		return 0, nil, fmt.Errorf("%w: frame of %d bytes cut to %d", ErrFrame, 5+int(n)+2, len(b))
	}
	body := b[5 : 5+int(n)]
	var sum byte
	for _, c := range body {
		sum += c
	}
	if dcs := b[5+int(n)]; sum+dcs != 0 {
		return 0, nil, fmt.Errorf("%w: data checksum %#02x over % X", ErrChecksum, dcs, body)
	}
	if n == 1 && body[0] == 0x7F { // §6.2.1.5 error frame
		return kindError, nil, nil
	}
	if body[0] != tfiChip {
		return 0, nil, fmt.Errorf("%w: TFI %#02x, want D5", ErrFrame, body[0])
	}
	if n < 2 {
		return 0, nil, fmt.Errorf("%w: no response code", ErrFrame)
	}
	return kindInfo, body[1:], nil
}

func head(b []byte) []byte {
	if len(b) > 8 {
		return b[:8]
	}
	return b
}
