package simhw

import (
	"fmt"
	"sync/atomic"
)

// PN532 emulates an NXP PN532 on I2C (UM0701-02 §6.2.4) as the host sees it:
//
//   - the host writes a frame; a good command frame is acknowledged with an ACK frame, then
//     answered with a response frame (§6.2.2); a frame with a bad preamble, length or checksum
//     is dropped, so the host never gets its ACK (the manual gives no answer to a frame it
//     cannot read; dropping it is this emulator's reading);
//   - every read starts with the status byte, bit 0 (RDY) set when a frame is waiting; the
//     frame follows in the same read and is then gone; a 1-byte read only polls;
//   - a valid frame with an unknown command or bad parameters is acknowledged and answered with
//     the syntax error frame (§6.2.1.5);
//   - an ACK from the host aborts the command (§6.2.1.3); a NACK asks for the last response
//     again (§6.2.1.4).
//
// Commands: GetFirmwareVersion (§7.2.2), SAMConfiguration (§7.2.10), RFConfiguration (§7.3.1)
// and InListPassiveTarget (§7.3.5) for 106 kbps type A, listing at most MaxTg (1 or 2) of the
// tags in the field, in the order the field gives them.
type PN532 struct {
	name  string
	addr  uint16
	log   *Log
	field func(dst []Tag) []Tag

	// Busy is how many status polls answer "not ready" before each response (the chip's RF
	// and processing time, in polls). The ACK is ready at the first poll.
	Busy int

	silent    atomic.Bool
	unplugged atomic.Bool

	// State below is guarded by the bus's lock.
	samDone    bool
	passive    byte   // MxRtyPassiveActivation (§7.3.1 CfgItem 5); the chip starts at FF
	out        []byte // the frame waiting to be read, or nil
	outIsACK   bool   // out is the ACK of a command whose response comes next
	outBusy    int    // status polls left before out is ready
	next       []byte // the response, once the ACK has been read; nil: none will come
	last       []byte // the last response sent, for a NACK
	resp, data []byte
	tags       []Tag
	polls      atomic.Int64
}

// NewPN532 returns a PN532 at addr (0x24 on every board) named name in violations; field tells
// which tags are in its RF field, appending them to dst.
func NewPN532(name string, addr uint16, log *Log, field func(dst []Tag) []Tag) *PN532 {
	return &PN532{name: name, addr: addr, log: log, field: field, passive: 0xFF,
		resp: make([]byte, 0, 64), data: make([]byte, 0, 64), tags: make([]Tag, 0, 4)}
}

// Firmware is what GetFirmwareVersion answers: IC 32h (PN532), version 1.6, support 07h
// (ISO/IEC 14443 A and B, ISO 18092).
var Firmware = [4]byte{0x32, 0x01, 0x06, 0x07}

// SetSilent makes the chip stop answering (its firmware hung: it takes frames on I2C but never
// raises RDY) or answer again.
func (p *PN532) SetSilent(on bool) { p.silent.Store(on) }

// Unplug takes the chip off its bus segment (it no longer acknowledges its address) or puts it back.
func (p *PN532) Unplug(off bool) { p.unplugged.Store(off) }

// Addr implements Device.
func (p *PN532) Addr() uint16 { return p.addr }

// Acks implements Device.
func (p *PN532) Acks() bool { return !p.unplugged.Load() }

func (p *PN532) String() string { return p.name }

// Tx implements Device.
func (p *PN532) Tx(w, r []byte) error {
	if len(w) > 0 && len(r) > 0 {
		p.log.Addf(p.name, "write and read in one transaction: the PN532 answers only in a read of its own (§6.2.4)")
		clear(r)
		return nil
	}
	if p.silent.Load() {
		clear(r)
		return nil
	}
	if len(w) > 0 {
		p.write(w)
		return nil
	}
	if len(r) > 0 {
		p.read(r)
	}
	return nil
}

// read answers one read: the status byte, then the waiting frame if it is ready.
func (p *PN532) read(r []byte) {
	clear(r)
	if p.out == nil {
		return
	}
	if p.outBusy > 0 {
		p.outBusy--
		return
	}
	r[0] = 0x01
	if len(r) == 1 {
		return
	}
	copy(r[1:], p.out)
	if p.outIsACK {
		p.out, p.outIsACK, p.outBusy, p.next = p.next, false, p.Busy, nil
		return
	}
	p.last, p.out = p.out, nil
}

// write takes one frame from the host.
func (p *PN532) write(w []byte) {
	kind, cmd, params, err := decodeHostFrame(w)
	if err != nil {
		p.log.Addf(p.name, "% X: %v; dropped, no ACK", head(w), err)
		return
	}
	switch kind {
	case hostACK:
		p.out, p.outIsACK, p.next = nil, false, nil
		return
	case hostNACK:
		if p.last == nil {
			p.log.Addf(p.name, "NACK with no response sent yet")
			return
		}
		p.out, p.outIsACK, p.outBusy, p.next = p.last, false, 0, nil
		return
	}
	p.out, p.outIsACK, p.outBusy = ackFrame, true, 0
	p.next = p.execute(cmd, params)
}

// execute runs one command and returns its response frame (nil: it never answers).
func (p *PN532) execute(cmd byte, params []byte) []byte {
	d := append(p.data[:0], cmd+1) // the response code
	switch cmd {
	case 0x02: // GetFirmwareVersion
		if len(params) != 0 {
			return p.syntax(cmd, params, "takes no parameters")
		}
		d = append(d, Firmware[:]...)
	case 0x14: // SAMConfiguration: Mode [Timeout [IRQ]]
		if len(params) < 1 || len(params) > 3 || params[0] != 0x01 {
			return p.syntax(cmd, params, "want mode 01 (normal, no SAM on this board) and at most timeout and IRQ")
		}
		p.samDone = true
	case 0x32: // RFConfiguration: CfgItem ConfigurationData
		if msg := p.rfConfiguration(params); msg != "" {
			return p.syntax(cmd, params, msg)
		}
	case 0x4A: // InListPassiveTarget: MaxTg BrTy [InitiatorData]
		if len(params) != 2 || params[0] < 1 || params[0] > 2 || params[1] != 0x00 {
			return p.syntax(cmd, params, "want MaxTg 1 or 2 and BrTy 00 (106 kbps type A), no InitiatorData")
		}
		if !p.samDone {
			p.log.Addf(p.name, "InListPassiveTarget before SAMConfiguration: the chip is still in LowVbat mode (§7.2.10)")
		}
		var ok bool
		if d, ok = p.list(d, int(params[0])); !ok {
			return nil
		}
	default:
		return p.syntax(cmd, params, "command not emulated")
	}
	p.data = d
	p.resp = appendChipFrame(p.resp[:0], d...)
	return p.resp
}

// rfConfiguration checks one RFConfiguration (§7.3.1) and returns what is wrong, or "".
func (p *PN532) rfConfiguration(params []byte) string {
	if len(params) < 1 {
		return "no CfgItem"
	}
	n, ok := rfConfigLen[params[0]]
	if !ok {
		return fmt.Sprintf("no CfgItem %02X", params[0])
	}
	if len(params)-1 != n {
		return fmt.Sprintf("CfgItem %02X takes %d bytes", params[0], n)
	}
	if params[0] == 0x05 {
		p.passive = params[3]
	}
	return ""
}

// rfConfigLen is the length of each CfgItem's ConfigurationData (§7.3.1).
var rfConfigLen = map[byte]int{0x01: 1, 0x02: 3, 0x04: 1, 0x05: 3, 0x0A: 11, 0x0B: 8, 0x0C: 3, 0x0D: 9}

// list appends the InListPassiveTarget answer: NbTg, then per target Tg SENS_RES SEL_RES
// NFCIDLength NFCID1 [ATS]. With no tag in the field and MxRtyPassiveActivation FF the chip
// keeps trying for ever: it never answers (false).
func (p *PN532) list(d []byte, maxTg int) ([]byte, bool) {
	p.polls.Add(1)
	p.tags = p.field(p.tags[:0])
	ts := p.tags
	if len(ts) == 0 && p.passive == 0xFF {
		return d, false
	}
	if len(ts) > maxTg {
		ts = ts[:maxTg]
	}
	d = append(d, byte(len(ts)))
	for i, t := range ts {
		d = append(d, byte(i+1), byte(t.SensRes>>8), byte(t.SensRes), t.SelRes, byte(len(t.UID)))
		d = append(d, t.UID...)
		if t.SelRes&0x20 != 0 {
			d = append(d, t.ATS...)
		}
	}
	return d, true
}

// syntax records a command the driver should never send and answers the syntax error frame.
func (p *PN532) syntax(cmd byte, params []byte, why string) []byte {
	p.log.Addf(p.name, "command %02X % X: %s; syntax error frame", cmd, params, why)
	return errorFrame
}

// Polls is how many times the chip looked at its field (one per InListPassiveTarget).
func (p *PN532) Polls() int64 { return p.polls.Load() }

func head(b []byte) []byte {
	if len(b) > 12 {
		return b[:12]
	}
	return b
}

var _ Device = (*PN532)(nil)
