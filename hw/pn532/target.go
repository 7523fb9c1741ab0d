package pn532

import (
	"fmt"
)

// Target is one ISO14443A tag found by InListPassiveTarget (UM0701-02 §7.3.5, 106 kbps type A).
type Target struct {
	Tg      byte
	SensRes uint16
	SelRes  byte
	UID     []byte
}

// UIDString is the UID as upper-case hex with colons, the form enrolment files use.
func (t Target) UIDString() string { return FormatUID(t.UID) }

// FormatUID prints a UID as upper-case hex bytes separated by colons.
func FormatUID(uid []byte) string {
	const digits = "0123456789ABCDEF"
	if len(uid) == 0 {
		return ""
	}
	b := make([]byte, 0, 3*len(uid)-1)
	for i, c := range uid {
		if i > 0 {
			b = append(b, ':')
		}
		b = append(b, digits[c>>4], digits[c&0x0F])
	}
	return string(b)
}

// parseTargets reads the response to InListPassiveTarget: 4B NbTg then, per target,
// Tg SENS_RES(2) SEL_RES NFCIDLength NFCID [ATSLength ATS...] (ATS only when SEL_RES bit 5 says
// the tag speaks ISO14443-4).
func parseTargets(p []byte) ([]Target, error) {
	if len(p) < 2 || p[0] != cmdInListPassiveTarget+1 {
		return nil, fmt.Errorf("%w: not an InListPassiveTarget answer: % X", ErrFrame, p)
	}
	n := int(p[1])
	if n > 2 {
		return nil, fmt.Errorf("%w: %d targets, at most 2", ErrFrame, n)
	}
	rest := p[2:]
	ts := make([]Target, 0, n)
	for i := 0; i < n; i++ {
		if len(rest) < 5 {
			return nil, fmt.Errorf("%w: target %d cut short", ErrFrame, i+1)
		}
		t := Target{Tg: rest[0], SensRes: uint16(rest[1])<<8 | uint16(rest[2]), SelRes: rest[3]}
		l := int(rest[4])
		rest = rest[5:]
		if l == 0 || l > 10 || len(rest) < l {
			return nil, fmt.Errorf("%w: target %d UID length %d", ErrFrame, i+1, l)
		}
		t.UID = append([]byte(nil), rest[:l]...)
		rest = rest[l:]
		if t.SelRes&0x20 != 0 {
			if len(rest) < 1 || rest[0] == 0 || len(rest) < int(rest[0]) {
				return nil, fmt.Errorf("%w: target %d ATS cut short", ErrFrame, i+1)
			}
			rest = rest[rest[0]:]
		}
		ts = append(ts, t)
	}
	return ts, nil
}
