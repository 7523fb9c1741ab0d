package pn532_test

import (
	"fmt"

	"github.com/siamesetable/siamesed/hw/pn532"
)

func ExampleEncodeFrame() {
	// InListPassiveTarget (0x4A), one target, 106 kbps type A.
	fmt.Printf("% X\n", pn532.EncodeFrame(0x4A, 0x01, 0x00))
	fmt.Println(pn532.FormatUID([]byte{0x04, 0xa1, 0x2b, 0x3c}))
	// Output:
	// 00 00 FF 04 FC D4 4A 01 00 E1 00
	// 04:A1:2B:3C
}
