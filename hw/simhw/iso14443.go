package simhw

// This file is the card side of ISO/IEC 14443-3 type A, as far as a reader that reads UIDs
// needs it: REQA/WUPA, anticollision and select for cascade levels 1 and 2, HLTA.

// ISO/IEC 14443-3 short frames and commands.
const (
	cmdREQA   = 0x26 // 7-bit short frame
	cmdWUPA   = 0x52 // 7-bit short frame
	cmdSelCL1 = 0x93
	cmdSelCL2 = 0x95
	cmdHLTA   = 0x50
	cascadeCT = 0x88 // cascade tag: the UID goes on at the next level
	nvbAnti   = 0x20 // NVB of ANTICOLLISION with no UID bits known
	nvbSelect = 0x70 // NVB of SELECT: the whole UID CLn and BCC follow
)

// cardState is a PICC's state (ISO/IEC 14443-3 §6.3).
type cardState uint8

const (
	cardIdle   cardState = iota
	cardReady            // after REQA/WUPA, at cascade level 1
	cardReady2           // cascade level 1 selected, level 2 next
	cardActive           // selected
	cardHalt
)

// card is one powered PICC in a reader's field.
type card struct {
	tag   Tag
	state cardState
}

// uidLevel returns the 4 bytes a card sends at cascade level lvl (1 or 2): with a 7-byte UID,
// level 1 is CT uid0 uid1 uid2 and level 2 uid3..uid6.
func (c *card) uidLevel(lvl int) [4]byte {
	u := c.tag.UID
	var b [4]byte
	switch {
	case len(u) == 4:
		copy(b[:], u)
	case lvl == 1:
		b = [4]byte{cascadeCT, u[0], u[1], u[2]}
	default:
		copy(b[:], u[3:7])
	}
	return b
}

// sak is the SELECT acknowledge at level lvl: the cascade bit (0x04) while the UID goes on.
func (c *card) sak(lvl int) byte {
	if lvl == 1 && len(c.tag.UID) == 7 {
		return 0x04
	}
	return c.tag.SelRes
}

// answer is one card's reply to a frame of bits (the last byte's low bits valid), or nil for
// silence, and the card's new state.
func (c *card) answer(f []byte, bits int) []byte {
	switch {
	case bits == 7 && len(f) == 1 && (f[0] == cmdREQA || f[0] == cmdWUPA):
		if c.state == cardIdle || (f[0] == cmdWUPA && c.state == cardHalt) {
			c.state = cardReady
			return []byte{byte(c.tag.SensRes), byte(c.tag.SensRes >> 8)} // ATQA, LSB first
		}
		return nil
	case bits%8 != 0:
		return nil
	case len(f) == 2 && (f[0] == cmdSelCL1 || f[0] == cmdSelCL2) && f[1] == nvbAnti:
		lvl := level(f[0])
		if !c.readyAt(lvl) {
			return nil
		}
		u := c.uidLevel(lvl)
		return []byte{u[0], u[1], u[2], u[3], u[0] ^ u[1] ^ u[2] ^ u[3]}
	case len(f) == 9 && (f[0] == cmdSelCL1 || f[0] == cmdSelCL2) && f[1] == nvbSelect:
		lvl := level(f[0])
		if !c.readyAt(lvl) || !crcOK(f) {
			return nil
		}
		u := c.uidLevel(lvl)
		if [4]byte(f[2:6]) != u || f[6] != u[0]^u[1]^u[2]^u[3] {
			c.state = cardIdle // not the one selected
			return nil
		}
		c.state = cardActive
		if c.sak(lvl)&0x04 != 0 {
			c.state = cardReady2
		}
		return appendCRC([]byte{c.sak(lvl)})
	case len(f) == 4 && f[0] == cmdHLTA && f[1] == 0x00 && crcOK(f):
		if c.state == cardActive {
			c.state = cardHalt
		}
		return nil
	}
	return nil
}

func level(sel byte) int {
	if sel == cmdSelCL2 {
		return 2
	}
	return 1
}

func (c *card) readyAt(lvl int) bool {
	return (lvl == 1 && c.state == cardReady) || (lvl == 2 && c.state == cardReady2)
}

// crcA is the CRC_A of ISO/IEC 14443-3 Annex B: preset 6363h, polynomial x^16+x^12+x^5+1,
// bits LSB first, no final inversion.
func crcA(data []byte) uint16 {
	crc := uint16(0x6363)
	for _, b := range data {
		b ^= byte(crc)
		b ^= b << 4
		crc = crc>>8 ^ uint16(b)<<8 ^ uint16(b)<<3 ^ uint16(b)>>4
	}
	return crc
}

// appendCRC appends the CRC_A of f, LSB first.
func appendCRC(f []byte) []byte {
	c := crcA(f)
	return append(f, byte(c), byte(c>>8))
}

// crcOK checks a frame that ends with its CRC_A.
func crcOK(f []byte) bool {
	n := len(f) - 2
	c := crcA(f[:n])
	return f[n] == byte(c) && f[n+1] == byte(c>>8)
}
