//go:build !race

package card

// raceEnabled is true under -race, where everything runs ten to twenty times slower.
const raceEnabled = false
