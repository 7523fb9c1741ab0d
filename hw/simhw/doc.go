// Package simhw emulates the chips under a smart rack on periph's interfaces: an I2C bus with
// PCA9548A multiplexers and PN532 readers (i2c.Bus), an HX711 load-cell amplifier (two gpio.PinIO
// pins, bit by bit) and an MFRC522 reader (spi.Port with its IRQ pin). The real drivers in hw/
// talk to these emulators exactly as they talk to the chips, so the simulated table runs the
// same code as a real one.
//
// Each emulator follows its data sheet and answers only what the chip would answer. What a
// correct host never does (a frame with a bad checksum, an unknown command, two devices answering
// one address) is recorded as a protocol violation in a Log, and the emulator then reacts as the
// chip would (no ACK, a syntax error frame, garbled bits), so a driver bug shows up as a fault and
// as a violation a test can check, never as a reading that happens to work.
//
// The emulators know nothing of tiles: what is in a reader's field, what a load cell weighs and
// which transaction fails are callbacks, supplied by hw/simtable.
//
// Time is compressed: a chip is ready as soon as the host could tell (after Busy status polls
// for a PN532, at once for an HX711), so thousands of games run in seconds.
package simhw
