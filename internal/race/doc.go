// Package race says whether the race detector is built in, as the standard library's
// internal/race does: tests that replay many random games run a share of them under -race,
// where they are many times slower, and their full counts in a run without it
// (scripts/test.sh runs both).
package race
