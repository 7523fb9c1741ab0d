//go:build !race

package game

// raceEnabled is true under -race, where the random games run six to ten times slower.
const raceEnabled = false
