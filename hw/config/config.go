// Package config reads hardware profiles (configs/hw/*.yaml): which buses, addresses, pins and
// slots each rack uses. Nothing about the wiring is hard-coded elsewhere. Load lists every
// problem at once, each naming its field.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/siamesetable/siamesed/internal/userfile"

	"github.com/siamesetable/siamesed/internal/yamlline"

	"github.com/siamesetable/siamesed/hw/rack"
	"gopkg.in/yaml.v3"
)

// Kinds of profile.
const (
	KindPN532    = "pn532"    // PN532 readers over I2C through PCA9548 multiplexers
	KindMFRC522  = "mfrc522"  // MFRC522 readers over SPI
	KindLoadCell = "loadcell" // HX711 load cells only: tile counts, no faces
	KindSim      = "sim"      // simulated racks above the drivers (hw/sim): the fast path
)

// Profile is one hardware profile.
type Profile struct {
	Kind string `yaml:"kind"`
	// Simulated runs a pn532, mfrc522 or loadcell profile on emulated chips (hw/simtable) instead
	// of the Pi's buses and pins: the real drivers, a simulated table.
	Simulated   bool          `yaml:"simulated"`
	I2CBus      string        `yaml:"i2c_bus"` // periph i2creg name, e.g. "1" for /dev/i2c-1
	I2CSpeedHz  int           `yaml:"i2c_speed_hz"`
	Settle      time.Duration `yaml:"settle"`
	Period      time.Duration `yaml:"period"`
	Enrolment   string        `yaml:"enrolment"`   // UID -> face file (in the data directory unless absolute)
	Calibration string        `yaml:"calibration"` // load cell calibration file (in the data directory unless absolute)
	TileGrams   float64       `yaml:"tile_grams"`
	Racks       []Rack        `yaml:"racks"`
}

// Rack is one physical rack.
type Rack struct {
	Name    string   `yaml:"name"`
	I2CBus  string   `yaml:"i2c_bus"` // overrides the profile's bus
	Readers []Reader `yaml:"readers"`
	Cells   []Cell   `yaml:"cells"`
}

// Reader is a group of identical readers of one zone: PN532s on Ports of the PCA9548 at Mux, or
// one MFRC522 on an SPI port with its reset and IRQ pins.
type Reader struct {
	Zone  rack.Zone `yaml:"zone"`
	Mux   uint16    `yaml:"mux"`
	Ports []int     `yaml:"ports"`
	Addr  uint16    `yaml:"addr"` // PN532 address, default 0x24
	SPI   string    `yaml:"spi"`
	Reset string    `yaml:"reset"`
	IRQ   string    `yaml:"irq"`
}

// Cell is the HX711 under one zone.
type Cell struct {
	Zone rack.Zone `yaml:"zone"`
	Clk  string    `yaml:"clk"`
	Data string    `yaml:"data"`
}

// Sane ranges for the timing fields: a scan every 10 ms at the fastest (faster is a busy loop on
// the bus) to every 5 s; a settle of 100 ms (a tile still in the hand) to 30 s.
const (
	MinPeriod = 10 * time.Millisecond
	MaxPeriod = 5 * time.Second
	MinSettle = 100 * time.Millisecond
	MaxSettle = 30 * time.Second
)

// MaxFileBytes bounds a profile or calibration file (ours are a few kilobytes).
const MaxFileBytes = 1 << 20

// Load reads and validates a profile file.
func Load(path string) (*Profile, error) {
	b, err := userfile.ReadFile(path, "a hardware profile", MaxFileBytes)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	p, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("config: %s: %w", path, err)
	}
	return p, nil
}

// Parse decodes a profile, fills defaults and validates it, returning every problem at once.
func Parse(b []byte) (*Profile, error) {
	var p Profile
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, errors.New("config: the profile is empty: want kind (pn532, mfrc522, loadcell or sim) and racks, as in configs/hw/*.yaml")
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&p); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("config: the profile holds only comments: want kind and racks, as in configs/hw/*.yaml")
		}
		return nil, fmt.Errorf("config: %w", yamlline.Explain(b, err))
	}
	p.fill()
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &p, nil
}

func (p *Profile) fill() {
	if p.Settle == 0 {
		p.Settle = rack.DefaultSettle
	}
	if p.Period == 0 {
		p.Period = rack.DefaultPeriod
	}
	if p.I2CSpeedHz == 0 {
		p.I2CSpeedHz = 100_000
	}
	if p.TileGrams == 0 {
		p.TileGrams = 14
	}
	for i := range p.Racks {
		if p.Racks[i].I2CBus == "" {
			p.Racks[i].I2CBus = p.I2CBus
		}
		for j := range p.Racks[i].Readers {
			if p.Racks[i].Readers[j].Addr == 0 {
				p.Racks[i].Readers[j].Addr = 0x24
			}
		}
	}
}

// Validate lists every problem in the profile.
func (p *Profile) Validate() error {
	var errs []error
	bad := func(field, format string, a ...any) {
		errs = append(errs, fmt.Errorf("config: %s: %s", field, fmt.Sprintf(format, a...)))
	}
	switch p.Kind {
	case KindPN532, KindMFRC522, KindLoadCell, KindSim:
	default:
		bad("kind", "%q is not pn532, mfrc522, loadcell or sim", p.Kind)
	}
	if p.Simulated && p.Kind == KindSim {
		bad("simulated", "kind sim is simulated already, above the drivers; simulated: true is for pn532, mfrc522 and loadcell profiles")
	}
	inRange := func(field string, d, lo, hi time.Duration, why string) {
		if d < lo || d > hi {
			bad(field, "%v is outside %v to %v (%s)", d, lo, hi, why)
		}
	}
	inRange("settle", p.Settle, MinSettle, MaxSettle, "how long a rack must stay unchanged before it counts")
	inRange("period", p.Period, MinPeriod, MaxPeriod, "how often every reader is scanned")
	if p.Period > p.Settle && p.Settle >= MinSettle {
		bad("period", "%v is longer than settle (%v): a rack could never be seen to settle", p.Period, p.Settle)
	}
	if p.TileGrams < 1 || p.TileGrams > 100 {
		bad("tile_grams", "%g is outside 1 to 100 grams (one tile's weight)", p.TileGrams)
	}
	if p.I2CSpeedHz < 10_000 || p.I2CSpeedHz > 1_000_000 {
		bad("i2c_speed_hz", "%d is outside 10000 to 1000000", p.I2CSpeedHz)
	}
	if len(p.Racks) == 0 {
		bad("racks", "no racks")
	}
	names := map[string]bool{}
	pins := map[string]string{}  // pin -> first user, to catch a pin wired twice
	ports := map[string]string{} // bus/mux/port -> first rack, to catch two racks on one channel
	usePin := func(pin, user string) {
		if pin == "" {
			return
		}
		if first, ok := pins[pin]; ok {
			bad(user, "pin %s already used by %s", pin, first)
			return
		}
		pins[pin] = user
	}
	for i, r := range p.Racks {
		at := fmt.Sprintf("racks[%d]", i)
		if r.Name == "" {
			bad(at+".name", "missing")
		} else if names[r.Name] {
			bad(at+".name", "%q used twice", r.Name)
		}
		names[r.Name] = true
		if p.Kind == KindLoadCell && len(r.Readers) > 0 {
			bad(at+".readers", "a loadcell profile has no readers")
		}
		if (p.Kind == KindPN532 || p.Kind == KindMFRC522) && len(r.Readers) == 0 {
			bad(at+".readers", "none for a %s profile", p.Kind)
		}
		used := map[[2]int]bool{}
		for j, rd := range r.Readers {
			rat := fmt.Sprintf("%s.readers[%d]", at, j)
			if !rd.Zone.Valid() {
				bad(rat+".zone", "%q is not in or on", rd.Zone)
			}
			switch p.Kind {
			case KindPN532:
				if rd.Mux < 0x70 || rd.Mux > 0x77 {
					bad(rat+".mux", "%#x is outside the PCA9548 range 0x70-0x77", rd.Mux)
				}
				if len(rd.Ports) == 0 {
					bad(rat+".ports", "none")
				}
				for _, port := range rd.Ports {
					if port < 0 || port > 7 {
						bad(rat+".ports", "port %d is not 0-7", port)
					} else if used[[2]int{int(rd.Mux), port}] {
						bad(rat+".ports", "mux %#x port %d used twice", rd.Mux, port)
					} else if first, ok := ports[fmt.Sprintf("%s/%x/%d", r.I2CBus, rd.Mux, port)]; ok {
						bad(rat+".ports", "mux %#x port %d of I2C bus %q is rack %s's already", rd.Mux, port, r.I2CBus, first)
					}
					used[[2]int{int(rd.Mux), port}] = true
					ports[fmt.Sprintf("%s/%x/%d", r.I2CBus, rd.Mux, port)] = r.Name
				}
			case KindMFRC522:
				usePin(rd.Reset, rat+".reset")
				usePin(rd.IRQ, rat+".irq")
				if rd.SPI == "" || rd.Reset == "" || rd.IRQ == "" {
					bad(rat, "an MFRC522 needs spi, reset and irq (periph's driver waits on IRQ for a card)")
				}
			}
		}
		zones := map[rack.Zone]bool{}
		for j, c := range r.Cells {
			cat := fmt.Sprintf("%s.cells[%d]", at, j)
			if !c.Zone.Valid() {
				bad(cat+".zone", "%q is not in or on", c.Zone)
			} else if zones[c.Zone] {
				bad(cat+".zone", "zone %s has two cells", c.Zone)
			}
			zones[c.Zone] = true
			usePin(c.Clk, cat+".clk")
			usePin(c.Data, cat+".data")
			if p.Kind != KindSim && (c.Clk == "" || c.Data == "") {
				bad(cat, "an HX711 needs clk and data pins")
			}
		}
		if p.Kind == KindLoadCell && len(r.Cells) == 0 {
			bad(at+".cells", "a loadcell profile needs cells")
		}
	}
	return errors.Join(errs...)
}

// Slots returns the number of reader slots of a rack.
func (r *Rack) Slots() int {
	n := 0
	for _, rd := range r.Readers {
		if len(rd.Ports) == 0 {
			n++
		}
		n += len(rd.Ports)
	}
	return n
}
