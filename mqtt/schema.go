package mqtt

import (
	"fmt"
	"strconv"
)

// Schema is the version of the table's MQTT contract (docs/mqtt.md): every JSON payload says
// it ("schema": 1). A change that renames, removes or changes the meaning of a field raises
// it; new fields do not.
const Schema = 1

// SchemaVersion is a payload's schema field: it always encodes as Schema, so no payload can be
// sent without it, and reading refuses a newer one, naming it.
type SchemaVersion struct{}

// MarshalJSON writes Schema.
func (SchemaVersion) MarshalJSON() ([]byte, error) { return []byte(strconv.Itoa(Schema)), nil }

// UnmarshalJSON accepts the schemas this siamesed reads (1 to Schema).
func (*SchemaVersion) UnmarshalJSON(b []byte) error {
	v, err := strconv.Atoi(string(b))
	switch {
	case err != nil:
		return fmt.Errorf("schema %s is not a number", b)
	case v > Schema:
		return fmt.Errorf("schema %d is newer than this siamesed reads (%d): update siamesed", v, Schema)
	case v < 1:
		return fmt.Errorf("schema %d: the first is 1", v)
	}
	return nil
}
