package simhw

import (
	"fmt"
	"sync"
	"sync/atomic"

	"periph.io/x/conn/v3"
	"periph.io/x/conn/v3/physic"
	"periph.io/x/conn/v3/spi"
)

// MFRC522 registers (MFRC522 data sheet §9.2) and commands (§10.3).
const (
	regCommand    = 0x01
	regCommIEn    = 0x02
	regDivIEn     = 0x03
	regCommIrq    = 0x04
	regDivIrq     = 0x05
	regError      = 0x06
	regStatus1    = 0x07
	regFIFOData   = 0x09
	regFIFOLevel  = 0x0A
	regControl    = 0x0C
	regBitFraming = 0x0D
	regMode       = 0x11
	regTxControl  = 0x14
	regCRCResultH = 0x21
	regCRCResultL = 0x22
	regTMode      = 0x2A
	regVersion    = 0x37

	pcdIdle       = 0x00
	pcdCalcCRC    = 0x03
	pcdTransceive = 0x0C
	pcdMFAuthent  = 0x0E
	pcdSoftReset  = 0x0F

	irqTx    = 0x40
	irqRx    = 0x20
	irqTimer = 0x01
	irqCRC   = 0x04 // in DivIrqReg
	errColl  = 0x08
	errOvfl  = 0x10
)

// mfrcReset holds the registers' reset values (§9.2) that differ from zero.
var mfrcReset = map[byte]byte{0x01: 0x20, 0x02: 0x80, 0x04: 0x14, 0x07: 0x21, 0x0B: 0x08, 0x0C: 0x10,
	0x0E: 0x80, 0x11: 0x3F, 0x14: 0x80, 0x16: 0x10, 0x17: 0x84, 0x18: 0x84, 0x19: 0x4D, 0x1A: 0x62,
	0x1F: 0xEB, 0x21: 0xFF, 0x22: 0xFF, 0x24: 0x26, 0x26: 0x48, 0x27: 0x88, 0x28: 0x20, 0x29: 0x20,
	0x37: 0x92}

// MFRC522 emulates an NXP MFRC522 on SPI (data sheet §8.1.2: an address byte, (reg<<1), bit 7
// set to read; a read returns each register in the byte after its address; a write puts every
// following byte in the one register) with ISO/IEC 14443 A cards in its field: Transceive sends
// the FIFO (the last byte's bits per BitFramingReg) when StartSend is set, and the cards' answer
// lands in the FIFO with RxIRq, or nothing answers and the timer (TModeReg TAuto) sets TimerIRq;
// CalcCRC computes CRC_A with ModeReg's preset; SoftReset resets the registers and drops the
// field. IRQ follows Status1Reg's IRq through IRqInv (§9.3.1.3). Two cards answering at once set
// CollErr. MFAuthent and the rest are not emulated (a violation).
type MFRC522 struct {
	name  string
	log   *Log
	field func(dst []Tag) []Tag

	mu        sync.Mutex
	regs      [64]byte
	fifo      []byte
	sent      []byte
	cards     []card
	tags      []Tag
	powered   bool // NRSTPD high
	unplugged atomic.Bool

	// IRQ is the interrupt pin, Reset the NRSTPD pin, to give the driver.
	IRQ   *MFRC522IRQ
	Reset *MFRC522Reset
}

// NewMFRC522 returns a powered chip with its registers at their reset values; field tells which
// tags are in its antenna's field.
func NewMFRC522(name string, log *Log, field func(dst []Tag) []Tag) *MFRC522 {
	m := &MFRC522{name: name, log: log, field: field, powered: true, fifo: make([]byte, 0, 64)}
	m.IRQ = newMFRC522IRQ(name + "-IRQ")
	m.Reset = &MFRC522Reset{pinBase: pinBase{name: name + "-NRSTPD"}, m: m}
	m.reset()
	return m
}

// Unplug cuts the reader off (its MISO reads 00, its IRQ never falls) or plugs it back.
func (m *MFRC522) Unplug(off bool) {
	m.unplugged.Store(off)
	m.IRQ.mu.Lock()
	m.IRQ.cut = off
	m.IRQ.mu.Unlock()
}

func (m *MFRC522) String() string { return m.name }

func (m *MFRC522) reset() {
	m.regs = [64]byte{}
	for r, v := range mfrcReset {
		m.regs[r] = v
	}
	m.fifo = m.fifo[:0]
	m.cards = m.cards[:0] // the field is off: the cards lose power
	m.updateIRQ()
}

// Tx is one SPI transfer (CS low to CS high).
func (m *MFRC522) Tx(w, r []byte) error {
	if len(r) > 0 && len(r) != len(w) {
		return fmt.Errorf("simhw: %s: SPI is full duplex: read %d bytes while writing %d", m.name, len(r), len(w))
	}
	clear(r)
	if m.unplugged.Load() || len(w) == 0 {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.powered {
		return nil
	}
	if w[0]&0x01 != 0 {
		m.log.Addf(m.name, "address byte %02X has bit 0 set (§8.1.2.3: it must be 0)", w[0])
		return nil
	}
	addr := w[0] >> 1 & 0x3F
	if w[0]&0x80 == 0 {
		for _, v := range w[1:] {
			m.write(addr, v)
		}
		return nil
	}
	for i := 1; i < len(w); i++ {
		v := m.read(addr)
		if len(r) > 0 {
			r[i] = v
		}
		addr = w[i] >> 1 & 0x3F
	}
	return nil
}

func (m *MFRC522) read(addr byte) byte {
	switch addr {
	case regFIFOData:
		if len(m.fifo) == 0 {
			return 0
		}
		v := m.fifo[0]
		m.fifo = append(m.fifo[:0], m.fifo[1:]...)
		return v
	case regFIFOLevel:
		return byte(len(m.fifo))
	case regStatus1:
		if m.irqActive() {
			return m.regs[addr] | 0x10
		}
		return m.regs[addr] &^ 0x10
	case regCommIrq, regDivIrq:
		return m.regs[addr] & 0x7F // Set1, Set2 read as 0
	}
	return m.regs[addr]
}

func (m *MFRC522) write(addr, v byte) {
	switch addr {
	case regCommand:
		m.command(v)
		return
	case regCommIrq, regDivIrq: // bit 7 says set or clear the bits marked 1 (§9.3.1.4, §9.3.1.5)
		if v&0x80 != 0 {
			m.regs[addr] |= v & 0x7F
		} else {
			m.regs[addr] &^= v & 0x7F
		}
	case regFIFOData:
		if len(m.fifo) == 64 {
			m.regs[regError] |= errOvfl
			return
		}
		m.fifo = append(m.fifo, v)
	case regFIFOLevel:
		if v&0x80 != 0 { // FlushBuffer
			m.fifo = m.fifo[:0]
			m.regs[regError] &^= errOvfl
		}
	case regBitFraming:
		m.regs[addr] = v
		if v&0x80 != 0 && m.regs[regCommand]&0x0F == pcdTransceive {
			m.transceive(int(v & 0x07))
		}
	case regError, regStatus1, regVersion:
		m.log.Addf(m.name, "write %02X to read-only register %02X", v, addr)
		return
	case regTxControl:
		m.regs[addr] = v
		if v&0x03 == 0 {
			m.cards = m.cards[:0]
		}
	default:
		m.regs[addr] = v
	}
	m.updateIRQ()
}

// command starts a command (§10.3).
func (m *MFRC522) command(v byte) {
	cmd := v & 0x0F
	m.regs[regCommand] = v &^ 0x0F // RcvOff, PowerDown
	switch cmd {
	case pcdSoftReset:
		m.reset()
		return
	case pcdIdle, pcdTransceive:
		m.regs[regCommand] |= cmd
	case pcdCalcCRC:
		c := crcA(m.fifo)
		if m.regs[regMode]&0x03 != 0x01 {
			m.log.Addf(m.name, "CalcCRC with ModeReg preset %d: only 6363h (CRC_A) is emulated", m.regs[regMode]&3)
		}
		m.fifo = m.fifo[:0]
		m.regs[regCRCResultH], m.regs[regCRCResultL] = byte(c>>8), byte(c)
		m.regs[regDivIrq] |= irqCRC
		m.regs[regCommand] |= cmd
	default:
		m.log.Addf(m.name, "command %X is not emulated", cmd)
		m.regs[regCommIrq] |= 0x10 // an unknown command ends at once: IdleIRq
	}
	m.updateIRQ()
}

// transceive sends the FIFO to the cards and takes their answer.
func (m *MFRC522) transceive(lastBits int) {
	f := append(m.sent[:0], m.fifo...)
	m.sent = f
	m.fifo = m.fifo[:0]
	bits := 8 * len(f)
	if lastBits != 0 && len(f) > 0 {
		bits = 8*(len(f)-1) + lastBits
	}
	m.regs[regError] &^= 0x0F
	m.regs[regCommIrq] |= irqTx
	if m.regs[regTxControl]&0x03 == 0 || len(f) == 0 {
		m.noAnswer()
		return
	}
	if bits == 7 && len(f) == 1 && (f[0] == cmdREQA || f[0] == cmdWUPA) {
		m.refreshField()
	}
	var ans []byte
	n := 0
	for i := range m.cards {
		if a := m.cards[i].answer(f, bits); a != nil {
			if n > 0 && string(a) != string(ans) {
				m.regs[regError] |= errColl
				for j := range min(len(a), len(ans)) {
					ans[j] |= a[j]
				}
			} else {
				ans = a
			}
			n++
		}
	}
	if n == 0 {
		m.noAnswer()
		return
	}
	m.fifo = append(m.fifo, ans...)
	m.regs[regControl] = m.regs[regControl] &^ 0x07 // RxLastBits: whole bytes
	m.regs[regCommIrq] |= irqRx
	m.updateIRQ()
}

// noAnswer: nobody answered; with TAuto the timer runs out (TimerIRq).
func (m *MFRC522) noAnswer() {
	if m.regs[regTMode]&0x80 != 0 {
		m.regs[regCommIrq] |= irqTimer
	}
	m.updateIRQ()
	m.IRQ.nothingComing()
}

// refreshField powers the cards now in the field: new ones start idle, gone ones are dropped.
func (m *MFRC522) refreshField() {
	m.tags = m.field(m.tags[:0])
	kept := m.cards[:0]
	for _, t := range m.tags {
		c := card{tag: t}
		for _, o := range m.cards {
			if string(o.tag.UID) == string(t.UID) {
				c = o
			}
		}
		kept = append(kept, c)
	}
	m.cards = kept
}

// irqActive is Status1Reg's IRq: an enabled interrupt request is set.
func (m *MFRC522) irqActive() bool {
	return m.regs[regCommIrq]&m.regs[regCommIEn]&0x7F != 0 || m.regs[regDivIrq]&m.regs[regDivIEn]&0x14 != 0
}

// updateIRQ sets the IRQ pin: the IRq bit, inverted when CommIEnReg's IRqInv is set.
func (m *MFRC522) updateIRQ() {
	inv := m.regs[regCommIEn]&0x80 != 0
	m.IRQ.set(m.irqActive() != inv)
}

// Open returns the chip as an SPI port for a driver.
func (m *MFRC522) Open() spi.PortCloser { return &mfrcPort{m: m} }

type mfrcPort struct {
	m      *MFRC522
	closed atomic.Bool
}

func (p *mfrcPort) String() string                    { return p.m.name }
func (p *mfrcPort) LimitSpeed(physic.Frequency) error { return nil }
func (p *mfrcPort) Close() error {
	if p.closed.Swap(true) {
		return fmt.Errorf("simhw: %s: closed twice", p.m.name)
	}
	return nil
}

// Connect checks the driver's settings: mode 0, 8 bits, at most 10 MHz (§8.1.2).
func (p *mfrcPort) Connect(f physic.Frequency, mode spi.Mode, bits int) (spi.Conn, error) {
	if mode&3 != spi.Mode0 || bits != 8 || f > 10*physic.MegaHertz {
		p.m.log.Addf(p.m.name, "SPI %v mode %v, %d bits: the MFRC522 takes mode 0, 8 bits, up to 10 MHz", f, mode, bits)
	}
	return p, nil
}

func (p *mfrcPort) Duplex() conn.Duplex { return conn.Full }

func (p *mfrcPort) Tx(w, r []byte) error {
	if p.closed.Load() {
		return fmt.Errorf("simhw: %s: port is closed", p.m.name)
	}
	return p.m.Tx(w, r)
}

// TxPackets runs each packet as its own transfer.
func (p *mfrcPort) TxPackets(ps []spi.Packet) error {
	for _, pk := range ps {
		if err := p.Tx(pk.W, pk.R); err != nil {
			return err
		}
	}
	return nil
}

var (
	_ spi.PortCloser = (*mfrcPort)(nil)
	_ spi.Conn       = (*mfrcPort)(nil)
)
