package simhw

import (
	"errors"
	"fmt"
)

// This file is the PN532's side of the frames (UM0701-02 §6.2.1), written apart from hw/pn532 so
// that a mistake in the driver's frame code is not mirrored here and hidden.

// Frame identifiers (§6.2.1.1).
const (
	tfiHost = 0xD4
	tfiChip = 0xD5
)

// hostFrameKind says what the host wrote.
type hostFrameKind uint8

const (
	hostInfo hostFrameKind = iota // a command
	hostACK                       // §6.2.1.3: from the host, abort the command in progress
	hostNACK                      // §6.2.1.4: send the last response frame again
)

var (
	ackFrame   = []byte{0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00}
	errorFrame = []byte{0x00, 0x00, 0xFF, 0x01, 0xFF, 0x7F, 0x81, 0x00} // §6.2.1.5
	errFrame   = errors.New("simhw: bad frame")
)

// decodeHostFrame parses one frame written by the host: an ACK, a NACK, or a normal (§6.2.1.1) or
// extended (§6.2.1.2) information frame with TFI D4, whose command code and parameters it
// returns. Preamble and postamble may be several 0x00 bytes (§6.2.1.6): at least one preamble
// byte before the start code 00 FF and one postamble byte; nothing else may follow.
func decodeHostFrame(b []byte) (kind hostFrameKind, cmd byte, params []byte, err error) {
	i := 0
	for i < len(b) && b[i] == 0x00 {
		i++
	}
	if i < 2 || i >= len(b) || b[i] != 0xFF {
		return 0, 0, nil, fmt.Errorf("%w: no preamble and start code 00 00 FF", errFrame)
	}
	b = b[i+1:]
	if len(b) < 2 {
		return 0, 0, nil, fmt.Errorf("%w: ends after the start code", errFrame)
	}
	var n int
	switch {
	case b[0] == 0x00 && b[1] == 0xFF:
		return hostACK, 0, nil, postamble(b[2:])
	case b[0] == 0xFF && b[1] == 0x00:
		return hostNACK, 0, nil, postamble(b[2:])
	case b[0] == 0xFF && b[1] == 0xFF: // extended: LENM LENL LCS
		if len(b) < 5 {
			return 0, 0, nil, fmt.Errorf("%w: extended frame cut in its length", errFrame)
		}
		if b[2]+b[3]+b[4] != 0 {
			return 0, 0, nil, fmt.Errorf("%w: extended length %02X %02X with LCS %02X", errFrame, b[2], b[3], b[4])
		}
		n = int(b[2])<<8 | int(b[3])
		b = b[5:]
	default:
		if b[0]+b[1] != 0 {
			return 0, 0, nil, fmt.Errorf("%w: LEN %02X with LCS %02X", errFrame, b[0], b[1])
		}
		n = int(b[0])
		b = b[2:]
	}
	if n < 2 {
		return 0, 0, nil, fmt.Errorf("%w: LEN %d leaves no command code", errFrame, n)
	}
	if len(b) < n+1 {
		return 0, 0, nil, fmt.Errorf("%w: %d data bytes announced, %d sent", errFrame, n, max(len(b)-1, 0))
	}
	var sum byte
	for _, c := range b[:n+1] {
		sum += c
	}
	if sum != 0 {
		return 0, 0, nil, fmt.Errorf("%w: DCS %02X does not sum to zero", errFrame, b[n])
	}
	if b[0] != tfiHost {
		return 0, 0, nil, fmt.Errorf("%w: TFI %02X, a host sends D4", errFrame, b[0])
	}
	return hostInfo, b[1], b[2:n], postamble(b[n+1:])
}

// postamble checks that the frame ends with one or more 0x00 bytes and nothing else.
func postamble(b []byte) error {
	if len(b) == 0 {
		return fmt.Errorf("%w: no postamble", errFrame)
	}
	for _, c := range b {
		if c != 0x00 {
			return fmt.Errorf("%w: %02X after the frame", errFrame, c)
		}
	}
	return nil
}

// appendChipFrame appends a normal information frame from the PN532: 00 00 FF LEN LCS D5 data
// DCS 00. data (response code and its data) must be at most 254 bytes.
func appendChipFrame(dst []byte, data ...byte) []byte {
	n := byte(len(data) + 1)
	dst = append(dst, 0x00, 0x00, 0xFF, n, -n, tfiChip)
	sum := byte(tfiChip)
	for _, c := range data {
		sum += c
	}
	dst = append(dst, data...)
	return append(dst, -sum, 0x00)
}
