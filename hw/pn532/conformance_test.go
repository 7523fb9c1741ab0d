package pn532

import (
	"bytes"
	"slices"
	"testing"

	"github.com/siamesetable/siamesed/hw/simhw"
	"periph.io/x/conn/v3/i2c/i2ctest"
)

// TestEmulatorAnswersTheRecordings replays this package's recorded traffic against hw/simhw's
// PN532: every recorded write goes to the emulator, and every recorded read must come back byte
// for byte. The driver's tests and the simulated table then agree on what the chip says.
//
// Not replayed: recordings of answers a PN532 never gives (a NACK frame from the chip,
// §6.2.1.4 has NACKs go host to chip only; a response with a bad checksum, which only a
// disturbed bus produces).
func TestEmulatorAnswersTheRecordings(t *testing.T) {
	mifare := simhw.Tag{UID: []byte{0xDE, 0xAD, 0xBE, 0xEF}, SensRes: 0x0004, SelRes: 0x08}
	ntagA := simhw.Tag{UID: []byte{0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66}, SensRes: 0x0044}
	ntagB := simhw.Tag{UID: []byte{0x04, 0x77, 0x88, 0x99, 0xAA, 0xBB, 0xCC}, SensRes: 0x0044}
	initOps := slices.Concat(exchange(getFirmware, firmwareResp), exchange(samConfig, samResp), exchange(rfConfig, rfResp))
	figure := make([]byte, 1+48)
	figure[0] = 1
	copy(figure[1:], listTag)
	for _, tc := range []struct {
		name  string
		tags  []simhw.Tag
		setup []i2ctest.IO // replayed with the chip answering at once
		busy  int          // status polls before each response after setup
		ops   []i2ctest.IO
	}{
		{"init", nil, nil, 0, initOps},
		{"no tag", nil, initOps, 0, exchange(listOne, listNone)},
		{"one tag", []simhw.Tag{mifare}, initOps, 0, exchange(listOne, listTag)},
		{"two tags", []simhw.Tag{ntagA, ntagB}, initOps, 0, exchange(listTwo, listTags2)},
		{"response resent on NACK", []simhw.Tag{mifare}, initOps, 0, []i2ctest.IO{
			write(listOne), status(true), readAck(), status(true), readResp(listTag),
			write(nackFrame), status(true), readResp(listTag)}},
		{"response after busy polls", []simhw.Tag{mifare}, initOps, 3, []i2ctest.IO{
			write(listOne), status(true), readAck(), status(false), status(false), status(false), status(true), readResp(listTag)}},
		// TestSilentReader's recording: with no RFConfiguration, MxRtyPassiveActivation stays FF
		// and an empty field is never answered.
		{"silent with retries for ever", nil, slices.Concat(exchange(getFirmware, firmwareResp), exchange(samConfig, samResp)), 0,
			[]i2ctest.IO{write(listOne), status(true), readAck(), status(false), status(false), status(false)}},
		// TestFigureRackScanTime's read of the driver's default length.
		{"default read length", []simhw.Tag{mifare}, initOps, 0, []i2ctest.IO{
			write(listOne), status(true), readAck(), status(true), {Addr: addr, R: figure}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			log := &simhw.Log{}
			bus := simhw.NewBus("conformance", log)
			chip := simhw.NewPN532("pn532", addr, log, func(dst []simhw.Tag) []simhw.Tag { return append(dst, tc.tags...) })
			bus.Attach(chip)
			replay := func(ops []i2ctest.IO) {
				t.Helper()
				for i, op := range ops {
					got := make([]byte, len(op.R))
					if err := bus.Tx(op.Addr, op.W, got); err != nil {
						t.Fatalf("op %d: %v", i, err)
					}
					if !bytes.Equal(got, op.R) {
						t.Fatalf("op %d: read\n% X, recorded\n% X", i, got, op.R)
					}
				}
			}
			replay(tc.setup)
			chip.Busy = tc.busy
			replay(tc.ops)
			if err := log.Err(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestDriverOnEmulator runs the driver itself against the emulator through a PCA9548A: Init,
// then tags placed and taken.
func TestDriverOnEmulator(t *testing.T) {
	log := &simhw.Log{}
	bus := simhw.NewBus("driver", log)
	var field []simhw.Tag
	chip := simhw.NewPN532("pn532", addr, log, func(dst []simhw.Tag) []simhw.Tag { return append(dst, field...) })
	chip.Busy = 2
	bus.Attach(chip)
	d, err := NewI2C(bus, addr, &Opts{NoWait: true})
	if err != nil {
		t.Fatal(err)
	}
	fw, err := d.Init()
	if err != nil || fw.String() != "PN532 v1.6" {
		t.Fatalf("Init: %v, %v", fw, err)
	}
	for _, tc := range []struct {
		field []simhw.Tag
		want  []string
	}{
		{nil, nil},
		{[]simhw.Tag{simhw.NTAG213([7]byte{0, 1, 2, 3, 4, 5, 6})}, []string{"04:01:02:03:04:05:06"}},
		{[]simhw.Tag{simhw.Phone([3]byte{9, 9, 9}), simhw.NTAG213([7]byte{0, 1, 2, 3, 4, 5, 6})}, []string{"08:09:09:09", "04:01:02:03:04:05:06"}},
	} {
		field = tc.field
		ts, err := d.Targets(2)
		if err != nil || len(ts) != len(tc.want) {
			t.Fatalf("field %v: %v, %v", tc.field, ts, err)
		}
		for i, tg := range ts {
			if tg.UIDString() != tc.want[i] || tg.UIDString() != simhw.UIDString(tc.field[i].UID) {
				t.Fatalf("target %d: %s, want %s", i, tg.UIDString(), tc.want[i])
			}
		}
	}
	if err := log.Err(); err != nil {
		t.Fatal(err)
	}
}
