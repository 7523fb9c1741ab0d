package classify

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Protocol buffer wire types (https://protobuf.dev/programming-guides/encoding/).
const (
	wireVarint  = 0
	wireFixed64 = 1
	wireBytes   = 2
	wireFixed32 = 5
)

var errTruncated = errors.New("truncated")

// fields walks the fields of one protobuf message. For a varint field fn gets its value, for a
// length-delimited one its bytes, for fixed-width ones the raw bytes. Any field running past the
// end, an unknown wire type or a field number 0 is an error.
func fields(b []byte, fn func(num, wt int, v uint64, p []byte) error) error {
	for len(b) > 0 {
		key, n := binary.Uvarint(b)
		if n <= 0 {
			return errTruncated
		}
		b = b[n:]
		num, wt := key>>3, int(key&7)
		if num == 0 || num > 1<<29-1 {
			return fmt.Errorf("field number %d", num)
		}
		var v uint64
		var p []byte
		switch wt {
		case wireVarint:
			if v, n = binary.Uvarint(b); n <= 0 {
				return errTruncated
			}
			b = b[n:]
		case wireFixed64, wireFixed32:
			size := 8
			if wt == wireFixed32 {
				size = 4
			}
			if len(b) < size {
				return errTruncated
			}
			p, b = b[:size], b[size:]
		case wireBytes:
			l, n := binary.Uvarint(b)
			if n <= 0 || l > uint64(len(b)-n) {
				return fmt.Errorf("field %d: %w", num, errTruncated)
			}
			p, b = b[n:n+int(l)], b[n+int(l):]
		default:
			return fmt.Errorf("field %d: wire type %d", num, wt)
		}
		if err := fn(int(num), wt, v, p); err != nil {
			return fmt.Errorf("field %d: %w", num, err)
		}
	}
	return nil
}

// varints calls fn with each varint of a packed repeated field.
func varints(b []byte, fn func(uint64)) error {
	for len(b) > 0 {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			return errTruncated
		}
		fn(v)
		b = b[n:]
	}
	return nil
}
