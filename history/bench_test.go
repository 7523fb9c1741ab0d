package history

import (
	"fmt"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// fill records n games in one transaction: 10 a night, sessions named by their night.
func fill(b *testing.B, db *DB, n int) {
	b.Helper()
	err := db.update(func(tx *bolt.Tx) error {
		for i := range n {
			fin := at(19, 0).Add(time.Duration(i/10)*24*time.Hour + time.Duration(i%10)*20*time.Minute)
			g := rec(fmt.Sprintf("g%05d", i), DefaultSession(fin), fin, four, 30, -10, -10, -10)
			val, err := encodeGame(g)
			if err != nil {
				return err
			}
			if _, err := record(tx, g, val); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
}

// BenchmarkRecord is recording one game (one fsync'd commit) into a history of 10,000.
func BenchmarkRecord(b *testing.B) {
	db := newDB(b)
	fill(b, db, 10000)
	i := 0
	for b.Loop() {
		fin := at(19, 0).Add(-time.Duration(i) * time.Minute)
		if _, err := db.Record(rec(fmt.Sprintf("new%06d", i), "bench", fin, four, 1, 2, 3, -6)); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkTally is one night's tally (10 games) in a history of 10,000.
func BenchmarkTally(b *testing.B) {
	db := newDB(b)
	fill(b, db, 10000)
	if err := db.SetPot("2027-02-01", Pot{Cents: 2000}); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		t, err := db.Tally("2027-02-01")
		if err != nil || len(t.Games) != 10 || t.Shares == nil {
			b.Fatalf("%d games, %v", len(t.Games), err)
		}
	}
}

// BenchmarkTallyAll is the worst case: one session of 10,000 games, every record read.
func BenchmarkTallyAll(b *testing.B) {
	db := newDB(b)
	err := db.update(func(tx *bolt.Tx) error {
		for i := range 10000 {
			g := rec(fmt.Sprintf("g%05d", i), "marathon", at(19, 0).Add(time.Duration(i)*time.Minute), four, 30, -10, -10, -10)
			val, err := encodeGame(g)
			if err == nil {
				_, err = record(tx, g, val)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		t, err := db.Tally("marathon")
		if err != nil || len(t.Games) != 10000 || t.Seats[0].Total != 300000 {
			b.Fatalf("%d games, %v", len(t.Games), err)
		}
	}
}
