// Package history keeps the finished games of a table and adds them up: sessions, cumulative
// scores, Royale pots (royale rule 16) and the end-of-day tally, in DATA/history.db.
//
// The database is bbolt, not SQLite: it is pure Go (the daemon cross-compiles for the Pi with
// no C toolchain), one file, and crash-safe by design (copy-on-write pages, two meta pages, an
// fsync per commit, so a power cut leaves the last committed state). What the history needs is
// a few keyed lookups and ordered scans (a game by id; games by finish time, session or day),
// which bbolt's sorted buckets give directly, with no SQL, schema migrations or query planner
// to carry. Records are JSON with a version, so a field can be added without a migration.
//
// bbolt locks its file: one writer (the daemon) or many readers (`siamesed history`). The
// daemon opens the history only to record a finished game (a few milliseconds), so the
// command can read it while the daemon runs; a reader that meets the lock waits at most
// Options.Timeout and then says who holds it, rather than hanging.
package history
