// Package eventtest holds the whole-event tests and the desk's benchmark: a three-node NATS
// cluster on loopback, the desk, simulated tables (tournament/simtable: engine games,
// journaled, through the daemon's own tournament/table code) and the seat view's score sheet
// signed in headless Chromium. It has no code of its own.
package eventtest
