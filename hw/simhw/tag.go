package simhw

import "strings"

// Tag is an ISO/IEC 14443 type A target in a reader's field, as InListPassiveTarget reports it
// (UM0701-02 §7.3.5, 106 kbps type A target data).
type Tag struct {
	UID     []byte // NFCID1: 4, 7 or 10 bytes
	SensRes uint16 // SENS_RES (ATQA)
	SelRes  byte   // SEL_RES (SAK); bit 5 (0x20) set: the target speaks ISO/IEC 14443-4
	ATS     []byte // answer to select, its length byte TL first; only with SEL_RES bit 5
}

// NTAG213 is the sticker glued under each tile: a 7-byte UID whose first byte is NXP's
// manufacturer code 04, ATQA 0044h, SAK 00h (NTAG213/215/216 data sheet, "Anticollision and
// selection").
func NTAG213(uid [7]byte) Tag {
	uid[0] = 0x04
	return Tag{UID: uid[:], SensRes: 0x0044, SelRes: 0x00}
}

// Phone is a phone's card emulation laid on the rack: a random 4-byte UID (first byte 08, ISO/IEC
// 14443-3 "random ID"), ATQA 0004, SAK 20 and a short ATS.
func Phone(r [3]byte) Tag {
	return Tag{UID: []byte{0x08, r[0], r[1], r[2]}, SensRes: 0x0004, SelRes: 0x20,
		ATS: []byte{0x05, 0x78, 0x80, 0x70, 0x02}}
}

// BankCard is a contactless payment card: a fixed 4-byte UID, ATQA 0004, SAK 20, a longer ATS
// with historical bytes.
func BankCard(uid [4]byte) Tag {
	return Tag{UID: uid[:], SensRes: 0x0004, SelRes: 0x20,
		ATS: []byte{0x0C, 0x78, 0x80, 0x81, 0x02, 0x4B, 0x4F, 0x4E, 0x41, 0x14, 0x11, 0x8A}}
}

// UIDString prints a UID as enrolment files write it: upper-case hex bytes joined by colons.
func UIDString(uid []byte) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.Grow(3 * len(uid))
	for i, c := range uid {
		if i > 0 {
			b.WriteByte(':')
		}
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&0x0F])
	}
	return b.String()
}
