package simtable

import (
	"fmt"
	"math/rand/v2"

	"github.com/siamesetable/siamesed/hw/config"
	"github.com/siamesetable/siamesed/hw/simhw"
)

// spiReader is an emulated MFRC522 on its SPI port.
type spiReader struct {
	chip *simhw.MFRC522
}

// addMFRC522 makes the MFRC522 of one reader with its reset and IRQ pins. Its antenna reaches
// every tile of its slot (one large-antenna reader per zone on the MFRC522 profile).
func (t *Table) addMFRC522(rng *rand.Rand, rackName string, sl *slotState, rd config.Reader) error {
	if _, dup := t.spis[rd.SPI]; dup {
		return fmt.Errorf("simtable: SPI port %s wired to two readers", rd.SPI)
	}
	fr := rand.New(rand.NewPCG(rng.Uint64(), 0x522))
	sl.mfrc = simhw.NewMFRC522(rackName+"/"+sl.name, t.log, t.field(sl, fr))
	t.spis[rd.SPI] = &spiReader{chip: sl.mfrc}
	if err := t.addPin(rd.Reset, rackName+"/"+sl.name+" NRSTPD", sl.mfrc.Reset); err != nil {
		return err
	}
	return t.addPin(rd.IRQ, rackName+"/"+sl.name+" IRQ", sl.mfrc.IRQ)
}
