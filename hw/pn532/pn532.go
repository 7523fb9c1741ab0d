package pn532

import (
	"errors"
	"fmt"
	"time"

	"github.com/siamesetable/siamesed/internal/clock"
	"periph.io/x/conn/v3"
	"periph.io/x/conn/v3/i2c"
)

// DefaultAddr is the PN532's 7-bit I2C address (UM0701-02 §6.2.4: 0x48 write / 0x49 read).
const DefaultAddr = 0x24

// Opts tunes the driver; the zero value of a field takes the default below.
type Opts struct {
	// ReadyPolls bounds how many times the status byte is read before the reader counts as silent.
	ReadyPolls int // default 20
	// PollInterval is the pause between status polls (default 1ms; 0 in tests via NoWait).
	PollInterval time.Duration
	// Clock times that pause (default the wall clock; tests inject a fake).
	Clock clock.Clock
	// NoWait makes PollInterval zero; tests set it so nothing sleeps.
	NoWait bool
	// Retries bounds how often a command is resent after a NACK or a response re-requested after
	// a bad checksum (default 2).
	Retries int
	// ReadLen is the fixed length of a response read, status byte excluded (default 48: room for
	// two targets with 7-byte UIDs). The PN532 pads the rest; the parser ignores it.
	ReadLen int
	// PassiveRetries is MxRtyPassiveActivation (UM0701-02 §7.3.1 CfgItem 5): how many times one
	// InListPassiveTarget tries to activate a target before answering "none". Default 1; 0xFF
	// would wait forever, which is why it is always set.
	PassiveRetries byte
}

func (o *Opts) fill() {
	if o.ReadyPolls <= 0 {
		o.ReadyPolls = 20
	}
	if o.PollInterval == 0 && !o.NoWait {
		o.PollInterval = time.Millisecond
	}
	if o.NoWait {
		o.PollInterval = 0
	}
	if o.Clock == nil {
		o.Clock = clock.Real{}
	}
	if o.Retries <= 0 {
		o.Retries = 2
	}
	if o.ReadLen <= 0 {
		o.ReadLen = 48
	}
	if o.PassiveRetries == 0 {
		o.PassiveRetries = 1
	}
}

// Dev is one PN532 on an I2C bus (or a multiplexer port).
type Dev struct {
	c    conn.Conn
	name string
	opts Opts
	buf  []byte
	// list holds the InListPassiveTarget frames for 1 and 2 targets, sent on every scan.
	list [2][]byte
}

// NewI2C returns a PN532 at addr on b. It only checks the options; call Init to configure the chip.
func NewI2C(b i2c.Bus, addr uint16, opts *Opts) (*Dev, error) {
	if b == nil {
		return nil, errors.New("pn532: nil bus")
	}
	o := Opts{}
	if opts != nil {
		o = *opts
	}
	o.fill()
	return &Dev{
		c:    &i2c.Dev{Bus: b, Addr: addr},
		name: fmt.Sprintf("pn532{%s %#02x}", b, addr),
		opts: o,
		buf:  make([]byte, 1+o.ReadLen),
		list: [2][]byte{EncodeFrame(cmdInListPassiveTarget, 1, 0x00), EncodeFrame(cmdInListPassiveTarget, 2, 0x00)},
	}, nil
}

// String implements conn.Resource.
func (d *Dev) String() string { return d.name }

// Halt implements conn.Resource. The driver runs nothing in the background.
func (d *Dev) Halt() error { return nil }

var _ conn.Resource = (*Dev)(nil)

// Firmware is the answer to GetFirmwareVersion (UM0701-02 §7.2.2).
type Firmware struct {
	IC, Ver, Rev, Support byte
}

func (f Firmware) String() string { return fmt.Sprintf("PN5%02x v%d.%d", f.IC, f.Ver, f.Rev) }

// FirmwareVersion asks the chip who it is; a PN532 answers IC 0x32.
func (d *Dev) FirmwareVersion() (Firmware, error) {
	p, err := d.call(cmdGetFirmwareVersion)
	if err != nil {
		return Firmware{}, err
	}
	if len(p) < 4 {
		return Firmware{}, fmt.Errorf("%w: firmware answer % X too short", ErrFrame, p)
	}
	return Firmware{p[0], p[1], p[2], p[3]}, nil
}

// Init checks the firmware, puts the SAM in normal mode (§7.2.10: mode 1, timeout 0x14, IRQ on)
// and bounds passive activation retries (§7.3.1 CfgItem 5) so InListPassiveTarget returns when
// no tag is there.
func (d *Dev) Init() (Firmware, error) {
	fw, err := d.FirmwareVersion()
	if err != nil {
		return fw, err
	}
	if _, err := d.call(cmdSAMConfiguration, 0x01, 0x14, 0x01); err != nil {
		return fw, err
	}
	if _, err := d.call(cmdRFConfiguration, 0x05, 0xFF, 0x01, d.opts.PassiveRetries); err != nil {
		return fw, err
	}
	return fw, nil
}

// Targets lists up to max (1 or 2) ISO14443A tags in the field at 106 kbps (§7.3.5). No tag is
// an empty list, not an error.
func (d *Dev) Targets(max int) ([]Target, error) {
	if max < 1 || max > 2 {
		return nil, fmt.Errorf("pn532: InListPassiveTarget takes 1 or 2 targets, not %d", max)
	}
	p, err := d.send1(cmdInListPassiveTarget, d.list[max-1])
	if err != nil {
		return nil, err
	}
	return parseTargets(p)
}

// call sends a command and returns the response data after the response code.
func (d *Dev) call(cmd byte, params ...byte) ([]byte, error) {
	p, err := d.send1(cmd, EncodeFrame(cmd, params...))
	if err != nil {
		return nil, err
	}
	return p[1:], nil
}

// send1 sends one command frame and returns the response from its response code on. It resends
// the command after a NACK and re-requests (NACK from the host, §6.2.1.4) a response with a bad
// checksum, at most Retries times each.
func (d *Dev) send1(cmd byte, frame []byte) ([]byte, error) {
	var err error
	for try := 0; try <= d.opts.Retries; try++ {
		if err = d.send(frame); err == nil {
			break
		}
		if !errors.Is(err, ErrNACK) {
			return nil, err
		}
	}
	if err != nil {
		return nil, fmt.Errorf("pn532: command %#02x: %w", cmd, err)
	}
	for try := 0; ; try++ {
		kind, p, err := d.read()
		switch {
		case errors.Is(err, ErrChecksum) && try < d.opts.Retries:
			if err := d.c.Tx(nackFrame, nil); err != nil {
				return nil, fmt.Errorf("pn532: asking to resend: %w", err)
			}
			continue
		case err != nil:
			return nil, fmt.Errorf("pn532: command %#02x: %w", cmd, err)
		case kind == kindError:
			return nil, fmt.Errorf("pn532: command %#02x: %w", cmd, ErrSyntax)
		case kind != kindInfo:
			return nil, fmt.Errorf("pn532: command %#02x: %w: ACK/NACK where a response was due", cmd, ErrFrame)
		case p[0] != cmd+1:
			return nil, fmt.Errorf("pn532: command %#02x: %w %#02x", cmd, ErrUnexpCode, p[0])
		}
		return p, nil
	}
}

// send writes the frame and reads the ACK.
func (d *Dev) send(frame []byte) error {
	if err := d.c.Tx(frame, nil); err != nil {
		return fmt.Errorf("pn532: write: %w", err)
	}
	if err := d.waitReady(); err != nil {
		return err
	}
	r := d.buf[:1+len(ackFrame)]
	if err := d.c.Tx(nil, r); err != nil {
		return fmt.Errorf("pn532: read ACK: %w", err)
	}
	kind, _, err := DecodeFrame(r[1:])
	switch {
	case err != nil:
		return fmt.Errorf("pn532: ACK: %w", err)
	case kind == kindNACK:
		return ErrNACK
	case kind != kindACK:
		return fmt.Errorf("%w: expected ACK, got % X", ErrFrame, r[1:])
	}
	return nil
}

// read waits for the ready bit and reads one response of the fixed length.
func (d *Dev) read() (frameKind, []byte, error) {
	if err := d.waitReady(); err != nil {
		return 0, nil, err
	}
	if err := d.c.Tx(nil, d.buf); err != nil {
		return 0, nil, fmt.Errorf("pn532: read: %w", err)
	}
	if d.buf[0]&1 == 0 {
		return 0, nil, ErrNotReady
	}
	return DecodeFrame(d.buf[1:])
}

// waitReady polls the I2C status byte (§6.2.4: bit 0 set when a frame is ready).
func (d *Dev) waitReady() error {
	s := d.buf[:1]
	for i := 0; i < d.opts.ReadyPolls; i++ {
		if i > 0 && d.opts.PollInterval > 0 {
			_, wait := d.opts.Clock.NewTimer(d.opts.PollInterval)
			<-wait
		}
		if err := d.c.Tx(nil, s); err != nil {
			return fmt.Errorf("pn532: status: %w", err)
		}
		if s[0]&1 != 0 {
			return nil
		}
	}
	return fmt.Errorf("%w after %d polls", ErrNotReady, d.opts.ReadyPolls)
}
